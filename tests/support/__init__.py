"""What the tests share and are not tests themselves: ``cli`` (running ``pdk``), ``positions``
(positions and deals written in card notation), ``tooling`` (Chromium, waiting, serving an app
in a thread), ``serving`` (a real ``pdk serve`` process), ``pg_cluster`` (a throw-away
PostgreSQL), and ``engines/`` (an outside engine that breaks the protocol on purpose).

The test folders mirror pdk's packages; every folder is a package, so two folders may each
hold a ``test_review.py``. The scripts in ``benchmarks/`` import from here too, with the
repository's root on their path.
"""

from __future__ import annotations

from pathlib import Path

# The repository's root: the shipped examples, replays and docs the tests read.
ROOT = Path(__file__).resolve().parents[2]
