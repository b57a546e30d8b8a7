#!/usr/bin/env python3
"""Side-by-side benchmark of dbai-mcp and the reference Python SQLite MCP server.

Both servers are driven over raw newline-delimited JSON-RPC on their stdin/stdout (no MCP client
library) with the same small SELECT, each on its own temporary copy of the database:

  cold start   spawn -> `initialize` result line read, a fresh process each run (dbai-mcp also
               with a second database and a Datasette metadata file: --second-db)
  sequential   one `tools/call` at a time after initialize + notifications/initialized
  pipelined    N `tools/call` requests in one write, then all N responses read
  behind slow  a slow read and a quick one in one write: when is the quick one answered?
  http         dbai-mcp --http: sequential calls, and N sessions x M calls at once (bench_http.py)
  schema size  start + initialize and describe_schema on Chinook and on generated databases of
               400 and 1,000 tables (bench_schema_size.py)

Every response is checked (success, the expected rows) after its timed region; a wrong answer is
a run failure, never a timing. Exits non-zero only when setup or a run fails; missed goals print
FAIL. Normally started by `Scripts/bench-mcp`, which builds and installs both servers.

Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import bench_schema_size
from bench_http import STATELESS_META, HTTPBenchError, measure_http
from mcp_stdio import INITIALIZED, StdioClient, StdioClientError, encode, initialize_request, is_server_message

DEFAULT_SQL = "SELECT ArtistId, Name FROM Artist WHERE ArtistId = 1"
# Starts with SELECT: the reference server accepts nothing else.
SLOW_SQL = "SELECT (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000000) SELECT max(i) FROM c) AS n"
SLOW_SQL_ANSWER = b"3000000"

# Goals for dbai-mcp.
GOAL_COLD_START_MS = 30.0
GOAL_SEQUENTIAL_MEDIAN_MS = 0.3
GOAL_SEQUENTIAL_SPEEDUP = 10.0
GOAL_PIPELINED_CALLS_PER_S = 10_000.0


class BenchError(Exception):
    """Setup or run failure: the benchmark cannot produce a trustworthy number."""


# ---------------------------------------------------------------------------------------------
# Servers


@dataclass
class ServerSpec:
    """How to start one server and how to call its query tool."""

    label: str
    argv: Callable[[str], list[str]]  # database path -> command line
    tool: str
    arguments: Callable[[str], dict]  # SQL -> tool arguments
    check_result: Callable[[dict], str | None]  # `result` object -> problem or None
    must_exit_zero: bool
    #: MCP 2026-07-28: no initialize; `server/discover` opens, every request carries its `_meta`.
    stateless: bool = False

    def opening(self, request_id: int) -> bytes:
        """The first request: `initialize`, or `server/discover` under 2026-07-28."""
        if self.stateless:
            return encode({"jsonrpc": "2.0", "id": request_id, "method": "server/discover", "params": {"_meta": STATELESS_META}})
        return initialize_request(request_id, "bench-mcp")

    def params(self, params: dict) -> dict:
        return {**params, "_meta": STATELESS_META} if self.stateless else params



def expected_rows(database: str, sql: str) -> tuple[list[str], list[list]]:
    """The columns and rows SQLite itself returns for `sql`: what both servers must answer."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        cursor = connection.execute(sql)
        columns = [d[0] for d in cursor.description]
        rows = [list(row) for row in cursor.fetchall()]
    finally:
        connection.close()
    if not rows:
        raise BenchError(f"the benchmark SQL returns no rows: {sql}")
    return columns, rows


def make_specs(ours: str, reference: str, columns: list[str], rows: list[list]) -> list[ServerSpec]:
    def check_ours(result: dict) -> str | None:
        if result.get("isError"):
            return f"isError: {result.get('content')}"
        got = (result.get("structuredContent") or {}).get("rows")
        return None if got == rows else f"rows {got!r}, expected {rows!r}"

    reference_rows = [dict(zip(columns, row)) for row in rows]

    def check_reference(result: dict) -> str | None:
        if result.get("isError"):
            return f"isError: {result.get('content')}"
        try:
            text = result["content"][0]["text"]
            got = ast.literal_eval(text)
        except (KeyError, IndexError, TypeError, ValueError, SyntaxError) as error:
            return f"unreadable content ({error}): {result.get('content')!r}"
        return None if got == reference_rows else f"rows {got!r}, expected {reference_rows!r}"

    return [
        ServerSpec(
            label="dbai-mcp",
            argv=lambda db: [ours, "--db", db],
            tool="query",
            arguments=lambda sql: {"sql": sql},
            check_result=check_ours,
            must_exit_zero=True,
        ),
        ServerSpec(
            label="reference",
            argv=lambda db: [reference, "--db-path", db],
            tool="read_query",
            arguments=lambda sql: {"query": sql},
            check_result=check_reference,
            must_exit_zero=False,
        ),
    ]


