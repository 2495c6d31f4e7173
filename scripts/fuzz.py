"""Fuzz every decoder of outside input for a while: the long run of tests/fuzz/targets.py.

    .venv/bin/python scripts/fuzz.py --seconds 60 [--target NAME ...] [--engine atheris]

With atheris installed (`pip install -e '.[fuzz]'`) each target runs under libFuzzer,
coverage-guided, in a child process of its own, its mutations mixed with the targets'
own structure-aware ones; without it, under hypothesis with no example limit until the
time is up. Both keep going after a failure and keep, per distinct failure (exception
type and the line that raised it), the shortest input that shows it. Per target the
report gives the inputs run and their rate, and for each failure the last lines of its
traceback and the input in hex (whole files under --out): put it in a regression test.
Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
SHOWN_HEX = 512  # bytes of a reproducer printed; the whole input is in its file


def signature(exc: BaseException) -> tuple[str, str]:
    """What tells failures apart: the exception's type and the innermost line of ours."""
    frames = _frames(exc)
    ours = [f for f in frames if str(ROOT) in f.filename and "tests/fuzz" not in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    place = f"{Path(where.filename).name}:{where.lineno}" if where else "?"
    return type(exc).__name__, place


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The traceback's frames below this script: the target's and the decoder's."""
    return [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]


def _lines(exc: BaseException) -> list[str]:
    """The traceback from the target down: its first frames and its last (a recursion's
    thousand repeats cut to those)."""
    frames = _frames(exc)
    shown = frames if len(frames) <= 6 else [*frames[:2], None, *frames[-3:]]
    lines = [
        f"{f.filename}:{f.lineno} in {f.name}: {(f.line or '').strip()}" if f else "..."
        for f in shown
    ]
    return [*lines, f"{type(exc).__name__}: {str(exc)[:200]}"]


class Findings:
    """The distinct failures of one target, each with its shortest input, kept in `out`."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)

    def record(self, data: bytes, exc: BaseException) -> None:
        """Keep `data` if its failure is new, or shorter than the input kept for it."""
        kind, place = signature(exc)
        stem = re.sub(r"[^A-Za-z0-9]+", "-", f"{kind}-{place}")
        path = self.out / f"{stem}.bin"
        if path.exists() and path.stat().st_size <= len(data):
            return
        path.write_bytes(data)
        info = {"kind": kind, "where": place, "message": str(exc)[:300], "traceback": _lines(exc)}
        (self.out / f"{stem}.json").write_text(json.dumps(info))

    def read(self) -> list[tuple[dict[str, Any], bytes]]:
        """Every failure kept: what it was, and its input."""
        return [
            (json.loads(info.read_text()), info.with_suffix(".bin").read_bytes())
            for info in sorted(self.out.glob("*.json"))
        ]


# ------------------------------------------------------------------ hypothesis


def run_hypothesis(name: str, seconds: float, findings: Findings) -> int:
    """Run `name` under hypothesis until `seconds` pass; how many inputs ran."""
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from targets import TARGETS, inputs

    target = TARGETS[name]
    strategy = inputs(target)
    runs = 0
    deadline = time.monotonic() + seconds

    def one(data: bytes) -> None:
        nonlocal runs
        runs += 1
        try:
            target.check(data)
        except Exception as exc:  # every escape is a finding; hypothesis need not see it
            findings.record(data, exc)

    batch = 0
    while time.monotonic() < deadline:
        # Batches with seeds of their own: hypothesis has no time limit, only a count.
        run = settings(
            max_examples=200, deadline=None, database=None, phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )(seed(random.getrandbits(64) + batch)(given(strategy)(one)))  # fmt: skip
        run()
        batch += 1
    return runs


# ------------------------------------------------------------------ atheris


def atheris_child(name: str, seconds: float, out: Path) -> None:
    """In a child process: run `name` under libFuzzer until `seconds` pass (never returns)."""
    import atheris

    # libFuzzer ends the process without Python's exit handlers: temporary files go here.
    (out / "tmp").mkdir(parents=True, exist_ok=True)
    tempfile.tempdir = str(out / "tmp")
    with atheris.instrument_imports(include=["protocol", "p2pcards", "ai", "tomllib", "targets"]):
        from targets import TARGETS, mutate

    target = TARGETS[name]
    seeds = target.seeds()
    findings = Findings(out / "findings")
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for i, data in enumerate(seeds):
        (corpus / f"seed-{i}").write_bytes(data)

    def one(data: bytes) -> None:
        try:
            target.check(data)
        except Exception as exc:  # kept, not raised: libFuzzer would stop at the first
            findings.record(data, exc)

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5:
            return bytes(atheris.Mutate(data, max_size))
        return mutate(target, data, rng, seeds)[:max_size]

    longest = max(len(s) for s in seeds)
    atheris.Setup(
        [sys.argv[0], str(corpus), f"-max_total_time={int(seconds)}", "-timeout=30",
         f"-max_len={2 * longest + 4096}", "-print_final_stats=1", "-rss_limit_mb=4096",
         f"-artifact_prefix={out}/"],
        one,
        custom_mutator=mutator,
    )  # fmt: skip
    atheris.Fuzz()


def run_atheris(name: str, seconds: float, findings: Findings) -> int:
    """Run `name` under atheris in a child process; how many inputs ran."""
    work = findings.out.parent / f"{name}-atheris"
    child = [sys.executable, __file__, "--atheris-child", name, "--seconds", str(seconds),
             "--out", str(work)]  # fmt: skip
    done = subprocess.run(child, capture_output=True, text=True, timeout=seconds + 300)
    runs = re.search(r"stat::number_of_executed_units: (\d+)", done.stderr)
    if done.returncode != 0:  # a crash libFuzzer caught itself (a hang, memory, a signal)
        tail = done.stderr.strip().splitlines()[-12:]
        crash = sorted(work.glob("crash-*")) + sorted(work.glob("timeout-*"))
        info = {"kind": "libFuzzer", "where": f"exit {done.returncode}", "message": "",
                "traceback": tail}  # fmt: skip
        stem = f"libfuzzer-{done.returncode}"
        (findings.out / f"{stem}.json").write_text(json.dumps(info))
        (findings.out / f"{stem}.bin").write_bytes(crash[0].read_bytes() if crash else b"")
    for kept in (work / "findings").glob("*"):
        os.replace(kept, findings.out / kept.name)
    return int(runs[1]) if runs else 0


# ------------------------------------------------------------------ report


def main() -> int:
    """Fuzz each target in turn and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="per target")
    parser.add_argument("--target", action="append", help="a target's name (repeat for more)")
    parser.add_argument("--engine", choices=["auto", "atheris", "hypothesis"], default="auto")
    parser.add_argument("--out", type=Path, help="where inputs that fail are kept")
    parser.add_argument("--atheris-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.atheris_child:
        atheris_child(args.atheris_child, args.seconds, args.out)
        return 0
    from targets import TARGETS

    names = args.target or list(TARGETS)
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        parser.error(f"no target {', '.join(unknown)}; targets: {', '.join(TARGETS)}")
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
        except ImportError:
            engine = "hypothesis"
        else:
            engine = "atheris"
    out = args.out or Path(tempfile.mkdtemp(prefix="p2pcards-fuzz-"))
    print(f"engine: {engine}; {args.seconds:g} s per target; failing inputs under {out}")
    failed = False
    for name in names:
        findings = Findings(out / name)
        started = time.monotonic()
        run = run_atheris if engine == "atheris" else run_hypothesis
        runs = run(name, args.seconds, findings)
        took = time.monotonic() - started
        found = findings.read()
        failed = failed or bool(found)
        verdict = f"{len(found)} distinct failure(s)" if found else "no failure"
        print(f"{name:18} {runs:9} inputs  {runs / took:8.0f}/s  {verdict}", flush=True)
        for info, data in found:
            print(f"  {info['kind']} at {info['where']}: {info['message']}")
            for line in info["traceback"]:
                print(f"    | {line}")
            shown = data[:SHOWN_HEX].hex()
            more = f"... ({len(data)} bytes in all)" if len(data) > SHOWN_HEX else ""
            print(f"  input ({len(data)} bytes): {shown}{more}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
