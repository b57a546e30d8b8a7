"""dbai-mcp driven by the client libraries people build agents with, on the `mcp` 2.x client.

Each client lists the tools and calls describe_schema, query, aggregate and insert the way it
would for a model, and converts the schemas for its vendor's function calling:
- fastmcp's `Client`;
- openai-agents' `MCPServerStdio`, whose strict-schema conversion must succeed for every tool,
  and which accepts two servers in one agent once their tools are prefixed;
- google-genai's MCP adapter (`mcp_to_gemini_tool` for every tool, accepted by `types.Schema`);
- pydantic-ai's `MCPToolset`, with every tool strict-compatible for OpenAI;
- fastmcp and openai-agents again over Streamable HTTP (`dbai-mcp --http`, with a bearer token).

The versions are pinned in Tests/e2e/requirements-mcp2.txt; Scripts/test runs this file in that
environment (langchain-mcp-adapters, which needs `mcp` 1.x, is in test_clients_mcp1.py).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunContextWrapper
from agents.mcp import MCPServerStdio as AgentsMCPServerStdio
from agents.mcp import MCPServerStreamableHttp as AgentsMCPServerStreamableHttp
from agents.mcp import MCPUtil
from agents.tool_context import ToolContext
from fastmcp import Client as FastMCPClient
from fastmcp.client.transports import StdioTransport as FastMCPStdioTransport
from fastmcp.client.transports import StreamableHttpTransport as FastMCPHTTPTransport
from google.genai import types as genai_types
from google.genai._adapters import McpToGenAiToolAdapter
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

from conftest import assert_tool_ok
from mcp_compat import MCP_MAJOR
from test_http import TOKEN, http_server

pytestmark = pytest.mark.anyio

ALL_TOOLS = ["describe_schema", "query", "export", "aggregate", "insert", "update", "delete"]

#: The calls every client makes, as a strict client sends them (every argument, null when unused).
DESCRIBE = {"table": None, "search": None, "cursor": None, "include_samples": None}
QUERY = {"sql": "SELECT Name FROM Artist WHERE ArtistId = ?", "params": [1], "max_rows": None, "cursor": None}
AGGREGATE = {
    "table": "Invoice",
    "function": "sum",
    "column": "Total",
    "where": [{"column": "BillingCountry", "op": "in", "value": ["USA", "Canada"]}],
    "group_by": ["BillingCountry"],
    "order": "desc",
    "limit": None,
    "cursor": None,
}


def insert_arguments(name: str) -> dict[str, Any]:
    return {
        "table": "Artist",
        "rows": {"columns": ["Name"], "values": [[name]]},
        "sql": None,
        "params": None,
        "confirm": None,
    }


def artist_count(database: Path, name: str) -> int:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT count(*) FROM Artist WHERE Name = ?", [name]).fetchone()[0]
    finally:
        connection.close()


def server_command(dbai_bin: Path, database: Path, *flags: str) -> tuple[str, list[str]]:
    return str(dbai_bin), ["--db", str(database), "--allow", "unrestricted", *flags]


def test_the_mcp_client_is_2x() -> None:
    assert MCP_MAJOR == 2


async def test_fastmcp_client(dbai_bin: Path, chinook: Path) -> None:
    command, args = server_command(dbai_bin, chinook)
    async with FastMCPClient(FastMCPStdioTransport(command=command, args=args)) as client:
        tools = await client.list_tools()
        assert [tool.name for tool in tools] == ALL_TOOLS
        described = await client.call_tool("describe_schema", DESCRIBE)
        assert len(described.structured_content["tables"]) == 11
        queried = await client.call_tool("query", QUERY)
        assert queried.structured_content["rows"] == [["AC/DC"]]
        aggregated = await client.call_tool("aggregate", AGGREGATE)
        assert [row[0] for row in aggregated.structured_content["rows"]] == ["USA", "Canada"]
        inserted = await client.call_tool("insert", insert_arguments("FastMCP"))
        assert inserted.structured_content["rows_affected"] == 1
        prompts = await client.list_prompts()
        assert [prompt.name for prompt in prompts] == ["explore_database", "write_query", "explain_table", "suggest_questions", "ask"]
    assert artist_count(chinook, "FastMCP") == 1


async def invoke(tool: Any, arguments: dict[str, Any]) -> Any:
    """Runs an openai-agents FunctionTool as the agent loop would, with JSON arguments."""
    text = json.dumps(arguments)
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id="call-1", tool_arguments=text)
    return await tool.on_invoke_tool(context, text)


def structured_output(output: Any) -> dict[str, Any]:
    """openai-agents returns a tool's output as JSON text (the structured content)."""
    text = output if isinstance(output, str) else json.dumps(output)
    parsed = json.loads(text)
    return parsed.get("structuredContent", parsed.get("structured_content", parsed)) if isinstance(parsed, dict) else parsed


