"""`dbai-mcp --http`: MCP Streamable HTTP with the official client (tools, resources, confirmation
through elicitation, cancellation), sessions that share nothing, and every refusal: no token, a
wrong token, a foreign Origin or Host, an open address without a token, an oversized body."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import anyio
import pytest
from mcp import types

from conftest import (
    RUNAWAY_QUERY,
    SLOW_QUERY,
    Connection,
    assert_tool_error,
    assert_tool_ok,
    error_code,
    run_binary,
    session_over,
    validate_output,
)
from mcp_compat import McpError, streamable_http

pytestmark = pytest.mark.anyio

TOKEN = "test-secret-0123456789"
TOKEN_VARIABLE = "DBAI_TEST_TOKEN"
PROTOCOL = "2025-11-25"
JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@dataclass
class HTTPServer:
    """A running `dbai-mcp --http` and what it logged."""

    process: subprocess.Popen[str]
    host: str
    port: int
    log: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/mcp"

    def raw(self) -> RawHTTP:
        return RawHTTP(self.host, self.port)

    def stderr(self) -> str:
        return "".join(self.log)


@contextmanager
def http_server(
    binary: Path, database: Path, *args: str, token: str | None = TOKEN, address: str = "127.0.0.1:0",
    env_extra: dict[str, str] | None = None,
) -> Iterator[HTTPServer]:
    """Starts `dbai-mcp --db DATABASE --http ADDRESS ARGS…` and waits for its address."""
    env = dict(os.environ, **(env_extra or {}))
    flags = ["--db", str(database), "--http", address, *args]
    if token is not None:
        env[TOKEN_VARIABLE] = token
        flags += ["--auth-token-env", TOKEN_VARIABLE]
    process = subprocess.Popen([str(binary), *flags], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    log: list[str] = []
    found = threading.Event()
    address: list[tuple[str, int]] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            match = re.search(r"listening on http://([0-9.]+):(\d+)/mcp", line)
            if match and not address:
                address.append((match.group(1), int(match.group(2))))
                found.set()
        found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert found.wait(30), "the server did not say where it listens"
        assert address, f"the server stopped before listening: {''.join(log)}"
        server = HTTPServer(process, address[0][0], address[0][1], log)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(5)


@asynccontextmanager
async def connect_http(server: HTTPServer, token: str | None = TOKEN, **session_options: Any) -> AsyncIterator[Connection]:
    """An initialized session of the official Streamable HTTP client."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with streamable_http(server.url, headers) as (read_stream, write_stream):
        async with session_over(read_stream, write_stream, **session_options) as connection:
            yield connection


