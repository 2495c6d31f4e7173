"""The network lab (scripts/netlab.py) for tests: loaded once, started or failed in one line.

These need root and /dev/net/tun. Where the lab cannot be built a test fails with the lab's
own message; it is never skipped.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "netlab.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("netlab", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is being made.
    sys.modules["netlab"] = module
    spec.loader.exec_module(module)
    return module


netlab = _load()


@contextmanager
def lab(**settings: Any) -> Iterator[Any]:
    """A running NetLab; a machine that cannot build one fails the test in one clear line."""
    built = netlab.NetLab(**settings)
    problem = None
    try:
        built.start()
    except netlab.NetLabError as exc:
        problem = f"the network lab cannot be built here: {exc}"
    if problem is not None:  # failed outside the except block, so without a chained trace
        pytest.fail(problem, pytrace=False)
    try:
        yield built
    finally:
        built.close()