async def test_openai_agents_converts_every_tool_to_strict(dbai_bin: Path, chinook: Path) -> None:
    command, args = server_command(dbai_bin, chinook)
    server = AgentsMCPServerStdio(
        params={"command": command, "args": args}, name="dbai", client_session_timeout_seconds=30, use_structured_content=True
    )
    async with server:
        agent = Agent(name="db", mcp_servers=[server])
        tools = await MCPUtil.get_function_tools(server, True, RunContextWrapper(context=None), agent)
        by_name = {tool.name: tool for tool in tools}
        assert list(by_name) == ALL_TOOLS
        not_strict = [tool.name for tool in tools if not tool.strict_json_schema]
        assert not_strict == [], f"strict conversion failed for {not_strict}"
        for tool in tools:
            assert tool.params_json_schema.get("additionalProperties") is False
        described = structured_output(await invoke(by_name["describe_schema"], DESCRIBE))
        assert len(described["tables"]) == 11
        assert structured_output(await invoke(by_name["query"], QUERY))["rows"] == [["AC/DC"]]
        aggregated = structured_output(await invoke(by_name["aggregate"], AGGREGATE))
        assert [row[0] for row in aggregated["rows"]] == ["USA", "Canada"]
        inserted = structured_output(await invoke(by_name["insert"], insert_arguments("Agents")))
        assert inserted["rows_affected"] == 1
    assert artist_count(chinook, "Agents") == 1


