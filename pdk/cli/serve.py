"""``pdk serve``: the browser table, served by pdk itself (FastAPI on uvicorn).

The page opens straight into a deal against two bots; each browser's game is kept by
``pdk.table.tables`` in a store (SQLite in the data directory by default, PostgreSQL with
``--store postgresql://...`` for several ``--workers``), and its finished deals show up in
``pdk stats`` and open in ``pdk replay``. The bounds of ``pdk.web.guard`` and
``pdk.web.protocol`` are set here: connections, request deadlines, opens per client,
hard bots thinking at once, and how long an idle table is kept.

``pdk serve`` is a group whose own callback serves when no command follows (so ``pdk
serve --port 8000`` is what it always was); its commands are the operator's, run on the
store a server uses, stopped or running: ``backup FILE`` and ``restore FILE`` (SQLite;
PostgreSQL has ``pg_dump``), ``rooms`` (list) and ``rooms close ID``.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import socket
import sys
import time
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, cast

import segno
import typer
from rich.table import Table

from pdk.cli.common import data_dir, fail, lang_or_fail, out_console, profile_or_fail
from pdk.cli.engine import check_difficulty
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.files.atomic import remove_stale_temps
from pdk.rooms.ledger import close_room, stored_rooms
from pdk.rooms.room import RoomReason, RoomRefused, Rooms
from pdk.store import backup as backups
from pdk.store.contract import StoreError
from pdk.store.files import FileStore
from pdk.store.migrate import import_json_saves
from pdk.store.open import POSTGRES_SCHEMES, open_store, sqlite_file
from pdk.table.history import History
from pdk.table.service import Archive
from pdk.text.catalog import Lang, tr

FACTORY = "pdk.web.factory:app_from_env"
METRICS = ("local", "any", "off")

SaveDirOpt = Annotated[
    str | None,
    typer.Option("--save-dir", help="Where tables, records and history live (default: your data dir)."),
]
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store", help="Where tables live: SQLite in the save dir (default) or postgresql://user@host/db."
    ),
]
LangOpt = Annotated[
    str | None, typer.Option("--lang", help="Language: zh or en, for these messages and the page it opens.")
]

serve_app = typer.Typer(name="serve", rich_markup_mode="rich", add_completion=False)  # help: serve's
rooms_app = typer.Typer(name="rooms", help="The rooms of the store: list them, or close one.")
serve_app.add_typer(rooms_app)


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


@serve_app.callback(invoke_without_command=True)
def serve(
    ctx: typer.Context,
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
    save_dir: SaveDirOpt = None,
    difficulty: Annotated[
        str, typer.Option("--difficulty", "-d", help="Level of a new table's bots: easy, normal or hard.")
    ] = "normal",
    pace: Annotated[
        int, typer.Option("--pace", min=0, max=10_000, help="Milliseconds the page shows each bot move.")
    ] = 700,
    max_tables: Annotated[
        int, typer.Option("--max-tables", min=1, help="Tables kept in memory (the rest stay in the store).")
    ] = 256,
    lang: LangOpt = None,
    away: Annotated[
        int,
        typer.Option(
            "--away", min=5, max=3600, help="Seconds a friend's seat may be unconnected before 托管 plays it."
        ),
    ] = 30,
    store: StoreOpt = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=64, help="Processes (over 1 needs PostgreSQL).")
    ] = 1,
    idle_hours: Annotated[
        float, typer.Option("--idle-hours", min=0, help="Clear tables idle this long (0: never).")
    ] = 14 * 24,
    opens_per_minute: Annotated[
        float, typer.Option("--opens-per-minute", min=0, help="New tables per client address (0: no limit).")
    ] = 30,
    rooms_per_minute: Annotated[
        float,
        typer.Option("--rooms-per-minute", min=0, help="New rooms per client (0: none; bursts of half)."),
    ] = 20,  # pdk.web.rooms_api.RoomLimits' defaults (tests/web/test_serve_cli.py)
    streams_per_minute: Annotated[
        float,
        typer.Option(
            "--streams-per-minute",
            min=0,
            help="Live streams opened per client (0: none; bursts of half).",
        ),
    ] = 120,
    polls_per_minute: Annotated[
        float,
        typer.Option("--polls-per-minute", min=0, help="Room polls per client (0: none; bursts of a sixth)."),
    ] = 1200,
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
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies whose X-Forwarded-For/Proto/Host are believed: addresses, networks, * or ''.",
        ),
    ] = "127.0.0.1",
    metrics: Annotated[
        str,
        typer.Option("--metrics", help="Who may read /metrics: local (this machine, unproxied), any, off."),
    ] = "local",
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log/--no-access-log", help="One line a request on stderr (no keys, no tokens)."
        ),
    ] = False,
) -> None:
    """Serve the 跑得快 table to a web browser (phones and desktops).

    Without a command it serves; the commands look after the store it serves."""
    if ctx.invoked_subcommand is not None:  # the store's options may come before the command
        ctx.obj = Where(save_dir, store, lang)
        return
    import uvicorn

    from pdk.web.address import allowed_hosts, links_for, listen
    from pdk.web.factory import SETTINGS_ENV, ServeSettings, build_app
    from pdk.web.forwarded import Trusted
    from pdk.web.metrics import MetricsAccess
    from pdk.web.protocol import PER_CLIENT_ENV, READ_TIMEOUT_ENV, TimedProtocol
    from pdk.web.server import MAX_BODY

    language = lang_or_fail(lang)
    check_difficulty(difficulty, language)
    profile = profile_or_fail(variant or DEFAULT_PROFILE, language)
    postgres = store is not None and store.startswith(POSTGRES_SCHEMES)
    if workers > 1 and not postgres:
        fail(tr("serve_workers_sqlite", language, n=workers))
    if metrics not in METRICS:
        fail(tr("serve_bad_metrics", language, value=metrics[:40]))
    try:
        Trusted(forwarded_allow_ips)
    except ValueError as exc:
        fail(tr("serve_bad_forwarded", language, detail=exc))
    base = data_dir(save_dir, language)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(tr("err_save_dir", language, path=base, detail=exc.strerror or str(exc)))
    for folder in (base, base / "web", base / "records"):  # left by a kill -9 mid-write
        remove_stale_temps(folder)
    held = contextlib.ExitStack()  # the store's serving lock, held until the server stops
    try:  # opened once here: a store that cannot open is one line, and old saves move in now
        path = sqlite_file(store, base)
        if path is not None:
            held.enter_context(backups.serving(path))
        with contextlib.closing(open_store(store, base)) as saves:
            import_json_saves(saves, FileStore(base / "web"))
    except StoreError as exc:
        held.close()
        fail(tr("serve_store", language, detail=exc))
    with held:
        where = listen(host)
        try:  # a port already taken is one line here, not uvicorn's log and exit 1
            with socket.socket(where.family) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((where.bind, port))
        except OSError as exc:
            fail(tr("serve_failed", language, detail=f"{host}:{port}: {exc.strerror or exc}"))
        hosts = allowed_hosts(where)
        # --workers: the folder where they sum their /metrics, this run's alone (emptied
        # before, removed after: counts of an earlier run must not add up)
        shared_metrics = base.resolve() / "metrics" / str(os.getpid())
        if workers > 1:
            shutil.rmtree(shared_metrics, ignore_errors=True)
            shared_metrics.mkdir(parents=True)
            held.callback(shutil.rmtree, shared_metrics, True)
        links = links_for(where, port, lan_address() if where.everywhere else "")
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
            rooms=(rooms_per_minute, streams_per_minute, polls_per_minute),
            hard_slots=hard_slots,
            idle_seconds=idle_hours * 3600,
            away=away,
            forwarded=forwarded_allow_ips,
            metrics=cast("MetricsAccess", metrics),  # checked against METRICS above
            access_log=access_log,
            links=links.base,
            local_only=links.local_only,
            metrics_dir=None if workers == 1 else str(shared_metrics),
        )
        # --lang chooses the page's language too: the address carries it (?lang=), and a
        # browser opened on it keeps the choice; without it the page follows the browser.
        url = f"http://{where.url_host()}:{port}/" + (f"?lang={language}" if lang is not None else "")
        print(tr("serve_url", language, url=url), flush=True)
        if where.everywhere:
            print(tr("serve_open_network", language), flush=True)
            assert links.base is not None
            print(tr("serve_lan", language, url=links.base), flush=True)
            segno.make(links.base, error="m").terminal(out=sys.stdout, compact=True)
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
            # pdk writes its own access log (pdk.web.metrics: the route, never the path or
            # query) and reads the proxy's headers itself (pdk.web.forwarded).
            "access_log": False,
            "proxy_headers": False,
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


# -- the operator's commands ---------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """The store a command works on, as ``pdk serve``'s own options name it."""

    save_dir: str | None
    store: str | None
    lang: str | None

    def over(self, ctx: typer.Context) -> Where:
        """These options, else the ones given before the command (``pdk serve --store X
        rooms``)."""
        before = ctx.obj if isinstance(ctx.obj, Where) else Where(None, None, None)
        return Where(self.save_dir or before.save_dir, self.store or before.store, self.lang or before.lang)

    def language(self) -> Lang:
        return lang_or_fail(self.lang)

    def sqlite(self, language: Lang) -> Path | None:
        """The SQLite file of the store, None for PostgreSQL."""
        try:
            return sqlite_file(self.store, data_dir(self.save_dir, language))
        except StoreError as exc:
            fail(tr("serve_store", language, detail=exc))

    def sqlite_or_say(self, postgres: str, file: Path) -> tuple[Lang, Path]:
        """The language and the SQLite file of the store; for PostgreSQL, the line of
        message ``postgres`` (its own tool's command) and exit 2."""
        language = self.language()
        path = self.sqlite(language)
        if path is None:
            fail(tr(postgres, language, file=file))
        return language, path

    def named(self, language: Lang) -> str:
        """The store as the messages name it: a PostgreSQL URL may carry a password."""
        path = self.sqlite(language)
        return "PostgreSQL" if path is None else str(path)


