"""`--tool-prefix NAME`: the tools are listed and called as NAME_query, NAME_describe_schema, …, so
that two servers fit in one agent; every message that names a tool uses the prefixed name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO_ROOT, assert_tool_error, assert_tool_ok, run_binary

pytestmark = pytest.mark.anyio

MANIFEST = REPO_ROOT / "mcp-manifest.json"


def tool_dump(tool: Any) -> dict[str, Any]:
    """A listed tool as its JSON object, the same under mcp 1.x and 2.x."""
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True)


async def test_prefixed_tools_equal_the_manifest_with_prefixed_names(server) -> None:
    manifest = json.loads(MANIFEST.read_text())
    expected = {
        f"sales_{tool['name']}": {**tool, "name": f"sales_{tool['name']}"}
        for tool in manifest["_meta"]["io.github.swiftdbai"]["tools"]
        if tool["name"] != "ask"
    }
    async with server("--allow", "unrestricted", "--tool-prefix", "sales") as connection:
        listed = {tool.name: tool_dump(tool) for tool in (await connection.session.list_tools()).tools}
        instructions = connection.initialize_result.instructions
    assert list(listed) == list(expected)
    for name, tool in listed.items():
        for key in ("description", "inputSchema", "outputSchema", "annotations", "title"):
            assert tool.get(key) == expected[name].get(key), (name, key)
    assert "sales_describe_schema" in instructions and "sales_query" in instructions


async def test_prefixed_tools_run_and_unprefixed_names_are_unknown(server) -> None:
    async with server("--allow", "unrestricted", "--tool-prefix", "music") as connection:
        result = await connection.call("music_query", {"sql": "SELECT count(*) FROM Artist"})
        assert assert_tool_ok(result)["rows"] == [[275]]
        with pytest.raises(Exception) as raised:
            await connection.call("query", {"sql": "SELECT 1"})
        assert "music_query" in str(raised.value)
        # The confirmation request names the tool to call again by its prefixed name.
        preview = await connection.call("music_delete", {"table": "InvoiceLine", "where": [{"column": "InvoiceId", "op": "=", "value": 1}]})
        structured = assert_tool_ok(preview)
        assert structured["confirmation_required"] is True
        assert "call music_delete again" in structured["message"]


async def test_two_prefixed_servers_side_by_side(server, chinook: Path) -> None:
    async with server("--tool-prefix", "a") as first, server("--tool-prefix", "b") as second:
        names = [tool.name for tool in (await first.session.list_tools()).tools]
        names += [tool.name for tool in (await second.session.list_tools()).tools]
    assert len(names) == len(set(names)) == 8


async def test_an_empty_prefix_keeps_the_built_in_names(server) -> None:
    async with server("--tool-prefix", "") as connection:
        names = [tool.name for tool in (await connection.session.list_tools()).tools]
    assert names == ["describe_schema", "query", "export", "aggregate"]


@pytest.mark.parametrize("prefix", ["1db", "my db", "db.x", "db_", "é", "x" * 49])
def test_an_invalid_prefix_is_refused_at_start(dbai_bin: Path, chinook: Path, prefix: str) -> None:
    completed = run_binary(dbai_bin, "--db", str(chinook), "--tool-prefix", prefix)
    assert completed.returncode != 0
    assert "--tool-prefix" in completed.stderr
    assert "letter" in completed.stderr
    assert completed.stdout == ""
