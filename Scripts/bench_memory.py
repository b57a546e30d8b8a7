#!/usr/bin/env python3
"""Peak memory of dbai-mcp on single tool calls that could blow it up, optionally side by side
with a second (baseline) binary.

Every case is one `query` call in a fresh server process, driven over raw newline-delimited
JSON-RPC on stdin/stdout (no MCP client library): initialize, notifications/initialized, the
tools/call, a ping (is the server still alive?), end of input. The child's peak resident memory is
its ru_maxrss, taken with os.wait4 when it exits; the call time runs from writing the request to
the last byte of its reply line. Reply lines are streamed (they can be hundreds of MB): only their
length, their first bytes and the few fields reported are kept.

  (a) 300 rows x 1 MB of text            SELECT * FROM big
  (b) 1,000,000 rows, --max-rows 2000000  SELECT * FROM million
  (c) a 1 GB blob built by SQLite         SELECT length(randomblob(999999999))
  (d) a 600 MB string built by SQLite     SELECT hex(zeroblob(300000000)), under a 2 GiB
                                          address-space limit (RLIMIT_AS)

The databases are generated with sqlite3 in a temporary directory (about 320 MB, removed at the
end) or kept in --keep-files DIR. A server that dies or hangs is a result (reported, and a FAIL of
the goal for dbai-mcp), not a run failure. Exits non-zero only when setup or a run fails (no
answer to initialize, a reply that is not JSON-RPC); missed goals print FAIL. Normally started by
`Scripts/bench-memory`, which builds the release binary.

Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import math
import os
import platform
import re
import resource
import select
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from mcp_stdio import INITIALIZED, encode, initialize_request  # the same wire as every client here

# Goal for dbai-mcp, in every case.
GOAL_PEAK_RSS_MIB = 100.0

ADDRESS_SPACE_LIMIT = 2 << 30  # case (d)
READ_SIZE = 1 << 20  # bytes per read of the server's output
KEEP_WHOLE_LINE = 16 << 20  # reply lines up to this size are kept and parsed as JSON
CAPTURE = 1024  # bytes kept after each scanned key of a larger line


class BenchError(Exception):
    """Setup or run failure: the benchmark cannot produce a trustworthy number."""


class CallTimeout(Exception):
    """A wait on the server ran past its deadline."""


def log(message: str) -> None:
    print(f"bench-memory: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Databases


@dataclass(frozen=True)
class DatabaseSpec:
    """A generated database; `signature` is stored in it so --keep-files can tell a stale file."""

    name: str
    signature: str
    script: str


DATABASES = {
    spec.name: spec for spec in (
        DatabaseSpec(
            name="big",
            signature="big v1: 300 rows, body = hex(randomblob(500000)) (1,000,000 characters)",
            script="""
                CREATE TABLE big(id INTEGER PRIMARY KEY, body TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                INSERT INTO big(id, body) SELECT i, hex(randomblob(500000)) FROM n;
            """),
        DatabaseSpec(
            name="million",
            signature="million v1: 1,000,000 rows (id, 'name-' || id, id / 4.0)",
            script="""
                CREATE TABLE million(id INTEGER PRIMARY KEY, name TEXT, value REAL);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
                INSERT INTO million(id, name, value) SELECT i, 'name-' || i, i / 4.0 FROM n;
            """),
        DatabaseSpec(
            name="tiny",
            signature="tiny v1: one row",
            script="CREATE TABLE one(x INTEGER); INSERT INTO one VALUES (1);"),
    )
}

META_TABLE = "bench_memory_meta"


def database_signature(path: str) -> str | None:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = connection.execute(f"SELECT signature FROM {META_TABLE}").fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def ensure_database(spec: DatabaseSpec, directory: str) -> str:
    """The path of `spec`'s database in `directory`, generated unless an up-to-date one is there."""
    path = os.path.join(directory, f"{spec.name}.sqlite")
    if os.path.isfile(path) and database_signature(path) == spec.signature:
        log(f"reusing {path}")
        return path
    partial = path + ".partial"
    with contextlib.suppress(FileNotFoundError):
        os.remove(partial)
    log(f"generating {path}")
    start = time.perf_counter()
    try:
        connection = sqlite3.connect(partial, isolation_level=None)
        try:
            connection.executescript(
                "BEGIN;" + spec.script +
                f"CREATE TABLE {META_TABLE}(signature TEXT);"
                f"INSERT INTO {META_TABLE} VALUES ({sql_literal(spec.signature)});"
                "COMMIT;")
        finally:
            connection.close()
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial)
        raise
    log(f"generated {path} ({os.path.getsize(path) / 1e6:,.1f} MB) in {time.perf_counter() - start:.1f} s")
    return path


def sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# ---------------------------------------------------------------------------------------------
# Cases


@dataclass(frozen=True)
class Case:
    key: str
    title: str
    database: str  # a DATABASES name
    sql: str | None  # None: no query (idle reference)
    server_args: tuple[str, ...] = ()
    address_space: int | None = None
    has_goal: bool = True


IDLE = Case("idle", "idle: initialize + ping, no query", "tiny", None, has_goal=False)
CASES = {
    case.key: case for case in (
        Case("a", "300 rows x 1 MB of text", "big", "SELECT * FROM big"),
        Case("b", "1,000,000 rows, --max-rows 2000000", "million", "SELECT * FROM million",
             ("--max-rows", "2000000")),
        Case("c", "a 1 GB blob built by SQLite", "tiny", "SELECT length(randomblob(999999999))"),
        Case("d", "a 600 MB string built by SQLite, RLIMIT_AS 2 GiB", "tiny",
             "SELECT hex(zeroblob(300000000))", address_space=ADDRESS_SPACE_LIMIT),
    )
}


# ---------------------------------------------------------------------------------------------
# Wire


# Keys looked for in reply lines too large to keep. Inside a JSON string every `"` is escaped, so
# `"key":` (quote, key, quote, colon) can only be an object key, never part of a value; the query
# tool's rows are arrays, so these keys occur once, where expected.
SCAN_KEYS = {
    name: f'"{name}":'.encode()
    for name in ("id", "method", "isError", "structuredContent", "truncated", "truncated_by",
                 "row_count", "text")
}
CARRY = CAPTURE + max(len(pattern) for pattern in SCAN_KEYS.values())
SCALAR = re.compile(rb'\s*(true|false|null|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*"|\{|\[)')
STRING_BODY = re.compile(rb'(?:[^"\\]|\\.)*')
MISSING = object()


class LineScan:
    """One line of server output, seen chunk by chunk: its length, the whole line while it is
    small, and the bytes after the first occurrences of SCAN_KEYS."""

    def __init__(self) -> None:
        self.length = 0
        self.parts: list[bytes] | None = []
        self.carry = b""
        self.found: dict[str, dict[int, bytes]] = {name: {} for name in SCAN_KEYS}
        self.complete = False

    def feed(self, chunk: bytes) -> None:
        if self.parts is not None:
            self.parts.append(chunk)
            if self.length + len(chunk) > KEEP_WHOLE_LINE:
                self.parts = None
        window = self.carry + chunk
        self._scan(window, self.length - len(self.carry), final=False)
        self.length += len(chunk)
        self.carry = window[-CARRY:]

    def finish(self) -> None:
        self._scan(self.carry, self.length - len(self.carry), final=True)
        self.complete = True

    def _scan(self, window: bytes, base: int, final: bool) -> None:
        for name, pattern in SCAN_KEYS.items():
            seen = self.found[name]
            position = window.find(pattern)
            while position >= 0 and len(seen) < 8:
                start = position + len(pattern)
                # Too close to the end: the next window (which starts with the carry) sees it whole.
                if final or len(window) - start >= CAPTURE:
                    seen.setdefault(base + position, window[start:start + CAPTURE])
                position = window.find(pattern, position + 1)

    def whole(self) -> bytes | None:
        return b"".join(self.parts) if self.parts is not None and self.complete else None

    def first(self, name: str) -> bytes | None:
        seen = self.found[name]
        return seen[min(seen)] if seen else None

    def scalars(self, name: str) -> list:
        return [scalar(raw) for _, raw in sorted(self.found[name].items())]


def scalar(raw: bytes | None):
    """The JSON scalar at the start of `raw` ("{" or "[" for a container), MISSING if none."""
    if raw is None:
        return MISSING
    match = SCALAR.match(raw)
    if not match:
        return MISSING
    token = match.group(1)
    if token in (b"{", b"["):
        return token.decode()
    try:
        return json.loads(token)
    except ValueError:
        return MISSING


