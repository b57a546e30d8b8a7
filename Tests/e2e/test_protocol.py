"""Initialization, capabilities, every list method, resources and logging over the official client."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest
from mcp import types

from mcp_compat import McpError
from conftest import assert_tool_error

pytestmark = pytest.mark.anyio

CHINOOK_TABLES = {
    "Album", "Artist", "Customer", "Employee", "Genre", "Invoice",
    "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track",
}  # fmt: skip

READ_TOOLS = ["describe_schema", "query", "export", "aggregate"]


async def test_initialize_negotiates_latest_version_and_declares_capabilities(server) -> None:
    async with server() as connection:
        result = connection.initialize_result
        assert result.protocolVersion == "2025-11-25"
        assert result.serverInfo.name == "dbai-mcp"
        assert result.serverInfo.version
        capabilities = result.capabilities
        assert capabilities.tools is not None
        assert capabilities.resources is not None
        assert capabilities.logging is not None
        assert capabilities.prompts is not None, "prompts are offered (test_prompts.py)"
        assert capabilities.completions is not None, "table names complete"
        assert result.instructions and "readonly" in result.instructions
        assert isinstance(await connection.session.send_ping(), types.EmptyResult)


@pytest.mark.parametrize(
    "allow, expected",
    [
        ([], READ_TOOLS),
        (["--allow", "readonly"], READ_TOOLS),
        (["--allow", "standard"], [*READ_TOOLS, "insert", "update"]),
        (["--allow", "unrestricted"], [*READ_TOOLS, "insert", "update", "delete"]),
        (["--allow", "select,insert"], [*READ_TOOLS, "insert"]),
        (["--allow", "select,delete"], [*READ_TOOLS, "delete"]),
    ],
    ids=["default", "readonly", "standard", "unrestricted", "select-insert", "select-delete"],
)
async def test_tools_listed_depend_on_allow(server, allow: list[str], expected: list[str]) -> None:
    async with server(*allow) as connection:
        listed = await connection.session.list_tools()
        assert sorted(tool.name for tool in listed.tools) == sorted(expected)


async def test_every_tool_has_schemas_and_annotations(server) -> None:
    async with server("--allow", "unrestricted") as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
    assert set(tools) == {*READ_TOOLS, "insert", "update", "delete"}
    for name, tool in tools.items():
        assert tool.description, name
        assert tool.inputSchema.get("type") == "object", name
        assert tool.outputSchema is not None and tool.outputSchema.get("type") == "object", name
        annotations = tool.annotations
        assert annotations is not None, name
        for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert isinstance(getattr(annotations, hint), bool), f"{name} lacks {hint}"
        assert annotations.openWorldHint is False, name
        # export writes a file with --export-dir: not read-only, although it reads the database only.
        assert annotations.readOnlyHint is (name in READ_TOOLS and name != "export"), name
    assert tools["delete"].annotations.destructiveHint is True
    for name in READ_TOOLS:
        assert tools[name].annotations.destructiveHint is False
    # Every property is required (strict function calling); an optional one accepts null.
    assert tools["query"].inputSchema["required"] == ["sql", "params", "max_rows", "cursor"]
    assert tools["query"].inputSchema["properties"]["max_rows"]["type"] == ["integer", "null"]
    assert set(tools["aggregate"].inputSchema["properties"]["function"]["enum"]) == {
        "count", "sum", "avg", "min", "max", "total",
    }  # fmt: skip


@pytest.mark.parametrize(
    "allow, tool, arguments, flag",
    [
        ("readonly", "delete", {"table": "Genre", "where": {"GenreId": 1}}, "--allow unrestricted"),
        ("readonly", "insert", {"table": "Genre", "rows": [{"Name": "x"}]}, "--allow standard"),
        ("readonly", "update", {"table": "Genre", "set": {"Name": "x"}, "where": {"GenreId": 1}}, "--allow standard"),
        ("standard", "delete", {"table": "Genre", "where": {"GenreId": 1}}, "--allow unrestricted"),
    ],
)
async def test_calling_an_unlisted_tool_is_a_json_rpc_error_naming_the_flag(
    server, chinook: Path, allow: str, tool: str, arguments: dict, flag: str
) -> None:
    async with server("--allow", allow) as connection:
        with pytest.raises(McpError) as raised:
            await connection.call(tool, arguments)
    assert flag in raised.value.error.message
    assert raised.value.error.code == types.INVALID_PARAMS
    with sqlite3.connect(chinook) as database:
        assert database.execute("SELECT Name FROM Genre WHERE GenreId = 1").fetchone() == ("Rock",)


async def test_unknown_tool_is_a_json_rpc_error(server) -> None:
    async with server() as connection:
        with pytest.raises(McpError) as raised:
            await connection.call("drop_everything", {})
    assert "drop_everything" in raised.value.error.message
    assert "query" in raised.value.error.message, "the message lists the available tools"


async def test_bad_tool_arguments_are_refused_with_a_message(server) -> None:
    async with server() as connection:
        missing = await connection.call("query", {})
        unexpected = await connection.call("query", {"sql": "SELECT 1", "bogus": 1})
    assert_tool_error(missing, "sql")
    assert_tool_error(unexpected, "bogus")


async def test_resources_list_schema_and_one_per_visible_table(server) -> None:
    async with server() as connection:
        listed = await connection.session.list_resources()
    uris = [str(resource.uri) for resource in listed.resources]
    assert "sqlite://schema" in uris
    assert sorted(uris) == sorted(["sqlite://schema", *(f"sqlite://table/{name}" for name in CHINOOK_TABLES)])
    for resource in listed.resources:
        assert resource.mimeType == "application/json"


async def test_resource_templates_list_the_table_template(server) -> None:
    async with server() as connection:
        templates = await connection.session.list_resource_templates()
    assert [template.uriTemplate for template in templates.resourceTemplates] == ["sqlite://table/{name}", "sqlite://export/{id}{?chunk}"]


async def test_read_schema_resource_is_json_of_all_visible_tables(server) -> None:
    async with server() as connection:
        read = await connection.session.read_resource("sqlite://schema")
    assert len(read.contents) == 1
    content = read.contents[0]
    assert isinstance(content, types.TextResourceContents)
    assert content.mimeType == "application/json"
    tables = json.loads(content.text)
    assert isinstance(tables, list)
    assert {table["name"] for table in tables} == CHINOOK_TABLES


async def test_table_template_reads_a_percent_encoded_name(server, chinook: Path) -> None:
    with sqlite3.connect(chinook) as database:
        database.execute('CREATE TABLE "Order Items" (id INTEGER PRIMARY KEY, note TEXT NOT NULL)')
    database.close()
    expected_uri = "sqlite://table/" + quote("Order Items")
    async with server() as connection:
        listed = [str(resource.uri) for resource in (await connection.session.list_resources()).resources]
        spaced = await connection.session.read_resource(expected_uri)
        genre = await connection.session.read_resource("sqlite://table/Genre")
        with pytest.raises(McpError) as unknown:
            await connection.session.read_resource("sqlite://table/NoSuchTable")
        with pytest.raises(McpError):
            await connection.session.read_resource("sqlite://elsewhere")
    assert expected_uri in listed
    table = json.loads(spaced.contents[0].text)
    assert table["name"] == "Order Items"
    assert [column["name"] for column in table["columns"]] == ["id", "note"]
    assert json.loads(genre.contents[0].text)["name"] == "Genre"
    assert "NoSuchTable" in unknown.value.error.message


async def test_logging_set_level_sends_messages_for_refusals(server) -> None:
    messages: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        messages.append(params)

    async with server(logging_callback=on_log) as connection:
        session = connection.session
        # The client handles notifications in order before the response that follows them.
        assert isinstance(await session.set_logging_level("debug"), types.EmptyResult)
        refused = await connection.call("query", {"sql": "DELETE FROM Track"})
        assert_tool_error(refused)
        assert any(message.level == "warning" and "query" in str(message.data) for message in messages), messages
        await connection.call("query", {"sql": "SELECT 1"})
        assert any(message.level == "debug" for message in messages), messages

        messages.clear()
        await session.set_logging_level("warning")
        await connection.call("query", {"sql": "SELECT 1"})
        assert messages == [], "debug messages are filtered at level warning"
        assert_tool_error(await connection.call("query", {"sql": "DROP TABLE Track"}))
        assert [message.level for message in messages] == ["warning"]
