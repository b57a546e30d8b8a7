"""JSON-RPC 2.0 §4–5 on the wire: exactly one reply per request, with the right id and code.

These tests drive the binary over raw pipes (``RawServer`` from test_raw_stdio, extended here
by ``JsonRpcPipe``) to send what a well-behaved client never would: lines that are not JSON,
values that are not requests, batches, ids of the wrong type, bodies that break the rules. The
rules checked:

- a line that is not JSON gets one parse error (-32700) with ``"id": null``;
- a message that is not a valid request gets one Invalid Request (-32600); its id is echoed
  exactly as written when it can be read (``1.5``, ``1e400``, a number beyond int64), else null;
- MCP's own rules: ids are strings or integers, params an object (-32602 for an array), no
  batches: a batch (§6) gets one array of errors, one per element that is not a notification
  or a response, with its id (null when it has none, as in §6's example);
- a notification (no id) is never answered, valid or not; neither is a response;
- a request with a valid id gets exactly one reply with that id, whatever its body (even a
  stray "result" member), and ids are told apart as JSON strings are, code unit by code unit;
- every line on stdout is JSON.

They also check the order guarantees of pipelined ``tools/call`` requests: writes apply in the
order sent, a read sees every write sent before it, and a fast read does not wait for a slow one.

"Exactly one reply" is checked with a sentinel: after the messages under test, a ``ping`` with
a fresh id; once its reply is in, any duplicate for an earlier id that was going to come would
normally have come, and every earlier id is counted. (``JsonRpcPipe`` is shared with
test_fuzz.py.)
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

from conftest import SLOW_QUERY
from test_raw_stdio import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    LINE_TIMEOUT,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    RawServer,
    StdioClientError,
)

#: The slow read of the ordering test: several seconds on a debug build (it is cancelled once
#: the fast read has been answered, so its length only matters as a margin).
SLOWER_QUERY = (
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 30000000) "
    "SELECT max(i) FROM c"
)


def id_key(request_id: Any) -> str:
    """A dictionary key for a JSON-RPC id that keeps 1, 1.0, true and "1" apart (their JSON text)."""
    return json.dumps(request_id, sort_keys=True)


def request_line(request_id: Any, method: str, params: Any = None) -> str:
    """One request as a line of compact JSON (params left out when None)."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message)


def tool_call_line(request_id: Any, name: str, arguments: dict[str, Any]) -> str:
    return request_line(request_id, "tools/call", {"name": name, "arguments": arguments})