async def test_openai_agents_takes_two_servers_once_their_tools_are_prefixed(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    command, args = server_command(dbai_bin, chinook)
    plain = [AgentsMCPServerStdio(params={"command": command, "args": args}, name=f"db{index}") for index in range(2)]
    prefixed = [
        AgentsMCPServerStdio(params={"command": command, "args": [*args, "--tool-prefix", prefix]}, name=prefix)
        for prefix in ("music", "sales")
    ]
    context = RunContextWrapper(context=None)
    async with plain[0], plain[1]:
        with pytest.raises(Exception, match="Duplicate tool names"):
            await Agent(name="db", mcp_servers=plain).get_all_tools(context)
    async with prefixed[0], prefixed[1]:
        agent = Agent(name="db", mcp_servers=prefixed, mcp_config={"convert_schemas_to_strict": True})
        names = [tool.name for tool in await agent.get_all_tools(context)]
    assert names == [f"music_{name}" for name in ALL_TOOLS] + [f"sales_{name}" for name in ALL_TOOLS]


async def test_google_genai_adapter(server, chinook: Path) -> None:
    async with server("--allow", "unrestricted") as connection:
        listed = await connection.session.list_tools()
        adapter = McpToGenAiToolAdapter(connection.session, listed)
        declarations = [declaration for tool in adapter.tools for declaration in tool.function_declarations]
        assert [declaration.name for declaration in declarations] == ALL_TOOLS
        for declaration in declarations:
            # The converted parameters are a Gemini Schema and survive a round trip through it.
            schema = declaration.parameters
            assert isinstance(schema, genai_types.Schema)
            assert genai_types.Schema.model_validate(schema.model_dump()) == schema
            assert schema.type == genai_types.Type.OBJECT
            assert_every_node_typed(schema, declaration.name)

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await adapter.call_tool(genai_types.FunctionCall(name=name, args=arguments))
            return assert_tool_ok(result)

        assert len((await call("describe_schema", DESCRIBE))["tables"]) == 11
        assert (await call("query", QUERY))["rows"] == [["AC/DC"]]
        assert [row[0] for row in (await call("aggregate", AGGREGATE))["rows"]] == ["USA", "Canada"]
        assert (await call("insert", insert_arguments("Gemini")))["rows_affected"] == 1
    assert artist_count(chinook, "Gemini") == 1


def assert_every_node_typed(schema: genai_types.Schema, path: str) -> None:
    """Gemini wants a type on every node: a branch of any_of without one was a null branch lost."""
    if schema.any_of:
        for index, branch in enumerate(schema.any_of):
            assert_every_node_typed(branch, f"{path}|{index}")
        return
    assert schema.type is not None, f"{path} has no type"
    for name, child in (schema.properties or {}).items():
        assert_every_node_typed(child, f"{path}.{name}")
    if schema.items is not None:
        assert_every_node_typed(schema.items, f"{path}[]")


async def test_pydantic_ai_toolset(dbai_bin: Path, chinook: Path) -> None:
    command, args = server_command(dbai_bin, chinook)
    server = MCPToolset(FastMCPClient(FastMCPStdioTransport(command=command, args=args)))
    async with server:
        tools = await server.list_tools()
        assert [tool.name for tool in tools] == ALL_TOOLS
        for tool in tools:
            transformer = OpenAIJsonSchemaTransformer(json.loads(json.dumps(tool.inputSchema)), strict=None)
            transformer.walk()
            assert transformer.is_strict_compatible, f"{tool.name} is not strict-compatible for OpenAI"
        described = await server.direct_call_tool("describe_schema", DESCRIBE)
        assert len(described["tables"]) == 11
        assert (await server.direct_call_tool("query", QUERY))["rows"] == [["AC/DC"]]
        aggregated = await server.direct_call_tool("aggregate", AGGREGATE)
        assert [row[0] for row in aggregated["rows"]] == ["USA", "Canada"]
        assert (await server.direct_call_tool("insert", insert_arguments("Pydantic")))["rows_affected"] == 1
    assert artist_count(chinook, "Pydantic") == 1


# MARK: - Over Streamable HTTP (dbai-mcp --http)


async def test_fastmcp_client_over_http(dbai_bin: Path, chinook: Path) -> None:
    _, args = server_command(dbai_bin, chinook)
    with http_server(dbai_bin, chinook, *args[2:]) as served:
        transport = FastMCPHTTPTransport(served.url, headers={"Authorization": f"Bearer {TOKEN}"})
        async with FastMCPClient(transport) as client:
            assert [tool.name for tool in await client.list_tools()] == ALL_TOOLS
            assert (await client.call_tool("query", QUERY)).structured_content["rows"] == [["AC/DC"]]
            inserted = await client.call_tool("insert", insert_arguments("FastMCP HTTP"))
            assert inserted.structured_content["rows_affected"] == 1
    assert artist_count(chinook, "FastMCP HTTP") == 1


async def test_openai_agents_over_http(dbai_bin: Path, chinook: Path) -> None:
    _, args = server_command(dbai_bin, chinook)
    with http_server(dbai_bin, chinook, *args[2:]) as served:
        server = AgentsMCPServerStreamableHttp(
            params={"url": served.url, "headers": {"Authorization": f"Bearer {TOKEN}"}}, name="dbai-http",
            client_session_timeout_seconds=30, use_structured_content=True)
        async with server:
            agent = Agent(name="db", mcp_servers=[server])
            tools = await MCPUtil.get_function_tools(server, True, RunContextWrapper(context=None), agent)
            by_name = {tool.name: tool for tool in tools}
            assert list(by_name) == ALL_TOOLS
            assert structured_output(await invoke(by_name["query"], QUERY))["rows"] == [["AC/DC"]]
            aggregated = structured_output(await invoke(by_name["aggregate"], AGGREGATE))
            assert [row[0] for row in aggregated["rows"]] == ["USA", "Canada"]
