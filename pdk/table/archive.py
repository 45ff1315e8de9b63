"""A finished deal kept: its game record on disk and its row in the history.

The table service (``pdk.table.service.Archive``) keeps every finished deal this way, for
both faces, before the save that marks the deal settled: the record, then the history
row. Their path and id are fixed by the deal, so writing them again after a failure (a
full disk, a locked database: the deal is then not settled, and its last move is not
applied) writes the same file and counts the deal once.
"""

from __future__ import annotations

from pathlib import Path

from pdk.engine.settlement import Settlement
from pdk.records.disk import dump
from pdk.table.history import DealRow, History
from pdk.table.session import HUMAN, Session


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
    """Each person's result, in the history that ``pdk stats`` reads: ``pdk play``'s one
    seat as this machine's player; at a table for friends, a row per seat a person plays,
    under that person's id and name (the row id names the seat, so a deal is counted once
    per person)."""
    if not session.persons:
        history.add(_row(session, settlement, path, HUMAN, session.deal_id))
        return
    for seat in session.humans:
        if session.persons[seat]:
            history.add(
                _row(
                    session,
                    settlement,
                    path,
                    seat,
                    f"{session.deal_id}-s{seat}",
                    session.persons[seat],
                    session.names[seat] if session.names else "",
                )
            )


def _row(
    session: Session,
    settlement: Settlement,
    path: Path,
    seat: int,
    row_id: str,
    person: str = "",
    name: str = "",
) -> DealRow:
    result = settlement.seats[seat]
    return DealRow(
        id=row_id,
        difficulty=session.difficulty,
        variant=session.profile.name,
        seed=session.seed,
        won=settlement.winner == seat,
        score=result.total,
        cards_left=result.cards_left,
        record_path=str(path),
        person=person,
        name=name,
    )


def archive_deal(session: Session, settlement: Settlement, records: Path, history: History) -> Path:
    """The record, then the history row (the row names the record's path)."""
    path = write_record(session, records)
    add_to_history(session, settlement, history, path)
    return path
