#!/usr/bin/env python3
"""Peak memory of dbai-mcp while it exports: 10,000 rows and 1,000,000 rows, as CSV and as JSON
Lines, each in a fresh process, reading VmHWM (peak resident set) from /proc. Constant memory
means the 1,000,000-row peak is about the 10,000-row peak.

`python3 Scripts/bench_export.py --binary BIN` (Linux; standard library only). Also times each
export and reads the whole export back through resources/read once, for the 10,000-row one.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_stdio import StdioClient  # noqa: E402


def make_database(path: str, rows: int) -> None:
    database = sqlite3.connect(path)
    with database:
        database.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT, amount REAL, note TEXT)")
        database.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO item SELECT i, 'label ' || i, i / 8.0, printf('note, "%d"', i) FROM n
            """, (rows,))
    database.close()


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def run(binary: str, database: str, format: str) -> tuple[int, int, float, int]:
    client = StdioClient([binary, "--db", database, "--timeout-ms", "600000"], subprocess.DEVNULL)
    try:
        client.initialize(timeout=60)
        before = peak_kib(client.popen.pid)
        began = time.perf_counter()
        response = client.request("tools/call", {"name": "export", "arguments": {
            "sql": "SELECT * FROM item ORDER BY id", "format": format}}, timeout=600)
        elapsed = time.perf_counter() - began
        result = response["result"]
        if result.get("isError"):
            raise RuntimeError(result["content"][0]["text"])
        return before, peak_kib(client.popen.pid), elapsed, result["structuredContent"]["bytes"]
    finally:
        client.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rows", default="10000,1000000")
    args = parser.parse_args(argv)
    print("| rows | format | peak RSS after initialize | peak RSS after the export | export time | bytes |")
    print("|---:|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="bench-export-") as folder:
        for rows in (int(part) for part in args.rows.split(",")):
            path = os.path.join(folder, f"rows{rows}.sqlite")
            make_database(path, rows)
            for format in ("csv", "jsonl"):
                before, after, elapsed, size = run(args.binary, path, format)
                print(f"| {rows:,} | {format} | {before / 1024:.1f} MiB | {after / 1024:.1f} MiB | {elapsed:.2f} s | {size:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