class JsonRpcPipe(RawServer):
    """``RawServer`` plus what exact reply accounting needs.

    - ``write`` sends several lines in ONE write to stdin (pipelined, nothing waited for);
    - every message read is kept in arrival order (``received``, batch elements flattened, each
      with the raw line it came in) and every reply is filed under its id (``replies``);
    - ``sync`` sends a ``ping`` sentinel and reads until its reply is in;
    - requests the server sends to the client (sampling, elicitation…) are kept in
      ``server_requests`` and, with ``answer_server_requests``, answered with an error so the
      server never waits on this client.

    Use ``read``/``await_ids``/``sync`` rather than ``RawServer.wait_for``: they do the bookkeeping.
    """

    def __init__(self, binary: Path, database: Path, *args: str, answer_server_requests: bool = False) -> None:
        super().__init__(binary, database, *args)
        self.answer_server_requests = answer_server_requests
        #: Every message read, in order, with its raw stdout line.
        self.received: list[tuple[dict[str, Any], bytes]] = []
        #: Replies (result or error) by id_key of their id.
        self.replies: dict[str, list[dict[str, Any]]] = defaultdict(list)
        #: Requests from the server to the client (they have both "method" and "id").
        self.server_requests: list[dict[str, Any]] = []
        #: How many replies each id must get in all (by id_key; "null" for id null): see `expect`.
        self.expected: dict[str, int] = defaultdict(int)
        self.lines_written = 0
        self._sentinels = itertools.count(1)

    # Writing

    def write(self, lines: Iterable[str | bytes]) -> None:
        """Writes the lines (each gets a "\\n") to stdin in one write call, then flushes."""
        chunks = [line if isinstance(line, bytes) else line.encode() for line in lines]
        self.client.write(b"".join(chunk + b"\n" for chunk in chunks))
        self.lines_written += len(chunks)

    def expect(self, *request_ids: Any) -> None:
        """Records requests whose ids must each get exactly one reply."""
        for request_id in request_ids:
            self.expected[id_key(request_id)] += 1

    def expect_more(self, key: str, count: int = 1) -> None:
        """Records `count` more replies for an id given as its id_key (for ids sent in raw lines,
        which may repeat: several raw lines with id 5 get one reply each; "null" for id null)."""
        self.expected[key] += count

    def send_request(self, request_id: Any, method: str, params: Any = None) -> None:
        self.expect(request_id)
        self.write([request_line(request_id, method, params)])

    def initialize(self, version: str = "2025-06-18") -> dict[str, Any]:  # type: ignore[override]
        """The handshake of a real client: initialize, its reply, then notifications/initialized."""
        self.send_request(
            "init",
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "jsonrpc-test", "version": "1"}},
        )
        (reply,) = self.await_ids(["init"])
        self.write([json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})])
        return reply

    # Reading

    def _next_line(self, timeout: float) -> bytes | None:
        """The next raw stdout line, or None if none came within `timeout`; fails at end of output."""
        try:
            line = self.client.read_line(max(timeout, 0.001))
        except StdioClientError:
            return None
        if line is None:
            pytest.fail(
                f"stdout ended (exit status {self.process.poll()}); last messages: {self._tail()}\n"
                f"stderr: {self.stderr[-3000:]}"
            )
        return line

    def _tail(self) -> list[dict[str, Any]]:
        return [message for message, _ in self.received[-8:]]

    def read(self, timeout: float = LINE_TIMEOUT) -> list[tuple[dict[str, Any], bytes]] | None:
        """Reads one stdout line (failing if it is not JSON) and files its message(s); None if no
        line came within `timeout`."""
        line = self._next_line(timeout)
        if line is None:
            return None
        try:
            parsed = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            pytest.fail(f"stdout line is not JSON: {line!r}")
        elements = parsed if isinstance(parsed, list) else [parsed]
        filed = []
        for message in elements:
            assert isinstance(message, dict), f"a message on stdout is not an object: {line!r}"
            self.received.append((message, line))
            filed.append((message, line))
            if "method" in message:
                if "id" in message:
                    self.server_requests.append(message)
                    if self.answer_server_requests:
                        self.write([json.dumps({
                            "jsonrpc": "2.0", "id": message["id"],
                            "error": {"code": METHOD_NOT_FOUND, "message": "this client answers no requests"},
                        })])
            else:
                self.replies[id_key(message.get("id"))].append(message)
        return filed

    def wait_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Reads until `done()` holds (True) or `timeout` seconds have passed (False)."""
        deadline = time.monotonic() + timeout
        while not done():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.read(remaining) is None:
                return done()
        return True

    def read_until(
        self, done: Callable[[], bool], timeout: float, what: str | Callable[[], str]
    ) -> list[tuple[dict[str, Any], bytes]]:
        """Reads until `done()` holds, returning the messages read meanwhile; fails (hang
        detection) after `timeout` seconds, saying it waited in vain for `what`."""
        start = len(self.received)
        if not self.wait_until(done, timeout):
            description = what() if callable(what) else what
            pytest.fail(f"waited {timeout} s in vain for {description}; last messages: {self._tail()}")
        return self.received[start:]

    def await_ids(self, request_ids: Iterable[Any], timeout: float = LINE_TIMEOUT) -> list[dict[str, Any]]:
        """Reads until each id has a reply; returns the first reply of each, in the order given."""
        keys = [id_key(request_id) for request_id in request_ids]
        self.read_until(
            lambda: all(self.replies.get(key) for key in keys), timeout,
            lambda: f"the replies to ids {[key for key in keys if not self.replies.get(key)]}",
        )
        return [self.replies[key][0] for key in keys]

    def sync(self, timeout: float = LINE_TIMEOUT) -> list[tuple[dict[str, Any], bytes]]:
        """Sends a ping sentinel with a fresh id and reads until its reply is in.

        Returns the messages read meanwhile, the sentinel's reply left out.
        """
        sentinel = f"sentinel-{next(self._sentinels)}"
        self.send_request(sentinel, "ping")
        read = self.read_until(lambda: bool(self.replies.get(id_key(sentinel))), timeout, f"the reply to {sentinel}")
        reply = self.replies[id_key(sentinel)][0]
        assert "result" in reply, f"ping failed: {reply}"
        return [(message, line) for message, line in read if message is not reply]

    def exchange(self, lines: Iterable[str | bytes], timeout: float = LINE_TIMEOUT) -> list[tuple[dict[str, Any], bytes]]:
        """Writes the lines, then syncs: returns what came back before the sentinel's reply."""
        self.write(lines)
        return self.sync(timeout)

    # Checks

    def assert_replies_as_expected(self) -> None:
        """Each id got exactly the replies recorded with `expect` (one per request), and no reply
        came with an id nobody sent, nor a null id that was not expected."""
        keys = set(self.expected) | {key for key, replies in self.replies.items() if replies}
        wrong = {
            key: (self.expected.get(key, 0), len(self.replies.get(key, [])))
            for key in keys
            if self.expected.get(key, 0) != len(self.replies.get(key, []))
        }
        assert not wrong, f"ids with the wrong number of replies (id → (expected, got)): {wrong}"

    def assert_still_serving(self) -> None:
        """tools/list and a query still come back right."""
        listed_id, query_id = f"list-{len(self.received)}", f"query-{len(self.received)}"
        self.expect(listed_id, query_id)
        self.write([
            request_line(listed_id, "tools/list"),
            tool_call_line(query_id, "query", {"sql": "SELECT count(*) AS n FROM Genre"}),
        ])
        listed, query = self.await_ids([listed_id, query_id])
        assert {"describe_schema", "query", "aggregate"} <= {tool["name"] for tool in listed["result"]["tools"]}
        assert query["result"]["structuredContent"]["rows"] == [[25]], query