# ---------------------------------------------------------------------------------------------
# Wire


class Watchdog:
    """Raises BenchError in the main thread when a phase takes too long (a hung server)."""

    def __init__(self) -> None:
        signal.signal(signal.SIGALRM, self._fire)
        self.what = ""

    def _fire(self, signum, frame):  # noqa: ARG002
        raise BenchError(f"timed out: {self.what}")

    @contextlib.contextmanager
    def limit(self, seconds: int, what: str) -> Iterator[None]:
        self.what = what
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)


def parse_response(line: bytes, request_id: int, what: str) -> dict:
    try:
        message = json.loads(line)
    except json.JSONDecodeError as error:
        raise BenchError(f"{what}: not JSON ({error}): {line[:200]!r}") from error
    if message.get("id") != request_id:
        raise BenchError(f"{what}: expected the response to id {request_id}, got {line[:200]!r}")
    if "error" in message:
        raise BenchError(f"{what}: JSON-RPC error {message['error']}")
    result = message.get("result")
    if not isinstance(result, dict):
        raise BenchError(f"{what}: no result object: {line[:200]!r}")
    return result


# ---------------------------------------------------------------------------------------------
# Measurements


@dataclass
class Session:
    process: StdioClient
    spec: ServerSpec
    next_id: int = 1

    def take_ids(self, count: int) -> range:
        ids = range(self.next_id, self.next_id + count)
        self.next_id += count
        return ids


def start_session(spec: ServerSpec, database: str, stderr_path: str, watchdog: Watchdog) -> tuple[Session, dict]:
    process = StdioClient(spec.argv(database), stderr_path)
    try:
        with watchdog.limit(60, f"{spec.label} initialize"):
            process.write(spec.opening(0))
            result = parse_response(process.read_response(), 0, f"{spec.label} initialize")
            if not spec.stateless:
                process.write(INITIALIZED)
    except BaseException:
        process.kill()
        raise
    return Session(process, spec), result


