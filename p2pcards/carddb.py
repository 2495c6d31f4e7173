"""Reading a game's card database: TOML shipped inside the game's package, or bytes from
anywhere (`parse_toml`), refused with a CardDataError whatever is wrong with them."""

import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any, cast

from p2pcards.errors import CardDataError

MAX_BYTES = 1 << 20  # a card database is a few KiB; a deck file a person writes, no more
# Copies of one card: every copy is a point shuffled by every seat, so a typo of 10**9
# must be refused when read, not found as memory running out at the first deal.
MAX_COPIES = 1000


def read_toml(package: str, filename: str) -> dict[str, Any]:
    """Parse `filename` from `package`'s data; CardDataError says what is wrong and where."""
    where = f"card database {package}/{filename}"
    try:
        data = resources.files(package).joinpath(filename).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise CardDataError(f"{where} is missing") from exc
    return parse_toml(data, where)


def parse_toml(data: bytes, where: str) -> dict[str, Any]:
    """Parse TOML from bytes; CardDataError, naming `where`, for anything that is not TOML."""
    if len(data) > MAX_BYTES:
        raise CardDataError(f"{where} is {len(data)} bytes, over the {MAX_BYTES}-byte limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardDataError(f"{where} is not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{where} is not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer over Python's digit limit: not a TOMLDecodeError
        raise CardDataError(f"{where} holds a number Python cannot hold: {exc}") from None
    except RecursionError:
        # tomllib recurses into nested arrays and inline tables and has no depth limit.
        raise CardDataError(f"{where} nests arrays or tables too deeply") from None


def require(
    entry: dict[str, Any],
    key: str,
    kind: type,
    where: str,
    *,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """entry[key], checked to be of `kind` (and a number in [low, high] when given);
    CardDataError names the entry otherwise."""
    value = entry.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        shown = f"{value!r:.80}"
        raise CardDataError(f"{where}: field {key!r} must be a {kind.__name__}, got {shown}")
    number = cast(float, value)  # compared only when a bound is given: a number then
    if low is not None and number < low:
        raise CardDataError(f"{where}: field {key!r} must be at least {low}, got {value!r}")
    if high is not None and number > high:
        raise CardDataError(f"{where}: field {key!r} must be at most {high}, got {value!r}")
    return value


def entries(data: dict[str, Any], table: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each `[[table]]` entry with a name for error messages ("card #3"); CardDataError if
    the key is not a list of tables."""
    items = data.get(table, [])
    if not isinstance(items, list):
        raise CardDataError(f"{table!r} must be a list of [[{table}]] tables")
    for i, entry in enumerate(items):
        where = f"{table} #{i + 1}"
        if not isinstance(entry, dict):
            raise CardDataError(f"{where} must be a table, not {entry!r}")
        yield where, entry
