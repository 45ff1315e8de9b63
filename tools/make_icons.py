"""Draw the page's home-screen icons (pdk/web/static/icon-192.png, icon-512.png) with the
standard library only, so that they are ours and can be redrawn: two cards on the felt,
the front one a spade, the same picture as the hand-written icon.svg.

    python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "pdk" / "web" / "static"
FELT = (13, 92, 63)
GOLD = (242, 193, 78)
WHITE = (253, 250, 240)
INK = (25, 25, 25)
SHADE = (8, 64, 44)


def _in_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _in_spade(x: float, y: float) -> bool:
    """A spade in the unit square: two lobes, a point on top, a stem."""
    lobes = (x - 0.32) ** 2 + (y - 0.58) ** 2 <= 0.18**2 or (x - 0.68) ** 2 + (y - 0.58) ** 2 <= 0.18**2
    top = 0.1 <= y <= 0.62 and abs(x - 0.5) <= (y - 0.1) * 0.72
    stem = 0.6 <= y <= 0.95 and abs(x - 0.5) <= 0.04 + (y - 0.6) * 0.35
    return lobes or top or stem


def colour(u: float, v: float) -> tuple[int, int, int]:
    """The icon's colour at (u, v) in [0, 1)²."""
    if _in_round_rect(u, v, 0.22, 0.28, 0.64, 0.88, 0.05):  # the front card, a spade on it
        if _in_round_rect(u, v, 0.235, 0.295, 0.625, 0.865, 0.04):
            sx, sy = (u - 0.29) / 0.28, (v - 0.42) / 0.34
            if 0 <= sx <= 1 and 0 <= sy <= 1 and _in_spade(sx, sy):
                return INK
            return WHITE
        return SHADE
    if _in_round_rect(u, v, 0.40, 0.16, 0.80, 0.74, 0.05):  # the back card behind it, gold
        if _in_round_rect(u, v, 0.42, 0.18, 0.78, 0.72, 0.04):
            return GOLD
        return WHITE
    return FELT


def png(size: int, samples: int = 3) -> bytes:
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            acc = [0, 0, 0]
            for i in range(samples):
                for j in range(samples):
                    c = colour((x + (i + 0.5) / samples) / size, (y + (j + 0.5) / samples) / size)
                    for k in range(3):
                        acc[k] += c[k]
            row += bytes(round(a / samples**2) for a in acc)
        rows.append(bytes(row))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        path = STATIC / f"icon-{size}.png"
        path.write_bytes(png(size))
        print(path)
