#!/usr/bin/env python3
"""How dbai-mcp's start-up and schema answers grow with the schema: Chinook, then generated
databases of N tables of 12 columns (Scripts/make_wide_db.py).

For each database: start + `initialize` (a fresh process each run, median; the databases'
runs interleaved), the first
`describe_schema` after it (the schema is read then), a warm `describe_schema`, and the bytes of
its answer and of `resources/list`. With `--before BIN`, another build runs the same
measurements in the same run, and the ratios are printed. The goal: start + initialize on 1,000
tables within 1.5x of Chinook's.

`python3 Scripts/bench_schema_size.py --binary BIN [--before BIN] [--tables 400,1000]`; run by
`Scripts/bench-mcp` too. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_wide_db import create  # noqa: E402
from mcp_stdio import StdioClient  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
GOAL_START_RATIO = 1.5


def start_and_initialize(binary: str, databases: list[str], runs: int) -> list[float]:
    """The median start + initialize of each database, the runs interleaved so that a busy
    moment of the machine weighs on every database alike."""
    samples: list[list[float]] = [[] for _ in databases]
    for _ in range(runs):
        for index, database in enumerate(databases):
            began = time.perf_counter()
            client = StdioClient([binary, "--db", database], subprocess.DEVNULL)
            client.initialize(timeout=60)
            samples[index].append((time.perf_counter() - began) * 1000)
            client.close()
    return [statistics.median(series) for series in samples]


def schema_calls(binary: str, database: str, warm_runs: int) -> dict:
    client = StdioClient([binary, "--db", database], subprocess.DEVNULL, keep_lines=True)
    try:
        client.initialize(timeout=60)
        began = time.perf_counter()
        response = client.request("tools/call", {"name": "describe_schema", "arguments": {}}, timeout=120)
        first = (time.perf_counter() - began) * 1000
        if "error" in response or response["result"].get("isError"):
            raise RuntimeError(f"describe_schema failed: {response}")
        answer_bytes = len(client.lines[-1])
        warm = []
        for _ in range(warm_runs):
            began = time.perf_counter()
            client.request("tools/call", {"name": "describe_schema", "arguments": {}}, timeout=120)
            warm.append((time.perf_counter() - began) * 1000)
        client.request("resources/list", {}, timeout=120)
        list_bytes = len(client.lines[-1])
        return {"first": first, "warm": statistics.median(warm), "bytes": answer_bytes, "list_bytes": list_bytes}
    finally:
        client.close()


def measure(binary: str, databases: list[tuple[str, str]], runs: int) -> dict[str, dict]:
    print(f"bench-schema-size: {Path(binary).name}, start-ups", file=sys.stderr, flush=True)
    starts = start_and_initialize(binary, [path for _, path in databases], runs)
    results = {}
    for (label, path), start in zip(databases, starts):
        print(f"bench-schema-size: {Path(binary).name} on {label}", file=sys.stderr, flush=True)
        results[label] = {"start": start, **schema_calls(binary, path, max(3, runs // 2))}
    return results


def report(after: dict[str, dict], before: dict[str, dict] | None) -> bool:
    print("\nSchema size: start + initialize, describe_schema (first call reads the schema; warm), answer bytes")
    header = "| database | start+init ms | describe first ms | describe warm ms | describe bytes | resources/list bytes |"
    print(header)
    print("|---|---:|---:|---:|---:|---:|")
    for label, row in after.items():
        cells = [f"{row['start']:.1f}", f"{row['first']:.1f}", f"{row['warm']:.1f}", f"{row['bytes']:,}", f"{row['list_bytes']:,}"]
        if before:
            old = before[label]
            cells = [
                f"{old['start']:.1f} → {row['start']:.1f} ({row['start'] / old['start']:.2f}×)",
                f"{old['first']:.1f} → {row['first']:.1f} ({row['first'] / old['first']:.2f}×)",
                f"{old['warm']:.1f} → {row['warm']:.1f} ({row['warm'] / old['warm']:.2f}×)",
                f"{old['bytes']:,} → {row['bytes']:,}",
                f"{old['list_bytes']:,} → {row['list_bytes']:,}",
            ]
        print(f"| {label} | " + " | ".join(cells) + " |")
    labels = list(after)
    ratio = after[labels[-1]]["start"] / after[labels[0]]["start"]
    passed = ratio <= GOAL_START_RATIO
    print(f"\nstart + initialize, {labels[-1]} / {labels[0]}: {ratio:.2f}× (goal ≤ {GOAL_START_RATIO}×) "
          f"{'ok' if passed else 'FAIL'}")
    return passed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--before", help="another build, measured in the same run for ratios")
    parser.add_argument("--tables", default="400,1000", help="sizes of the generated databases")
    parser.add_argument("--runs", type=int, default=15, help="start-ups per database")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-schema-") as folder:
        databases = [("Chinook (11 tables)", str(REPO / "Examples" / "chinook.sqlite"))]
        for count in (int(part) for part in args.tables.split(",") if part):
            path = os.path.join(folder, f"wide{count}.sqlite")
            create(Path(path), count, 20)
            databases.append((f"{count} tables", path))
        before = measure(args.before, databases, args.runs) if args.before else None
        after = measure(args.binary, databases, args.runs)
        report(after, before)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
