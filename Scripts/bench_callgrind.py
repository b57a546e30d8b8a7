#!/usr/bin/env python3
"""Instructions (valgrind's callgrind) of dbai-mcp release builds, compared in one run:
start-up (the process, one `initialize`, the end of input) and 1,000 `query` calls on Chinook
(one bound parameter each, 1 to 27 rows). Instruction counts repeat on a busy machine, where
wall-clock times do not.

    Scripts/bench-callgrind [--rounds N] [--calls N] [--http session|stateless] BINARY [BINARY...]

With --writes, the calls are one-row `insert`s into Genre instead (`--allow standard`, a fresh
copy of the database for each run); with --audit-log as well, each run writes a fresh audit log.

With --http, the same calls go to `dbai-mcp --http` over one keep-alive connection: in one
2025-11-25 session, or as stateless 2026-07-28 POSTs; "start-up" is then a run that answers
no call (start, listen, SIGTERM, drain, exit).

Each binary is copied and stripped first (valgrind cannot read the debug information of a
static Swift binary). Prints, per binary, the start-up count, the count of the whole run and the
calls' share (whole run less start-up), and each binary's ratio to the first."""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def messages(calls: int, writes: bool = False) -> bytes:
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for index in range(1, calls + 1):
        if writes:
            lines.append({"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {"name": "insert", "arguments": {
                "table": "Genre", "rows": [{"Name": f"Bench genre {index}"}]}}})
            continue
        lines.append({"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {"name": "query", "arguments": {
            "sql": "SELECT TrackId, Name, Milliseconds FROM Track WHERE AlbumId = ?", "params": [index % 300 + 1]}}})
    return ("\n".join(json.dumps(line) for line in lines) + "\n").encode()


