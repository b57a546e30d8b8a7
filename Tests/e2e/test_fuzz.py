"""A bounded fuzz of the stdio server: about 2,000 generated lines against ONE running server.

Hypothesis generates what a client could send — lines that are not JSON, JSON that is not a
message, deep nesting, batches, envelopes with a random or missing jsonrpc/method/params/id,
and tools/call requests with random tools and arguments (SQL from a small grammar with NUL
characters, quotes, comments and ATTACH/PRAGMA/VACUUM/DELETE/INSERT fragments, random params).
Each example is written to stdin in one go, then a ping sentinel; the invariants:

(a) the process never dies;
(b) every request with a valid id (a string or an int64) gets exactly one reply with that id,
    and no reply carries an int or string id that was never sent;
(c) every stdout line is JSON (a JSON-RPC message or an array of them);
(d) the read-only database is byte-identical afterwards, and no file appeared beside it (the
    SQL names files there for ATTACH, VACUUM INTO and writefile);

and after the fuzzing a normal query still gets the right answer.

Hypothesis only generates here: an example never fails inside Hypothesis (there is one server,
whose state a replay or a shrink would not reproduce). The first violation is recorded with the
exact lines of its example, later examples are skipped, and the test fails with that record.
Never sent: notifications/cancelled (it legitimately silences a request), or anything that ends
the session (closing stdin). A second initialize is refused, so the capabilities stay {} and the
server has no reason to ask the client anything; should it ask, the client answers with an
error at once, so nothing waits on it.
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import sha256
from test_jsonrpc import JsonRpcPipe, id_key, tool_call_line

#: Hypothesis examples; with 1–19 messages each (about 10 on average), about 2,000 messages.
EXAMPLES = 200
#: The most messages one example writes in one go.
MAX_LINES_PER_EXAMPLE = 19
#: Bound on waiting for the replies of one example: hang detection, never a speed check.
EXAMPLE_TIMEOUT = 20.0

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

# Strategies

#: Methods the server knows or an MCP client might send; `notifications/cancelled` is left out on
#: purpose (see the module docstring).
METHODS = [
    "tools/call", "tools/list", "resources/read", "resources/list", "resources/templates/list",
    "resources/subscribe", "ping", "initialize", "logging/setLevel", "prompts/list", "prompts/get",
    "completion/complete", "notifications/initialized", "notifications/progress",
    "notifications/roots/list_changed", "sampling/createMessage", "elicitation/create",
]
TOOLS = ["query", "describe_schema", "aggregate", "insert", "update", "delete", "ask"]
TABLES = ["Genre", "Track", "Album", "Artist", "Invoice", "InvoiceLine", "sqlite_master", "sqlite_schema", "nope"]
ARGUMENT_KEYS = [
    "sql", "params", "max_rows", "table", "include_samples", "function", "column", "where", "group_by",
    "order", "limit", "rows", "set", "all_rows", "confirm", "question", "conversation_id", "cursor", "search",
]
AGGREGATE_FUNCTIONS = ["count", "sum", "avg", "min", "max", "total", "median", "count(*)"]
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "loud"]

#: Statements the fuzz starts from (also glued to junk).
GOOD_QUERIES = [
    "SELECT * FROM Genre",
    "SELECT Name FROM Track WHERE TrackId = ?",
    "SELECT :a AS a, @b AS b, $c AS c",
    "SELECT ?1, ?2",
    "SELECT count(*) FROM Invoice",
    "SELECT Name FROM Artist ORDER BY Name LIMIT 5",
    "WITH x AS (SELECT 1 AS n) SELECT n FROM x",
    "SELECT GenreId, count(*) FROM Track GROUP BY GenreId",
]


def sql_pieces(directory: Path) -> list[str]:
    """Fragments of the SQL grammar. Files they name live in `directory`, which must stay as it is."""
    return [
        "SELECT", "*", "1", "count(*)", "Name", "GenreId", "FROM", "Genre", "Track", "Album", "sqlite_master",
        "WHERE", "=", "<>", "LIKE", "'%a%'", "AND", "OR", "NOT", "NULL", "ORDER BY", "LIMIT", "5", "OFFSET",
        "(", ")", ",", ";", "?", "?1", "?999999", ":name", "@p", "$v", "'", '"', "`", "[", "]", "''", "'it''s'",
        '"Name"', "[Name]", "--", "-- comment\n", "/*", "*/", "/* c */", "\n", "\t", "\x00", "\x00SELECT 1", "\u202e",
        "é", "😀", "\\", "ATTACH DATABASE ':memory:' AS m", f"ATTACH DATABASE '{directory}/attached.sqlite' AS a",
        "ATTACH 'file:x?mode=memory' AS x", "DETACH a", "PRAGMA table_info(Track)", "PRAGMA writable_schema = ON",
        "PRAGMA journal_mode = WAL", "PRAGMA query_only = 0", "PRAGMA user_version = 7", "PRAGMA a.user_version = 1",
        "VACUUM", f"VACUUM INTO '{directory}/vacuumed.sqlite'", "DELETE FROM Track", "DELETE FROM Genre WHERE 1",
        "INSERT INTO Genre(Name) VALUES ('fuzz')", "INSERT OR REPLACE INTO Genre VALUES (1, 'x')",
        "UPDATE Track SET Name = 'x'", "REPLACE INTO Genre VALUES (1, 'x')", "DROP TABLE Track",
        "CREATE TABLE fuzz(x)", "CREATE TEMP TABLE t(x)", "ALTER TABLE Track RENAME TO t", "CREATE INDEX i ON Track(Name)",
        "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT s", "RELEASE s", "REINDEX", "ANALYZE", "EXPLAIN", "EXPLAIN QUERY PLAN",
        "WITH x AS (SELECT 1)", "UNION ALL SELECT 1", "RETURNING *", "ON CONFLICT DO NOTHING", "randomblob(16)",
        "zeroblob(1000000000)", "load_extension('/nonexistent')", "readfile('/etc/hostname')",
        f"writefile('{directory}/written', 'x')", "sqlite_version()", "json('{\"a\":1}')", "char(0)", "x'00ff'",
        "1e999", "-9223372036854775808", "9223372036854775808",
    ]


def rarely(draw, one_in: int = 10) -> bool:
    """True about once in `one_in` draws. (Hypothesis favours 0, the simplest value, so the
    common case is drawn as the nonzero values.)"""
    return draw(st.integers(0, one_in - 1)) == one_in - 1


#: Any JSON value (no NaN or infinities: Python would write them as non-JSON words).
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(INT64_MIN - 2, INT64_MIN + 2)
    | st.integers(INT64_MAX - 2, INT64_MAX + 2)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=10,
)


def nested(depth: int, leaf: Any = 1) -> Any:
    """`leaf` inside `depth` levels of alternating arrays and objects."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


