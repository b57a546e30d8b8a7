"""The official Python client 2.3+ (`mcp.client.Client`) in each of its modes, over stdio and
over Streamable HTTP: `2026-07-28` (stateless, no probe), `auto` (probes `server/discover`, which
this server answers, so it goes stateless too) and `legacy` (the `initialize` handshake).

In every mode: the tools, a read, a resource, and a destructive write confirmed by the user —
through an `InputRequiredResult` and a retry under 2026-07-28, through `elicitation/create` in
the handshake era — and declined, with nothing changed. Skipped under the 1.x client.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import sha256
from test_http import TOKEN, http_server

client_module = pytest.importorskip("mcp.client")
if not hasattr(client_module, "Client"):
    pytest.skip("mcp.client.Client (MCP Python SDK 2.x) is not installed", allow_module_level=True)

from mcp import StdioServerParameters, types  # noqa: E402
from mcp.client import Client  # noqa: E402

pytestmark = pytest.mark.anyio

MODES = ["2026-07-28", "auto", "legacy"]


def rows_of(database: Path, invoice: int) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM InvoiceLine WHERE InvoiceId = ?", (invoice,)).fetchone()[0]


def stdio_server(dbai_bin: Path, database: Path) -> StdioServerParameters:
    return StdioServerParameters(command=str(dbai_bin), args=["--db", str(database), "--allow", "unrestricted"])


def answering(accept: bool, asked: list[str]):
    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        if accept:
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")
    return elicit


async def exercise(target: Any, mode: str, database: Path) -> None:
    """`target()` makes what `Client` connects to (a transport is entered once)."""
    asked: list[str] = []
    async with Client(target(), mode=mode, elicitation_callback=answering(True, asked)) as client:
        session = client.session
        if mode == "legacy":
            assert session.initialize_result is not None and session.discover_result is None
        else:
            assert session.discover_result is not None, "server/discover answered: no handshake"
        names = [tool.name for tool in (await client.list_tools()).tools]
        assert names[:3] == ["describe_schema", "query", "export"] and "delete" in names
        read = await client.call_tool("query", {"sql": "SELECT count(*) AS n FROM Artist"})
        assert not read.is_error and read.structured_content["rows"] == [[275]]
        resources = (await client.list_resources()).resources
        assert resources
        contents = await client.read_resource(resources[0].uri)
        assert contents.contents
        done = await client.call_tool("delete", {"table": "InvoiceLine", "where": {"InvoiceId": 1}})
        assert not done.is_error, done
        assert done.structured_content["rows_affected"] == 2
        assert asked and "DELETE" in asked[0], "the user saw the preview"
        assert rows_of(database, 1) == 0
    declined: list[str] = []
    before = sha256(database)
    async with Client(target(), mode=mode, elicitation_callback=answering(False, declined)) as client:
        refused = await client.call_tool("delete", {"table": "InvoiceLine", "where": {"InvoiceId": 2}})
        assert refused.is_error and declined
        assert sha256(database) == before


@pytest.mark.parametrize("mode", MODES)
async def test_each_mode_over_stdio(dbai_bin: Path, chinook: Path, mode: str) -> None:
    await exercise(lambda: stdio_server(dbai_bin, chinook), mode, chinook)


@pytest.mark.parametrize("mode", MODES)
async def test_each_mode_over_http(dbai_bin: Path, chinook: Path, mode: str) -> None:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    with http_server(dbai_bin, chinook, "--allow", "unrestricted") as server:
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
            await exercise(lambda: streamable_http_client(server.url, http_client=http), mode, chinook)