@pytest.fixture
def pipe(dbai_bin: Path, chinook: Path):
    """`pipe(*flags, db=…)`: an initialized ``JsonRpcPipe`` (stopped after the test)."""
    started: list[JsonRpcPipe] = []

    def start(*args: str, db: Path | None = None) -> JsonRpcPipe:
        server = JsonRpcPipe(dbai_bin, db or chinook, *args)
        started.append(server)
        initialized = server.initialize()
        assert initialized["result"]["serverInfo"]["name"] == "dbai-mcp"
        return server

    yield start
    for server in started:
        server.stop()


def single_error(messages: list[tuple[dict[str, Any], bytes]]) -> tuple[dict[str, Any], bytes]:
    """The one message of `messages`, which must be an error response with an "id" member."""
    assert len(messages) == 1, f"expected exactly one reply, got {[message for message, _ in messages]}"
    message, line = messages[0]
    assert message.get("jsonrpc") == "2.0", line
    assert "error" in message and "result" not in message, line
    assert "id" in message, f"an error response always has an id member (null when unknown): {line!r}"
    error = message["error"]
    assert isinstance(error.get("code"), int) and isinstance(error.get("message"), str) and error["message"], line
    return message, line


# Each case: a line the server must answer with exactly one error, the code, and the reply's id
# as it must appear in the raw line (`"id":…`, compact, as the server writes it).
ONE_ERROR_CASES = [
    pytest.param("not json", PARSE_ERROR, "null", id="not-json"),
    pytest.param('{"jsonrpc": "2.0", "id": 5, "method": "tools/list"', PARSE_ERROR, "null", id="cut-short"),
    pytest.param("5", INVALID_REQUEST, "null", id="number"),
    pytest.param('"x"', INVALID_REQUEST, "null", id="string"),
    pytest.param("null", INVALID_REQUEST, "null", id="null"),
    pytest.param("true", INVALID_REQUEST, "null", id="true"),
    pytest.param("[]", INVALID_REQUEST, "null", id="empty-batch"),
    pytest.param('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":"bad"}', INVALID_REQUEST, "5", id="params-string"),
    pytest.param('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}', INVALID_PARAMS, "5", id="params-array"),
    pytest.param('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}', INVALID_PARAMS, "5", id="params-empty-array"),
    pytest.param('{"jsonrpc":"1.0","id":5,"method":"tools/list"}', INVALID_REQUEST, "5", id="jsonrpc-1.0"),
    pytest.param('{"id":5,"method":"tools/list"}', INVALID_REQUEST, "5", id="jsonrpc-missing"),
    pytest.param('{"jsonrpc":2.0,"id":5,"method":"tools/list"}', INVALID_REQUEST, "5", id="jsonrpc-number"),
    pytest.param('{"jsonrpc":"2.0","id":5,"method":12}', INVALID_REQUEST, "5", id="method-number"),
    pytest.param('{"jsonrpc":"2.0","id":5,"method":null}', INVALID_REQUEST, "5", id="method-null"),
    pytest.param('{"jsonrpc":"2.0","id":5}', INVALID_REQUEST, "5", id="no-method-no-result"),
    pytest.param('{"jsonrpc":"2.0","id":"s5","method":12}', INVALID_REQUEST, '"s5"', id="string-id-kept"),
    pytest.param('{"jsonrpc":"2.0","id":null,"method":"ping"}', INVALID_REQUEST, "null", id="id-null"),
    pytest.param('{"jsonrpc":"2.0","id":true,"method":"ping"}', INVALID_REQUEST, "null", id="id-true"),
    pytest.param('{"jsonrpc":"2.0","id":{},"method":"ping"}', INVALID_REQUEST, "null", id="id-object"),
    pytest.param('{"jsonrpc":"2.0","id":[],"method":"ping"}', INVALID_REQUEST, "null", id="id-array"),
    pytest.param('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', INVALID_REQUEST, "1.5", id="id-1.5"),
    pytest.param('{"jsonrpc":"2.0","id":1e400,"method":"ping"}', INVALID_REQUEST, "1e400", id="id-1e400"),
    pytest.param(
        '{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}', INVALID_REQUEST, "18446744073709551616",
        id="id-beyond-int64",
    ),
    pytest.param('{"jsonrpc":"2.0","id":-2.50E+3,"method":"ping"}', INVALID_REQUEST, "-2.50E+3", id="id-exponent"),
]


