"""Rows to insert, by table, and a record's data as the JSON text of ``records.data``."""

from __future__ import annotations

import json
from collections.abc import Callable
from operator import itemgetter
from typing import Any

import orjson

from domain.kernel.facts import Row
from projections.analytics.schema import RECORDS_TABLE, TABLES

Values = tuple[Any, ...]  # a row as its values, in the order of its table's columns

_slow_json = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def record_json(data: dict[str, Any]) -> str:
    """``canonical``'s form of a record's data (orjson's sorted keys, compact, not escaped: the
    same text, at a fifth of the cost); the standard encoder for what orjson does not encode (an
    integer beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return _slow_json(data)


def record_jsons(datas: list[dict[str, Any]]) -> list[str]:
    """``record_json`` of each (orjson called directly: one call a record).

    Text, not orjson's bytes: a bytes object from orjson holds on to a buffer far larger than its
    JSON, so a batch that kept one per record touched a new page of memory per record (a page
    fault each, some 3 us on a virtual machine: more than the encoding). The text is a copy of
    the exact size, and the bytes go at once."""
    dumps, sort = orjson.dumps, orjson.OPT_SORT_KEYS
    try:
        return [dumps(data, option=sort).decode() for data in datas]
    except TypeError:  # an integer beyond 64 bits somewhere: that record by the standard encoder
        return [record_json(data) for data in datas]


class Rows:
    """Rows to insert, by table: each row its values in the order of the table's columns (so
    that a batch becomes columns at C speed, ``zip(*rows)``); ``records``, one row per record,
    straight as its columns (``columns``: one list per column), with no tuple per row."""

    def __init__(self) -> None:
        self.rows: dict[str, list[Values]] = {name: [] for name in TABLES if name != RECORDS_TABLE}
        self.columns: tuple[list[Any], ...] = tuple([] for _ in TABLES[RECORDS_TABLE])

    def add(self, table: str, row: Row) -> None:
        """A row given by column name (the fact tables: a few rows a game)."""
        self.rows[table].append(_VALUES_OF[table](row))

    @property
    def tables(self) -> dict[str, list[Row]]:
        """The rows as dicts by column name (for reading them in tests)."""
        found = {
            table: [dict(zip(_NAMES[table], values, strict=True)) for values in rows]
            for table, rows in self.rows.items()
        }
        found[RECORDS_TABLE] = [
            dict(zip(_NAMES[RECORDS_TABLE], values, strict=True)) for values in zip(*self.columns, strict=True)
        ]
        return found


_NAMES = {table: tuple(name for name, _ in columns) for table, columns in TABLES.items()}


def _values_of(names: tuple[str, ...]) -> Callable[[Row], Values]:
    """A row's values in its table's column order (``itemgetter`` of one name gives no tuple)."""
    if len(names) > 1:
        return itemgetter(*names)
    (name,) = names
    return lambda row: (row[name],)


_VALUES_OF: dict[str, Callable[[Row], Values]] = {table: _values_of(names) for table, names in _NAMES.items()}