def string_prefix(raw: bytes | None, limit: int = 100) -> str | None:
    """The first `limit` characters of the JSON string at the start of `raw` (which may be cut)."""
    if raw is None:
        return None
    raw = raw.lstrip()
    if not raw.startswith(b'"'):
        return None
    body = STRING_BODY.match(raw, 1).group(0)
    for cut in range(8):  # a cut escape (\u12) or UTF-8 sequence at the end: drop a few bytes
        try:
            return json.loads(b'"' + body[:len(body) - cut] + b'"')[:limit]
        except (ValueError, UnicodeDecodeError):
            continue
    return None


@dataclass
class Reply:
    """What is reported of one reply line."""

    length: int
    is_error: bool
    text: str | None
    structured: dict  # truncated / truncated_by / row_count, when present
    has_structured: bool


def read_reply_fields(scan: LineScan, request_id: int, what: str) -> Reply:
    whole = scan.whole()
    if whole is not None:
        try:
            message = json.loads(whole)
        except (ValueError, UnicodeDecodeError) as error:
            raise BenchError(f"{what}: not JSON ({error}): {whole[:200]!r}") from error
        if not isinstance(message, dict) or message.get("id") != request_id:
            raise BenchError(f"{what}: expected the response to id {request_id}, got {whole[:200]!r}")
        if "error" in message:  # a JSON-RPC error answers the call too: report it as an error
            error = message["error"] or {}
            return Reply(scan.length, True, f"JSON-RPC error {error.get('code')}: {error.get('message')}"[:100],
                         {}, False)
        result = message.get("result")
        if not isinstance(result, dict):
            raise BenchError(f"{what}: no result object: {whole[:200]!r}")
        text = None
        for item in result.get("content") or []:
            if isinstance(item, dict) and isinstance(item.get("text"), str):
                text = item["text"][:100]
                break
        content = result.get("structuredContent")
        structured = {key: content[key] for key in ("truncated", "truncated_by", "row_count")
                      if isinstance(content, dict) and key in content}
        return Reply(scan.length, bool(result.get("isError")), text, structured, isinstance(content, dict))
    # Too large to keep: the scanned keys.
    if request_id not in scan.scalars("id"):
        raise BenchError(f"{what}: expected the response to id {request_id}; line of {scan.length:,} bytes "
                         f"starting {scan.first('id')!r}")
    is_error = scalar(scan.first("isError"))
    has_structured = scan.first("structuredContent") is not None
    structured = {}
    if has_structured:
        for key in ("truncated", "truncated_by", "row_count"):
            value = scalar(scan.first(key))
            if value is not MISSING:
                structured[key] = value
    return Reply(scan.length, is_error is True, string_prefix(scan.first("text")), structured, has_structured)


# ---------------------------------------------------------------------------------------------
# Server process


