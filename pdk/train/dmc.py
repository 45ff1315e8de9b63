"""Training the learned value by Monte-Carlo targets: Deep Monte-Carlo (DouZero's method,
``method="dmc"``) or the advantage of each choice over normal's (``"advantage"``, the
default of ``pdk train``: ``labels.Labeller.play_advantage``). They share everything but the
targets: the network, the replay buffer, the checkpoints and the strength log. The
advantage is over normal's play after the choice, or (``continuation``, issue 40) over the
``--start`` weights' learned policy's: a round of policy iteration, whose weights name
their round and parent (``meta["round"]``, ``meta["start"]["sha256"]``). What labels a
deal lives in ``labels`` (numpy only, so ``ray_labels`` can label on a cluster).

The network scores a (seat's view, choice) pair (``pdk.bots.features``) by what the deal
will pay that seat. Deep Monte-Carlo learns it the plainest way: play whole deals, and
regress every decision's feature row on the settlement the deciding seat was finally paid
(``GameState.settlement``, the profile's own). No bootstrapping, no game tree: the
returns are exact samples, so the estimate is unbiased for the policy that played, and
greedy play on it is a step of policy improvement.

Who plays the training deals (the behaviour policy), per seat and deal:

* ``normal``'s first choice; or, for a share of the seats growing from none to
  ``net_share`` over the first ``ramp_games`` deals, the network's own best choice (a
  random network's play is noise, so it joins once it has learned something);
* either way, with probability ``epsilon`` a uniformly random legal choice instead, so
  that the value of choices the policy would not make is learned too.

Starting from normal's play is what makes an hour of one CPU core worth anything: DouZero
trained for days on many. The network sees normal's ranking as an input and learns where
playing otherwise pays.

Every deal is seeded from ``seed`` and its number; the network, the optimizer and the
random streams are saved in a checkpoint every few minutes, and a run started again with
the same ``--out`` resumes from it (the replay buffer is not saved: it refills within a few
hundred deals, so a resumed run is close to, not exactly, an uninterrupted one). Every
``eval_minutes`` the current network plays ``eval_deals`` duplicate deals as the
``learned`` bot against normal in every other seat, and the result is logged: the
learning curve.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pdk.bots import register_plugin
from pdk.bots.features import SIZE, VERSION
from pdk.bots.learned import LearnedBot
from pdk.bots.value_net import FORMAT, ValueNet, file_hash
from pdk.match.run import mean_ci, run_match
from pdk.train.labels import Config, LabelAll, Labeller, Labels, local_labels

_EVAL_SPEC = "pdk-train:learned"  # the learned bot under training, as the match harness names it


@dataclass
class Status:
    """Where a run is, for the progress bar and the log."""

    games: int = 0
    samples: int = 0
    seconds: float = 0.0
    loss: float = float("nan")
    curve: list[dict[str, Any]] = field(default_factory=list)


def network(config: Config) -> nn.Sequential:
    layers: list[nn.Module] = []
    width = SIZE
    for _ in range(config.depth):
        layers += [nn.Linear(width, config.hidden), nn.ReLU()]
        width = config.hidden
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def commit() -> str:
    """The source's git commit, when pdk runs from a checkout (else ``unknown``)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


def _run_kind(method: str, continuation: str) -> str:
    """A run's method as a refusal names it (its continuation, when not normal's)."""
    return method if continuation == "normal" else f"{method}, {continuation} continuation"