def tool_call_lines(session: Session, sql: str, count: int) -> tuple[range, list[bytes]]:
    ids = session.take_ids(count)
    arguments = session.spec.arguments(sql)
    name = session.spec.tool
    return ids, [
        encode({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": session.spec.params({"name": name, "arguments": arguments})})
        for i in ids
    ]


def verify_calls(spec: ServerSpec, ids: range, lines: list[bytes], what: str) -> None:
    """Every response answers one of `ids` exactly once, successfully, with the expected rows."""
    expected = set(ids)
    for line in lines:
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            raise BenchError(f"{spec.label} {what}: not JSON ({error}): {line[:200]!r}") from error
        request_id = message.get("id")
        if request_id not in expected:
            raise BenchError(f"{spec.label} {what}: unexpected or duplicate response id {request_id!r}")
        expected.discard(request_id)
        if "error" in message:
            raise BenchError(f"{spec.label} {what}: JSON-RPC error {message['error']}")
        problem = spec.check_result(message.get("result") or {})
        if problem:
            raise BenchError(f"{spec.label} {what}: wrong answer to id {request_id}: {problem}")
    if expected:
        raise BenchError(f"{spec.label} {what}: {len(expected)} requests unanswered")


def measure_cold_start(spec: ServerSpec, database: str, runs: int, stderr_path: str, watchdog: Watchdog) -> list[float]:
    """Milliseconds from spawn to the `initialize` (or `server/discover`) result line, one fresh
    process per run."""
    request = spec.opening(0)
    samples = []
    for run in range(runs):
        with watchdog.limit(60, f"{spec.label} cold start {run + 1}"):
            start = time.perf_counter_ns()
            process = StdioClient(spec.argv(database), stderr_path)
            try:
                process.write(request)
                line = process.read_response()
                elapsed = time.perf_counter_ns() - start
            except BaseException:
                process.kill()
                raise
            parse_response(line, 0, f"{spec.label} cold start")
            code = process.close()
        if spec.must_exit_zero and code != 0:
            raise BenchError(f"{spec.label} exited with {code} at end of input; stderr: {process.stderr_tail()}")
        samples.append(elapsed / 1e6)
    return samples


def measure_sequential(session: Session, sql: str, warmups: int, calls: int, watchdog: Watchdog) -> list[float]:
    """Milliseconds per `tools/call` round trip, one request in flight at a time."""
    spec, process = session.spec, session.process
    ids, requests = tool_call_lines(session, sql, warmups + calls)
    responses: list[bytes] = []
    samples: list[int] = []
    write, read_response, clock = process.write, process.read_response, time.perf_counter_ns
    with watchdog.limit(max(60, calls // 10), f"{spec.label} sequential calls"):
        for index, request in enumerate(requests):
            start = clock()
            write(request)
            line = read_response()
            end = clock()
            responses.append(line)
            if index >= warmups:
                samples.append(end - start)
    verify_calls(spec, ids, responses, "sequential call")
    return [ns / 1e6 for ns in samples]


def measure_pipelined(session: Session, sql: str, batch: int, runs: int, watchdog: Watchdog) -> list[float]:
    """Calls per second for `batch` requests written at once and all responses read, per run."""
    spec, process = session.spec, session.process
    rates = []
    for run in range(runs):
        ids, requests = tool_call_lines(session, sql, batch)
        payload = b"".join(requests)
        # The write happens on another thread so a server that writes before it has read
        # everything can never deadlock against us on full pipe buffers.
        failure: list[BaseException] = []

        def writer() -> None:
            try:
                process.write(payload)
            except BaseException as error:  # noqa: BLE001
                failure.append(error)

        with watchdog.limit(120, f"{spec.label} pipelined run {run + 1}"):
            thread = threading.Thread(target=writer, daemon=True)
            start = time.perf_counter_ns()
            thread.start()
            lines = process.read_lines(batch)
            end = time.perf_counter_ns()
            thread.join()
            # Server notifications (none expected) do not count as answers: read what is missing.
            responses = [line for line in lines if not is_server_message(line)]
            while len(responses) < batch:
                responses.append(process.read_response())
                end = time.perf_counter_ns()
        if failure:
            raise BenchError(f"{spec.label} pipelined write failed: {failure[0]}")
        verify_calls(spec, ids, responses, f"pipelined run {run + 1}")
        rates.append(batch / ((end - start) / 1e9))
    return rates


def measure_method(session: Session, method: str, params: dict | None, warmups: int, calls: int, watchdog: Watchdog) -> list[float]:
    """Milliseconds per round trip of a method other than tools/call (for the breakdown)."""
    ids = session.take_ids(warmups + calls)
    requests = [encode({"jsonrpc": "2.0", "id": i, "method": method, **({"params": params} if params else {})})
                for i in ids]
    samples, responses = [], []
    process, clock = session.process, time.perf_counter_ns
    with watchdog.limit(max(60, calls // 10), f"{session.spec.label} {method}"):
        for index, request in enumerate(requests):
            start = clock()
            process.write(request)
            line = process.read_response()
            end = clock()
            responses.append(line)
            if index >= warmups:
                samples.append((end - start) / 1e6)
    for request_id, line in zip(ids, responses):
        parse_response(line, request_id, f"{session.spec.label} {method}")
    return samples


def measure_behind_slow(session: Session, sql: str, slow_sql: str, runs: int, watchdog: Watchdog) -> tuple[list[float], list[float]]:
    """Milliseconds until a quick read sent right behind a slow one is answered, and until the
    slow one is: a server that queues every call behind the slow one answers both at once."""
    spec, process = session.spec, session.process
    quick_times, slow_times = [], []
    for run in range(runs):
        slow_id, quick_id = session.take_ids(2)
        name = spec.tool
        payload = b"".join(encode({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                   "params": {"name": name, "arguments": spec.arguments(text)}})
                           for i, text in ((slow_id, slow_sql), (quick_id, sql)))
        answered: dict[int, float] = {}
        with watchdog.limit(120, f"{spec.label} read behind a slow read, run {run + 1}"):
            start = time.perf_counter_ns()
            process.write(payload)
            lines: dict[int, bytes] = {}
            while len(answered) < 2:
                line = process.read_response()
                request_id = json.loads(line).get("id")
                message = parse_response(line, request_id, f"{spec.label} read behind a slow read")
                if message.get("isError"):
                    raise BenchError(f"{spec.label} read behind a slow read: {message.get('content')}")
                answered[request_id] = (time.perf_counter_ns() - start) / 1e6
                lines[request_id] = line
        if slow_sql == SLOW_SQL and SLOW_SQL_ANSWER not in lines[slow_id]:
            raise BenchError(f"{spec.label} read behind a slow read: wrong answer {lines[slow_id][:200]!r}")
        quick_times.append(answered[quick_id])
        slow_times.append(answered[slow_id])
    return quick_times, slow_times


def measure_harness_floor(runs: int, calls: int, watchdog: Watchdog, stderr_path: str) -> tuple[float, float]:
    """What this driver costs by itself: spawn -> first echoed line with `head -n 1`, and one
    round trip through `cat`. Numbers below these are not the server's."""
    head, cat = shutil.which("head"), shutil.which("cat")
    if not head or not cat:
        return math.nan, math.nan
    line = initialize_request(0, "bench-mcp")
    spawns = []
    with watchdog.limit(60, "harness floor"):
        for _ in range(runs):
            start = time.perf_counter_ns()
            process = StdioClient([head, "-n", "1"], stderr_path)
            process.write(line)
            process.expect_line()
            spawns.append((time.perf_counter_ns() - start) / 1e6)
            process.close()
        process = StdioClient([cat], stderr_path)
        trips = []
        for _ in range(calls):
            start = time.perf_counter_ns()
            process.write(line)
            process.expect_line()
            trips.append((time.perf_counter_ns() - start) / 1e6)
        process.close()
    return statistics.median(spawns), statistics.median(trips)


# ---------------------------------------------------------------------------------------------
# Report


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


@dataclass
class Results:
    cold: list[float]
    sequential: list[float]
    pipelined: list[float]
    server_info: str
    breakdown: dict[str, float] | None = None
    behind_slow: tuple[list[float], list[float]] | None = None
    #: Cold start with a second database and a metadata file (dbai-mcp only).
    cold_several: list[float] | None = None
    #: Streamable HTTP (dbai-mcp only).
    http: Any = None


def fmt_ms(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_rate(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def fmt_ratio(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        return "-"
    return f"{value:.1f}x" if value < 100 else f"{value:.0f}x"


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator and not math.isnan(denominator) else math.nan


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def print_report(sql: str, args: argparse.Namespace, ours: Results, reference: Results | None,
                 floor: tuple[float, float]) -> None:
    nan = math.nan
    ref = reference
    rows: list[tuple[str, str, str, str, str, str]] = []

    def row(metric: str, ours_value: float, ref_value: float, formatter, ratio_value: float,
            goal: str = "", passed: bool | None = None) -> None:
        rows.append((metric, formatter(ours_value), formatter(ref_value), fmt_ratio(ratio_value), goal,
                     "" if passed is None else verdict(passed)))

    cold_median = statistics.median(ours.cold)
    ref_cold_median = statistics.median(ref.cold) if ref else nan
    seq_median = statistics.median(ours.sequential)
    ref_seq_median = statistics.median(ref.sequential) if ref else nan
    rate = statistics.median(ours.pipelined)
    ref_rate = statistics.median(ref.pipelined) if ref else nan
    speedup = ratio(ref_seq_median, seq_median)

    row("cold start, median (ms)", cold_median, ref_cold_median, fmt_ms, ratio(ref_cold_median, cold_median),
        f"< {GOAL_COLD_START_MS:g} ms", cold_median < GOAL_COLD_START_MS)
    row("cold start, min (ms)", min(ours.cold), min(ref.cold) if ref else nan, fmt_ms,
        ratio(min(ref.cold), min(ours.cold)) if ref else nan)
    row("sequential call, median (ms)", seq_median, ref_seq_median, fmt_ms, speedup,
        f"< {GOAL_SEQUENTIAL_MEDIAN_MS:g} ms", seq_median < GOAL_SEQUENTIAL_MEDIAN_MS)
    for name, fraction in (("p90", 0.90), ("p99", 0.99)):
        mine = percentile(ours.sequential, fraction)
        theirs = percentile(ref.sequential, fraction) if ref else nan
        row(f"sequential call, {name} (ms)", mine, theirs, fmt_ms, ratio(theirs, mine))
    rows.append(("sequential speed-up vs reference", "", "", fmt_ratio(speedup),
                 f">= {GOAL_SEQUENTIAL_SPEEDUP:g}x", verdict(speedup >= GOAL_SEQUENTIAL_SPEEDUP) if ref else "-"))
    row(f"pipelined, {args.batch} calls (calls/s)", rate, ref_rate, fmt_rate, ratio(rate, ref_rate),
        f">= {GOAL_PIPELINED_CALLS_PER_S:,.0f}/s", rate >= GOAL_PIPELINED_CALLS_PER_S)

    if ours.cold_several:
        several = statistics.median(ours.cold_several)
        rows.append(("cold start, 2 databases + metadata, median (ms)", fmt_ms(several), "-",
                     fmt_ratio(ratio(several, cold_median)) + " of 1 db", f"< {GOAL_COLD_START_MS:g} ms",
                     verdict(several < GOAL_COLD_START_MS)))

    if ours.http:
        http = ours.http
        http_median = statistics.median(http.sequential)
        rows.append(("http sequential call, median (ms)", fmt_ms(http_median), "-",
                     fmt_ratio(ratio(http_median, seq_median)) + " of stdio", "", ""))
        rows.append(("http sequential call, p99 (ms)", fmt_ms(percentile(http.sequential, 0.99)), "-", "", "", ""))
        label = f"http {http.sessions} sessions x {http.calls_per_session} calls"
        rows.append((f"{label} (calls/s)", fmt_rate(http.session_rate), "-", "", "", ""))
        rows.append((f"{label}, p50 (ms)", fmt_ms(percentile(http.session_latencies, 0.50)), "-", "", "", ""))
        rows.append((f"{label}, p99 (ms)", fmt_ms(percentile(http.session_latencies, 0.99)), "-", "", "", ""))

    if ours.behind_slow:
        quick, slow = (statistics.median(values) for values in ours.behind_slow)
        ref_quick, ref_slow = ((statistics.median(values) for values in ref.behind_slow)
                               if ref and ref.behind_slow else (nan, nan))
        row("quick read behind a slow one (ms)", quick, ref_quick, fmt_ms, ratio(ref_quick, quick))
        row("  the slow read itself (ms)", slow, ref_slow, fmt_ms, ratio(ref_slow, slow))

    print()
    print(f"SQL: {sql}")
    print(f"dbai-mcp:  {ours.server_info}")
    if ref:
        print(f"reference: {ref.server_info}")
    print(f"machine:   {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}; load average {args.load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after (other work on the machine inflates every number)")
    print(f"runs:      cold start {args.cold_runs}x dbai-mcp / {args.reference_cold_runs}x reference; "
          f"sequential {args.calls} calls after {args.warmup} warm-ups / {args.reference_calls} after "
          f"{args.reference_warmup}; pipelined {args.batch_runs} runs of {args.batch} (median)")
    print()
    header = ("metric", "dbai-mcp", "reference", "ratio", "goal", "")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    align = ["<", ">", ">", ">", "<", "<"]

    def line(cells) -> str:
        return "  ".join(f"{cell:{a}{w}}" for cell, a, w in zip(cells, align, widths)).rstrip()

    print(line(header))
    print(line(["-" * w for w in widths]))
    for r in rows:
        print(line(r))
    print()
    print("ratio: reference/dbai-mcp for times, dbai-mcp/reference for calls/s; goals apply to dbai-mcp.")
    print(f"harness floor (this driver alone): spawn -> first line {fmt_ms(floor[0])} ms (head -n 1), "
          f"round trip {fmt_ms(floor[1])} ms (cat).")
    if ours.breakdown:
        print()
        print("breakdown, dbai-mcp sequential medians (ms): " + ", ".join(
            f"{name} {fmt_ms(value)}" for name, value in ours.breakdown.items()))
        if ref and ref.breakdown:
            print("breakdown, reference sequential medians (ms): " + ", ".join(
                f"{name} {fmt_ms(value)}" for name, value in ref.breakdown.items()))


# ---------------------------------------------------------------------------------------------
# Main


def run_server(spec: ServerSpec, source_db: str, workdir: str, sql: str, args: argparse.Namespace,
               cold_runs: int, warmups: int, calls: int, watchdog: Watchdog) -> Results:
    slug = spec.label.replace(" ", "-")
    database = os.path.join(workdir, f"{slug}.sqlite")
    shutil.copyfile(source_db, database)
    stderr_path = os.path.join(workdir, f"{slug}.stderr.log")
    log(f"{spec.label}: cold start x{cold_runs}")
    cold = measure_cold_start(spec, database, cold_runs, stderr_path, watchdog)
    session, initialize = start_session(spec, database, stderr_path, watchdog)
    try:
        info = initialize.get("serverInfo") or (initialize.get("_meta") or {}).get("io.modelcontextprotocol/serverInfo") or {}
        protocol = initialize.get("protocolVersion") or ", ".join(initialize.get("supportedVersions") or [])
        server_info = f"{info.get('name', '?')} {info.get('version', '?')} (protocol {protocol})"
        log(f"{spec.label}: {calls} sequential calls after {warmups} warm-ups")
        sequential = measure_sequential(session, sql, warmups, calls, watchdog)
        log(f"{spec.label}: pipelined {args.batch_runs}x{args.batch}")
        pipelined = measure_pipelined(session, sql, args.batch, args.batch_runs, watchdog)
        log(f"{spec.label}: a quick read behind a slow one x{args.slow_runs}")
        behind_slow = measure_behind_slow(session, sql, args.slow_sql, args.slow_runs, watchdog)
        breakdown = None
        if args.breakdown:
            log(f"{spec.label}: breakdown (ping, tools/list, tools/call)")
            count = max(50, calls // 4)
            breakdown = {
                "ping": statistics.median(measure_method(session, "ping", None, warmups // 4, count, watchdog)),
                "tools/list": statistics.median(measure_method(session, "tools/list", None, warmups // 4, count, watchdog)),
                "tools/call": statistics.median(measure_sequential(session, sql, warmups // 4, count, watchdog)),
            }
    except BaseException:
        session.process.kill()
        raise
    code = session.process.close()
    if spec.must_exit_zero and code != 0:
        raise BenchError(f"{spec.label} exited with {code} at end of input; stderr: {session.process.stderr_tail()}")
    return Results(cold, sequential, pipelined, server_info, breakdown, behind_slow)


def several_databases_spec(spec: ServerSpec, first: str, second: str, workdir: str) -> ServerSpec:
    """dbai-mcp serving copies of both databases, with a Datasette metadata file that describes
    every table of each and gives each a canned query (compiled at start-up)."""
    copies = {"first": os.path.join(workdir, "first.sqlite"), "second": os.path.join(workdir, "second.sqlite")}
    shutil.copyfile(first, copies["first"])
    shutil.copyfile(second, copies["second"])
    databases = {}
    for name, path in copies.items():
        with sqlite3.connect(path) as db:
            tables = [row[0] for row in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        databases[name] = {
            "description": f"The {name} database",
            "tables": {table: {"description": f"All about {table}"} for table in tables},
            "queries": {"row_count": {"sql": f'SELECT count(*) FROM "{tables[0]}" WHERE rowid > :after'}},
        }
    metadata = os.path.join(workdir, "metadata.json")
    with open(metadata, "w") as file:
        json.dump({"databases": databases}, file)
    base = spec.argv
    return ServerSpec(
        label="dbai-mcp, 2 databases + metadata",
        argv=lambda db: [*base(f"first={db}"), "--db", f"second={copies['second']}", "--metadata", metadata],
        tool=spec.tool, arguments=spec.arguments, check_result=spec.check_result, must_exit_zero=True)


def log(message: str) -> None:
    print(f"bench-mcp: {message}", file=sys.stderr, flush=True)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--ours", required=True, help="path of the dbai-mcp binary")
    parser.add_argument("--reference", help="path of mcp-server-sqlite (omit to benchmark dbai-mcp alone)")
    parser.add_argument("--db", required=True, help="database copied for each server")
    parser.add_argument("--sql", default=DEFAULT_SQL, help="the SELECT both servers run")
    parser.add_argument("--cold-runs", type=int, default=20)
    parser.add_argument("--reference-cold-runs", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--reference-warmup", type=int, default=20)
    parser.add_argument("--reference-calls", type=int, default=200)
    parser.add_argument("--batch", type=int, default=500, help="requests per pipelined write")
    parser.add_argument("--batch-runs", type=int, default=5)
    parser.add_argument("--slow-sql", default=SLOW_SQL, help="a read that takes about a second")
    parser.add_argument("--slow-runs", type=int, default=3, help="runs of a quick read sent behind the slow one")
    parser.add_argument("--second-db", default=str(Path(__file__).resolve().parents[1] / "Examples" / "northwind.sqlite"),
                        help="served beside --db, with a generated metadata file, for the several-databases cold start "
                             "('' to skip)")
    parser.add_argument("--http-sessions", type=int, default=10,
                        help="sessions at once over Streamable HTTP (0 to skip the HTTP figures)")
    parser.add_argument("--http-calls", type=int, default=200, help="calls per HTTP session")
    parser.add_argument("--schema-sizes", default="400,1000",
                        help="also time start-up and describe_schema on generated databases of these many tables "
                             "(Scripts/bench_schema_size.py; '' to skip)")
    parser.add_argument("--schema-before", help="another dbai-mcp build measured beside --ours in the schema-size runs")
    parser.add_argument("--revision", choices=["2025-11-25", "2026-07-28"], default="2025-11-25",
                        help="the MCP revision dbai-mcp is spoken to in: 2026-07-28 opens with server/discover and puts "
                             "the version in every request's _meta (the reference server always gets 2025-11-25)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time ping and tools/list, to separate protocol cost from the query")
    args = parser.parse_args(argv)
    for name in ("cold_runs", "reference_cold_runs", "calls", "reference_calls", "batch", "batch_runs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    args.load_before = os.getloadavg()[0]
    watchdog = Watchdog()
    try:
        for path in filter(None, (args.ours, args.reference)):
            if not os.access(path, os.X_OK):
                raise BenchError(f"not an executable: {path}")
        if not os.path.isfile(args.db):
            raise BenchError(f"no database at {args.db}")
        columns, rows = expected_rows(args.db, args.sql)
        ours_spec, reference_spec = make_specs(args.ours, args.reference or "", columns, rows)
        ours_spec.stateless = args.revision == "2026-07-28"
        with tempfile.TemporaryDirectory(prefix="bench-mcp-") as workdir:
            floor = measure_harness_floor(10, 500, watchdog, os.path.join(workdir, "floor.stderr.log"))
            ours = run_server(ours_spec, args.db, workdir, args.sql, args, args.cold_runs, args.warmup,
                              args.calls, watchdog)
            if args.second_db:
                several_spec = several_databases_spec(ours_spec, args.db, args.second_db, workdir)
                log(f"dbai-mcp with {args.second_db} and metadata: cold start x{args.cold_runs}")
                ours.cold_several = measure_cold_start(
                    several_spec, os.path.join(workdir, "first.sqlite"), args.cold_runs,
                    os.path.join(workdir, "several.stderr.log"), watchdog)
            if args.http_sessions:
                log(f"dbai-mcp --http: {args.calls} sequential calls, then {args.http_sessions} sessions x "
                    f"{args.http_calls} calls at once")
                database = os.path.join(workdir, "http.sqlite")
                shutil.copyfile(args.db, database)
                ours.http = measure_http(args.ours, database, args.sql, rows, args.warmup, args.calls,
                                         args.http_sessions, args.http_calls, os.path.join(workdir, "http.stderr.log"),
                                         stateless=ours_spec.stateless)
            reference = None
            if args.reference:
                reference = run_server(reference_spec, args.db, workdir, args.sql, args, args.reference_cold_runs,
                                       args.reference_warmup, args.reference_calls, watchdog)
        print_report(args.sql, args, ours, reference, floor)
        if args.schema_sizes:
            schema_arguments = ["--binary", args.ours, "--tables", args.schema_sizes]
            if args.schema_before:
                schema_arguments += ["--before", args.schema_before]
            bench_schema_size.main(schema_arguments)
    except (BenchError, StdioClientError, HTTPBenchError) as error:
        print(f"bench-mcp: error: {error}", file=sys.stderr)
        return 1
    except sqlite3.Error as error:
        print(f"bench-mcp: error: cannot run the SQL on {args.db}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
