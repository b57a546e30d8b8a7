"""The advertised input schemas are portable to every vendor's function calling, and the server
accepts both what it advertises (lists, nulls for "not given") and the older map shapes.

A strict function-calling client (OpenAI strict mode, Gemini) sends every argument of a schema
and fills the ones it means to leave out with null; these tests call each tool that way, with
arguments that validate against the advertised schema, and check the answers equal those of the
map shapes that scripts send.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import assert_tool_error, assert_tool_ok, error_code, result_text

pytestmark = pytest.mark.anyio

SCALAR_TYPES = {"string", "integer", "number", "boolean"}


def violations(node: Any, path: str = "$") -> list[str]:
    """What makes a schema node unportable: the rules of DESIGN.md's "Portable schemas"."""
    if not isinstance(node, dict):
        return [f"{path}: not an object schema"]
    problems = [f"{path}: {key}" for key in ("additionalProperties", "oneOf", "allOf", "$ref", "default") if key in node]
    kind = node.get("type")
    if isinstance(kind, str):
        if kind == "object":
            properties = node.get("properties")
            if not isinstance(properties, dict):
                problems.append(f"{path}: object without properties")
            else:
                if set(node.get("required", [])) != set(properties):
                    problems.append(f"{path}: not every property is required (optional ones are nullable)")
                for name, child in properties.items():
                    problems += violations(child, f"{path}.{name}")
        if kind == "array":
            if "items" not in node:
                problems.append(f"{path}: array without items")
            else:
                problems += violations(node["items"], f"{path}[]")
        if kind == "null" and len(node) > 1:
            problems.append(f"{path}: null with other keywords")
    elif isinstance(kind, list):
        others = [name for name in kind if name != "null"]
        if len(kind) != 2 or "null" not in kind or others[0] not in SCALAR_TYPES:
            problems.append(f"{path}: type {kind} is neither one type nor a nullable scalar")
    elif "anyOf" in node:
        for index, branch in enumerate(node["anyOf"]):
            problems += violations(branch, f"{path}|{index}")
    else:
        problems.append(f"{path}: no type")
    return problems


async def listed_schemas(connection) -> dict[str, dict[str, Any]]:
    return {tool.name: tool.inputSchema for tool in (await connection.session.list_tools()).tools}


async def test_every_advertised_input_schema_is_portable(server) -> None:
    async with server("--allow", "unrestricted") as connection:
        schemas = await listed_schemas(connection)
    assert set(schemas) == {"describe_schema", "query", "export", "aggregate", "insert", "update", "delete"}
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert violations(schema) == [], name
        assert "additionalProperties" not in str(schema), name


def test_the_rules_catch_the_shapes_that_broke_strict_clients() -> None:
    old_where = {"type": "object", "properties": {"where": {"type": "object", "additionalProperties": True}}, "required": ["where"]}
    old_params = {"type": "object", "properties": {"params": {"type": ["array", "object"]}}, "required": ["params"]}
    old_rows = {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "object"}}}, "required": []}
    assert "$.where: additionalProperties" in violations(old_where)
    assert any("neither one type" in problem for problem in violations(old_params))
    assert "$.rows[]: object without properties" in violations(old_rows)
    assert any("not every property is required" in problem for problem in violations(old_rows))


def strict_arguments(schema: dict[str, Any], **given: Any) -> dict[str, Any]:
    """What a strict client sends: every property, null for those it leaves out; validated."""
    arguments = {name: given.get(name) for name in schema["properties"]}
    unknown = set(given) - set(arguments)
    assert not unknown, f"not in the schema: {unknown}"
    jsonschema.Draft202012Validator(schema).validate(arguments)
    return arguments


def count_rows(database: Path, sql: str, params: Any = ()) -> int:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(sql, params).fetchone()[0]
    finally:
        connection.close()


async def test_describe_schema_with_null_or_empty_table_lists_every_table(server) -> None:
    async with server() as connection:
        schema = (await listed_schemas(connection))["describe_schema"]
        for table in (None, ""):
            result = await connection.call("describe_schema", strict_arguments(schema, table=table, include_samples=None))
            assert len(assert_tool_ok(result)["tables"]) == 11
        samples = await connection.call("describe_schema", strict_arguments(schema, table="Genre", include_samples=True))
        assert [table["name"] for table in assert_tool_ok(samples)["tables"]] == ["Genre"]
        assert "sample" in result_text(samples)