@pytest.mark.parametrize("line, code, raw_id", ONE_ERROR_CASES)
def test_an_invalid_message_gets_exactly_one_error_with_the_right_id(pipe, line: str, code: int, raw_id: str) -> None:
    """One error reply, with the code of §5.1 and the id as §5 asks: the request's own when it
    can be read (echoed as written), null otherwise (never "" or missing); then the server
    goes on serving and stdout stays JSON."""
    server = pipe()
    server.expect_more(id_key(json.loads(raw_id)))
    message, raw = single_error(server.exchange([line]))
    assert message["error"]["code"] == code, raw
    assert f'"id":{raw_id}'.encode() in raw, f"the reply's id is not {raw_id}: {raw!r}"
    server.assert_still_serving()
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


def test_a_batch_gets_one_array_with_an_error_per_request(pipe) -> None:
    """MCP removed batching: a batch gets ONE line, an array holding an Invalid Request error for
    each request in it (with its id), and nothing for its notification."""
    server = pipe()
    batch = json.dumps([
        {"jsonrpc": "2.0", "id": 7, "method": "ping"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ])
    came_back = server.exchange([batch])
    lines = {line for _, line in came_back}
    assert len(lines) == 1, f"expected one reply line, got {lines}"
    (line,) = lines
    parsed = json.loads(line)
    assert isinstance(parsed, list) and len(parsed) == 2, line
    assert [element["id"] for element in parsed] == [7, "b"]
    for element in parsed:
        assert element["jsonrpc"] == "2.0" and "result" not in element
        assert element["error"]["code"] == INVALID_REQUEST
    server.expect(7, "b")
    server.assert_still_serving()
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


def test_the_batch_example_of_the_specification(pipe) -> None:
    """The batch example of JSON-RPC 2.0 §6 (its by-position params made objects, as MCP wants):
    batches are refused, so each of its requests gets an Invalid Request error with its id — and
    the element that is not a request at all, {"foo": "boo"}, one with a null id, as in the
    specification's own answer. Its notification gets nothing. So does a stray response; an
    object with an id but neither method nor result is not one (it gets its error, as it would
    on a line of its own)."""
    server = pipe()
    batch = json.dumps([
        {"jsonrpc": "2.0", "method": "sum", "params": {"values": [1, 2, 4]}, "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": {"value": 7}},
        {"jsonrpc": "2.0", "method": "subtract", "params": {"values": [42, 23]}, "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"},
        {"jsonrpc": "2.0", "result": {}, "id": "response"},
        {"jsonrpc": "2.0", "id": "neither"},
    ])
    came_back = server.exchange([batch])
    lines = {line for _, line in came_back}
    assert len(lines) == 1, f"expected one reply line, got {lines}"
    (line,) = lines
    parsed = json.loads(line)
    assert isinstance(parsed, list), line
    assert sorted(json.dumps(element["id"]) for element in parsed) == sorted(
        json.dumps(request_id) for request_id in ["1", "2", None, "5", "9", "neither"]
    ), line
    assert all(element["error"]["code"] == INVALID_REQUEST for element in parsed), line
    server.expect("1", "2", None, "5", "9", "neither")
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


@pytest.mark.parametrize("raw_id", ["1.5", "1e400", "18446744073709551616", "20574977472937889792"])
def test_a_batch_echoes_a_numeric_id_that_is_not_an_mcp_id_as_written_or_null(pipe, raw_id: str) -> None:
    """In a batch too, an id that is a number but not an MCP id comes back as written (as it does
    on a line of its own) or as null (§5: the id could not be used) — never as another number."""
    server = pipe()
    came_back = server.exchange([f'[{{"jsonrpc":"2.0","id":{raw_id},"method":"ping"}}]'])
    lines = {line for _, line in came_back}
    assert len(lines) == 1, f"expected one reply line, got {lines}"
    (line,) = lines
    assert isinstance(json.loads(line), list), line
    assert f'"id":{raw_id}'.encode() in line or b'"id":null' in line, f"the id {raw_id} came back changed: {line!r}"
    server.expect_more(id_key(came_back[0][0]["id"]))
    server.sync()
    server.assert_replies_as_expected()


@pytest.mark.parametrize(
    "message",
    [
        pytest.param({"jsonrpc": "2.0", "id": 31, "method": "ping", "result": {}}, id="ping-with-result"),
        pytest.param(
            {"jsonrpc": "2.0", "id": 31, "method": "tools/list", "error": {"code": 1, "message": "x"}}, id="list-with-error"
        ),
        pytest.param(
            {"jsonrpc": "2.0", "id": 31, "method": "tools/call", "params": {"name": "query", "arguments": {"sql": "SELECT 1"}},
             "result": {}},
            id="call-with-result",
        ),
    ],
)
def test_a_request_that_also_carries_result_or_error_is_answered_once(pipe, message: dict[str, Any]) -> None:
    """A message with a method and a valid id is a request, whatever else it carries: a stray
    "result" or "error" member makes it no response. It gets exactly one reply with its id (an
    answer, or Invalid Request) — whichever method it names."""
    server = pipe()
    server.expect(31)
    server.write([json.dumps(message)])
    (reply,) = server.await_ids([31])
    assert "result" in reply or "error" in reply, reply
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


@pytest.mark.parametrize(
    "line",
    [
        pytest.param('{"jsonrpc":"2.0","method":"notifications/initialized","params":[1,2]}', id="params-array"),
        pytest.param('{"jsonrpc":"2.0","method":"notifications/progress","params":[]}', id="params-empty-array"),
        pytest.param('{"jsonrpc":"2.0","method":"notifications/no-such-thing"}', id="unknown"),
        pytest.param('{"jsonrpc":"2.0","method":"notifications/no-such-thing","params":{"x":[1]}}', id="unknown-with-params"),
        pytest.param('{"jsonrpc":"2.0","method":"tools/list"}', id="request-method-without-id"),
        pytest.param('{"jsonrpc":"2.0","id":41,"result":{}}', id="response-nobody-asked-for"),
        pytest.param('{"jsonrpc":"2.0","id":42,"error":{"code":1,"message":"x"}}', id="error-response-nobody-asked-for"),
    ],
)
def test_a_notification_or_a_stray_response_gets_no_reply(pipe, line: str) -> None:
    """Notifications (no id), valid or not by MCP's rules, are never answered (§4.1); neither are
    responses the server did not ask for."""
    server = pipe()
    assert server.exchange([line]) == []
    server.assert_still_serving()
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


@pytest.mark.parametrize(
    "method, params",
    [
        pytest.param("no/such/method", {}, id="unknown-method"),
        pytest.param("prompts/get", {}, id="prompt-without-name"),
        pytest.param("prompts/get", {"name": "explain_table", "arguments": {"table": 5}}, id="prompt-argument-number"),
        pytest.param("completion/complete", {"ref": {"type": "ref/other"}, "argument": {"name": "a", "value": ""}}, id="complete-bad-ref"),
        pytest.param("resources/read", {}, id="read-without-uri"),
        pytest.param("resources/read", {"uri": 5}, id="read-uri-number"),
        pytest.param("logging/setLevel", {"level": "loudest"}, id="unknown-log-level"),
        pytest.param("tools/call", {"name": 5}, id="call-name-number"),
        pytest.param("tools/call", {}, id="call-without-name"),
        pytest.param("tools/call", {"name": "query", "arguments": []}, id="call-arguments-array"),
        pytest.param("tools/call", {"name": "query", "arguments": "SELECT 1"}, id="call-arguments-string"),
        pytest.param("initialize", {"protocolVersion": "2025-06-18"}, id="second-initialize"),
    ],
)
def test_a_request_with_a_valid_id_and_bad_params_gets_exactly_one_error(pipe, method: str, params: Any) -> None:
    """A request whose id is valid is answered exactly once with that id, even when its method is
    unknown (-32601) or its params are wrong for the method."""
    server = pipe()
    server.send_request(99, method, params)
    (reply,) = server.await_ids([99])
    assert "error" in reply and "result" not in reply, reply
    assert isinstance(reply["error"]["code"], int) and reply["error"]["message"], reply
    if method in ("no/such/method", "prompts/list"):
        assert reply["error"]["code"] == METHOD_NOT_FOUND, reply
    elif method != "initialize":
        assert reply["error"]["code"] == INVALID_PARAMS, reply
    server.assert_still_serving()
    server.sync()
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()


def test_a_second_request_with_the_id_of_one_in_flight_gets_its_own_error(pipe) -> None:
    """Two requests, one id, the first still running: each gets exactly one reply — the first its
    result, the second an Invalid Request error."""
    server = pipe("--timeout-ms", "60000")
    server.initialize()
    slow = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 2000000) SELECT max(i) FROM c"
    server.write([tool_call_line("same", "query", {"sql": slow}), tool_call_line("same", "query", {"sql": "SELECT 2"})])
    server.expect_more(id_key("same"), 2)
    server.read_until(lambda: len(server.replies.get(id_key("same"), [])) == 2, 60, "both replies to id same")
    replies = server.replies[id_key("same")]
    assert replies[0]["error"]["code"] == INVALID_REQUEST, replies
    assert replies[1]["result"]["structuredContent"]["rows"] == [[2000000]], replies
    server.sync()
    server.assert_replies_as_expected()


