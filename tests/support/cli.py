"""The one way the tests run ``pdk``: in this process through the real entry point
(``run_pdk``, the cheap default), or as the installed program in a process of its own
(``run_pdk_binary``: signals, timeouts, plug-ins imported from the current folder, workers
spawned), both in the same fixed environment (``pdk_env``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdk.cli.app import main

# The installed program, as a user's shell finds it ("" where it is not installed: the tests
# that need it skip with ``needs_binary``).
PDK = shutil.which("pdk") or ""


def pdk_env(columns: int = 200, **extra: str) -> dict[str, str]:
    """The environment the tests run ``pdk`` in: no colour, a fixed width, and the C locale
    (English unless ``--lang`` says otherwise); ``extra`` adds variables (``PDK_DATA_DIR``…)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(columns), "LANG": "C.UTF-8", **extra}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    return env


def _environment(env: dict[str, str] | None, columns: int, data_dir: Path | None) -> dict[str, str]:
    """``env`` as given, or ``pdk_env`` at ``columns`` keeping its data in ``data_dir``."""
    if env is not None:
        return env
    return pdk_env(columns) if data_dir is None else pdk_env(columns, PDK_DATA_DIR=str(data_dir))


def run_pdk(
    *args: str,
    env: dict[str, str] | None = None,
    columns: int = 200,
    data_dir: Path | None = None,
    stdin: str | None = "",
) -> subprocess.CompletedProcess[str]:
    """``pdk`` with these arguments, its output captured: in this process through the real
    entry point (``pdk.cli.app.main``: usage errors, exit codes and all) with Typer's
    ``CliRunner`` isolation, which saves a Python start per call. The environment is ``env``,
    or else ``pdk_env`` at ``columns`` with ``PDK_DATA_DIR`` set to ``data_dir`` if given."""
    wanted = _environment(env, columns, data_dir)
    # The command gets exactly ``wanted``: variables it lacks are removed for the call.
    overrides: dict[str, str | None] = {k: None for k in os.environ if k not in wanted}
    overrides.update(wanted)
    runner = CliRunner()
    argv = sys.argv
    with runner.isolation(input=stdin, env=overrides) as (out, err, *_):
        sys.argv = ["pdk", *args]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:
            traceback.print_exc()
            code = 1
        finally:
            sys.argv = argv
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return subprocess.CompletedProcess(["pdk", *args], code, stdout, stderr)


def run_pdk_binary(
    *args: str,
    env: dict[str, str] | None = None,
    columns: int = 200,
    data_dir: Path | None = None,
    timeout: float = 60,
    cwd: Path | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """The installed ``pdk`` program in a process of its own, run as a user would (in ``cwd``,
    given ``stdin``), its output captured; the environment as for ``run_pdk``."""
    return subprocess.run(
        [PDK or "pdk", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_environment(env, columns, data_dir),
        cwd=cwd,
        input=stdin,
    )


# For the tests that need the installed program itself (its own process, pseudo-terminals).
needs_binary = pytest.mark.skipif(not PDK, reason="the pdk program is not installed")