async def test_query_with_every_argument_null_or_listed(server) -> None:
    async with server() as connection:
        schema = (await listed_schemas(connection))["query"]
        plain = await connection.call("query", strict_arguments(schema, sql="SELECT count(*) FROM Track"))
        assert assert_tool_ok(plain)["rows"] == [[3503]]
        positional = await connection.call(
            "query",
            strict_arguments(schema, sql="SELECT Name FROM Genre WHERE GenreId IN (?, ?) ORDER BY 1", params=[1, 2], max_rows=1),
        )
        assert assert_tool_ok(positional)["rows"] == [["Jazz"]]
        assert positional_truncated(positional)
        named = await connection.call(
            "query",
            strict_arguments(
                schema,
                sql="SELECT Name FROM Artist WHERE ArtistId = :id AND Name LIKE @pattern AND $flag",
                params=[{"name": "id", "value": 1}, {"name": "@pattern", "value": "AC%"}, {"name": "flag", "value": True}],
            ),
        )
        assert assert_tool_ok(named)["rows"] == [["AC/DC"]]
        mixed = await connection.call("query", {"sql": "SELECT :a, ?", "params": [{"name": "a", "value": 1}, 2]})
        assert_tool_error(mixed, "mixes named and positional")
        assert error_code(mixed) == "invalid_arguments"


def positional_truncated(result: Any) -> bool:
    return assert_tool_ok(result)["truncated"] is True


AGGREGATE_CASES = [
    # (list shape, map shape, SQL condition, params)
    ([{"column": "BillingCountry", "op": "=", "value": "Brazil"}], {"BillingCountry": "Brazil"}, "BillingCountry = ?", ["Brazil"]),
    ([{"column": "Total", "op": ">", "value": 10}], {"Total": {">": 10}}, "Total > ?", [10]),
    ([{"column": "Total", "op": "between", "value": [5, 6]}], {"Total": {"between": [5, 6]}}, "Total BETWEEN ? AND ?", [5, 6]),
    (
        [{"column": "BillingCountry", "op": "in", "value": ["USA", "Canada"]}, {"column": "Total", "op": "<=", "value": 2}],
        {"BillingCountry": {"in": ["USA", "Canada"]}, "Total": {"<=": 2}},
        "BillingCountry IN (?, ?) AND Total <= ?",
        ["USA", "Canada", 2],
    ),
    ([{"column": "BillingState", "op": "is_null", "value": True}], {"BillingState": {"is_null": True}}, "BillingState IS NULL", []),
    ([{"column": "BillingState", "op": "=", "value": None}], {"BillingState": None}, "BillingState IS NULL", []),
    ([{"column": "BillingCity", "op": "like", "value": "s%"}], {"BillingCity": {"like": "s%"}}, "BillingCity LIKE ?", ["s%"]),
    ([{"column": "BillingCountry", "op": "not_in", "value": ["USA"]}], {"BillingCountry": {"not_in": ["USA"]}}, "BillingCountry NOT IN (?)", ["USA"]),
    ([{"column": "Total", "op": "!=", "value": 0.99}], {"Total": {"!=": 0.99}}, "Total != ?", [0.99]),
]


@pytest.mark.parametrize("listed, mapped, condition, params", AGGREGATE_CASES)
async def test_where_as_a_list_equals_where_as_a_map(server, chinook: Path, listed, mapped, condition, params) -> None:
    expected = count_rows(chinook, f"SELECT count(*) FROM Invoice WHERE {condition}", params)
    async with server() as connection:
        schema = (await listed_schemas(connection))["aggregate"]
        as_list = await connection.call("aggregate", strict_arguments(schema, table="Invoice", function="count", where=listed))
        as_map = await connection.call("aggregate", {"table": "Invoice", "function": "count", "where": mapped})
    assert assert_tool_ok(as_list)["rows"] == [[expected]]
    assert assert_tool_ok(as_map)["rows"] == [[expected]]


async def test_aggregate_with_strict_nulls_and_lists(server) -> None:
    async with server() as connection:
        schema = (await listed_schemas(connection))["aggregate"]
        everything = await connection.call("aggregate", strict_arguments(schema, table="Track", function="count", column=""))
        assert assert_tool_ok(everything)["rows"] == [[3503]]
        grouped = await connection.call(
            "aggregate",
            strict_arguments(
                schema, table="Invoice", function="sum", column="Total", group_by=["BillingCountry"], order="desc", limit=2
            ),
        )
        assert [row[0] for row in assert_tool_ok(grouped)["rows"]] == ["USA", "Canada"]
        bad = await connection.call(
            "aggregate", {"table": "Invoice", "function": "count", "where": [{"column": "Total", "op": "in", "value": 3}]}
        )
        assert_tool_error(bad)
        assert error_code(bad) == "invalid_arguments"