class RawHTTP:
    """HTTP/1.1 on one keep-alive connection, to see status codes and headers."""

    def __init__(self, host: str, port: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.session_id: str | None = None

    def request(
        self, method: str, body: Any = None, headers: dict[str, str] | None = None, token: str | None = TOKEN,
        path: str = "/mcp", raw_body: bytes | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        sent = dict(JSON_HEADERS)
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if self.session_id:
            sent["Mcp-Session-Id"] = self.session_id
        sent.update(headers or {})
        data = raw_body if raw_body is not None else (json.dumps(body).encode() if body is not None else None)
        self.connection.request(method, path, data, {key: value for key, value in sent.items() if value is not None})
        response = self.connection.getresponse()
        payload = response.read()
        return response.status, {key.lower(): value for key, value in response.getheaders()}, payload

    def initialize(self, token: str | None = TOKEN, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        status, headers, body = self.request("POST", {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": capabilities or {}, "clientInfo": {"name": "raw", "version": "1"}},
        }, token=token)
        assert status == 200, body
        self.session_id = headers["mcp-session-id"]
        initialized = json.loads(body_message(headers, body))
        status, _, body = self.request("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, token=token)
        assert status == 202, body
        return initialized

    def call(self, request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        status, headers, body = self.request("POST", {
            "jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": name, "arguments": arguments},
        })
        assert status == 200, body
        return json.loads(body_message(headers, body))


def body_message(headers: dict[str, str], body: bytes) -> bytes:
    """The response of a POST: the JSON body, or the last `data:` of its event stream."""
    if headers.get("content-type", "").startswith("text/event-stream"):
        events = [line[5:].strip() for line in body.decode().splitlines() if line.startswith("data:")]
        return events[-1].encode()
    return body


def error_message(body: bytes) -> str:
    return json.loads(body)["error"]["message"]


@pytest.fixture
def served(dbai_bin: Path, chinook: Path):
    """`served(*flags, db=…, token=…)`: a context manager over a running HTTP server."""

    def start(*args: str, db: Path | None = None, token: str | None = TOKEN):
        return http_server(dbai_bin, db or chinook, *args, token=token)

    return start


# MARK: - The official client


def test_the_result_view_is_negotiated_per_session_over_http(served) -> None:
    apps = {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}
    with served() as server:
        viewing, plain = server.raw(), server.raw()
        declared = viewing.initialize(capabilities=apps)["result"]["capabilities"]
        assert declared["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"] == ["text/html;profile=mcp-app"]
        assert "extensions" not in plain.initialize()["result"]["capabilities"]
        def tools(session: RawHTTP) -> dict[str, Any]:
            status, headers, body = session.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            return {tool["name"]: tool for tool in json.loads(body_message(headers, body))["result"]["tools"]}
        assert tools(viewing)["view_rows"]["_meta"]["ui"]["visibility"] == ["app"]
        assert "view_rows" not in tools(plain)
        sql = "SELECT Name FROM Genre ORDER BY GenreId"
        assert "io.github.swiftdbai/view" in viewing.call(2, "query", {"sql": sql})["result"]["_meta"]
        assert "_meta" not in plain.call(2, "query", {"sql": sql})["result"]


async def test_tools_and_resources_with_the_official_client(served) -> None:
    with served() as server:
        async with connect_http(server) as connection:
            tools = {tool.name for tool in (await connection.session.list_tools()).tools}
            result = await connection.call("query", {"sql": "SELECT Name FROM Artist WHERE ArtistId = ?", "params": [1]})
            structured = await validate_output(connection, "query", result)
            schema = await connection.session.read_resource("sqlite://schema")
            refused = await connection.call("query", {"sql": "DELETE FROM Artist"})
            instructions = connection.initialize_result.instructions
    assert tools == {"describe_schema", "query", "export", "aggregate"}
    assert structured["rows"] == [["AC/DC"]]
    assert "CREATE TABLE" in schema.contents[0].text and "Artist" in schema.contents[0].text
    assert_tool_error(refused)
    assert "chinook.sqlite" in (instructions or "")


async def test_confirmation_through_elicitation_over_http(served, chinook: Path) -> None:
    database = sqlite3.connect(chinook)
    with database:
        database.executemany("INSERT INTO Genre (GenreId, Name) VALUES (?, ?)", [(i, f"Scratch {i}") for i in (100, 101)])
    database.close()
    asked: list[str] = []

    async def decline(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="decline")

    async def accept(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    delete = {"table": "Genre", "where": {"GenreId": {">=": 100}}}
    with served("--allow", "unrestricted") as server:
        async with connect_http(server, elicitation_callback=decline) as connection:
            declined = await connection.call("delete", delete)
        remaining = sqlite3.connect(chinook).execute("SELECT count(*) FROM Genre WHERE GenreId >= 100").fetchone()[0]
        async with connect_http(server, elicitation_callback=accept) as connection:
            accepted = await connection.call("delete", delete)
    assert_tool_error(declined)
    assert remaining == 2
    assert assert_tool_ok(accepted)["rows_affected"] == 2
    assert len(asked) == 2 and all("2 rows" in message for message in asked), asked


async def test_progress_and_cancellation_over_http(served) -> None:
    running = anyio.Event()
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)
        if value >= 1:
            running.set()

    with served("--timeout-ms", "120000", "--allow", "standard") as server:
        async with connect_http(server) as connection:
            async with anyio.create_task_group() as group:

                async def runaway() -> None:
                    await connection.call("query", {"sql": RUNAWAY_QUERY}, progress_callback=on_progress)

                group.start_soon(runaway)
                with anyio.fail_after(15):
                    await running.wait()
                request_id = connection.sent_requests("tools/call")[-1]["id"]
                await connection.cancel(request_id)
                group.cancel_scope.cancel()
            # A write waits for every read before it: it runs only if the runaway read stopped
            # (it would otherwise run for the 120 s timeout).
            with anyio.fail_after(20):
                written = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "After cancel"}]})
            slow = await connection.call("query", {"sql": SLOW_QUERY})
    assert progress, "progress notifications arrive on the call's stream"
    assert assert_tool_ok(written)["rows_affected"] == 1
    assert assert_tool_ok(slow)["rows"] == [[6000000]]


