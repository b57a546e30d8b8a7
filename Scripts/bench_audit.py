#!/usr/bin/env python3
"""The cost of `--audit-log` on writes, and that reads do not pay it.

For each binary given, on a fresh copy of the database each run, over raw JSON-RPC on stdio:

  inserts   1,000 single-row `insert` calls, one at a time (each waits for its answer), without
            and with `--audit-log` (a file next to the database copy): calls per second. With the
            log, each insert writes two lines and waits for two fdatasync calls.
  pipelined the same 1,000 inserts sent in one write, then every answer read.
  query     1,000 `query` calls one at a time, without and with `--audit-log`: median ms.

Runs alternate between binaries and modes (A, B, A, B…), and medians are printed. Every answer
is checked; a failed call is a run failure, never a timing.

    python3 Scripts/bench_audit.py --db Examples/chinook.sqlite BIN [BIN…] [--runs 3]

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_stdio import StdioClient, encode  # noqa: E402

CALLS = 1_000


def insert(request_id: int) -> bytes:
    return encode({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
        "name": "insert", "arguments": {"table": "Genre", "rows": [{"Name": f"bench-{request_id}"}]}}})


def query(request_id: int) -> bytes:
    return encode({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
        "name": "query", "arguments": {"sql": "SELECT ArtistId, Name FROM Artist WHERE ArtistId = 1"}}})


def checked(line: bytes, request_id: int) -> None:
    message = json.loads(line)
    if message.get("id") != request_id or "error" in message or message["result"].get("isError"):
        raise SystemExit(f"call {request_id} failed: {line[:300]!r}")


def start(binary: str, database: Path, log: Path | None) -> StdioClient:
    argv = [binary, "--db", str(database), "--allow", "standard"]
    if log is not None:
        argv += ["--audit-log", str(log)]
    client = StdioClient(argv)
    client.initialize()
    return client


def sequential(client: StdioClient, make, first_id: int) -> list[float]:
    times = []
    for request_id in range(first_id, first_id + CALLS):
        began = time.perf_counter()
        client.write(make(request_id))
        line = client.read_response(30)
        times.append(time.perf_counter() - began)
        checked(line, request_id)
    return times


def pipelined(client: StdioClient, first_id: int) -> float:
    payload = b"".join(insert(request_id) for request_id in range(first_id, first_id + CALLS))
    began = time.perf_counter()
    client.write(payload)
    lines = [client.read_response(60) for _ in range(CALLS)]
    elapsed = time.perf_counter() - began
    for offset, line in enumerate(lines):
        checked(line, first_id + offset)
    return CALLS / elapsed


def run(binary: str, source: Path, logged: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="dbai-bench-audit-") as folder:
        database = Path(folder) / "bench.sqlite"
        shutil.copyfile(source, database)
        log = Path(folder) / "audit.jsonl" if logged else None
        client = start(binary, database, log)
        try:
            sequential(client, query, 10)  # warm up
            inserts = sequential(client, insert, 10_000)
            rate = pipelined(client, 20_000)
            reads = sequential(client, query, 30_000)
        finally:
            client.close()
        if log is not None:
            lines = log.read_text().splitlines()
            if len(lines) != 4 * CALLS:
                raise SystemExit(f"expected {4 * CALLS} audit lines, found {len(lines)}")
    return {
        "inserts_per_s": CALLS / sum(inserts),
        "pipelined_per_s": rate,
        "query_p50_ms": statistics.median(reads) * 1_000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--db", type=Path, default=Path("Examples/chinook.sqlite"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-log-only", action="append", default=[], metavar="BIN",
                        help="a binary without --audit-log (a build from before it), measured without the log only")
    args = parser.parse_args()
    results: dict[tuple[str, bool], list[dict[str, float]]] = {}
    plans = [(binary, False) for binary in args.no_log_only]
    plans += [(binary, logged) for binary in args.binaries for logged in (False, True)]
    for _ in range(args.runs):
        for binary, logged in plans:
            results.setdefault((binary, logged), []).append(run(binary, args.db, logged))
    print(f"{'binary':<48} {'log':<4} {'inserts/s':>10} {'pipelined/s':>12} {'query p50 ms':>13}")
    for (binary, logged), runs in results.items():
        def median(key: str) -> float:
            return statistics.median(run[key] for run in runs)
        print(f"{binary[-48:]:<48} {'yes' if logged else 'no':<4} {median('inserts_per_s'):>10.0f} "
              f"{median('pipelined_per_s'):>12.0f} {median('query_p50_ms'):>13.3f}")


if __name__ == "__main__":
    main()
