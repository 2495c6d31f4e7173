"""scripts/_setup.sh, run by bash against a stand-in `python3` that records what pip is asked
to install: a first game installs only what playing needs, the tests the dev and cluster
extras, and each once (issue 27, finding 10)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# `python3 -c ...` (the stamp's hash) runs the real Python; `-m venv` makes a venv whose
# python is a link to this script; `-m pip ...` is written down, and says pip is recent.
STAND_IN = """#!/bin/sh
case "$1" in
  -c) exec {python} "$@" ;;
  -m)
    case "$2" in
      venv) for d; do :; done; mkdir -p "$d/bin"; ln -s "$0" "$d/bin/python" ;;
      pip) shift 2; echo "pip $*" >>"$CALLS"; echo "Collecting msgpack" ;;
    esac ;;
esac
"""


def setup(tmp: Path, extras: str | None) -> list[str]:
    """Source the setup script in a copy of the project; the pip commands it ran."""
    project = tmp / "project"
    if not project.exists():
        (project / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / "_setup.sh", project / "scripts")
        shutil.copy(ROOT / "pyproject.toml", project)
        bin_dir = tmp / "bin"
        bin_dir.mkdir()
        python3 = bin_dir / "python3"
        python3.write_text(STAND_IN.format(python=sys.executable))
        python3.chmod(0o755)
    calls = tmp / "calls.txt"
    calls.write_text("")
    env = {**os.environ, "PATH": f"{tmp / 'bin'}:{os.environ['PATH']}", "CALLS": str(calls)}
    given = "" if extras is None else f"EXTRAS={extras}; "
    done = subprocess.run(
        ["bash", "-c", f"{given}source {project}/scripts/_setup.sh"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return calls.read_text().splitlines()


def test_a_first_game_installs_only_what_playing_needs_and_the_tests_add_their_extras(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    played = setup(tmp_path, None)  # scripts/p2pcards
    assert len(played) == 1 and played[0].endswith(f"-e {project}"), played
    assert "dev" not in played[0] and "cluster" not in played[0]
    assert "--upgrade pip" not in played[0]
    assert setup(tmp_path, None) == []  # set up: nothing more to install
    (tested,) = setup(tmp_path, "dev,cluster")  # scripts/test
    assert tested.endswith(f" -e {project}[cluster,dev]"), tested
    assert setup(tmp_path, "dev,cluster") == [] and setup(tmp_path, None) == []