class Server:
    """One server process: raw pipes, reads bounded by deadlines, reaped with os.wait4."""

    def __init__(self, argv: list[str], stderr_path: str, address_space: int | None) -> None:
        self.argv = argv
        self.stderr_path = stderr_path

        def limit_address_space() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

        with open(stderr_path, "ab") as stderr:
            try:
                self.popen = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, bufsize=0,
                    close_fds=True, preexec_fn=limit_address_space if address_space else None)
            except OSError as error:
                raise BenchError(f"cannot start {argv[0]}: {error}") from error
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.wfd = self.popen.stdin.fileno()
        self.rfd = self.popen.stdout.fileno()
        with contextlib.suppress(OSError, AttributeError):  # bigger reads of large replies (Linux)
            fcntl.fcntl(self.rfd, getattr(fcntl, "F_SETPIPE_SZ", 1031), READ_SIZE)
        self.pending = b""
        self.eof = False
        self.status: int | None = None  # wait status once reaped
        self.peak_rss_mib: float | None = None

    # -- output

    def _read(self, deadline: float) -> bytes:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise CallTimeout
        ready, _, _ = select.select([self.rfd], [], [], remaining)
        if not ready:
            raise CallTimeout
        chunk = os.read(self.rfd, READ_SIZE)
        if not chunk:
            self.eof = True
        return chunk

    def read_line(self, deadline: float) -> LineScan:
        """The next line, streamed; `complete` is False when the output ended first."""
        scan = LineScan()
        data, self.pending = self.pending, b""
        while True:
            if data:
                end = data.find(b"\n")
                if end >= 0:
                    scan.feed(data[:end])
                    self.pending = data[end + 1:]
                    scan.finish()
                    return scan
                scan.feed(data)
            if self.eof:
                return scan
            data = self._read(deadline)

    def read_reply(self, request_id: int, deadline: float, what: str) -> LineScan:
        """The next line that is not a server notification or request (those have a method)."""
        while True:
            scan = self.read_line(deadline)
            if not scan.complete:
                return scan
            whole = scan.whole()
            if whole is not None:
                with contextlib.suppress(ValueError, UnicodeDecodeError):
                    message = json.loads(whole)
                    if isinstance(message, dict) and "method" in message:
                        continue
            elif scan.first("method") is not None and request_id not in scan.scalars("id"):
                continue
            return scan

    def drain(self, seconds: float) -> None:
        if self.eof:
            time.sleep(seconds)
            return
        ready, _, _ = select.select([self.rfd], [], [], seconds)
        if ready and not os.read(self.rfd, READ_SIZE):
            self.eof = True

    # -- input

    def write(self, data: bytes) -> bool:
        """False when the server no longer reads (it has gone)."""
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.wfd, view):]
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    # -- end

    def finish(self, timeout: float) -> bool:
        """Closes stdin and reaps the child, killing it after `timeout`. True if it was killed."""
        with contextlib.suppress(OSError):
            self.popen.stdin.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        killed = False
        while self.status is None:
            pid, status, usage = os.wait4(self.popen.pid, os.WNOHANG)
            if pid:
                self._reaped(status, usage)
                break
            if time.monotonic() >= deadline:
                self.popen.kill()
                killed = True
                _, status, usage = os.wait4(self.popen.pid, 0)
                self._reaped(status, usage)
                break
            self.drain(0.02)  # a server writing at exit must not block on a full pipe
        with contextlib.suppress(OSError):
            self.popen.stdout.close()  # type: ignore[union-attr]
        return killed

    def kill(self) -> None:
        if self.status is None:
            with contextlib.suppress(ProcessLookupError):
                self.popen.kill()
        self.finish(timeout=30)

    def _reaped(self, status: int, usage: resource.struct_rusage) -> None:
        self.status = status
        self.popen.returncode = os.waitstatus_to_exitcode(status)
        # ru_maxrss: KiB on Linux, bytes on macOS.
        self.peak_rss_mib = usage.ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1 << 10)

    def exit_text(self) -> str:
        if self.status is None:
            return "running"
        code = os.waitstatus_to_exitcode(self.status)
        if code >= 0:
            return f"exit {code}"
        with contextlib.suppress(ValueError):
            return signal.Signals(-code).name
        return f"signal {-code}"

    def stderr_tail(self, limit: int = 400) -> str:
        with contextlib.suppress(OSError):
            with open(self.stderr_path, "rb") as handle:
                text = handle.read().decode(errors="replace").strip()
                return ("…" + text[-limit:]) if len(text) > limit else (text or "(empty)")
        return "(unreadable)"


# ---------------------------------------------------------------------------------------------
# One run


@dataclass
class Run:
    peak_rss_mib: float
    outcome: str  # "answered", "died", "timeout"
    process: str  # e.g. "survived, exit 0" / "died: SIGABRT" / "killed after timeout"
    survived: bool  # answered the call, then a ping
    call_ms: float | None = None
    response_bytes: int | None = None  # the reply line, or what arrived before the server died
    reply: Reply | None = None
    server_info: str = ""


