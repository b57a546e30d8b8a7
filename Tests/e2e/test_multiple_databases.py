"""Several databases behind one server (`--db NAME=PATH`, repeated): every database tool takes a
required `database` argument; `describe_schema` without one lists the databases; resources and
prompts are per database; `ask` takes a `database` or chooses one; a single `--db` is unchanged."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import (
    REPO_ROOT, assert_tool_error, assert_tool_ok, connect, error_code, run_binary, sha256, validate_output,
)

pytestmark = pytest.mark.anyio

NORTHWIND = REPO_ROOT / "Examples" / "northwind.sqlite"
DATABASE_TOOLS = {"describe_schema", "query", "export", "aggregate", "insert", "update", "delete"}


@pytest.fixture
def northwind(tmp_path: Path) -> Path:
    copy = tmp_path / "northwind.sqlite"
    shutil.copyfile(NORTHWIND, copy)
    return copy


def two(dbai_bin: Path, chinook: Path, northwind: Path, *args: str, **options):
    """The server with chinook (named after its file) and northwind (named explicitly)."""
    return connect(dbai_bin, chinook, "--db", f"northwind={northwind}", *args, **options)


async def test_every_database_tool_takes_a_required_database_enum(dbai_bin, chinook, northwind) -> None:
    async with two(dbai_bin, chinook, northwind, "--allow", "unrestricted") as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
        instructions = connection.initialize_result.instructions or ""
    assert DATABASE_TOOLS <= set(tools)
    for name in DATABASE_TOOLS - {"describe_schema"}:
        schema = tools[name].inputSchema
        assert schema["properties"]["database"]["enum"] == ["chinook", "northwind"], name
        assert "database" in schema["required"], name
    described = tools["describe_schema"].inputSchema["properties"]["database"]
    assert {"type": "null"} in described["anyOf"]
    assert "chinook" in instructions and "northwind" in instructions


async def test_calls_run_on_the_database_named(dbai_bin, chinook, northwind) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        albums = await connection.call("query", {"database": "chinook", "sql": "SELECT count(*) AS n FROM Album"})
        customers = await connection.call("query", {"database": "northwind", "sql": "SELECT count(*) AS n FROM Customers"})
        crossed = await connection.call("query", {"database": "northwind", "sql": "SELECT count(*) FROM Album"})
        aggregate = await connection.call("aggregate", {"database": "northwind", "table": "Customers", "function": "count"})
    assert assert_tool_ok(albums)["rows"] == [[347]]
    assert assert_tool_ok(customers)["rows"] == [[93]]
    assert_tool_error(crossed, "no such table")
    assert assert_tool_ok(aggregate)["rows"] == [[93]]


@pytest.mark.parametrize("arguments", [{}, {"database": None}, {"database": ""}])
async def test_a_call_without_database_is_an_error_that_lists_the_names(dbai_bin, chinook, northwind, arguments) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        result = await connection.call("query", {"sql": "SELECT 1", **arguments})
    assert_tool_error(result, "chinook", "northwind")
    assert error_code(result) == "invalid_arguments"


@pytest.mark.parametrize("database", ["sales", "CHINOOK", 3, ["chinook"]])
async def test_an_unknown_database_is_an_error_that_lists_the_names(dbai_bin, chinook, northwind, database) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        result = await connection.call("query", {"sql": "SELECT 1", "database": database})
    assert_tool_error(result, "chinook, northwind")


async def test_describe_schema_without_database_lists_databases_and_tables(dbai_bin, chinook, northwind) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        listing = await connection.call("describe_schema", {})
        structured = await validate_output(connection, "describe_schema", listing)
        one = await connection.call("describe_schema", {"database": "northwind", "table": "Customers"})
        table_without_database = await connection.call("describe_schema", {"table": "Album"})
    databases = {entry["name"]: entry for entry in structured["databases"]}
    assert set(databases) == {"chinook", "northwind"}
    assert {"name": "Album", "kind": "table"} in databases["chinook"]["tables"]
    assert any(table["name"] == "Customers" for table in databases["northwind"]["tables"])
    assert "northwind" in structured["ddl"] and "Album" in structured["ddl"]
    assert [table["name"] for table in assert_tool_ok(one)["tables"]] == ["Customers"]
    assert_tool_error(table_without_database, "database")


async def test_policy_flags_apply_to_each_database_and_take_qualified_names(dbai_bin, chinook, northwind) -> None:
    before = sha256(northwind)
    async with two(
        dbai_bin, chinook, northwind, "--allow", "standard",
        "--tables", "chinook.Album,Artist,northwind.Customers,Orders", "--write-tables", "chinook.Artist",
    ) as connection:
        chinook_tables = assert_tool_ok(await connection.call("describe_schema", {"database": "chinook"}))["tables"]
        northwind_tables = assert_tool_ok(await connection.call("describe_schema", {"database": "northwind"}))["tables"]
        hidden = await connection.call("query", {"database": "chinook", "sql": "SELECT * FROM Track LIMIT 1"})
        written = await connection.call("insert", {
            "database": "chinook", "table": "Artist", "rows": {"columns": ["Name"], "values": [["New"]]}})
        not_writable = await connection.call("insert", {
            "database": "northwind", "table": "Customers",
            "rows": {"columns": ["CustomerID", "CompanyName"], "values": [["ZZZZZ", "Z"]]}})
    assert sorted(table["name"] for table in chinook_tables) == ["Album", "Artist"]
    assert sorted(table["name"] for table in northwind_tables) == ["Customers", "Orders"]
    assert_tool_error(hidden)
    assert assert_tool_ok(written)["rows_affected"] == 1
    assert_tool_error(not_writable)
    assert sha256(northwind) == before


async def test_a_confirmation_token_confirms_only_on_its_own_database(dbai_bin, tmp_path: Path) -> None:
    first, second = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    for path in (first, second):
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
            db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])
    arguments = {"sql": "DELETE FROM t WHERE id = 1"}
    async with connect(dbai_bin, first, "--db", f"two={second}", "--allow", "unrestricted") as connection:
        preview = assert_tool_ok(await connection.call("delete", {**arguments, "database": "one"}))
        token = preview["confirmation_token"]
        elsewhere = await connection.call("delete", {**arguments, "database": "two", "confirm": token})
        confirmed = await connection.call("delete", {**arguments, "database": "one", "confirm": token})
    assert_tool_error(elsewhere, "token")
    assert assert_tool_ok(confirmed)["rows_affected"] == 1
    with sqlite3.connect(first) as db:
        assert db.execute("SELECT count(*) FROM t").fetchone()[0] == 1
    with sqlite3.connect(second) as db:
        assert db.execute("SELECT count(*) FROM t").fetchone()[0] == 2


async def test_resources_are_per_database(dbai_bin, chinook, northwind) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        resources = {str(resource.uri) for resource in (await connection.session.list_resources()).resources}
        templates = {template.uriTemplate for template in (await connection.session.list_resource_templates()).resourceTemplates}
        schema = await connection.session.read_resource("sqlite://northwind/schema")
        album = await connection.session.read_resource("sqlite://chinook/table/Album")
        with pytest.raises(Exception):
            await connection.session.read_resource("sqlite://schema")
    assert {"sqlite://chinook/schema", "sqlite://northwind/schema", "sqlite://chinook/table/Album"} <= resources
    assert templates == {"sqlite://chinook/table/{name}", "sqlite://northwind/table/{name}", "sqlite://export/{id}{?chunk}"}
    northwind = json.loads(schema.contents[0].text)
    # Northwind's whole schema exceeds the default budget: the resource is then a catalog page.
    tables = northwind if isinstance(northwind, list) else northwind["tables"]
    assert isinstance(northwind, list) or northwind["complete"] is False
    assert any(table["name"] == "Customers" for table in tables)
    assert json.loads(album.contents[0].text)["name"] == "Album"


async def test_prompts_take_a_database(dbai_bin, chinook, northwind) -> None:
    async with two(dbai_bin, chinook, northwind) as connection:
        prompts = (await connection.session.list_prompts()).prompts
        explained = await connection.session.get_prompt("explain_table", {"database": "northwind", "table": "Customers"})
        with pytest.raises(Exception, match="database"):
            await connection.session.get_prompt("explain_table", {"table": "Customers"})
    for prompt in prompts:
        assert prompt.arguments and prompt.arguments[0].name == "database" and prompt.arguments[0].required
    assert "Customers" in explained.messages[0].content.text


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--db", "a=/nonexistent/a.sqlite"], "/nonexistent/a.sqlite"),
        (["--db", "{chinook}", "--db", "chinook={chinook}"], "Two databases are named chinook"),
        (["--db", "1abc={chinook}", "--db", "x={chinook}"], "not a plain name"),
        (["--db", "{chinook}", "--db", "n={northwind}", "--tables", "Album"], "lists no table of the database n"),
        (["--db", "{chinook}", "--db", "n={northwind}", "--tables", "Album,n.Nope"], "n.Nope"),
    ],
)
def test_bad_database_flags_stop_start_up_with_a_clear_message(dbai_bin, chinook, northwind, arguments, problem) -> None:
    completed = run_binary(dbai_bin, *[argument.format(chinook=chinook, northwind=northwind) for argument in arguments])
    assert completed.returncode != 0
    assert problem in completed.stderr
    assert "Traceback" not in completed.stderr and "Fatal error" not in completed.stderr


async def test_a_single_named_database_keeps_todays_tools(dbai_bin, chinook) -> None:
    async with connect(dbai_bin, chinook) as plain:
        plain_tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in (await plain.session.list_tools()).tools]
    async with connect(dbai_bin, Path(f"music={chinook}"), stderr_path=chinook.parent / "named.stderr") as named:
        named_tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in (await named.session.list_tools()).tools]
        with_database = await named.call("query", {"sql": "SELECT 1", "database": "music"})
        resources = {str(resource.uri) for resource in (await named.session.list_resources()).resources}
    assert plain_tools == named_tools
    assert all("database" not in tool["inputSchema"]["properties"] for tool in named_tools)
    assert_tool_error(with_database, "Unknown argument")
    assert "sqlite://schema" in resources


def sampling_by_schema(prompts: list):
    """Plays the client's model: counts Customers when the prompt holds Northwind's schema, else tracks."""
    from mcp import types

    async def sampling(context, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        prompts.append(params)
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        if "<data>" in text:
            answer = "Counted."
        elif '"Customers"' in (params.systemPrompt or ""):
            answer = "SELECT count(*) AS n FROM Customers"
        else:
            answer = "SELECT count(*) AS n FROM Track"
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=answer), model="m", stopReason="endTurn")

    return sampling


async def test_ask_takes_a_database_or_chooses_it_from_the_question(dbai_bin, chinook, northwind) -> None:
    prompts: list = []
    async with two(dbai_bin, chinook, northwind, sampling_callback=sampling_by_schema(prompts)) as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
        named = assert_tool_ok(await connection.call("ask", {"question": "How many are there?", "database": "northwind"}))
        customers = await connection.call("ask", {"question": "How many customers are there?"})
        chosen = await validate_output(connection, "ask", customers)
        tracks = assert_tool_ok(await connection.call("ask", {"question": "How many tracks are there?"}))
        unclear = await connection.call("ask", {"question": "How many are there?"})
        follow_up = assert_tool_ok(await connection.call(
            "ask", {"question": "and now?", "conversation_id": chosen["conversation_id"]}))
        elsewhere = await connection.call(
            "ask", {"question": "and now?", "conversation_id": chosen["conversation_id"], "database": "chinook"})
    assert {"type": "null"} in tools["ask"].inputSchema["properties"]["database"]["anyOf"]
    assert named["rows"] == [[93]]
    assert chosen["database"] == "northwind" and chosen["rows"] == [[93]]
    assert tracks["database"] == "chinook" and tracks["rows"] == [[3503]]
    assert_tool_error(unclear, "chinook", "northwind")
    assert follow_up["rows"] == [[93]]
    assert_tool_error(elsewhere, "northwind")
