#!/usr/bin/env python3
"""Generates a wide SQLite database for benchmarks: N tables of 12 columns, each table's
foreign key pointing at the one before it (a chain), R rows per table, and a description in
a column comment of the first column. `python3 Scripts/make_wide_db.py OUT.sqlite --tables 400`."""
import argparse
import sqlite3
import sys
from pathlib import Path

WORDS = ["alpha", "harbor", "meadow", "copper", "lantern", "orchid", "summit", "velvet", "willow", "quartz",
         "falcon", "ember", "glacier", "juniper", "marble", "nectar", "onyx", "prairie", "raven", "saffron"]


def table_name(index: int) -> str:
    return f"t{index:04d}_{WORDS[index % len(WORDS)]}"


def create(path: Path, tables: int, rows: int) -> None:
    if path.exists():
        path.unlink()
    database = sqlite3.connect(path)
    with database:
        for index in range(tables):
            name = table_name(index)
            parent = f", parent_id INTEGER REFERENCES {table_name(index - 1)}(id)" if index else ", parent_id INTEGER"
            columns = "".join(f", c{column:02d} TEXT" for column in range(10))
            database.execute(
                f"CREATE TABLE {name}(id INTEGER PRIMARY KEY -- row of the {WORDS[index % len(WORDS)]} ledger number {index}\n"
                f"{parent}{columns})")
            database.executemany(
                f"INSERT INTO {name} VALUES (?, ?{', ?' * 10})",
                [(row, row if index else None, *(f"{WORDS[(row + column) % len(WORDS)]} {row}" for column in range(10)))
                 for row in range(1, rows + 1)])
    database.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--rows", type=int, default=20)
    args = parser.parse_args(argv)
    create(args.out, args.tables, args.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