@dataclass(frozen=True)
class FreshId:
    """Stands for a valid request id, filled in when the line is written: unique (from a counter),
    an integer (small, negative, or near the int64 limits) or a string (with a random tail)."""

    style: str
    tail: str = ""


@dataclass(frozen=True)
class RawNumber:
    """An id written as this exact JSON number text (1e400, 1.0, 2**64…): not a valid MCP id."""

    text: str


fresh_ids = st.builds(FreshId, st.sampled_from(["int", "negative", "near-max", "near-min", "string"]), st.text(max_size=12))
invalid_ids = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda number: not number.is_integer()),
    st.sampled_from([2.0, -0.0, 1e16]),
    st.integers(min_value=INT64_MAX + 1) | st.integers(max_value=INT64_MIN - 1),
    st.builds(RawNumber, st.sampled_from(["1e400", "-1e400", "1.0", "1E2", "-0.0", "0.1e-400", "1.5", "9223372036854775808"])),
    st.lists(json_scalars, max_size=2),
    st.dictionaries(st.text(max_size=4), json_scalars, max_size=2),
)
#: Method names: tools/call half of the time, other known methods, or random text.
method_names = st.integers(0, 9).flatmap(
    lambda choice: st.just("tools/call") if choice < 5
    else st.sampled_from(METHODS) if choice < 8
    else st.text(max_size=24).filter(lambda name: name != "notifications/cancelled")
)


def sql_texts(directory: Path) -> st.SearchStrategy[str]:
    """SQL-ish text: fragments of the grammar, good statements, the two glued together, any text."""
    pieces = st.sampled_from(sql_pieces(directory)) | st.text(min_size=1, max_size=6)
    junk = st.lists(pieces, min_size=1, max_size=12).map(" ".join)
    return st.one_of(
        junk,
        st.sampled_from(GOOD_QUERIES),
        st.tuples(st.sampled_from(GOOD_QUERIES), junk).map(" ".join),
        st.tuples(junk, st.sampled_from(GOOD_QUERIES)).map(" ".join),
        st.text(max_size=40),
    )