@serve_app.command("backup")
def backup_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The backup to write (replaced whole if it exists).")],
    save_dir: SaveDirOpt = None,
    store: StoreOpt = None,
    lang: LangOpt = None,
) -> None:
    """Back up the store, safe while pdk serve runs (SQLite's online backup)."""
    language, path = Where(save_dir, store, lang).over(ctx).sqlite_or_say("serve_backup_postgres", file)
    try:
        made = backups.backup(path, file)
    except StoreError as exc:
        fail(tr("serve_backup_failed", language, detail=exc))
    print(tr("serve_backup_done", language, store=path, file=file, **made.summary))


@serve_app.command("restore")
def restore_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A backup made by pdk serve backup.")],
    save_dir: SaveDirOpt = None,
    store: StoreOpt = None,
    lang: LangOpt = None,
) -> None:
    """Put a backup in place of the store, kept beside it first (refused while pdk serve runs)."""
    language, path = Where(save_dir, store, lang).over(ctx).sqlite_or_say("serve_restore_postgres", file)
    try:
        done = backups.restore(file, path)
    except StoreError as exc:
        fail(tr("serve_restore_failed", language, detail=exc))
    said = tr("serve_restore_done", language, store=path, file=file, **done.contents.summary)
    kept = (
        tr("serve_restore_kept", language, kept=done.kept) if done.kept else tr("serve_restore_new", language)
    )
    print(f"{said} {kept}")


