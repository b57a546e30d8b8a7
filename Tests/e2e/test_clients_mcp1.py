"""dbai-mcp driven by langchain-mcp-adapters, which needs the `mcp` 1.x client (it does not import
with 2.x). It lists the tools and calls describe_schema, query, aggregate and insert as a
LangChain agent would, and converts every tool to an OpenAI strict function; then again over
Streamable HTTP (`dbai-mcp --http`, with a bearer token).

The versions are pinned in Tests/e2e/requirements-mcp1.txt; Scripts/test runs this file in that
environment (the other client libraries are in test_clients_mcp2.py).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_mcp_adapters.client import MultiServerMCPClient

from mcp_compat import MCP_MAJOR
from test_http import TOKEN, http_server

pytestmark = pytest.mark.anyio

ALL_TOOLS = ["describe_schema", "query", "export", "aggregate", "insert", "update", "delete"]


def test_the_mcp_client_is_1x() -> None:
    assert MCP_MAJOR == 1


async def call(tool: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    """Invokes a LangChain tool with a tool call, as an agent does; returns the structured content."""
    message = await tool.ainvoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments})
    assert message.status != "error", message.content
    return message.artifact["structured_content"]


async def test_langchain_mcp_adapters(dbai_bin: Path, chinook: Path) -> None:
    client = MultiServerMCPClient(
        {
            "db": {
                "command": str(dbai_bin),
                "args": ["--db", str(chinook), "--allow", "unrestricted"],
                "transport": "stdio",
            }
        }
    )
    tools = {tool.name: tool for tool in await client.get_tools()}
    assert list(tools) == ALL_TOOLS
    for tool in tools.values():
        function = convert_to_openai_tool(tool, strict=True)["function"]
        assert function["strict"] is True
        assert function["parameters"]["type"] == "object"

    described = await call(tools["describe_schema"], {"table": None, "search": None, "cursor": None, "include_samples": None})
    assert len(described["tables"]) == 11
    queried = await call(tools["query"], {"sql": "SELECT Name FROM Artist WHERE ArtistId = ?", "params": [1], "max_rows": None, "cursor": None})
    assert queried["rows"] == [["AC/DC"]]
    aggregated = await call(
        tools["aggregate"],
        {
            "table": "Invoice",
            "function": "count",
            "column": None,
            "where": [{"column": "Total", "op": ">", "value": 10}],
            "group_by": None,
            "order": None,
            "limit": None,
            "cursor": None,
        },
    )
    assert aggregated["rows"] == [[count(chinook, "SELECT count(*) FROM Invoice WHERE Total > 10")]]
    inserted = await call(
        tools["insert"],
        {"table": "Artist", "rows": {"columns": ["Name"], "values": [["LangChain"]]}, "sql": None, "params": None, "confirm": None},
    )
    assert inserted["rows_affected"] == 1
    assert count(chinook, "SELECT count(*) FROM Artist WHERE Name = 'LangChain'") == 1
    # The text a model reads is the Markdown rendering.
    text = await tools["query"].ainvoke({"sql": "SELECT Name FROM Genre WHERE GenreId = 1", "params": None, "max_rows": None, "cursor": None})
    assert "| Rock |" in str(text)


def count(database: Path, sql: str) -> int:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(sql).fetchone()[0]
    finally:
        connection.close()


async def test_langchain_mcp_adapters_over_http(dbai_bin: Path, chinook: Path) -> None:
    with http_server(dbai_bin, chinook, "--allow", "unrestricted") as served:
        client = MultiServerMCPClient(
            {"db": {"transport": "streamable_http", "url": served.url, "headers": {"Authorization": f"Bearer {TOKEN}"}}}
        )
        tools = {tool.name: tool for tool in await client.get_tools()}
        assert list(tools) == ALL_TOOLS
        queried = await call(tools["query"], {"sql": "SELECT Name FROM Artist WHERE ArtistId = ?", "params": [1], "max_rows": None, "cursor": None})
        inserted = await call(
            tools["insert"],
            {"table": "Artist", "rows": {"columns": ["Name"], "values": [["LangChain HTTP"]]}, "sql": None, "params": None,
             "confirm": None},
        )
    assert queried["rows"] == [["AC/DC"]]
    assert inserted["rows_affected"] == 1
    assert count(chinook, "SELECT count(*) FROM Artist WHERE Name = 'LangChain HTTP'") == 1
