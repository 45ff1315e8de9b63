"""``pdk train``: train the learned value for a profile from self-play (``pdk.train.dmc``).

The command parses, checks and renders; PyTorch is imported only here, when the command
runs, so that pdk without the ``train`` extra still starts (and says in one line what to
install)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from pdk.bots.value_net import ValueNet, WeightsError, file_hash
from pdk.cli.common import LangOpt, VariantOpt, fail, lang_or_fail, profile_or_fail
from pdk.match.backend_contract import BackendError
from pdk.text.catalog import Lang, tr


def train(
    variant: VariantOpt = "classic16",
    hours: Annotated[float, typer.Option("--hours", help="Wall-clock hours to train for.")] = 1.0,
    out: Annotated[
        Path, typer.Option("--out", help="The weights file (.npz); its checkpoint and curve go beside it.")
    ] = Path("weights.npz"),
    seed: Annotated[int, typer.Option("--seed", help="Seeds every deal and the network.")] = 0,
    games: Annotated[
        int | None, typer.Option("--games", help="Stop after this many self-play deals instead.")
    ] = None,
    eval_minutes: Annotated[
        float, typer.Option("--eval-minutes", help="Minutes between strength checks against normal.")
    ] = 10.0,
    eval_deals: Annotated[int, typer.Option("--eval-deals", help="Duplicate deals per strength check.")] = 30,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            help="dmc: regress on each deal's outcome; advantage: on each choice's rolled-out "
            "gain over normal's at the same position (docs/learning.md).",
        ),
    ] = "advantage",
    resume: Annotated[
        bool, typer.Option("--resume/--fresh", help="Continue from the checkpoint beside --out, if any.")
    ] = True,
    lr: Annotated[
        float, typer.Option("--lr", help="Adam's learning rate (lower to refine --start weights).")
    ] = 1e-3,
    average: Annotated[
        float,
        typer.Option("--average", help="Play and write a moving average of the weights (decay a round)."),
    ] = 0.0,
    start: Annotated[
        Path | None,
        typer.Option("--start", help="Begin from these weights (.npz of this profile)."),
    ] = None,
    continuation: Annotated[
        str,
        typer.Option(
            "--continuation",
            help="Who plays on after each choice in the rollouts: normal; learned (the --start "
            "weights' policy at every seat: the next round of policy iteration); own (that policy "
            "at the chooser's seat, normal at the others).",
        ),
    ] = "normal",
    backend: Annotated[
        str, typer.Option("--backend", help="Where the rollouts run: local, or ray (a Ray cluster).")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="The Ray cluster to join (auto, host:port).")
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="CPUs of a local Ray started here.")] = 2,
    info: Annotated[
        Path | None,
        typer.Option("--info", help="Say what a weights file is (its run, round and parent), and stop."),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Train the learned bot's value from self-play (needs the extra: pip install 'pdk\\[train]')."""
    lg = lang_or_fail(lang)
    if info is not None:
        show_info(info, lg)
        return
    profile = profile_or_fail(variant, lg)
    if profile.players < 3:
        fail(tr("train_players", lg, variant=profile.name, players=profile.players))
    for option, value in (("--hours", hours), ("--eval-minutes", eval_minutes), ("--eval-deals", eval_deals),
                          ("--lr", lr)):  # fmt: skip
        if not value > 0:
            fail(tr("train_bad_number", lg, option=option, value=value))
    if not 0 <= average < 1:
        fail(tr("train_bad_average", lg, value=average))
    if games is not None and games <= 0:
        fail(tr("train_bad_number", lg, option="--games", value=games))
    try:
        import torch

        from pdk.train.dmc import Status, Trainer
        from pdk.train.labels import CONTINUATIONS, METHODS, Config
        from pdk.train.ray_labels import open_labels
    except ImportError:
        fail(tr("train_needs_torch", lg))
    if method not in METHODS:
        fail(tr("train_bad_method", lg, method=method, methods=", ".join(METHODS)))
    if continuation not in CONTINUATIONS:
        fail(tr("train_bad_continuation", lg, name=continuation, known=", ".join(CONTINUATIONS)))
    if continuation != "normal" and method != "advantage":
        fail(tr("train_continuation_method", lg, method=method))
    torch.set_num_threads(1)  # self-play is one process; a second thread only contends
    config = Config.of(profile, method, seed=seed, hours=hours, games=games, eval_minutes=eval_minutes,
                       eval_deals=eval_deals, lr=lr, average=average, continuation=continuation)  # fmt: skip
    try:
        labels = open_labels(backend, workers=workers, address=address)
    except BackendError as exc:
        fail(exc.message(lg))
    try:
        trainer = Trainer(config, out, labels)
    except OSError as exc:
        fail(tr("train_io", lg, error=" ".join(str(exc).split())))
    err = Console(stderr=True)
    resumed = False
    if resume:
        try:
            resumed = trainer.resume()
        except (ValueError, KeyError, OSError, RuntimeError) as exc:
            fail(tr("train_bad_checkpoint", lg, error=" ".join(str(exc).split())))
        if resumed:
            st = trainer.status
            minutes = st.seconds / 60
            err.print(tr("train_resumed", lg, path=trainer.checkpoint, games=st.games, minutes=minutes))
    if start is not None and not resumed:
        try:
            trainer.start_from(start)
        except WeightsError as exc:
            fail(exc.message(lg))
        except ValueError as exc:
            fail(tr("train_bad_start", lg, error=" ".join(str(exc).split())))
    if continuation != "normal" and trainer.policy is None:
        fail(tr("train_learned_needs_start", lg, name=continuation))
    total = float(games) if games is not None else hours * 3600
    seen = len(trainer.status.curve)

    def said(entry: dict[str, object]) -> str:
        ci = entry["ci95"]
        ci_text = f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if isinstance(ci, list) else "—"
        return tr("train_eval", lg, games=entry["games"], minutes=entry["minutes"], mean=entry["mean"],
                  ci=ci_text, win=entry["win_rate"], deals=entry["deals"])  # fmt: skip

    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[games]} deals  loss {task.fields[loss]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(tr("train_progress", lg, variant=profile.name), total=total, games=0, loss="—")

        def on_round(st: Status) -> None:
            nonlocal seen
            done = float(st.games) if games is not None else st.seconds
            bar.update(task, completed=min(done, total), games=st.games, loss=f"{st.loss:.3f}")
            while seen < len(st.curve):
                bar.console.print(said(st.curve[seen]))
                seen += 1

        try:
            st = trainer.run(on_round)
        except KeyboardInterrupt:
            trainer.write_weights()
            trainer.save_checkpoint()
            bar.stop()
            fail(tr("train_interrupted", lg, path=trainer.checkpoint), code=130)
        except OSError as exc:
            fail(tr("train_io", lg, error=" ".join(str(exc).split())))
    for entry in st.curve[seen:]:
        err.print(said(entry))
    kb = max(1, out.stat().st_size // 1024)
    print(tr("train_done", lg, path=out, kb=kb, games=st.games, samples=st.samples, curve=trainer.curve_file))


def show_info(path: Path, lg: Lang) -> None:
    """What a weights file is: its profile, its run and where it stands in the rounds of
    policy iteration (its continuation, round and parent's hash)."""
    try:
        meta = ValueNet.load(path, None).meta
        sha = file_hash(path)
    except WeightsError as exc:
        fail(exc.message(lg))
    except OSError as exc:
        fail(tr("train_io", lg, error=" ".join(str(exc).split())))
    start = meta.get("start")
    parent = start.get("sha256") if isinstance(start, dict) else None
    print(tr("train_info", lg, path=path, profile=meta.get("profile"), round=meta.get("round", 1),
             continuation=meta.get("continuation", "normal"), parent=parent or "—", games=meta.get("games"),
             hours=meta.get("hours"), seed=meta.get("seed"), commit=meta.get("commit"),
             sha=sha))  # fmt: skip