# MARK: - Sessions


async def test_sessions_share_neither_tokens_nor_log_levels(served, chinook: Path) -> None:
    database = sqlite3.connect(chinook)
    with database:
        database.execute("INSERT INTO Genre (GenreId, Name) VALUES (100, 'Scratch')")
    database.close()
    logged: dict[str, list[str]] = {"a": [], "b": []}

    def logger_for(name: str):
        async def on_log(params: types.LoggingMessageNotificationParams) -> None:
            logged[name].append(str(params.data))

        return on_log

    delete = {"table": "Genre", "where": {"GenreId": 100}}
    with served("--allow", "unrestricted") as server:
        async with connect_http(server, logging_callback=logger_for("a")) as first, \
                connect_http(server, logging_callback=logger_for("b")) as second:
            await first.session.set_logging_level("debug")
            preview = await first.call("delete", delete)
            token = preview.structuredContent["confirmation_token"]
            elsewhere = await second.call("delete", {**delete, "confirm": token})
            await second.call("query", {"sql": "SELECT 1"})
            confirmed = await first.call("delete", {**delete, "confirm": token})
    assert preview.structuredContent["confirmation_required"] is True
    assert_tool_error(elsewhere, "token")
    assert error_code(elsewhere) == "invalid_confirmation_token"
    assert assert_tool_ok(confirmed)["rows_affected"] == 1
    assert any("succeeded" in message for message in logged["a"]), logged
    # Session b keeps the default level (warning): its own refusal, none of the debug messages.
    assert not any("succeeded" in message for message in logged["b"]), "a log level belongs to its session"
    assert any("token" in message for message in logged["b"]), logged


async def test_conversations_and_sampling_belong_to_their_session(served) -> None:
    prompts: dict[str, list[str]] = {"a": [], "b": []}

    def sampler(name: str):
        async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
            texts = [message.content.text for message in params.messages if isinstance(message.content, types.TextContent)]
            prompts[name].append("\n".join(texts))
            answer = ("The USA leads." if "<data>" in texts[-1] else
                      "```sql\nSELECT BillingCountry, SUM(Total) AS total FROM Invoice GROUP BY BillingCountry "
                      "ORDER BY total DESC LIMIT 3\n```")
            return types.CreateMessageResult(
                role="assistant", content=types.TextContent(type="text", text=answer), model="m", stopReason="endTurn")

        return sampling

    with served() as server:
        async with connect_http(server, sampling_callback=sampler("a")) as first, \
                connect_http(server, sampling_callback=sampler("b")) as second:
            opened = assert_tool_ok(await first.call("ask", {"question": "Which three countries spend the most?"}))
            conversation = opened["conversation_id"]
            followed = assert_tool_ok(await first.call("ask", {"question": "And by how much?", "conversation_id": conversation}))
            count_a = len(prompts["a"])
            other = assert_tool_ok(await second.call("ask", {"question": "Which genres sell?", "conversation_id": conversation}))
    assert followed["conversation_id"] == conversation
    assert any("Which three countries" in prompt for prompt in prompts["a"][2:count_a]), "the follow-up carries its history"
    assert prompts["b"], "session b's questions went to session b's client"
    assert len(prompts["a"]) == count_a, "nothing of session b reached session a's client"
    assert not any("Which three countries" in prompt for prompt in prompts["b"]), "a conversation belongs to its session"
    assert other["answer"] == "The USA leads."


