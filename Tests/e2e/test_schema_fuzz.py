"""Arguments generated from the advertised input schemas, as a model bound by them could send.

Hypothesis builds every tool's arguments from the schema in `tools/list` (names and SQL drawn
mostly from the Chinook schema, so that many calls get past the name checks), then calls the tool
on one server. Whatever the arguments, the answer is a tool result: a success, or `isError` with
a reason code and a message — never a protocol error, never `internal_error`, never a dead
server. A read-only server leaves the file byte-identical; a writing one leaves it intact.

No client library is involved (raw JSON-RPC over the pipes), so this runs once, like test_fuzz.
"""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import ERROR_CODE_KEY, sha256
from test_raw_stdio import RawServer

#: Calls per server (bounded: this is a probe of shapes, not a load test).
EXAMPLES = 150

TABLES = ["Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "Track"]
COLUMNS = ["AlbumId", "ArtistId", "Name", "Title", "GenreId", "Total", "BillingCountry", "InvoiceDate", "Composer", "Bytes"]
STATEMENTS = [
    "SELECT * FROM Genre WHERE GenreId = ?",
    "SELECT Name FROM Artist WHERE ArtistId = :id",
    "SELECT count(*) FROM Track",
    "INSERT INTO Genre (Name) VALUES (?)",
    "UPDATE Genre SET Name = ? WHERE GenreId = ?",
    "DELETE FROM Genre WHERE GenreId > 1000",
    "DELETE FROM PlaylistTrack WHERE PlaylistId = ?",
    "PRAGMA table_info(Track)",
    "ATTACH 'x.db' AS x",
]


def values_for(name: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Instances of a schema node; `name` is the property it belongs to (to draw plausible names)."""
    if "anyOf" in schema:
        return st.one_of([values_for(name, branch) for branch in schema["anyOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([values_for(name, {**schema, "type": each}) for each in kind])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if kind == "null":
        return st.none()
    if kind == "string":
        plausible = {"table": TABLES, "column": COLUMNS, "sql": STATEMENTS, "name": ["id", ":id", "x"]}.get(name)
        text = st.text(max_size=12)
        return st.one_of(st.sampled_from(plausible), text) if plausible else text
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum", -(2**31)), max_value=2**31)
    if kind == "number":
        return st.one_of(st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = schema["items"]
        return st.lists(values_for("column" if name in ("group_by", "columns") else name, items), max_size=3)
    if kind == "object":
        return st.fixed_dictionaries({key: values_for(key, child) for key, child in schema["properties"].items()})
    raise AssertionError(f"unexpected schema node {schema}")


#: The arguments of the two ways a write tool takes its statement.
SQL_WAY = {"sql", "params"}


def arguments_for(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A tool's arguments; for a write tool, mostly one way of giving the statement (sql, or
    table with its structured arguments), the other way's arguments null, as a model would send."""
    generated = values_for("", schema)
    if not {"sql", "table"} <= set(schema["properties"]):
        return generated

    def one_way(arguments: dict[str, Any], way: str) -> dict[str, Any]:
        if way == "sql":
            return {key: (value if key in SQL_WAY or key == "confirm" else None) for key, value in arguments.items()}
        if way == "table":
            return {key: (None if key in SQL_WAY else value) for key, value in arguments.items()}
        return arguments

    return st.tuples(generated, st.sampled_from(["sql", "table", "table", "both"])).map(lambda pair: one_way(*pair))


def list_tools(server: RawServer) -> dict[str, dict[str, Any]]:
    server.request("list", "tools/list")
    reply = server.wait_for(lambda message: message.get("id") == "list")
    return {tool["name"]: tool["inputSchema"] for tool in reply["result"]["tools"]}


def probe(server: RawServer, schemas: dict[str, dict[str, Any]]) -> list[str]:
    """Calls generated from the schemas; returns the first broken invariant (with its call)."""
    failures: list[str] = []
    numbers = itertools.count(1)
    calls = st.sampled_from(sorted(schemas)).flatmap(
        lambda tool: st.tuples(st.just(tool), arguments_for(schemas[tool]))
    )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
    @given(calls)
    def one_call(call: tuple[str, dict[str, Any]]) -> None:
        if failures:
            return
        tool, arguments = call
        request_id = next(numbers)
        server.request(request_id, "tools/call", {"name": tool, "arguments": arguments})
        reply = server.wait_for(lambda message: message.get("id") == request_id, timeout=20)
        result = reply.get("result")
        problem = None
        if result is None:
            problem = f"a protocol error instead of a tool result: {reply.get('error')}"
        elif result.get("isError"):
            code = (result.get("_meta") or {}).get(ERROR_CODE_KEY)
            text = "".join(item.get("text", "") for item in result.get("content", []))
            if code in (None, "internal_error") or not text:
                problem = f"an error without a reason or message: {code!r} {text!r}"
        elif "structuredContent" not in result:
            problem = "a success without structured content"
        if problem is None and server.process.poll() is not None:
            problem = f"the server exited with status {server.process.poll()}"
        if problem:
            failures.append(f"{problem}\ncall: {tool} {arguments}")

    one_call()
    return failures


@pytest.mark.parametrize("allow", ["readonly", "unrestricted"])
def test_arguments_generated_from_the_schemas_get_tool_results(dbai_bin: Path, chinook: Path, allow: str) -> None:
    digest = sha256(chinook)
    flags = ["--allow", allow, "--timeout-ms", "3000"] + (["--no-confirm"] if allow == "unrestricted" else [])
    server = RawServer(dbai_bin, chinook, *flags)
    try:
        server.initialize()
        schemas = list_tools(server)
        failures = probe(server, schemas)
        assert not failures, failures[0]
        # Still serving, and right.
        server.request("last", "tools/call", {"name": "query", "arguments": {"sql": "SELECT count(*) FROM Album"}})
        reply = server.wait_for(lambda message: message.get("id") == "last")
        assert reply["result"]["structuredContent"]["rows"] == [[347]]
    finally:
        server.close_stdin()
        server.wait_exit(10)
    if allow == "readonly":
        assert sha256(chinook) == digest
    connection = sqlite3.connect(chinook)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        connection.close()