def instructions(binary: str, database: str, stdin: bytes, expected_lines: int, extra: list[str] | None = None,
                 fresh_in: str | None = None, audit_log: bool = False) -> int:
    """Callgrind's count for one run; with `fresh_in`, on a new copy of the database made in
    that directory (and, with `audit_log`, a new audit log beside it)."""
    if fresh_in is not None:
        run_directory = tempfile.mkdtemp(dir=fresh_in)
        copy = os.path.join(run_directory, "chinook.sqlite")
        shutil.copy(database, copy)
        database = copy
        if audit_log:
            extra = [*(extra or []), "--audit-log", os.path.join(run_directory, "audit.jsonl")]
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "--db", database, *(extra or [])],
        input=stdin, capture_output=True, check=False)
    found = re.search(rb"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"bench-callgrind: valgrind failed on {binary}: {run.stderr[-600:].decode(errors='replace')}")
    answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    failed = [answer for answer in answers if "error" in answer or answer.get("result", {}).get("isError")]
    if len(answers) != expected_lines or failed:
        sys.exit(f"bench-callgrind: {binary} did not answer every call ({len(answers)} of {expected_lines}, "
                 f"{len(failed)} errors): {run.stderr[-600:].decode(errors='replace')}")
    return int(found.group(1))


def answer(response: http.client.HTTPResponse) -> dict:
    """The JSON-RPC message of a response: the body, or the last event of a stream."""
    body = response.read().decode()
    if (response.getheader("Content-Type") or "").startswith("text/event-stream"):
        events = [line[len("data: "):] for line in body.splitlines() if line.startswith("data: ")]
        body = events[-1] if events else "{}"
    return json.loads(body or "{}")


def http_instructions(
    binary: str, database: str, mode: str, calls: int, work: str, flags: tuple[str, ...] = (),
    address: str = "127.0.0.1:0", tokens: list[str] | None = None, env: dict[str, str] | None = None,
) -> int:
    """Runs the server under callgrind with --http, sends `calls` query calls over one
    keep-alive connection, stops it with SIGTERM and returns the instructions of the whole run.
    Exits with a message when a call is not answered with a result, or the server does not
    listen, drain and exit 0 in time. `flags` are added to the command line; `tokens`, when
    given, are sent as `Authorization: Bearer` in turn (the first for the session's handshake)."""
    log_path = os.path.join(work, "server.log")
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "--db", database,
             "--http", address, *flags], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log_file,
            env={**os.environ, **(env or {})})

    def log() -> str:
        with open(log_path, "rb") as file:
            return file.read().decode(errors="replace")

    def fail(reason: str) -> None:
        sys.exit(f"bench-callgrind: {binary}: {reason}: {log()[-600:]}")

    try:
        port = None
        deadline = time.monotonic() + 120
        while port is None and time.monotonic() < deadline and process.poll() is None:
            if found := re.search(r"listening on http://127\.0\.0\.1:(\d+)/mcp", log()):
                port = int(found.group(1))
            else:
                time.sleep(0.1)
        if port is None:
            fail("it did not listen")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

        def post(message: dict, extra: dict[str, str], index: int = 0) -> tuple[http.client.HTTPResponse, dict]:
            sent = {**headers, **extra}
            if tokens:
                sent["Authorization"] = f"Bearer {tokens[index % len(tokens)]}"
            connection.request("POST", "/mcp", body=json.dumps(message), headers=sent)
            response = connection.getresponse()
            return response, answer(response)

        session: dict[str, str] = {}
        if mode == "session" and calls:
            opened, message = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}, {})
            if opened.status != 200 or "result" not in message or not opened.getheader("Mcp-Session-Id"):
                fail(f"initialize was answered {opened.status} {message}")
            session = {"Mcp-Session-Id": opened.getheader("Mcp-Session-Id") or ""}
            initialized, _ = post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
            if initialized.status != 202:
                fail(f"notifications/initialized was answered {initialized.status}")
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        for index in range(1, calls + 1):
            params = {"name": "query", "arguments": {
                "sql": "SELECT TrackId, Name, Milliseconds FROM Track WHERE AlbumId = ?", "params": [index % 300 + 1]}}
            if mode == "session":
                response, message = post({"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": params}, session, index)
            else:
                response, message = post(
                    {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {**params, "_meta": meta}},
                    {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "query"}, index)
            if response.status != 200 or "result" not in message or message["result"].get("isError"):
                fail(f"call {index} was answered {response.status} {str(message)[:300]}")
        connection.close()
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(180)
        except subprocess.TimeoutExpired:
            fail("it did not exit within 180 s of SIGTERM")
        text = log()
        found = re.search(r"Collected : (\d+)", text)
        if code != 0 or not found or "default action of signal" in text:
            fail(f"it did not drain and exit 0 (exit {code})")
        return int(found.group(1))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--http", choices=["session", "stateless"])
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="an argument more for every server (repeat it), e.g. --server-arg=--metadata --server-arg=FILE; stdio only")
    parser.add_argument("--writes", action="store_true", help="one-row inserts instead of queries (stdio only)")
    parser.add_argument("--audit-log", action="store_true", help="with --writes: a fresh --audit-log for each run")
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()
    if options.http and options.writes:
        parser.error("--writes runs over stdio only")
    if options.audit_log and not options.writes:
        parser.error("--audit-log goes with --writes")
    if options.rounds < 1 or options.calls < 1:
        parser.error("--rounds and --calls must be at least 1")
    for tool in ["valgrind", "strip"]:
        if shutil.which(tool) is None:
            sys.exit(f"bench-callgrind: {tool} is missing (Debian: apt-get install {'valgrind' if tool == 'valgrind' else 'binutils'})")
    for binary in options.binaries:
        if not os.path.isfile(binary):
            sys.exit(f"bench-callgrind: no binary at {binary}")
    with tempfile.TemporaryDirectory() as work:
        database = os.path.join(work, "chinook.sqlite")
        shutil.copy(ROOT / "Examples" / "chinook.sqlite", database)
        stripped = []
        for index, binary in enumerate(options.binaries):
            copy = os.path.join(work, f"dbai-mcp-{index}")
            subprocess.run(["strip", "-o", copy, binary], check=True)
            stripped.append(copy)
        start_input, calls_input = messages(0), messages(options.calls, writes=options.writes)
        extra = [*options.server_arg, *(["--allow", "standard"] if options.writes else [])]
        fresh = work if options.writes else None
        starts: dict[int, list[int]] = {index: [] for index in range(len(stripped))}
        totals: dict[int, list[int]] = {index: [] for index in range(len(stripped))}
        for _ in range(options.rounds):
            for index, binary in enumerate(stripped):
                if options.http:
                    starts[index].append(http_instructions(binary, database, options.http, 0, work))
                    totals[index].append(http_instructions(binary, database, options.http, options.calls, work))
                else:
                    starts[index].append(instructions(binary, database, start_input, 1, extra, fresh, options.audit_log))
                    totals[index].append(instructions(binary, database, calls_input, options.calls + 1, extra, fresh, options.audit_log))
    first_start = statistics.median(starts[0])
    first_calls = statistics.median(totals[0]) - first_start
    print(f"{'binary':<60} {'start-up':>12} {'whole run':>12} {f'{options.calls} calls':>12}  ratios to the first")
    for index, binary in enumerate(options.binaries):
        start = statistics.median(starts[index])
        total = statistics.median(totals[index])
        calls = total - start
        print(f"{binary[-60:]:<60} {start / 1e6:>10.1f} M {total / 1e6:>10.1f} M {calls / 1e6:>10.1f} M"
              f"  start {start / first_start:.3f}x, calls {calls / first_calls:.3f}x")


if __name__ == "__main__":
    main()
