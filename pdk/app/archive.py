"""A finished deal kept: its game record on disk and its row in the history.

The table service (``pdk.app.service.Archive``) keeps every finished deal this way, for
both faces, before the save that marks the deal settled: the record, then the history
row. Their path and id are fixed by the deal, so writing them again after a failure (a
full disk, a locked database: the deal is then not settled, and its last move is not
applied) writes the same file and counts the deal once.
"""

from __future__ import annotations

from pathlib import Path

from pdk.app.files import dump
from pdk.app.history import DealRow, History
from pdk.app.session import HUMAN, Session
from pdk.engine.settlement import Settlement


def record_path(session: Session, records: Path) -> Path:
    """Where the session's current deal is recorded."""
    return records / f"{session.id}-{session.deal_no:03d}.json"


def write_record(session: Session, records: Path) -> Path:
    """Write the current deal's record (atomically); its path."""
    path = record_path(session, records)
    path.parent.mkdir(parents=True, exist_ok=True)
    dump(session.record(), path)
    return path


def add_to_history(session: Session, settlement: Settlement, history: History, path: Path) -> None:
    """The human seat's result, in the history that ``pdk stats`` reads."""
    seat = settlement.seats[HUMAN]
    history.add(
        DealRow(
            id=session.deal_id,
            difficulty=session.difficulty,
            variant=session.profile.name,
            seed=session.seed,
            won=settlement.winner == HUMAN,
            score=seat.total,
            cards_left=seat.cards_left,
            record_path=str(path),
        )
    )


def archive_deal(session: Session, settlement: Settlement, records: Path, history: History) -> Path:
    """The record, then the history row (the row names the record's path)."""
    path = write_record(session, records)
    add_to_history(session, settlement, history, path)
    return path
