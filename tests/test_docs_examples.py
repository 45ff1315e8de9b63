"""Every code example in README.md and docs/*.md runs, as a reader would paste it.

An example that has stopped working teaches the wrong thing (the README once showed
``from pdk.engine.profile import load_profile`` long after the function had moved), so:

- each fenced ``python`` block is executed in a fresh namespace;
- each fenced ``sh`` block (and each ``$ `` line of a ``console`` block) runs line by line
  through bash with the installed ``pdk`` first on the PATH, in a temporary directory that
  sees the repository's ``examples/`` and ``replays/``, with a temporary ``PDK_DATA_DIR``
  and no terminal on stdin; a line must exit 0;
- a block that cannot run here (it needs a server, a cluster, a compiler, your own file,
  or minutes of work) says so in the markdown with ``<!-- not run: why -->`` right before
  its fence, and exactly those blocks are skipped. A runnable-looking block of anything
  but ``pdk`` commands without that comment fails, so every new example is either run or
  says why not.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.cli import pdk_env

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN_LANGS = {"python", "sh", "console"}
FENCE = re.compile(r"^```(\S*)\s*$")
NOT_RUN = re.compile(r"^<!-- not run: (.+?) -->$")
# Where a pasted line starts a pdk command: the program itself, optionally after
# VARIABLE=value settings for its environment.
PDK_LINE = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*pdk(?:\s|$)")
# Optional extras a python example may need; without them the example is skipped, not failed.
EXTRAS = {"pettingzoo", "gymnasium", "ray", "psycopg", "torch", "pyspiel", "open_spiel"}
# One line of an example: the slowest ones (a whole deal reviewed) take a few seconds.
LINE_TIMEOUT = 180.0


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    lang: str
    body: str
    not_run: str | None  # the reason, when the markdown says it cannot run

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def commands(self) -> list[str]:
        """The shell lines of the block: every non-blank line of ``sh``, the ``$ `` lines of
        ``console`` (the rest is the output shown)."""
        lines = self.body.splitlines()
        if self.lang == "console":
            return [ln[2:].strip() for ln in lines if ln.startswith("$ ")]
        return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, each with the ``not run`` reason of the comment right
    before its fence (blank lines between allowed)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
        assert end is not None, f"{page.name}:{i + 1}: a fence that never closes"
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        reason = NOT_RUN.match(before)
        found.append(Block(page, i + 1, m.group(1), "\n".join(lines[i + 1 : end]) + "\n",
                           reason.group(1) if reason else None))
        i = end + 1
    return found


ALL = [b for page in PAGES for b in blocks(page)]
RUNNABLE = [b for b in ALL if b.lang in RUN_LANGS]


def test_the_pages_have_examples_of_each_kind() -> None:
    # The extraction itself can fail (a changed fence style would find nothing and pass).
    assert {"python", "sh"} <= {b.lang for b in RUNNABLE}
    assert sum(b.not_run is None for b in RUNNABLE) >= 10


def test_a_not_run_comment_stands_before_a_fence() -> None:
    """A comment that does not precede a fence skips nothing: it is a mistake."""
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if NOT_RUN.match(line.strip()):
                after = next((ln for ln in lines[n + 1 :] if ln.strip()), "")
                assert FENCE.match(after), f"{page.name}:{n + 1}: 'not run' before no code block"


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b.lang == "python"], ids=lambda b: b.name)
def test_python_example_runs(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if block.not_run is not None:
        pytest.skip(block.not_run)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PDK_DATA_DIR", str(tmp_path / "data"))
    code = compile(block.body, block.name, "exec")
    try:
        exec(code, {"__name__": "__docs_example__"})
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.split(".")[0] not in EXTRAS:
            raise
        pytest.skip(f"needs the optional {exc.name}")


@pytest.mark.parametrize("block", [b for b in RUNNABLE if b.lang != "python"], ids=lambda b: b.name)
def test_shell_example_runs(block: Block, tmp_path: Path) -> None:
    if block.not_run is not None:
        pytest.skip(block.not_run)
    commands = block.commands()
    assert commands, f"{block.name}: a shell block with no command"
    others = [c for c in commands if not PDK_LINE.match(c)]
    assert not others, (
        f"{block.name}: only pdk commands run here; mark the block "
        f"'<!-- not run: why -->' or make it runnable: {others}"
    )
    for name in ("examples", "replays"):
        (tmp_path / name).symlink_to(ROOT / name)
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "pdk").exists(), f"no installed pdk beside {sys.executable}"
    env = pdk_env(columns=100, PDK_DATA_DIR=str(tmp_path / "data"))
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=LINE_TIMEOUT,
        )
        assert done.returncode == 0, (
            f"{block.name}: `{command}` exited {done.returncode}\n"
            f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
        )


def test_the_readme_is_a_front_page() -> None:
    """At most about 200 lines; its links (docs and screenshots) lead somewhere in the
    repository, by relative paths; no page cites the project's outside material."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/screenshots/") for link in local)
    for link in local:
        assert not link.startswith("/"), link
        assert (ROOT / link.split("#")[0]).exists(), f"README links to missing {link}"
    for page in PAGES:
        body = page.read_text(encoding="utf-8")
        assert "../shared" not in body and "/work/shared" not in body, page.name
        for link in re.findall(r"\]\(([^)\s]+)\)", body):
            if "://" not in link and not link.startswith("#") and page.parent.name == "docs":
                assert (page.parent / link.split("#")[0]).exists(), f"{page.name} links to missing {link}"
