"""``pdk serve``: the browser table, served by pdk itself (FastAPI on uvicorn).

The page opens straight into a deal against two bots; each browser's game is kept by
``pdk.table.tables`` in a store (SQLite in the data directory by default, PostgreSQL with
``--store postgresql://...`` for several ``--workers``), and its finished deals show up in
``pdk stats`` and open in ``pdk replay``. The bounds of ``pdk.web.guard`` and
``pdk.web.protocol`` are set here: connections, request deadlines, opens per client,
hard bots thinking at once, and how long an idle table is kept.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import sys
import webbrowser
from typing import Annotated

import segno
import typer

from pdk.cli.common import data_dir, fail, lang_or_fail, profile_or_fail
from pdk.cli.engine import check_difficulty
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.files.atomic import remove_stale_temps
from pdk.store.contract import StoreError
from pdk.store.files import FileStore
from pdk.store.migrate import import_json_saves
from pdk.store.open import POSTGRES_SCHEMES, open_store
from pdk.text.catalog import tr

FACTORY = "pdk.web.factory:app_from_env"


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
        int, typer.Option("--max-tables", min=1, help="Tables kept in memory (the rest stay in the store).")
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
    store: Annotated[
        str | None,
        typer.Option(
            "--store", help="Where tables live: SQLite in the save dir (default) or postgresql://user@host/db."
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=64, help="Processes (over 1 needs PostgreSQL).")
    ] = 1,
    idle_hours: Annotated[
        float, typer.Option("--idle-hours", min=0, help="Clear tables idle this long (0: never).")
    ] = 14 * 24,
    opens_per_minute: Annotated[
        float, typer.Option("--opens-per-minute", min=0, help="New tables per client address (0: no limit).")
    ] = 30,
    hard_slots: Annotated[
        int, typer.Option("--hard-slots", min=1, help="Hard bots thinking at once per worker (others queue).")
    ] = 1,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=1, help="Open connections per worker (beyond: 503).")
    ] = 1000,
    per_client: Annotated[
        int,
        typer.Option("--connections-per-client", min=0, help="Connections one address may hold (0: any)."),
    ] = 64,
    read_timeout: Annotated[
        float, typer.Option("--read-timeout", min=0.1, help="Seconds a request may take to arrive.")
    ] = 10.0,
) -> None:
    """Serve the 跑得快 table to a web browser (phones and desktops)."""
    import uvicorn

    from pdk.web.address import allowed_hosts, listen
    from pdk.web.factory import SETTINGS_ENV, ServeSettings, build_app
    from pdk.web.protocol import PER_CLIENT_ENV, READ_TIMEOUT_ENV, TimedProtocol
    from pdk.web.server import MAX_BODY

    language = lang_or_fail(lang)
    check_difficulty(difficulty, language)
    profile = profile_or_fail(variant or DEFAULT_PROFILE, language)
    postgres = store is not None and store.startswith(POSTGRES_SCHEMES)
    if workers > 1 and not postgres:
        fail(tr("serve_workers_sqlite", language, n=workers))
    base = data_dir(save_dir, language)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(tr("err_save_dir", language, path=base, detail=exc.strerror or str(exc)))
    for folder in (base, base / "web", base / "records"):  # left by a kill -9 mid-write
        remove_stale_temps(folder)
    try:  # opened once here: a store that cannot open is one line, and old saves move in now
        with contextlib.closing(open_store(store, base)) as saves:
            import_json_saves(saves, FileStore(base / "web"))
    except StoreError as exc:
        fail(tr("serve_store", language, detail=exc))
    where = listen(host)
    try:  # a port already taken is one line here, not uvicorn's log and exit 1
        with socket.socket(where.family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((where.bind, port))
    except OSError as exc:
        fail(tr("serve_failed", language, detail=f"{host}:{port}: {exc.strerror or exc}"))
    hosts = allowed_hosts(where)
    settings = ServeSettings(
        data_dir=str(base.resolve()),
        profile=str(variant or DEFAULT_PROFILE),
        variant=variant or profile.name,
        seed=seed,
        max_tables=max_tables,
        difficulty=difficulty,
        pace_ms=pace,
        store=store,
        shared=postgres,
        max_body=MAX_BODY,
        hosts=None if hosts is None else sorted(hosts),
        opens_per_minute=opens_per_minute,
        hard_slots=hard_slots,
        idle_seconds=idle_hours * 3600,
        away=away,
    )
    # --lang chooses the page's language too: the address carries it (?lang=), and a
    # browser opened on it keeps the choice; without it the page follows the browser.
    url = f"http://{where.url_host()}:{port}/" + (f"?lang={language}" if lang is not None else "")
    print(tr("serve_url", language, url=url), flush=True)
    if where.everywhere:
        print(tr("serve_open_network", language), flush=True)
        lan = f"http://{lan_address()}:{port}/"
        print(tr("serve_lan", language, url=lan), flush=True)
        segno.make(lan, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
    if open_browser:
        webbrowser.open(url)
    _more_open_files(max_connections)
    bounds = {
        "host": where.bind,
        "port": port,
        "log_level": "warning",
        "http": TimedProtocol,
        "timeout_keep_alive": 5,
        # SIGTERM: open answers get this long to end (live streams end at once, told by
        # the protocol), then they are cut, presence is withdrawn and the process exits.
        "timeout_graceful_shutdown": 5,
        "limit_concurrency": max_connections,
    }
    os.environ[READ_TIMEOUT_ENV] = str(read_timeout)  # the workers' protocol reads them there
    os.environ[PER_CLIENT_ENV] = str(per_client)
    TimedProtocol.read_timeout = read_timeout
    TimedProtocol.per_client = per_client
    try:
        if workers == 1:
            uvicorn.run(build_app(settings), **bounds)  # type: ignore[arg-type]
        else:
            os.environ[SETTINGS_ENV] = settings.to_env()
            uvicorn.run(FACTORY, factory=True, workers=workers, **bounds)  # type: ignore[arg-type]
    except OSError as exc:  # port taken, address not available
        fail(tr("serve_failed", language, detail=exc.strerror or str(exc)))


def _more_open_files(connections: int) -> None:
    """Room for ``connections`` sockets plus the store's files: the soft limit raised
    towards the hard one (often 1,024 of 4,096 or more)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
