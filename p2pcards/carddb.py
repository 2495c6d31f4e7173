"""Reading a game's card database (TOML shipped inside the game's package)."""

import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from p2pcards.errors import CardDataError


def read_toml(package: str, filename: str) -> dict[str, Any]:
    """Parse `filename` from `package`'s data; CardDataError says what is wrong and where."""
    try:
        text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise CardDataError(f"card database {package}/{filename} is missing") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"card database {package}/{filename} is not valid TOML: {exc}") from exc


def require(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """entry[key], checked to be of `kind`; CardDataError names the entry otherwise."""
    value = entry.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CardDataError(f"{where}: field {key!r} must be a {kind.__name__}, got {value!r}")
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
