"""``pdk serve``: the browser table, served by pdk itself (FastAPI on uvicorn).

The page opens straight into a deal against two bots; each browser's game is kept by
``pdk.app.tables`` in ``pdk play``'s save format, under the same data directory, so its
finished deals show up in ``pdk stats`` and open in ``pdk replay``.
"""

from __future__ import annotations

import socket
import sys
import webbrowser
from typing import Annotated

import segno
import typer

from pdk.app.rooms import Rooms
from pdk.app.tables import TableStore
from pdk.cli.common import fail, lang_or_fail, profile_or_fail
from pdk.cli.play import check_difficulty, data_dir
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.text.catalog import tr


def lan_address() -> str:
    """This machine's address on its local network: the one a phone on the same Wi-Fi
    opens. Found by asking the system which interface would route outward (a UDP socket
    sends nothing when it connects); 127.0.0.1 if there is no network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            address: str = probe.getsockname()[0]
            return address
    except OSError:
        return "127.0.0.1"


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on; 0.0.0.0 lets other machines play.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the page in the default browser.")
    ] = True,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Rule profile: a name or a .yaml path (default classic16)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of each new table's first deal.")] = None,
    save_dir: Annotated[
        str | None,
        typer.Option("--save-dir", help="Where tables, records and history live (default: your data dir)."),
    ] = None,
    difficulty: Annotated[
        str, typer.Option("--difficulty", "-d", help="Level of a new table's bots: easy, normal or hard.")
    ] = "normal",
    pace: Annotated[
        int, typer.Option("--pace", min=0, max=10_000, help="Milliseconds the page shows each bot move.")
    ] = 700,
    max_tables: Annotated[
        int, typer.Option("--max-tables", min=1, help="Tables kept in memory (the rest stay on disk).")
    ] = 256,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language: zh or en, for these messages and the page it opens."),
    ] = None,
    away: Annotated[
        int,
        typer.Option(
            "--away", min=5, max=3600, help="Seconds a friend's seat may be unconnected before 托管 plays it."
        ),
    ] = 30,
) -> None:
    """Serve the 跑得快 table to a web browser (phones and desktops)."""
    import uvicorn

    from pdk.web.server import create_app

    language = lang_or_fail(lang)
    check_difficulty(difficulty, language)
    profile = profile_or_fail(variant or DEFAULT_PROFILE, language)
    base = data_dir(save_dir, language)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(tr("err_save_dir", language, path=base, detail=exc.strerror or str(exc)))
    store = TableStore(
        base, profile, variant or profile.name, seed=seed, max_live=max_tables, difficulty=difficulty
    )
    try:  # a port already taken is one line here, not uvicorn's log and exit 1
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        fail(tr("serve_failed", language, detail=f"{host}:{port}: {exc.strerror or exc}"))
    everywhere = host in ("0.0.0.0", "::")
    shown = "127.0.0.1" if everywhere else host
    # --lang chooses the page's language too: the address carries it (?lang=), and a
    # browser opened on it keeps the choice; without it the page follows the browser.
    url = f"http://{shown}:{port}/" + (f"?lang={language}" if lang is not None else "")
    print(tr("serve_url", language, url=url), flush=True)
    if everywhere:
        print(tr("serve_open_network", language), flush=True)
        lan = f"http://{lan_address()}:{port}/"
        print(tr("serve_lan", language, url=lan), flush=True)
        segno.make(lan, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
    if open_browser:
        webbrowser.open(url)
    try:
        rooms = Rooms(store.store_of(), store.archive, pace_ms=pace, away_after=away, seed=seed)
        app = create_app(store, pace, rooms)
        uvicorn.run(app, host=host, port=port, log_level="warning")
    except OSError as exc:  # port taken, address not available
        fail(tr("serve_failed", language, detail=exc.strerror or str(exc)))
