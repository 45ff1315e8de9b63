"""The rooms a store holds, as its operator sees them (``pdk serve rooms``).

What a host's server keeps is read from the store itself, not from a running server, so it
works on a stopped server's store and on one that several workers share. A room's line
says what is public about it (its id, phase, variant, who sits where, when it was last
saved); never a seat's key or the watch key, which are the seats themselves. Closing a
room is the host's own close (``Room.close``), made through the store with the version
check, so a server holding the room hears the change (``pdk.store.changes``) and shows it
closed; its deals stay kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from pdk.rooms.room import RoomInfo, Rooms
from pdk.store.contract import Store
from pdk.table.session import HUMAN


@dataclass(frozen=True)
class SeatLine:
    seat: int
    name: str  # "" while nobody took it (a bot plays it)
    taken: bool


@dataclass(frozen=True)
class RoomLine:
    id: str
    phase: str  # waiting, playing, closed; "unreadable" for a save no version reads
    variant: str
    seats: tuple[SeatLine, ...]
    last_activity: float | None  # Unix time of the last save of the room or its table

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "phase": self.phase,
            "variant": self.variant,
            "seats": [{"seat": s.seat, "name": s.name, "taken": s.taken} for s in self.seats],
            "last_activity": self.last_activity,
        }


def stored_rooms(store: Store) -> list[RoomLine]:
    """Every room in ``store``, the most recently active first."""
    stored_keys = store.keys()
    ids = [k.removeprefix("rm-") for k in stored_keys if k.startswith("rm-")]
    saved = store.saved_at([f"{kind}-{rid}" for rid in ids for kind in ("rm", "rt")])
    lines = []
    for rid in ids:
        times = [t for t in (saved.get(f"rm-{rid}"), saved.get(f"rt-{rid}")) if t is not None]
        at = max(times) if times else None
        stored = store.load(f"rm-{rid}")
        if stored is None:  # deleted meanwhile
            continue
        try:
            info = RoomInfo.from_json(stored.data)
        except (ValueError, KeyError, TypeError):
            lines.append(RoomLine(rid, "unreadable", "", (), at))
            continue
        seats = tuple(SeatLine(i, s.name, s.taken) for i, s in enumerate(info.seats))
        lines.append(RoomLine(rid, info.phase, info.variant, seats, at))
    return sorted(lines, key=lambda line: -(line.last_activity or 0.0))


def close_room(rooms: Rooms, room_id: str) -> bool:
    """Close the room ``room_id`` as its host would; False if it was closed already.
    ``RoomRefused(NO_ROOM)`` if the store has no such room (``Rooms.get``)."""
    room = rooms.get(room_id)
    if room.info.phase == "closed":
        return False
    room.close(room.info.seats[HUMAN].key)
    return True


__all__ = ["RoomLine", "SeatLine", "close_room", "stored_rooms"]