class Trainer:
    """One run: ``out`` gets the weights (numpy, ``.npz``), ``out``'s ``.ckpt.pt`` the
    checkpoint and ``.curve.jsonl`` the learning curve."""

    def __init__(self, config: Config, out: Path, labels: LabelAll = local_labels) -> None:
        self.config = config
        self.out = out
        self.labels = labels
        out.parent.mkdir(parents=True, exist_ok=True)
        self.checkpoint = out.with_name(out.stem + ".ckpt.pt")
        self.curve_file = out.with_name(out.stem + ".curve.jsonl")
        torch.manual_seed(config.seed)
        self.model = network(config)
        # What plays and is written: the network itself, or (``average`` > 0) a moving
        # average of its weights. Plain SGD's last step is one noisy point of a wandering
        # path (the strength of consecutive snapshots swings by a point a deal); an
        # average over a few thousand steps sits nearer the path's middle.
        self.played = network(config) if config.average else self.model
        self.played.load_state_dict(self.model.state_dict())
        self.opt = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.np_rng = np.random.default_rng(config.seed)
        self.xs = np.zeros((config.buffer, SIZE), dtype=np.float32)
        self.ys = np.zeros(config.buffer, dtype=np.float32)
        self.filled = 0
        self.status = Status()
        self.scale = float(config.profile.hand_size)
        self.start: dict[str, Any] | None = None  # the run these weights began from, if any
        # The continuation's network (``continuation="learned"``): the start weights,
        # fixed for the run, so the targets are the advantage over one policy's play.
        self.policy: ValueNet | None = None
        self.round = 1  # policy-iteration rounds behind these weights (over normal: 1)
        self.eval_seconds = 0.0  # the last strength check's cost: reserved at the end of --hours
        self.net = self.value_net()

    # -- checkpoints -------------------------------------------------------------------------

    def resume(self) -> bool:
        """Continue from the checkpoint next to ``out``, if there is one for this run."""
        if not self.checkpoint.is_file():
            return False
        saved = torch.load(self.checkpoint, weights_only=False)
        cfg = self.config
        method = saved.get("method", "dmc")
        then = _run_kind(method, saved.get("continuation", "normal"))
        now = _run_kind(cfg.method, cfg.continuation)
        if (saved["profile"], saved["seed"], then) != (cfg.profile.name, cfg.seed, now):
            raise ValueError(
                f"{self.checkpoint} is a run of {saved['profile']} seed {saved['seed']} ({then}), "
                f"not {cfg.profile.name} seed {cfg.seed} ({now})"
            )
        self.model.load_state_dict(saved["model"])
        self.played.load_state_dict(saved.get("played", saved["model"]))
        self.opt.load_state_dict(saved["opt"])
        for group in self.opt.param_groups:  # the rate asked for now, not the saved one
            group["lr"] = cfg.lr
        self.np_rng.bit_generator.state = saved["np_rng"]
        torch.set_rng_state(saved["torch_rng"])
        self.status = Status(
            saved["games"], saved["samples"], saved["seconds"], saved["loss"], saved["curve"]
        )
        self.start = saved.get("start")
        self.round = saved.get("round", 1)
        policy = saved.get("policy")
        self.policy = None if policy is None else ValueNet(policy["layers"], policy["meta"])
        self.net = self.value_net()
        return True

    def start_from(self, path: Path) -> None:
        """Begin from trained weights (a ``.npz`` for this profile) instead of a random
        network: more hours on top of a run that has stopped, the shipped weights among
        them. The file must be of this profile and feature layout (``ValueNet.load``) and
        of this network's shape; its run is named in the new weights' ``meta["start"]``."""
        net = ValueNet.load(path, self.config.profile.name)
        linears = [m for m in self.model if isinstance(m, nn.Linear)]
        shapes = [tuple(m.weight.shape[::-1]) for m in linears]
        if [w.shape for w, _ in net.layers] != shapes:
            raise ValueError(f"{path} holds a network of another shape than this run's")
        with torch.no_grad():
            for m, (w, b) in zip(linears, net.layers, strict=True):
                m.weight.copy_(torch.from_numpy(w.T.copy()))
                m.bias.copy_(torch.from_numpy(b.copy()))
        self.played.load_state_dict(self.model.state_dict())
        self.start = {k: net.meta.get(k) for k in ("seed", "games", "hours", "commit")}
        self.start["sha256"] = file_hash(path)
        parent_round = int(net.meta.get("round", 1))
        self.start["round"] = parent_round
        if self.config.continuation != "normal":
            self.policy = net
            self.round = parent_round + 1
        else:  # more of the same round: normal's continuation again
            self.round = parent_round
        self.net = self.value_net()

    def save_checkpoint(self) -> None:
        st = self.status
        tmp = self.checkpoint.with_suffix(".tmp")
        torch.save(
            {
                "profile": self.config.profile.name,
                "seed": self.config.seed,
                "method": self.config.method,
                "model": self.model.state_dict(),
                "played": self.played.state_dict(),
                "opt": self.opt.state_dict(),
                "np_rng": self.np_rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
                "games": st.games,
                "samples": st.samples,
                "seconds": st.seconds,
                "loss": st.loss,
                "curve": st.curve,
                "start": self.start,
                "continuation": self.config.continuation,
                "round": self.round,
                "policy": None if self.policy is None
                else {"layers": self.policy.layers, "meta": self.policy.meta},
            },
            tmp,
        )
        tmp.replace(self.checkpoint)

    # -- the network as the bots read it --------------------------------------------------------

    def value_net(self) -> ValueNet:
        linears = [m for m in self.played if isinstance(m, nn.Linear)]
        layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
        st = self.status
        meta = {
            "format": FORMAT,
            "version": VERSION,
            "profile": self.config.profile.name,
            "seed": self.config.seed,
            "games": st.games,
            "samples": st.samples,
            "hours": round(st.seconds / 3600, 3),
            "commit": commit(),
            "scale": self.scale,
            "lr": self.config.lr,
        }
        if self.config.average:
            meta["average"] = self.config.average
        if self.start is not None:
            meta["start"] = self.start
        if self.config.method == "advantage":
            if self.config.continuation != "normal":
                who = "every seat" if self.config.continuation == "learned" else "the chooser's seat"
                meta["method"] = (
                    f"advantage over normal's choice, true-deal rollouts with the parent's learned policy "
                    f"at {who} (pdk train --continuation {self.config.continuation})"
                )
            else:
                meta["method"] = "advantage over normal's choice, true-deal rollouts (pdk train)"
            meta["among"] = self.config.candidates
            meta["continuation"] = self.config.continuation
            meta["round"] = self.round
        else:
            meta["method"] = "deep Monte-Carlo, normal-led self-play (pdk train)"
        return ValueNet(layers, meta)

    def write_weights(self) -> None:
        tmp = self.out.with_name(self.out.name + ".tmp")
        self.net.save(tmp)
        tmp.replace(self.out)

    # -- self-play -------------------------------------------------------------------------------

    def labeller(self) -> Labeller:
        """What labels this round's deals: the network as it stands now, the continuation's."""
        return Labeller(self.config, self.net, self.policy, self.scale)

    def play_advantage(self, g: int) -> Labels:
        """Deal number ``g`` labelled by the advantage method (tests; ``Labeller``)."""
        return self.labeller().play_advantage(g)

    def learn(self) -> float:
        cfg = self.config
        losses = []
        for _ in range(cfg.steps_per_round):
            idx = self.np_rng.integers(0, self.filled, size=cfg.batch)
            x = torch.from_numpy(self.xs[idx])
            y = torch.from_numpy(self.ys[idx])
            loss = nn.functional.mse_loss(self.model(x).squeeze(1), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            losses.append(loss.item())
        if self.played is not self.model:
            with torch.no_grad():
                for avg, now in zip(self.played.parameters(), self.model.parameters(), strict=True):
                    avg.mul_(cfg.average).add_(now, alpha=1.0 - cfg.average)
        return float(np.mean(losses))

    # -- the strength log -------------------------------------------------------------------------

    def evaluate(self) -> dict[str, Any]:
        """The current network as ``learned`` against normal in every other seat, on the
        same duplicate deals each time (``eval_seed``)."""
        cfg = self.config
        net = self.net
        register_plugin(_EVAL_SPEC, lambda seed: LearnedBot(seed, net=net))
        players = [_EVAL_SPEC] + ["normal"] * (cfg.profile.players - 1)
        results = run_match(cfg.profile, players, cfg.eval_deals, cfg.eval_seed, duplicate=True)
        per_deal: dict[int, list[float]] = {}
        wins = games = 0
        for res in results:
            for seat, name in enumerate(res.bots):
                if name == _EVAL_SPEC:
                    per_deal.setdefault(res.deal_index, []).append(res.totals[seat])
                    wins += res.winner == seat
                    games += 1
        mean, ci = mean_ci([sum(v) / len(v) for v in per_deal.values()])
        st = self.status
        entry = {
            "games": st.games,
            "samples": st.samples,
            "minutes": round(st.seconds / 60, 1),
            "loss": round(st.loss, 4),
            "deals": len(per_deal),
            "mean": round(mean, 3),
            "ci95": [round(c, 3) for c in ci] if ci else None,
            "win_rate": round(wins / max(games, 1), 4),
        }
        st.curve.append(entry)
        with self.curve_file.open("a") as f:
            f.write(json.dumps(entry) + "\n")
        return entry

    # -- the run ------------------------------------------------------------------------------------

    def run(self, on_round: Callable[[Status], None] | None = None) -> Status:
        """Rounds of ``games_per_round`` deals labelled (``labels``: here or on a cluster),
        then ``steps_per_round`` steps of learning, until ``--games`` deals or ``--hours``.

        ``--hours`` is the whole run's wall clock, the final strength check and the files
        included: a round is not begun once the time left is less than the last check
        cost (each check plays the same deals, so the last one's time is the next one's
        estimate), and a round's deals are labelled together, so a round overruns by at
        most its own few seconds."""
        cfg = self.config
        st = self.status
        started = time.monotonic() - st.seconds
        last_eval = last_ckpt = st.seconds
        limit = cfg.hours * 3600
        while st.seconds + self.eval_seconds < limit and (cfg.games is None or st.games < cfg.games):
            count = cfg.games_per_round
            if cfg.games is not None:
                count = min(count, cfg.games - st.games)
            for rows, targets in self.labels(self.labeller(), range(st.games, st.games + count)):
                st.games += 1
                for row, target in zip(rows, targets, strict=True):
                    at = st.samples % cfg.buffer
                    self.xs[at] = row
                    self.ys[at] = target
                    st.samples += 1
                self.filled = min(st.samples, cfg.buffer)
            st.loss = self.learn()
            self.net = self.value_net()
            st.seconds = time.monotonic() - started
            if st.seconds - last_eval >= cfg.eval_minutes * 60:
                self._checked()
                st.seconds = time.monotonic() - started
                last_eval = st.seconds
            if st.seconds - last_ckpt >= cfg.checkpoint_minutes * 60:
                self.save_checkpoint()
                last_ckpt = st.seconds
            if on_round is not None:
                on_round(st)
        self._checked()
        st.seconds = time.monotonic() - started
        self.net = self.value_net()  # the hours it took, the last check included
        self.write_weights()
        self.save_checkpoint()
        return st

    def _checked(self) -> None:
        """A strength check and the weights it checked, written; its cost remembered."""
        began = time.monotonic()
        self.evaluate()
        self.write_weights()
        self.eval_seconds = time.monotonic() - began