async def test_writes_with_strict_nulls_and_list_shapes(server, chinook: Path) -> None:
    async with server("--allow", "unrestricted", "--no-confirm") as connection:
        schemas = await listed_schemas(connection)
        inserted = await connection.call(
            "insert",
            strict_arguments(
                schemas["insert"], table="Genre", rows={"columns": ["GenreId", "Name"], "values": [[300, "Tea"], [301, None]]}
            ),
        )
        assert assert_tool_ok(inserted)["rows_affected"] == 2
        updated = await connection.call(
            "update",
            strict_arguments(
                schemas["update"],
                table="Genre",
                set=[{"column": "Name", "value": "Cake"}],
                where=[{"column": "GenreId", "op": "=", "value": 301}],
            ),
        )
        assert assert_tool_ok(updated)["rows_affected"] == 1
        by_sql = await connection.call(
            "update",
            strict_arguments(
                schemas["update"], sql="UPDATE Genre SET Name = :name WHERE GenreId = 300", params=[{"name": "name", "value": "Tea!"}]
            ),
        )
        assert assert_tool_ok(by_sql)["rows_affected"] == 1
        assert count_rows(chinook, "SELECT count(*) FROM Genre WHERE Name IN ('Tea!', 'Cake')") == 2
        deleted = await connection.call(
            "delete",
            strict_arguments(schemas["delete"], sql="DELETE FROM Genre WHERE GenreId >= ?", params=[300], all_rows=False),
        )
        assert assert_tool_ok(deleted)["rows_affected"] == 2
    assert count_rows(chinook, "SELECT count(*) FROM Genre") == 25


async def test_empty_strings_and_false_count_as_not_given_beside_sql(server, chinook: Path) -> None:
    async with server("--allow", "unrestricted", "--no-confirm") as connection:
        inserted = await connection.call(
            "insert", {"table": "", "rows": None, "sql": "INSERT INTO Genre VALUES (500, 'x'), (501, 'y')", "params": []}
        )
        assert assert_tool_ok(inserted)["rows_affected"] == 2
        result = await connection.call(
            "delete",
            {"table": "", "where": [], "all_rows": False, "sql": "DELETE FROM Genre WHERE GenreId = 500", "params": [], "confirm": ""},
        )
        assert assert_tool_ok(result)["rows_affected"] == 1
        # A real value beside sql is still refused: the two ways of giving a statement never mix.
        mixed = await connection.call("delete", {"table": "Genre", "sql": "DELETE FROM Genre WHERE GenreId = 501"})
        assert_tool_error(mixed, "not both")
    assert count_rows(chinook, "SELECT count(*) FROM Genre WHERE GenreId >= 500") == 1


async def test_a_malformed_list_shape_is_a_tool_error_and_writes_nothing(server, chinook: Path) -> None:
    before = count_rows(chinook, "SELECT count(*) FROM Genre")
    bad_calls = [
        ("insert", {"table": "Genre", "rows": {"columns": ["GenreId", "Name"], "values": [[400, "a"], [401]]}}),
        ("insert", {"table": "Genre", "rows": {"columns": ["Name", "name"], "values": [["a", "b"]]}}),
        ("insert", {"table": "Genre", "rows": {"columns": ["Name"], "values": [["a"]], "extra": 1}}),
        ("update", {"table": "Genre", "set": [{"column": "Name", "value": "x"}, {"column": "Name", "value": "y"}], "all_rows": True}),
        ("update", {"table": "Genre", "set": [{"column": "Name"}], "where": [{"column": "GenreId", "op": "=", "value": 1}]}),
        ("update", {"table": "Genre", "set": [{"column": "Name", "value": "x"}], "where": [{"column": "GenreId", "op": "="}]}),
        ("delete", {"table": "Genre", "where": [{"column": "GenreId", "op": "drop", "value": 1}]}),
        ("delete", {"table": "Genre", "where": [{"column": "GenreId", "op": "=", "value": [1, 2]}]}),
    ]
    async with server("--allow", "unrestricted", "--no-confirm") as connection:
        for tool, arguments in bad_calls:
            result = await connection.call(tool, arguments)
            assert_tool_error(result)
            assert error_code(result) in {"invalid_arguments", "invalid_request"}, (tool, arguments, error_code(result))
    assert count_rows(chinook, "SELECT count(*) FROM Genre") == before


def test_with_the_result_view_every_schema_stays_portable_and_the_official_types_accept_the_meta(dbai_bin: Path, chinook: Path) -> None:
    """A host that declared MCP Apps gets `_meta.ui` on tools, the app-only view_rows and the
    view's `_meta` in results: still portable schemas, still valid for the official client's types."""
    from mcp import types

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Scripts"))
    from mcp_stdio import StdioClient

    apps = {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}
    client = StdioClient([str(dbai_bin), "--db", str(chinook), "--max-rows", "3"], subprocess.DEVNULL)
    try:
        client.initialize(capabilities=apps, timeout=30)
        listed = client.request("tools/list", {}, timeout=30)["result"]
        tools = types.ListToolsResult.model_validate(listed).tools
        assert "view_rows" in {tool.name for tool in tools}
        for tool in listed["tools"]:
            assert violations(tool["inputSchema"]) == [], tool["name"]
        result = client.request("tools/call", {"name": "query", "arguments": {"sql": "SELECT Name FROM Artist ORDER BY ArtistId"}}, timeout=30)
        parsed = types.CallToolResult.model_validate(result["result"])
        assert parsed.meta is not None and "io.github.swiftdbai/view" in parsed.meta
        read = client.request("resources/read", {"uri": "ui://dbai/result"}, timeout=30)["result"]
        assert types.ReadResourceResult.model_validate(read).contents[0].mimeType == "text/html;profile=mcp-app"
    finally:
        client.close()