def test_ten_sessions_of_two_hundred_calls_lose_and_mix_nothing(served) -> None:
    sessions, calls = 10, 200
    failures: list[str] = []
    session_ids: list[str] = []

    def client(number: int) -> None:
        try:
            raw = server.raw()
            raw.initialize()
            session_ids.append(raw.session_id or "")
            for index in range(calls):
                reply = raw.call(index + 1, "query", {"sql": "SELECT ? AS session, ? AS call", "params": [number, index]})
                assert reply["id"] == index + 1, reply
                rows = reply["result"]["structuredContent"]["rows"]
                assert rows == [[number, index]], (number, index, rows)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion below
            failures.append(f"session {number}: {error!r}")

    with served("--max-sessions", "16") as server:
        threads = [threading.Thread(target=client, args=(number,)) for number in range(sessions)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads), "the load did not finish in 120 s"
    assert failures == []
    assert len(set(session_ids)) == sessions


def test_session_cap_idle_expiry_and_delete(served) -> None:
    with served("--max-sessions", "2", "--session-idle-timeout", "1") as server:
        first, second, third = server.raw(), server.raw(), server.raw()
        first.initialize()
        second.initialize()
        status, headers, body = third.request("POST", {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
        })
        assert status == 503, body
        assert "--max-sessions 2" in error_message(body)
        # DELETE ends a session: its id is unknown afterwards.
        status, _, _ = second.request("DELETE")
        assert status == 200
        status, _, body = second.request("POST", {"jsonrpc": "2.0", "id": 5, "method": "tools/list"})
        assert status == 404, body
        # After the idle timeout, the session is closed and its slot free again.
        time.sleep(4)
        status, _, body = first.request("POST", {"jsonrpc": "2.0", "id": 6, "method": "tools/list"})
        assert status == 404, body
        third.initialize()
        assert "idle" in server.stderr()