def _rooms_of(where: Where, language: Lang) -> Rooms | None:
    """The rooms of the store, None where there is no store at all (a SQLite file that
    does not exist is not created by looking)."""
    path = where.sqlite(language)
    if path is not None and not path.exists():
        return None
    base = data_dir(where.save_dir, language)
    try:
        saves = open_store(where.store, base)
    except StoreError as exc:
        fail(tr("serve_store", language, detail=exc))
    return Rooms(saves, Archive(base / "records", History(base / "history.sqlite3")))


@rooms_app.callback(invoke_without_command=True)
def rooms_cmd(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON list, for scripts.")] = False,
    save_dir: SaveDirOpt = None,
    store: StoreOpt = None,
    lang: LangOpt = None,
) -> None:
    """List the store's rooms: id, phase, seats, last activity (never a key)."""
    where = Where(save_dir, store, lang).over(ctx)
    if ctx.invoked_subcommand is not None:
        ctx.obj = where
        return
    language = where.language()
    rooms = _rooms_of(where, language)
    try:
        lines = [] if rooms is None else stored_rooms(rooms.store)
    except StoreError as exc:
        fail(tr("serve_store", language, detail=exc))
    finally:
        if rooms is not None:
            rooms.store.close()
    if as_json:
        print(json.dumps([line.to_dict() for line in lines], ensure_ascii=False))
        return
    if not lines:
        print(tr("serve_rooms_none", language, store=where.named(language)))
        return
    table = Table(title=tr("serve_rooms_title", language, store=where.named(language)), title_justify="left")
    for key in ("serve_rooms_id", "serve_rooms_phase", "serve_rooms_variant", "serve_rooms_seats"):
        table.add_column(tr(key, language), no_wrap=key != "serve_rooms_seats", overflow="fold")
    table.add_column(tr("serve_rooms_active", language), no_wrap=True)
    for line in lines:
        names = [s.name if s.taken else tr("serve_rooms_free", language) for s in line.seats]
        taken = sum(s.taken for s in line.seats)
        when = "-" if line.last_activity is None else _utc(line.last_activity)
        phase = tr(f"serve_phase_{line.phase}", language)
        table.add_row(line.id, phase, line.variant, f"{taken}/{len(line.seats)}: " + ", ".join(names), when)
    out_console().print(table)


@rooms_app.command("close")
def rooms_close_cmd(
    ctx: typer.Context,
    room_id: Annotated[str, typer.Argument(metavar="ID", help="The room's id (from pdk serve rooms).")],
    save_dir: SaveDirOpt = None,
    store: StoreOpt = None,
    lang: LangOpt = None,
) -> None:
    """Close a room as its host would: nothing more is played in it, its deals stay kept."""
    where = Where(save_dir, store, lang).over(ctx)
    language = where.language()
    rooms = _rooms_of(where, language)
    if rooms is None:
        fail(tr("serve_room_none", language, id=room_id[:40], store=where.named(language)))
    try:
        closed = close_room(rooms, room_id)
    except RoomRefused as exc:  # no such room, or it moved on meanwhile
        if exc.reason is not RoomReason.NO_ROOM:
            fail(exc.message(language))
        fail(tr("serve_room_none", language, id=room_id[:40], store=where.named(language)))
    except StoreError as exc:
        fail(tr("serve_store", language, detail=exc))
    finally:
        rooms.store.close()
    print(tr("serve_room_closed" if closed else "serve_room_was_closed", language, id=room_id))


def _utc(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(at))
