"""Fixtures for every test folder: each test's own environment and data home, the classic16
profile and a ``judge`` that builds its positions from notation (``support.positions``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from pdk.engine.profile import Profile
from pdk.variants.registry import load_profile
from tests.support.positions import Judge

# A suite started in the background of a shell (``pytest &``, nohup) inherits Ctrl-C as
# ignored, and so would every ``pdk`` it spawns: the tests that press Ctrl-C in a terminal
# would then wait for a reaction that cannot come. A handler here is reset to the default
# at each ``exec``, so the children hear Ctrl-C as a person's terminal delivers it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def own_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every ``pdk`` the tests start, in this process or as a child, keeps its default data
    (saves, history, engine logs) under this session's temporary directory rather than the
    user's ``~/.local/share/pdk``: the suite runs in parallel workers (pytest-xdist), and two
    workers (or a tester's own games) must never share a save or a history file. Tests
    that need a data directory of their own still pass ``--save-dir``/``PDK_DATA_DIR``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
        yield


@pytest.fixture(autouse=True)
def same_environment() -> Iterator[None]:
    """Each test ends with the environment it began with. ``run_pdk`` runs ``pdk`` inside
    this process, and some commands set variables for their own children (``pdk engine``
    its log folder, ``pdk serve`` its workers' settings); left behind, they would reach the
    ``pdk`` a later test starts (wider columns, logs elsewhere), so a test's result would
    depend on which tests ran before it in the same worker."""
    saved = dict(os.environ)
    yield
    for key in set(os.environ) - set(saved) - {"PYTEST_CURRENT_TEST"}:
        del os.environ[key]
    for key, value in saved.items():
        if os.environ.get(key) != value and key != "PYTEST_CURRENT_TEST":
            os.environ[key] = value


@pytest.fixture(scope="session")
def classic() -> Profile:
    return load_profile()


@pytest.fixture(scope="session")
def judge(classic: Profile) -> Judge:
    return Judge(classic)