def test_all_of_it_pipelined_in_one_write(pipe) -> None:
    """Every case above in one write, without waiting: each id is answered exactly once, the
    lines without a usable id get one null-id error each, the notifications nothing; afterwards
    tools/list and a query still work and every stdout line is JSON."""
    server = pipe()
    invalid = [param.values[0] for param in ONE_ERROR_CASES]
    for param in ONE_ERROR_CASES:
        server.expect_more(id_key(json.loads(param.values[2])))
    silent = [
        '{"jsonrpc":"2.0","method":"notifications/initialized","params":[1,2]}',
        '{"jsonrpc":"2.0","method":"notifications/no-such-thing"}',
        '{"jsonrpc":"2.0","id":41,"result":{}}',
    ]
    batch = json.dumps([
        {"jsonrpc": "2.0", "id": 7, "method": "ping"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ])
    valid_ids = [
        request_line(1001, "no/such/method", {}),
        request_line(1002, "resources/read", {}),
        request_line(1003, "tools/call", {"name": 5}),
        request_line(1004, "tools/call", {"name": "query", "arguments": []}),
        request_line("r-5", "tools/call", {"name": "query", "arguments": {"sql": "SELECT 5"}}),
        request_line("r-6", "resources/list"),
    ]
    server.expect(1001, 1002, 1003, 1004, "r-5", "r-6", 7, "b")
    server.write([*invalid, *silent, batch, *valid_ids])
    server.await_ids([1001, 1002, 1003, 1004, "r-5", "r-6", 7, "b"])
    server.sync()

    assert server.replies[id_key(1001)][0]["error"]["code"] == METHOD_NOT_FOUND
    assert server.replies[id_key("r-5")][0]["result"]["structuredContent"]["rows"] == [[5]]
    server.assert_still_serving()
    server.sync()
    server.assert_replies_as_expected()
    assert not server.server_requests
    server.assert_stdout_is_only_json()


def test_ids_that_only_look_alike_are_different_ids(pipe) -> None:
    """"\u00e9" and "e\u0301" are two different JSON strings (RFC 8259 §8.3: strings compare code
    unit by code unit; Unicode canonical equivalence plays no part), so two requests in flight
    with these ids are two requests: each gets its own reply, with its own id."""
    server = pipe("--timeout-ms", "60000")
    composed, decomposed = "\u00e9", "e\u0301"
    server.expect(composed, decomposed)
    server.write([
        tool_call_line(composed, "query", {"sql": SLOW_QUERY}),  # still running when the second arrives
        tool_call_line(decomposed, "query", {"sql": "SELECT 2 AS decomposed"}),
    ])
    (second,) = server.await_ids([decomposed], timeout=20)
    assert second["result"]["structuredContent"]["rows"] == [[2]], second
    (first,) = server.await_ids([composed], timeout=20)
    assert first["result"]["structuredContent"]["rows"] == [[6000000]], first
    server.sync()
    server.assert_replies_as_expected()


# Ordering of pipelined tools/call requests.


def make_sequence_table(database: Path) -> None:
    """Adds the empty table `seq(n INTEGER)` to the database copy (before the server starts)."""
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE seq(n INTEGER)")
    connection.close()


def sequence(database: Path) -> list[int]:
    with sqlite3.connect(database) as connection:
        values = [n for (n,) in connection.execute("SELECT n FROM seq ORDER BY rowid")]
    connection.close()
    return values


def insert_line(request_id: Any, n: int) -> str:
    return tool_call_line(request_id, "insert", {"table": "seq", "rows": [{"n": n}]})


def test_pipelined_writes_apply_in_the_order_sent(pipe, chinook: Path) -> None:
    """30 inserts written in one go, nothing awaited: each succeeds once, and the rows land in
    the order the requests were sent."""
    make_sequence_table(chinook)
    server = pipe("--allow", "standard")
    ids = [f"ins-{n}" for n in range(1, 31)]
    server.expect(*ids)
    server.write([insert_line(request_id, n) for n, request_id in zip(range(1, 31), ids)])
    for reply in server.await_ids(ids, timeout=60):
        assert "result" in reply and reply["result"].get("isError") is not True, reply
    server.sync()
    server.assert_replies_as_expected()
    assert sequence(chinook) == list(range(1, 31))
    server.assert_stdout_is_only_json()


def test_a_read_sent_after_pipelined_writes_sees_them_all(pipe, chinook: Path) -> None:
    """10 inserts and a count, written in one go: the count runs after every insert before it."""
    make_sequence_table(chinook)
    server = pipe("--allow", "standard")
    ids = [f"ins-{n}" for n in range(1, 11)]
    server.expect(*ids, "count")
    server.write([
        *(insert_line(request_id, n) for n, request_id in zip(range(1, 11), ids)),
        tool_call_line("count", "query", {"sql": "SELECT count(*) FROM seq"}),
    ])
    (count,) = server.await_ids(["count"], timeout=60)
    assert count["result"]["structuredContent"]["rows"] == [[10]], count
    server.await_ids(ids, timeout=60)
    server.sync()
    server.assert_replies_as_expected()
    assert sequence(chinook) == list(range(1, 11))


def test_a_fast_read_does_not_queue_behind_a_slow_one(pipe) -> None:
    """A slow read, then SELECT 1, written in one go: SELECT 1 is answered first (reads run side by
    side). Only the order of the replies is checked, never how long anything took."""
    server = pipe("--timeout-ms", "60000")
    server.expect("fast")
    server.write([
        tool_call_line("slow", "query", {"sql": SLOWER_QUERY}),
        tool_call_line("fast", "query", {"sql": "SELECT 1"}),
    ])
    (fast,) = server.await_ids(["fast"], timeout=60)
    assert fast["result"]["structuredContent"]["rows"] == [[1]], fast
    assert not server.replies.get(id_key("slow")), "the slow read was answered before SELECT 1"
    # Done with the slow one: cancel it (if it finished meanwhile, its one reply may still come).
    server.write([json.dumps({
        "jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow", "reason": "test done"},
    })])
    server.assert_still_serving()
    server.sync()
    slow_replies = len(server.replies.get(id_key("slow"), []))
    assert slow_replies <= 1
    server.expect_more(id_key("slow"), slow_replies)
    server.assert_replies_as_expected()
    server.assert_stdout_is_only_json()
