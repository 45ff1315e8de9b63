"""Rooms: several people and computers at one table, by invite link, with seats, spectators and presence."""