#: The argument keys of each tool: (required, optional).
TOOL_KEYS = {
    "query": (["sql"], ["params", "max_rows", "cursor"]),
    "describe_schema": ([], ["table", "include_samples", "search", "cursor"]),
    "aggregate": (["table", "function"], ["column", "where", "group_by", "order", "limit"]),
    "insert": (["table", "rows"], ["sql", "params", "confirm"]),
    "update": (["table", "set", "where"], ["all_rows", "sql", "params", "confirm"]),
    "delete": (["table", "where"], ["all_rows", "sql", "params", "confirm"]),
    "ask": (["question"], ["conversation_id"]),
}


def tool_arguments(directory: Path, tool: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for `tool`: usually its own keys (required ones mostly present) with plausible
    values, sometimes random values, missing keys, other tools' keys or unknown ones."""
    plausible = {
        "sql": sql_texts(directory),
        "params": st.lists(json_scalars, max_size=4) | st.dictionaries(st.sampled_from([":a", "a", "@b", "$c", "1"]), json_scalars, max_size=3),
        "max_rows": st.integers(-2, 10) | st.sampled_from([0, 10**6, INT64_MAX, 2**64]),
        "table": st.sampled_from(TABLES) | st.text(max_size=10),
        "include_samples": st.booleans(),
        "function": st.sampled_from(AGGREGATE_FUNCTIONS),
        "column": st.sampled_from(["Name", "Total", "Milliseconds", "GenreId", "nope", "Name; DROP TABLE Track"]),
        "where": st.dictionaries(
            st.sampled_from(["Name", "GenreId", "Total", "nope", "1=1 --"]),
            json_scalars | st.dictionaries(st.sampled_from(["=", ">", "like", "in", "between", "is_null", "??"]), json_values, max_size=2),
            max_size=3,
        ),
        "group_by": st.sampled_from(["GenreId", "AlbumId", "nope"]) | st.lists(st.sampled_from(["GenreId", "MediaTypeId"]), max_size=2),
        "order": st.sampled_from(["asc", "desc", "sideways"]),
        "limit": st.integers(-1, 5),
        "rows": st.lists(st.dictionaries(st.sampled_from(["Name", "GenreId", "nope"]), json_scalars, max_size=2), max_size=3),
        "set": st.dictionaries(st.sampled_from(["Name", "nope"]), json_scalars, max_size=2),
        "all_rows": st.booleans(),
        "confirm": st.text(max_size=12),
        "question": st.text(max_size=30),
        "conversation_id": st.text(max_size=8),
        "cursor": st.text(max_size=40) | st.sampled_from(["eyJrIjoicXVlcnkiLCJvIjo1LCJyIjowfQ", "e30", "====", ""]),
        "search": st.text(max_size=20) | st.sampled_from(["invoice lines", "track", "Genre", "%", "' OR 1=1"]),
    }
    required, optional = TOOL_KEYS.get(tool, ([], ARGUMENT_KEYS))

    @st.composite
    def build(draw) -> dict[str, Any]:
        keys = [key for key in required if not rarely(draw)]
        keys += draw(st.lists(st.sampled_from(optional), max_size=len(optional), unique=True)) if optional else []
        if rarely(draw):
            keys.append(draw(st.sampled_from(ARGUMENT_KEYS)))  # maybe another tool's
        arguments: dict[str, Any] = {}
        for key in keys:
            arguments[key] = draw(json_values if rarely(draw) else plausible[key])
        if rarely(draw):
            arguments[draw(st.text(max_size=8))] = draw(json_values)
        return arguments

    return build()


def tool_call_params(directory: Path) -> st.SearchStrategy[Any]:
    """tools/call params: {name, arguments} with a known tool most of the time, each part
    sometimes missing or of the wrong type; sometimes a progress token."""

    @st.composite
    def build(draw) -> Any:
        if rarely(draw):
            return draw(json_values)  # anything at all
        tool = draw(st.sampled_from(TOOLS) if not rarely(draw) else st.text(max_size=10))
        params: dict[str, Any] = {}
        if not rarely(draw):
            params["name"] = tool if not rarely(draw) else draw(json_values)
        if not rarely(draw):
            params["arguments"] = draw(tool_arguments(directory, tool) if not rarely(draw) else json_values)
        if rarely(draw):
            params["_meta"] = {"progressToken": draw(st.text(max_size=6) | st.integers() | json_values)}
        return params

    return build()


def other_params(method: str) -> st.SearchStrategy[Any]:
    """Params for a method other than tools/call: plausible ones or random objects."""
    plausible = {
        "resources/read": st.fixed_dictionaries({"uri": st.sampled_from(
            ["sqlite://schema", "sqlite://table/Track", "sqlite://table/nope", "sqlite://table/%54rack", "file:///etc/passwd", ""]
        ) | json_values}),
        "logging/setLevel": st.fixed_dictionaries({"level": st.sampled_from(LOG_LEVELS) | json_values}),
        "initialize": st.fixed_dictionaries({
            "protocolVersion": st.sampled_from(["2025-06-18", "2025-11-25", "2024-11-05", "1999"]) | json_values,
            "capabilities": st.sampled_from([{}, {"roots": {}}, {"elicitation": {}}]) | json_values,
            "clientInfo": st.fixed_dictionaries({"name": st.text(max_size=5), "version": st.text(max_size=3)}) | json_values,
        }),
    }
    random_object = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
    return plausible.get(method, random_object) | random_object


@dataclass(frozen=True)
class Line:
    """One line to write: a JSON value to render (ids may be placeholders), or raw text."""

    value: Any = None
    raw: bytes | None = None
    ensure_ascii: bool = True
    spaced: bool = False
    cut: int | None = None  # render, then keep only this many characters (never all)
    padding: str = ""
    crlf: bool = False


@st.composite
def envelopes(draw, directory: Path) -> dict[str, Any]:
    """A JSON-RPC-ish message: mostly well-formed, with each member sometimes missing or wrong."""
    message: dict[str, Any] = {}
    choice = draw(st.integers(0, 19))
    if choice < 17:
        message["jsonrpc"] = "2.0"
    elif choice == 18:
        message["jsonrpc"] = draw(st.sampled_from(["1.0", "2", "2.00", " 2.0", ""]) | json_values)
    choice = draw(st.integers(0, 19))
    if choice < 14:
        message["id"] = draw(fresh_ids)
    elif choice >= 16:
        message["id"] = draw(invalid_ids)
    choice = draw(st.integers(0, 19))
    method: Any = None
    if choice < 17:
        method = draw(method_names)
        message["method"] = method
    elif choice == 18:
        message["method"] = draw(json_values)
    choice = draw(st.integers(0, 19))
    if choice < 14:
        message["params"] = draw(tool_call_params(directory) if method == "tools/call" else other_params(str(method)))
    elif choice == 14:
        message["params"] = draw(st.lists(json_values, max_size=3))
    elif choice == 15:
        message["params"] = draw(json_scalars)
    elif choice == 16:
        message["params"] = nested(draw(st.integers(1, 100)))
    if rarely(draw, 20):
        message["result"] = draw(json_values)
    if rarely(draw, 20):
        message["error"] = draw(json_values | st.fixed_dictionaries({"code": st.integers(), "message": st.text(max_size=8)}))
    if rarely(draw):
        extra = draw(st.text(max_size=8))
        if extra not in ("jsonrpc", "id", "method", "params", "result", "error"):
            message[extra] = draw(json_values)
    return message


def garbage_bytes(data: bytes) -> bytes:
    return data.replace(b"\n", b"")


@st.composite
def lines(draw, directory: Path) -> Line:
    """One line: usually a message, sometimes garbage, odd JSON, a batch, or a message cut short."""
    kind = draw(st.integers(0, 19))
    if kind == 14:
        return Line(raw=garbage_bytes(draw(st.binary(min_size=1, max_size=64))))
    if kind == 15:
        return Line(raw=draw(st.text(min_size=1, max_size=40)).replace("\n", "").encode())
    if kind == 16:
        return Line(value=draw(json_values))  # a value that is (usually) not an object
    if kind == 17:  # deep nesting, beyond the parser's limit (256) or not
        depth = draw(st.integers(1, 400))
        deep = draw(st.sampled_from([
            "[" * depth + "]" * depth,
            '{"a":' * depth + "1" + "}" * depth,
            '{"jsonrpc":"2.0","method":"notifications/deep","params":' + '{"a":' * depth + "[]" + "}" * depth + "}",
        ]))
        return Line(raw=deep.encode())
    if kind >= 18:
        elements = draw(st.lists(envelopes(directory) | json_values, max_size=5))
        return Line(value=elements)  # a batch
    message = draw(envelopes(directory))
    rendered_length = len(json.dumps(message, default=str))
    cut = draw(st.integers(1, max(rendered_length - 1, 1))) if kind == 13 else None
    return Line(
        value=message,
        ensure_ascii=draw(st.booleans()),
        spaced=draw(st.booleans()),
        cut=cut,
        padding=draw(st.sampled_from(["", "", "", " ", "\t", " \t "])),
        crlf=rarely(draw),
    )


# Rendering and the reply oracle


@dataclass
class Ledger:
    """What was sent and which replies it calls for."""

    directory: Path
    counter: itertools.count = field(default_factory=lambda: itertools.count(1))
    messages_sent: int = 0
    #: id_key → "one" (exactly one reply), "at most one", "none".
    replies_due: dict[str, str] = field(default_factory=dict)
    #: id_key of invalid ids (floats, big numbers…): echoed, not counted.
    invalid_id_keys: set[str] = field(default_factory=set)
    #: The line each fresh id was sent in (to show what triggers a violation).
    line_of: dict[str, bytes] = field(default_factory=dict)

    def fresh(self, placeholder: FreshId) -> int | str:
        number = next(self.counter)
        match placeholder.style:
            case "int":
                return number
            case "negative":
                return -number
            case "near-max":
                return INT64_MAX - number
            case "near-min":
                return INT64_MIN + number
            case _:
                return f"c{number}:{placeholder.tail}"

    def render(self, line: Line) -> bytes:
        """The bytes of the line (ids filled in), with the replies each id calls for recorded."""
        if line.raw is not None:
            return line.raw
        raw_numbers: dict[str, str] = {}
        filled: list[int | str] = []

        def fill(value: Any) -> Any:
            if isinstance(value, FreshId):
                concrete = self.fresh(value)
                filled.append(concrete)
                return concrete
            if isinstance(value, RawNumber):
                marker = f"raw-number-marker-{len(raw_numbers)}"
                raw_numbers[marker] = value.text
                return marker
            if isinstance(value, dict):
                return {key: fill(member) for key, member in value.items()}
            if isinstance(value, list):
                return [fill(element) for element in value]
            return value

        concrete = fill(line.value)
        fresh_keys = {id_key(request_id) for request_id in filled}
        # The other ids (invalid ones: numbers that are not int64 integers…) may be echoed back.
        for message in concrete if isinstance(concrete, list) else [concrete]:
            if isinstance(message, dict) and "id" in message and id_key(message["id"]) not in fresh_keys:
                request_id = message["id"]
                if isinstance(request_id, str) and request_id in raw_numbers:
                    request_id = json.loads(raw_numbers[request_id])
                self.invalid_id_keys.add(id_key(request_id))
        text = json.dumps(
            concrete, ensure_ascii=line.ensure_ascii, separators=(", ", ": ") if line.spaced else (",", ":")
        )
        for marker, number in raw_numbers.items():
            text = text.replace(json.dumps(marker), number)
        if line.cut is not None and line.cut < len(text):
            text = text[: line.cut]
            for request_id in filled:  # a line cut short is not JSON: nobody can read its id
                self.replies_due[id_key(request_id)] = "none"
        else:
            self.classify(concrete, fresh_keys)
        data = (line.padding + text + line.padding + ("\r" if line.crlf else "")).encode()
        for request_id in filled:
            self.line_of[id_key(request_id)] = data
        return data

    def classify(self, value: Any, fresh_keys: set[str]) -> None:
        """Records the replies due to each fresh id of a rendered line: a message with a valid id
        gets exactly one reply, unless it has no method but a result or an error — then none
        when it is a valid response, at most one (an error) when it is a malformed one; a batch
        is answered per element by the same rule."""
        elements = [value] if isinstance(value, dict) else value if isinstance(value, list) else []
        for message in elements:
            if not isinstance(message, dict) or id_key(message.get("id")) not in fresh_keys:
                continue
            key = id_key(message["id"])
            if "method" in message or ("result" not in message and "error" not in message):
                self.replies_due[key] = "one"
            elif is_valid_response(message):
                self.replies_due[key] = "none"  # a response: never answered
            else:
                self.replies_due[key] = "at most one"  # a malformed response: an error reply or nothing
        for key in fresh_keys:
            self.replies_due.setdefault(key, "none")  # e.g. a fresh id inside a non-object batch element


def is_valid_response(message: dict[str, Any]) -> bool:
    """A JSON-RPC 2.0 response (§5): "2.0", no method, a result or else an error object."""
    if message.get("jsonrpc") != "2.0" or "method" in message or ("result" in message) == ("error" in message):
        return False
    if "result" in message:
        return True
    error = message["error"]
    return (
        isinstance(error, dict)
        and type(error.get("code")) is int
        and INT64_MIN <= error["code"] <= INT64_MAX
        and isinstance(error.get("message"), str)
    )


def check_replies(server: JsonRpcPipe, ledger: Ledger) -> list[str]:
    """Every violation of invariant (b) so far (with the line that carried the id)."""
    problems = []
    for key, due in ledger.replies_due.items():
        count = len(server.replies.get(key, []))
        if (due == "one" and count != 1) or (due == "at most one" and count > 1) or (due == "none" and count):
            problems.append(
                f"id {key}: {due} reply due, {count} came: {server.replies.get(key, [])}\n"
                f"    sent in the line {ledger.line_of.get(key)!r}"
            )
    for key, replies in server.replies.items():
        if key == "null" or key in ledger.replies_due or key in server.expected or key in ledger.invalid_id_keys:
            continue
        problems.append(f"replies with an id never sent, {key}: {replies}")
    for key, count in server.expected.items():  # the sentinels and the handshake
        if len(server.replies.get(key, [])) != count:
            problems.append(f"id {key}: {count} replies due, {len(server.replies.get(key, []))} came")
    return problems


def test_fuzzed_messages_never_break_the_server(dbai_bin: Path, chinook: Path, capsys) -> None:
    """About 2,000 generated lines against one read-only server: it never dies, answers every
    request with a valid id exactly once with that id, writes only JSON to stdout, leaves the
    database byte-identical and creates no file; then it still answers a normal query."""
    directory = chinook.parent
    database_digest = sha256(chinook)
    files_before = sorted(os.listdir(directory))
    server = JsonRpcPipe(dbai_bin, chinook, "--allow", "readonly", "--timeout-ms", "3000", answer_server_requests=True)
    ledger = Ledger(directory)
    failures: list[str] = []
    try:
        server.initialize()

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=[
                HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                HealthCheck.filter_too_much,
            ],
        )
        @given(st.integers(1, MAX_LINES_PER_EXAMPLE).flatmap(lambda size: st.lists(lines(directory), min_size=size, max_size=size)))
        def one_example(example: list[Line]) -> None:
            if failures:
                return  # one server: after a violation, the rest would only echo it
            written = [ledger.render(line) for line in example]
            try:
                # All of the example in one write, nothing awaited in between.
                server.write(written)
                ledger.messages_sent += len(written)
                due = [key for key, state in ledger.replies_due.items() if state == "one" and not server.replies.get(key)]
                # A bounded wait: what has not come by then is reported by check_replies.
                server.wait_until(lambda: all(server.replies.get(key) for key in due), EXAMPLE_TIMEOUT)
                server.sync(EXAMPLE_TIMEOUT)
                problems = check_replies(server, ledger)
                if server.process.poll() is not None:
                    problems.append(f"the server exited with status {server.process.poll()}")
                if problems:
                    raise AssertionError("\n".join(problems))
            except (AssertionError, OSError, pytest.fail.Exception) as error:
                failures.append(
                    f"{error}\n\nthe lines of this example (sent in one write):\n"
                    + "\n".join(repr(line) for line in written)
                    + f"\n\nserver stderr (tail):\n{server.stderr[-2000:] if server.process.poll() is not None else '(running)'}"
                )

        one_example()
        if failures:
            pytest.fail(failures[0], pytrace=False)

        # After all of it: a normal query, every id answered as due, stdout only JSON.
        server.expect("final")
        server.write([tool_call_line("final", "query", {"sql": "SELECT Name FROM Genre WHERE GenreId = ?", "params": [1]})])
        (final,) = server.await_ids(["final"], EXAMPLE_TIMEOUT)
        assert final["result"]["structuredContent"]["rows"] == [["Rock"]], final
        server.sync(EXAMPLE_TIMEOUT)
        problems = check_replies(server, ledger)
        assert not problems, "\n".join(problems)
        assert server.process.poll() is None, "the server died"
        server.assert_stdout_is_only_json()
    finally:
        server.stop()
    assert sha256(chinook) == database_digest, "the read-only database changed"
    assert sorted(os.listdir(directory)) == files_before, "a file appeared beside the database"
    with capsys.disabled():
        due = list(ledger.replies_due.values())
        print(
            f"\nfuzz: {ledger.messages_sent} messages sent in {EXAMPLES} examples "
            f"({due.count('one')} requests with a valid id, each answered once), "
            f"{len(server.received)} messages received"
        )