def test_concurrent_initializes_never_exceed_the_cap(served) -> None:
    statuses: list[int] = []

    def initialize() -> None:
        status, _, _ = server.raw().request("POST", {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
        })
        statuses.append(status)

    with served("--max-sessions", "3") as server:
        threads = [threading.Thread(target=initialize) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert sorted(statuses) == [200] * 3 + [503] * 9, statuses


# MARK: - Refusals


@pytest.mark.parametrize(
    ("headers", "token", "status", "fragment"),
    [
        ({}, None, 401, "Authorization: Bearer"),
        ({}, "wrong-secret", 401, "not valid"),
        ({}, TOKEN[:-1], 401, "not valid"),
        ({"Authorization": f"Basic {TOKEN}"}, None, 401, "Bearer"),
        ({"Origin": "https://evil.example.com"}, TOKEN, 403, "origin"),
        ({"Origin": "null"}, TOKEN, 403, "origin"),
        ({"Host": "evil.example.com"}, TOKEN, 403, "Host"),
        ({"Host": "rebound.example.com:8080"}, TOKEN, 403, "Host"),
    ],
)
def test_each_refusal_has_its_status_and_says_why(served, headers, token, status, fragment) -> None:
    with served() as server:
        raw = server.raw()
        got, response_headers, body = raw.request("POST", {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
        }, headers=headers, token=token)
    assert got == status, body
    assert fragment.lower() in error_message(body).lower()
    if status == 401:
        assert response_headers["www-authenticate"].startswith("Bearer")
    assert TOKEN not in server.stderr(), "the token never appears in the logs"


def test_loopback_and_allowed_origins_pass(served) -> None:
    with served("--allow-origin", "https://app.example.com") as server:
        for origin in ["http://localhost:6274", "http://127.0.0.1", "https://app.example.com", "HTTPS://APP.EXAMPLE.COM"]:
            raw = server.raw()
            status, headers, body = raw.request("POST", {
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
            }, headers={"Origin": origin})
            assert status == 200, (origin, body)
            assert headers["access-control-allow-origin"] == origin
        raw = server.raw()
        status, _, body = raw.request("POST", {"jsonrpc": "2.0", "id": 0, "method": "initialize"},
                                      headers={"Origin": "https://app.example.com.evil.com"})
        assert status == 403, body
        # A browser's preflight carries no credentials: it is answered, and gives access to nothing.
        status, headers, _ = server.raw().request(
            "OPTIONS", token=None, headers={"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"})
        assert status == 204
        assert "Authorization" in headers["access-control-allow-headers"]
        assert server.raw().request("OPTIONS", token=None, headers={"Origin": "https://evil.example.com"})[0] == 403
        assert server.raw().request("GET", token=None, headers={"Origin": "https://app.example.com"})[0] == 401


def test_the_official_client_without_the_token_is_refused(served) -> None:
    async def attempt() -> None:
        async with connect_http(server, token=None):
            pass

    with served() as server:
        with pytest.raises(BaseException) as raised:
            anyio.run(attempt)
    assert "401" in repr(raised.value) or "Unauthorized" in repr(raised.value), repr(raised.value)


def test_an_oversized_body_gets_413(served) -> None:
    with served("--max-request-bytes", "4096") as server:
        raw = server.raw()
        raw.initialize()
        big = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "query", "arguments": {"sql": "SELECT '" + "x" * 8000 + "'"}}}
        status, _, body = raw.request("POST", big)
        assert status == 413, body
        assert "4096" in error_message(body)
        # A new connection still works.
        raw = server.raw()
        raw.initialize()
        assert raw.call(1, "query", {"sql": "SELECT 1"})["result"]["structuredContent"]["rows"] == [[1]]


def test_protocol_errors_have_their_status(served) -> None:
    with served() as server:
        raw = server.raw()
        status, _, body = raw.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert status == 400 and "Mcp-Session-Id" in error_message(body)
        raw.session_id = "0" * 32
        status, _, body = raw.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert status == 404, body
        raw = server.raw()
        raw.initialize()
        assert raw.request("POST", raw_body=b"{not json")[0] == 400
        assert raw.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers={"Content-Type": "text/plain"})[0] == 415
        assert raw.request("PUT", {})[0] == 405
        assert raw.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, path="/other")[0] == 404
        status, _, body = raw.request("POST", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                      headers={"Mcp-Protocol-Version": "1999-01-01"})
        assert status == 400 and "1999-01-01" in error_message(body)
        # Still usable after every refusal.
        assert raw.call(2, "query", {"sql": "SELECT 2"})["result"]["structuredContent"]["rows"] == [[2]]