def run_once(binary: str, case: Case, database: str, stderr_path: str, timeout: float) -> Run:
    argv = [binary, "--db", database, *case.server_args]
    with open(stderr_path, "ab") as stderr:
        stderr.write(f"\n===== {' '.join(argv)}\n".encode())
    server = Server(argv, stderr_path, case.address_space)
    name = os.path.basename(binary)
    try:
        # initialize: no answer is a run failure (nothing was measured).
        what = f"{name} initialize"
        try:
            server.write(initialize_request(0))
            scan = server.read_reply(0, time.monotonic() + timeout, what)
        except CallTimeout:
            raise BenchError(f"{what}: no answer within {timeout:g} s; stderr: {server.stderr_tail()}") from None
        if not scan.complete:
            server.finish(timeout=10)
            raise BenchError(f"{what}: the server closed its output ({server.exit_text()}); "
                             f"stderr: {server.stderr_tail()}")
        info = (json.loads(scan.whole() or b"{}").get("result") or {}).get("serverInfo") or {}
        server_info = f"{info.get('name', '?')} {info.get('version', '?')}"
        server.write(INITIALIZED)

        reply = None
        call_ms = None
        response_bytes = None
        if case.sql is not None:
            what = f"{name} case ({case.key})"
            request = encode({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                              "params": {"name": "query", "arguments": {"sql": case.sql}}})
            start = time.perf_counter_ns()
            try:
                written = server.write(request)
                scan = server.read_reply(1, time.monotonic() + timeout, what) if written else LineScan()
            except CallTimeout:
                server.kill()
                return Run(server.peak_rss_mib or math.nan, "timeout", f"killed after {timeout:g} s (timeout)",
                           False, server_info=server_info)
            call_ms = (time.perf_counter_ns() - start) / 1e6  # if it died: until its output ended
            response_bytes = scan.length
            if not scan.complete:
                killed = server.finish(timeout)
                return Run(server.peak_rss_mib or math.nan, "died",
                           f"died during the call: {'killed (no exit)' if killed else server.exit_text()}",
                           False, call_ms, response_bytes, None, server_info)
            reply = read_reply_fields(scan, 1, what)

        # Still alive? A ping after the call.
        ping = encode({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        try:
            scan = server.read_reply(2, time.monotonic() + timeout, f"{name} ping") if server.write(ping) \
                else LineScan()
            alive = scan.complete
            if alive:
                read_reply_fields(scan, 2, f"{name} ping")
        except CallTimeout:
            server.kill()
            return Run(server.peak_rss_mib or math.nan, "answered", f"no ping answer in {timeout:g} s (killed)",
                       False, call_ms, response_bytes, reply, server_info)
        killed = server.finish(timeout)
        if killed:
            process = f"{'survived' if alive else 'no ping answer'}; killed, no exit in {timeout:g} s"
        elif alive:
            process = f"survived, {server.exit_text()}"
        else:
            process = f"died after the call: {server.exit_text()}"
        return Run(server.peak_rss_mib or math.nan, "answered", process, alive, call_ms, response_bytes, reply,
                   server_info)
    finally:
        if server.status is None:
            server.kill()


# ---------------------------------------------------------------------------------------------
# Report


@dataclass
class Summary:
    """The runs of one binary on one case: medians, and the run with the median peak RSS."""

    runs: list[Run]
    peak_rss_mib: float = math.nan
    call_ms: float = math.nan
    response_bytes: float = math.nan
    typical: Run = field(init=False)

    def __post_init__(self) -> None:
        self.peak_rss_mib = median([run.peak_rss_mib for run in self.runs])
        self.call_ms = median([run.call_ms for run in self.runs])
        self.response_bytes = median([run.response_bytes for run in self.runs])
        ordered = sorted(self.runs, key=lambda run: (math.isnan(run.peak_rss_mib), run.peak_rss_mib))
        self.typical = ordered[(len(ordered) - 1) // 2]

    def survived(self) -> str:
        count = sum(run.survived for run in self.runs)
        return ("yes" if count else "NO") if len(self.runs) == 1 else f"{count}/{len(self.runs)}"

    def passed(self) -> bool:
        return all(run.survived and run.peak_rss_mib < GOAL_PEAK_RSS_MIB for run in self.runs)


def median(values: list) -> float:
    present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return statistics.median(present) if present else math.nan


def fmt_mib(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.1f}"


def fmt_ms(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.2f}" if value < 10 else f"{value:,.0f}"


def fmt_call(summary: Summary) -> str:
    """The median call time; "timeout" when no run got an answer in time, "(died)" when the time
    is only how long the server lasted."""
    if math.isnan(summary.call_ms) and any(run.outcome == "timeout" for run in summary.runs):
        return "timeout"
    if all(run.outcome == "died" for run in summary.runs):
        return f"{fmt_ms(summary.call_ms)} (died)"
    return fmt_ms(summary.call_ms)


def call_ratio(base: Summary, ours: Summary) -> str:
    """base/ours call time, only between answered calls."""
    if any(run.outcome != "answered" for run in (*base.runs, *ours.runs)):
        return "-"
    return fmt_ratio(base.call_ms, ours.call_ms)


def fmt_bytes(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def fmt_ratio(numerator: float, denominator: float) -> str:
    if math.isnan(numerator) or math.isnan(denominator) or numerator <= 0 or denominator <= 0:
        return "-"
    value = numerator / denominator
    return f"{value:.2f}x" if value < 10 else f"{value:,.0f}x"


def fmt_value(value) -> str:
    if value is None or value is MISSING:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def print_table(header: tuple[str, ...], rows: list[tuple[str, ...]], align: str) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells) -> str:
        return "  ".join(f"{cell:{a}{w}}" for cell, a, w in zip(cells, align, widths)).rstrip()

    print(line(header))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))


def print_report(args: argparse.Namespace, cases: list[Case], databases: dict[str, str],
                 results: dict[tuple[str, str], Summary], labels: list[str], binaries: dict[str, str],
                 sizes: dict[str, int]) -> None:
    ours_label = labels[0]
    base_label = labels[1] if len(labels) > 1 else None

    print()
    for label in labels:
        info = next((r.typical.server_info for (key, lab), r in results.items() if lab == label), "?")
        print(f"{label + ':':<10} {binaries[label]} ({info})")
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    print(f"machine:   {platform.machine()}, {os.cpu_count()} CPUs, {memory:.1f} GiB, {platform.system()} "
          f"{platform.release()}, Python {platform.python_version()}; load average {args.load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after (other work on the machine inflates times)")
    print(f"runs:      {args.repeat} per case and binary, each in a fresh process (median); timeout "
          f"{args.timeout:g} s per wait; peak RSS = ru_maxrss of the exited child (os.wait4)")
    print("databases: " + ", ".join(f"{name}.sqlite {sizes[name] / 1e6:,.1f} MB" for name in databases))

    for case in cases:
        ours = results[(case.key, ours_label)]
        base = results.get((case.key, base_label)) if base_label else None
        print()
        title = "idle" if case.sql is None else f"({case.key}) {case.title}"
        print(f"{title}: {case.sql or 'initialize + ping, no tools/call'}")
        server = " ".join(("--db", f"{case.database}.sqlite", *case.server_args))
        limit = f", under RLIMIT_AS {case.address_space >> 30} GiB" if case.address_space else ""
        print(f"    server: {server}{limit}")
        header = ("metric", ours_label, *((base_label, "ratio") if base else ()))
        rows = []

        def row(metric: str, mine: str, theirs: str = "", ratio: str = "") -> None:
            rows.append((metric, mine, *((theirs, ratio) if base else ())))

        row("peak RSS (MiB)", fmt_mib(ours.peak_rss_mib), fmt_mib(base.peak_rss_mib) if base else "",
            fmt_ratio(base.peak_rss_mib, ours.peak_rss_mib) if base else "")
        if case.sql is not None:
            row("call time (ms)", fmt_call(ours), fmt_call(base) if base else "",
                call_ratio(base, ours) if base else "")
            row("response line (bytes)", fmt_bytes(ours.response_bytes),
                fmt_bytes(base.response_bytes) if base else "",
                fmt_ratio(base.response_bytes, ours.response_bytes) if base else "")

            def reply_field(summary: Summary | None, getter: Callable[[Reply], object]) -> str:
                if summary is None:
                    return ""
                reply = summary.typical.reply
                return "-" if reply is None else fmt_value(getter(reply))

            row("isError", reply_field(ours, lambda r: r.is_error), reply_field(base, lambda r: r.is_error))
            for key in ("truncated", "truncated_by", "row_count"):
                row(key, reply_field(ours, lambda r, k=key: r.structured.get(k)),
                    reply_field(base, lambda r, k=key: r.structured.get(k)))
        row("survived (answers ping)", ours.survived(), base.survived() if base else "")
        row("process", ours.typical.process, base.typical.process if base else "")
        print_table(header, rows, "<>>>" if base else "<>")
        if case.sql is not None:
            for label, summary in ((ours_label, ours), (base_label, base)):
                if summary is None:
                    continue
                reply = summary.typical.reply
                shown = "(no reply)" if reply is None else (
                    "(no text content)" if reply.text is None else json.dumps(reply.text, ensure_ascii=False))
                print(f"    text, {label}: {shown}")

    print()
    print(f"goal: peak RSS < {GOAL_PEAK_RSS_MIB:g} MiB whatever the query ({ours_label}; the server must also "
          f"answer the call and a ping after it)")
    header = ("case", f"{ours_label} MiB", *((f"{base_label} MiB", "ratio") if base_label else ()),
              f"{ours_label} ms", *((f"{base_label} ms", "ratio") if base_label else ()), "goal")
    rows = []
    for case in cases:
        ours = results[(case.key, ours_label)]
        base = results.get((case.key, base_label)) if base_label else None
        name = "idle (no query)" if case.sql is None else f"({case.key}) {case.title}"
        cells = [name, fmt_mib(ours.peak_rss_mib)]
        if base_label:
            cells += [fmt_mib(base.peak_rss_mib), fmt_ratio(base.peak_rss_mib, ours.peak_rss_mib)]
        cells.append(fmt_call(ours))
        if base_label:
            cells += [fmt_call(base), call_ratio(base, ours)]
        if not case.has_goal:
            cells.append("")
        else:
            problems = sorted({run.outcome if run.outcome != "answered" else "no ping answer"
                               for run in ours.runs if not run.survived})
            cells.append(verdict(ours.passed()) + (f" ({', '.join(problems)})" if problems else ""))
        rows.append(tuple(cells))
    print_table(header, rows, "<" + ">" * (len(header) - 2) + "<")
    if base_label:
        print(f"ratio: {base_label}/{ours_label}.")


# ---------------------------------------------------------------------------------------------
# Main


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--ours", required=True, help="path of the dbai-mcp binary")
    parser.add_argument("--baseline", help="a second binary run on the same cases and files, side by side")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case and binary (the median is reported)")
    parser.add_argument("--keep-files", metavar="DIR",
                        help="generate the databases in DIR and keep them (reused when up to date)")
    parser.add_argument("--cases", default="abcd", help="which cases to run, e.g. 'ad'")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds any one wait on a server may take before it is killed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    unknown = sorted(set(args.cases) - set(CASES))
    if unknown or not args.cases:
        parser.error(f"--cases takes letters among {''.join(CASES)}")
    return args


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    args.load_before = os.getloadavg()[0]
    # Cleanup (temporary files, child processes) also on SIGTERM / SIGHUP.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: sys.exit(128 + number))
    labels = ["dbai-mcp"] + (["baseline"] if args.baseline else [])
    binaries = {"dbai-mcp": os.path.abspath(args.ours)}
    if args.baseline:
        binaries["baseline"] = os.path.abspath(args.baseline)
    cases = [IDLE] + [CASES[key] for key in CASES if key in args.cases]
    try:
        for path in binaries.values():
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise BenchError(f"not an executable: {path}")
        with contextlib.ExitStack() as stack:
            workdir = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-memory-"))
            data_dir = workdir
            if args.keep_files:
                data_dir = os.path.abspath(args.keep_files)
                os.makedirs(data_dir, exist_ok=True)
            if shutil.disk_usage(data_dir).free < 1 << 30:
                raise BenchError(f"less than 1 GiB free in {data_dir} (the databases take about 320 MB)")
            needed = sorted({case.database for case in cases}, key=list(DATABASES).index)
            databases = {name: ensure_database(DATABASES[name], data_dir) for name in needed}
            sizes = {name: os.path.getsize(path) for name, path in databases.items()}
            results: dict[tuple[str, str], Summary] = {}
            for case in cases:
                runs: dict[str, list[Run]] = {label: [] for label in labels}
                for repeat in range(args.repeat):
                    for label in labels:
                        log(f"{label}: {'idle' if case.sql is None else f'case ({case.key})'}"
                            f"{f', run {repeat + 1}/{args.repeat}' if args.repeat > 1 else ''}")
                        run = run_once(binaries[label], case, databases[case.database],
                                       os.path.join(workdir, f"{label}.stderr.log"), args.timeout)
                        log(f"{label}: peak RSS {fmt_mib(run.peak_rss_mib)} MiB, "
                            f"{fmt_ms(run.call_ms or math.nan)} ms, {run.process}")
                        runs[label].append(run)
                for label in labels:
                    results[(case.key, label)] = Summary(runs[label])
        print_report(args, cases, databases, results, labels, binaries, sizes)
    except BenchError as error:
        print(f"bench-memory: error: {error}", file=sys.stderr)
        return 1
    except (sqlite3.Error, OSError) as error:
        print(f"bench-memory: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
