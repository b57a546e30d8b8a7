"""The Streamable HTTP part of bench_mcp.py: `dbai-mcp --http 127.0.0.1:0` driven over raw
HTTP/1.1 keep-alive connections (http.client, no MCP library), beside its stdio figures.

  http sequential   one `tools/call` POST at a time on one session
  http sessions     N sessions at once (a thread and a connection each), M calls each: the
                    calls/s of the whole and the latency of each call

Every response is checked (status, id, the expected rows); a wrong answer is a run failure.
Standard library only.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any

from mcp_stdio import PROTOCOL_VERSION

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
STATELESS_VERSION = "2026-07-28"
STATELESS_META = {"io.modelcontextprotocol/protocolVersion": STATELESS_VERSION, "io.modelcontextprotocol/clientCapabilities": {}}


class HTTPBenchError(Exception):
    """The HTTP server failed to start, or answered wrongly."""


@dataclass
class HTTPResults:
    sequential: list[float]  # milliseconds per call
    sessions: int
    calls_per_session: int
    session_rate: float  # calls/s of all sessions together
    session_latencies: list[float]  # milliseconds per call, all sessions


class HTTPSession:
    """One MCP session on one keep-alive connection; with `stateless`, MCP 2026-07-28 requests
    instead (no session: the version and capabilities in every request's `_meta`, and the
    `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers)."""

    def __init__(self, host: str, port: int, stateless: bool = False) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=60)
        self.session_id: str | None = None
        self.next_id = 1
        self.stateless = stateless

    def post(self, message: dict) -> tuple[int, dict[str, str], bytes]:
        headers = dict(HEADERS)
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.stateless and "id" in message:
            message = {**message, "params": {**message.get("params", {}), "_meta": STATELESS_META}}
            headers.update({"MCP-Protocol-Version": STATELESS_VERSION, "Mcp-Method": message["method"]})
            if message["method"] == "tools/call":
                headers["Mcp-Name"] = message["params"]["name"]
        self.connection.request("POST", "/mcp", json.dumps(message, separators=(",", ":")), headers)
        response = self.connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    def initialize(self) -> None:
        if self.stateless:
            return
        status, headers, body = self.post({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                       "clientInfo": {"name": "bench-http", "version": "1"}}})
        if status != 200 or "mcp-session-id" not in headers:
            raise HTTPBenchError(f"initialize: HTTP {status}: {body[:200]!r}")
        self.session_id = headers["mcp-session-id"]
        status, _, body = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if status != 202:
            raise HTTPBenchError(f"notifications/initialized: HTTP {status}: {body[:200]!r}")

    def call(self, arguments: dict) -> tuple[float, dict]:
        request_id = self.next_id
        self.next_id += 1
        started = time.perf_counter()
        status, headers, body = self.post({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                                           "params": {"name": "query", "arguments": arguments}})
        elapsed = time.perf_counter() - started
        if status != 200 or not headers.get("content-type", "").startswith("application/json"):
            raise HTTPBenchError(f"tools/call: HTTP {status} {headers.get('content-type')}: {body[:200]!r}")
        reply = json.loads(body)
        if reply.get("id") != request_id or "result" not in reply or reply["result"].get("isError"):
            raise HTTPBenchError(f"tools/call {request_id}: {body[:300]!r}")
        return elapsed * 1000, reply["result"]


def start_http_server(binary: str, database: str, stderr_path: str) -> tuple[subprocess.Popen, str, int]:
    stderr = open(stderr_path, "w+")
    process = subprocess.Popen([binary, "--db", database, "--http", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                               stderr=stderr)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        stderr.seek(0)
        match = re.search(r"listening on http://([0-9.]+):(\d+)/mcp", stderr.read())
        if match:
            return process, match.group(1), int(match.group(2))
        if process.poll() is not None:
            break
        time.sleep(0.01)
    process.kill()
    raise HTTPBenchError(f"dbai-mcp --http did not start: {open(stderr_path).read()[-500:]}")


def measure_http(binary: str, database: str, sql: str, expected_rows: list[list], warmups: int, calls: int,
                 sessions: int, calls_per_session: int, stderr_path: str, stateless: bool = False) -> HTTPResults:
    process, host, port = start_http_server(binary, database, stderr_path)
    try:
        session = HTTPSession(host, port, stateless)
        session.initialize()
        for _ in range(warmups):
            session.call({"sql": sql})
        sequential = []
        for _ in range(calls):
            elapsed, result = session.call({"sql": sql})
            sequential.append(elapsed)
            if result["structuredContent"]["rows"] != expected_rows:
                raise HTTPBenchError(f"rows {result['structuredContent']['rows']!r}, expected {expected_rows!r}")

        latencies: list[list[float]] = [[] for _ in range(sessions)]
        failures: list[str] = []
        clients = [HTTPSession(host, port, stateless) for _ in range(sessions)]
        for client in clients:
            client.initialize()
        start = threading.Barrier(sessions + 1)

        def run(number: int) -> None:
            client = clients[number]
            try:
                start.wait()
                for index in range(calls_per_session):
                    elapsed, result = client.call({"sql": "SELECT ? AS s, ? AS i", "params": [number, index]})
                    latencies[number].append(elapsed)
                    if result["structuredContent"]["rows"] != [[number, index]]:
                        raise HTTPBenchError(f"session {number} call {index}: {result['structuredContent']['rows']!r}")
            except BaseException as error:  # noqa: BLE001 - reported below
                failures.append(f"session {number}: {error}")

        threads = [threading.Thread(target=run, args=(number,)) for number in range(sessions)]
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join(300)
        wall = time.perf_counter() - began
        if failures or any(thread.is_alive() for thread in threads):
            raise HTTPBenchError("; ".join(failures) or "the sessions did not finish in 300 s")
        every = [value for values in latencies for value in values]
        return HTTPResults(sequential, sessions, calls_per_session, len(every) / wall, every)
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