def test_a_request_id_still_in_flight_is_refused_and_the_first_call_goes_on(served) -> None:
    with served() as server:
        first, second = server.raw(), server.raw()
        first.initialize()
        second.session_id = first.session_id
        outcome: dict[str, Any] = {}
        caller = threading.Thread(target=lambda: outcome.update(reply=first.call(7, "query", {"sql": SLOW_QUERY})))
        caller.start()
        time.sleep(0.3)
        status, _, body = second.request("POST", {
            "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "query", "arguments": {"sql": "SELECT 1"}}})
        caller.join(30)
    assert status == 400, body
    assert json.loads(body)["id"] == 7 and "still in progress" in error_message(body)
    assert outcome["reply"]["result"]["structuredContent"]["rows"] == [[6000000]]


@pytest.mark.parametrize(
    ("arguments", "environment", "fragment"),
    [
        (["--http", "0.0.0.0:0"], {}, "--auth-token-env"),
        (["--http", "0.0.0.0:0", "--auth-token-env", "DBAI_UNSET_VARIABLE"], {}, "DBAI_UNSET_VARIABLE"),
        (["--http", "127.0.0.1:0", "--auth-token-env", TOKEN_VARIABLE], {TOKEN_VARIABLE: ""}, TOKEN_VARIABLE),
        (["--http", "localhost"], {}, "HOST:PORT"),
        (["--http", "127.0.0.1:99999"], {}, "port"),
        (["--http", "127.0.0.1:0", "--allow-origin", "not an origin"], {}, "--allow-origin"),
        (["--auth-token-env", TOKEN_VARIABLE], {}, "--http"),
    ],
)
def test_bad_http_flags_stop_start_up(dbai_bin: Path, chinook: Path, arguments, environment, fragment) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DBAI_UNSET_VARIABLE",)}
    env.update(environment)
    completed = subprocess.run(
        [str(dbai_bin), "--db", str(chinook), *arguments], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=20, env=env)
    assert completed.returncode != 0
    assert fragment in completed.stderr, completed.stderr
    assert "Fatal error" not in completed.stderr


def test_an_address_in_use_is_a_clear_error(served, dbai_bin: Path, chinook: Path) -> None:
    with served() as server:
        completed = run_binary(dbai_bin, "--db", str(chinook), "--http", f"127.0.0.1:{server.port}")
    assert completed.returncode == 1
    assert "cannot listen" in completed.stderr


# MARK: - Shutdown


def test_sigterm_finishes_the_calls_in_flight_then_exits(served) -> None:
    with served() as server:
        raw = server.raw()
        raw.initialize()
        outcome: dict[str, Any] = {}

        def slow_call() -> None:
            try:
                outcome["reply"] = raw.call(1, "query", {"sql": SLOW_QUERY})
            except BaseException as error:  # noqa: BLE001
                outcome["error"] = error

        caller = threading.Thread(target=slow_call)
        caller.start()
        time.sleep(0.3)
        server.process.send_signal(signal.SIGTERM)
        caller.join(30)
        code = server.process.wait(30)
    assert "error" not in outcome, outcome
    assert outcome["reply"]["result"]["structuredContent"]["rows"] == [[6000000]]
    assert code == 0
    assert "Shutting down" in server.stderr()


def test_a_refused_body_closes_its_connection(served) -> None:
    """A declared body over the limit gets 413 and the connection is closed: the server does
    not read the rest (a client streaming gigabytes would otherwise keep it busy)."""
    with served("--max-request-bytes", "4096") as server:
        with socket.create_connection((server.host, server.port), timeout=10) as connection:
            connection.sendall(
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n".encode() + b"x" * 1000)
            received = b""
            while chunk := connection.recv(65536):
                received += chunk
            assert received.startswith(b"HTTP/1.1 413"), received[:200]


def test_a_chunked_body_over_the_limit_gets_413(served) -> None:
    """Without a declared length, the body is refused as soon as it passes the limit."""
    with served("--max-request-bytes", "4096") as server:
        with socket.create_connection((server.host, server.port), timeout=10) as connection:
            chunk = b"x" * 8000
            connection.sendall(
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            received = b""
            while chunk := connection.recv(65536):
                received += chunk
            assert received.startswith(b"HTTP/1.1 413"), received[:200]
            assert b"4096" in received


def test_sigterm_exits_even_with_a_body_still_trickling_in(served) -> None:
    """A connection stuck mid-request (its body never completes) does not keep the server alive."""
    with served("--timeout-ms", "1000") as server:
        with socket.create_connection((server.host, server.port), timeout=30) as connection:
            connection.sendall(
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{".encode())
            time.sleep(0.3)
            server.process.send_signal(signal.SIGTERM)
            code = server.process.wait(30)  # a hang check: the connection is cut after a few seconds
    assert code == 0, server.stderr()
