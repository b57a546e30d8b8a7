"""The stdio transport driven with raw lines: garbage input, stdout hygiene, end of input.

These tests spawn the binary with subprocess (no MCP client) to send what a real client never
would, and read its stdout line by line with bounded waits.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import RUNAWAY_QUERY, SLOW_QUERY

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Scripts"))
from mcp_stdio import INITIALIZED, PROTOCOL_VERSION, StdioClient, StdioClientError, initialize_request  # noqa: E402

#: Bound on any single wait for a line from the server.
LINE_TIMEOUT = 10.0

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


class RawServer:
    """`dbai-mcp` over pipes through the scripts' StdioClient; every stdout line is kept (raw)."""

    def __init__(self, binary: Path, database: Path, *args: str) -> None:
        self.client = StdioClient([str(binary), "--db", str(database), *args], subprocess.PIPE, keep_lines=True)
        self.process = self.client.popen
        #: Messages read by wait_for, matching or not.
        self.seen: list[dict[str, Any]] = []
        self._stderr = b""
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    @property
    def raw_lines(self) -> list[bytes]:
        assert self.client.lines is not None
        return self.client.lines

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self._stderr = self.process.stderr.read()

    def send_line(self, text: str) -> None:
        self.client.write(text.encode() + b"\n")

    def send(self, message: dict[str, Any]) -> None:
        self.client.send(message)

    def request(self, request_id: Any, method: str, params: Any = None) -> None:
        self.client.send_request(method, params, request_id)

    def notify(self, method: str, params: Any = None) -> None:
        self.client.notify(method, params)

    def initialize(self, version: str = PROTOCOL_VERSION, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        self.client.write(initialize_request("init", "raw-test", capabilities, version))
        response = self.wait_for(lambda message: message.get("id") == "init")
        self.client.write(INITIALIZED)
        return response

    def next_message(self, timeout: float = LINE_TIMEOUT) -> dict[str, Any] | None:
        """The next stdout line as JSON (None at end of output); fails if it is not JSON."""
        try:
            line = self.client.read_line(timeout)
        except StdioClientError:
            pytest.fail(f"no line from the server within {timeout} s")
        if line is None:
            return None
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            pytest.fail(f"stdout line is not JSON: {line!r}")

    def wait_for(self, predicate, timeout: float = LINE_TIMEOUT) -> dict[str, Any]:
        """Reads messages until one matches; the others are kept in `self.seen`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pytest.fail(f"no matching message within {timeout} s; saw {self.seen}")
            message = self.next_message(remaining)
            if message is None:
                pytest.fail(f"stdout ended before a matching message; saw {self.seen}")
            self.seen.append(message)
            if predicate(message):
                return message

    def close_stdin(self) -> None:
        self.client.close_stdin()

    def wait_exit(self, timeout: float) -> int | None:
        return self.client.wait(timeout)

    def rest_of_output(self, timeout: float = LINE_TIMEOUT) -> list[dict[str, Any]]:
        """Every remaining message up to the end of stdout."""
        messages = []
        while (message := self.next_message(timeout)) is not None:
            messages.append(message)
        return messages

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    @property
    def stderr(self) -> str:
        self._stderr_reader.join(timeout=5)
        return self._stderr.decode(errors="replace")

    def assert_stdout_is_only_json(self) -> None:
        for line in self.raw_lines:
            assert line.endswith(b"\n"), f"unterminated stdout line: {line!r}"
            parsed = json.loads(line)
            assert isinstance(parsed, (dict, list)), line
            for message in parsed if isinstance(parsed, list) else [parsed]:
                assert message.get("jsonrpc") == "2.0", line


@pytest.fixture
def raw_server(dbai_bin: Path, chinook: Path):
    started: list[RawServer] = []

    def start(*args: str) -> RawServer:
        server = RawServer(dbai_bin, chinook, *args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def error_of(message: dict[str, Any]) -> dict[str, Any]:
    assert "error" in message and "result" not in message, message
    error = message["error"]
    assert isinstance(error["code"], int) and isinstance(error["message"], str), message
    return error


def test_garbage_gets_json_rpc_errors_and_the_server_keeps_serving(raw_server) -> None:
    server = raw_server()
    initialized = server.initialize()
    assert initialized["result"]["serverInfo"]["name"] == "dbai-mcp"

    # Each garbage line, then a marker request that proves the server read past it.
    server.send_line("not json")
    parse_error = server.wait_for(lambda message: "error" in message)
    assert error_of(parse_error)["code"] == PARSE_ERROR
    assert parse_error["id"] is None  # JSON-RPC 2.0 §5: null when no id could be read

    server.send_line("[1,2]")
    batch_error = server.wait_for(lambda message: True)
    errors = batch_error if isinstance(batch_error, list) else [batch_error]
    assert errors and all(error_of(error)["code"] in (PARSE_ERROR, INVALID_REQUEST) for error in errors)

    server.request(3, "tools/call", "query")
    string_params = server.wait_for(lambda message: message.get("id") == 3)
    assert error_of(string_params)["code"] in (INVALID_PARAMS, INVALID_REQUEST, INTERNAL_ERROR)

    server.request(4, "no/such/method", {})
    unknown = server.wait_for(lambda message: message.get("id") == 4)
    assert error_of(unknown)["code"] == METHOD_NOT_FOUND

    server.send_line('{"jsonrpc": "2.0", "id": 5, "method": "tools/list"')  # cut short
    truncated = server.wait_for(lambda message: "error" in message)
    assert error_of(truncated)["code"] in (PARSE_ERROR, INVALID_REQUEST)

    server.request(6, "tools/list")
    listed = server.wait_for(lambda message: message.get("id") == 6)
    assert "error" not in listed
    assert {tool["name"] for tool in listed["result"]["tools"]} == {"describe_schema", "query", "export", "aggregate"}

    server.request(7, "tools/call", {"name": "query", "arguments": {"sql": "SELECT 1 AS one"}})
    query = server.wait_for(lambda message: message.get("id") == 7)
    assert query["result"]["structuredContent"]["rows"] == [[1]]

    server.close_stdin()
    assert all("error" not in message for message in server.rest_of_output())
    assert server.wait_exit(10) == 0
    server.assert_stdout_is_only_json()


def test_every_stdout_line_is_protocol_even_with_logging_and_errors(raw_server) -> None:
    server = raw_server("--allow", "standard")
    server.initialize()
    server.request(2, "logging/setLevel", {"level": "debug"})
    server.request(3, "tools/call", {"name": "query", "arguments": {"sql": "DROP TABLE Track"}})
    server.request(4, "tools/call", {"name": "insert", "arguments": {"table": "Genre", "rows": [{"Name": None}]}})
    server.request(5, "tools/call", {"name": "describe_schema", "arguments": {"include_samples": True}})
    server.request(6, "resources/read", {"uri": "sqlite://schema"})
    server.request(7, "tools/call", {"name": "query", "arguments": {"sql": "SELEKT"}, "_meta": {"progressToken": 7}})
    server.close_stdin()
    messages = server.rest_of_output()
    assert server.wait_exit(10) == 0
    server.assert_stdout_is_only_json()
    answered = {message.get("id") for message in messages if "result" in message or "error" in message}
    assert {2, 3, 4, 5, 6, 7} <= answered
    assert any(message.get("method") == "notifications/message" for message in messages), "logging was on"
    assert "dbai-mcp" in server.stderr, "logs go to stderr"


def test_end_of_input_answers_pending_requests_then_exits_zero(raw_server) -> None:
    server = raw_server()
    server.request(1, "initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
    server.notify("notifications/initialized")
    server.request(2, "tools/call", {"name": "query", "arguments": {"sql": SLOW_QUERY}})
    server.request(3, "tools/list")
    server.request(4, "tools/call", {"name": "aggregate", "arguments": {"table": "Genre", "function": "count"}})
    server.close_stdin()  # right away: the slow query is still running
    closed_at = time.monotonic()
    messages = server.rest_of_output()
    exit_code = server.wait_exit(10)
    assert exit_code == 0
    assert time.monotonic() - closed_at < 8
    server.assert_stdout_is_only_json()
    by_id = {message["id"]: message for message in messages if "id" in message}
    assert set(by_id) == {1, 2, 3, 4}
    assert by_id[2]["result"]["structuredContent"]["rows"] == [[6000000]]
    assert by_id[4]["result"]["structuredContent"]["rows"] == [[25]]
    assert "tools" in by_id[3]["result"]


def test_end_of_input_after_a_cancelled_request_exits_promptly(raw_server) -> None:
    server = raw_server("--timeout-ms", "20000")
    server.initialize()
    server.request(2, "tools/call", {"name": "query", "arguments": {"sql": RUNAWAY_QUERY}, "_meta": {"progressToken": "p"}})
    server.wait_for(lambda message: message.get("method") == "notifications/progress" and message["params"]["progress"] >= 1)
    server.notify("notifications/cancelled", {"requestId": 2, "reason": "test"})
    server.request(3, "tools/call", {"name": "query", "arguments": {"sql": "SELECT 1"}})
    answered = server.wait_for(lambda message: message.get("id") == 3)
    assert answered["result"]["structuredContent"]["rows"] == [[1]]
    server.close_stdin()
    assert server.wait_exit(3) == 0, "the server did not exit within 3 s of end of input"
    assert all(message.get("id") != 2 for message in server.seen + server.rest_of_output())


@pytest.mark.parametrize(
    "requested, negotiated",
    [("2025-11-25", "2025-11-25"), ("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")],
)
def test_protocol_version_negotiation(raw_server, requested: str, negotiated: str) -> None:
    server = raw_server()
    response = server.initialize(requested)
    assert response["result"]["protocolVersion"] == negotiated
    server.close_stdin()
    assert server.wait_exit(10) == 0
    server.assert_stdout_is_only_json()
