"""Read-only attack strings and hidden tables: refused, and the database file stays byte-identical."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from mcp_compat import McpError
from conftest import assert_tool_error, error_code, result_text, sha256

pytestmark = pytest.mark.anyio

#: Statements that must never run under --allow readonly. `{tmp}` is the test's temporary folder.
ATTACKS = [
    "/* c */ DELETE FROM Track",
    "WITH x AS (SELECT 1) DELETE FROM Track",
    "REPLACE INTO Genre VALUES (1, 'x')",
    "SELECT 1; DELETE FROM Track",
    "/*'*/ DELETE FROM Track; DELETE FROM Album; /*'*/",
    "COMMIT; DROP TABLE Track",
    "ATTACH DATABASE '{tmp}/x.db' AS x",
    "VACUUM INTO '{tmp}/y.db'",
    "PRAGMA writable_schema = ON",
    "PRAGMA journal_mode = delete",
    "SELECT load_extension('x')",
    "BEGIN",
    "ANALYZE",
    "INSERT INTO Genre VALUES (99, 'x') RETURNING *",
    "CREATE TEMP TABLE z(a)",
]

#: Files an attack would create if it ran.
CREATED_BY_ATTACKS = ["x.db", "y.db"]


def attack_sql(template: str, folder: Path) -> str:
    return template.replace("{tmp}", str(folder))


def assert_untouched(database: Path, digest: str, folder: Path) -> None:
    assert sha256(database) == digest, "the database file changed"
    for name in CREATED_BY_ATTACKS:
        assert not (folder / name).exists(), f"{name} was created"


@pytest.mark.parametrize("template", ATTACKS)
async def test_readonly_query_refuses_attack(server, chinook: Path, tmp_path: Path, template: str) -> None:
    digest = sha256(chinook)
    sql = attack_sql(template, tmp_path)
    async with server("--allow", "readonly") as connection:
        result = await connection.call("query", {"sql": sql})
        assert_tool_error(result)
        assert error_code(result), f"no reason code for {result_text(result)!r}"
        # The server keeps serving and still sees the untouched data.
        check = await connection.call("query", {"sql": "SELECT count(*) FROM Track"})
        assert check.structuredContent["rows"] == [[3503]]
    assert_untouched(chinook, digest, tmp_path)


async def test_readonly_write_tools_are_absent_for_every_attack(server, chinook: Path, tmp_path: Path) -> None:
    digest = sha256(chinook)
    async with server("--allow", "readonly") as connection:
        for template in ATTACKS:
            for tool, flag in (("insert", "standard"), ("update", "standard"), ("delete", "unrestricted")):
                with pytest.raises(McpError) as raised:
                    await connection.call(tool, {"sql": attack_sql(template, tmp_path)})
                assert f"--allow {flag}" in raised.value.error.message
    assert_untouched(chinook, digest, tmp_path)


#: Attack strings that a write tool may legitimately accept under unrestricted (they are then a
#: confirmation request or a plain insert, checked separately).
LEGITIMATE_FOR_TOOL = {
    ("REPLACE INTO Genre VALUES (1, 'x')", "insert"),
    ("INSERT INTO Genre VALUES (99, 'x') RETURNING *", "insert"),
    ("/* c */ DELETE FROM Track", "delete"),
    ("WITH x AS (SELECT 1) DELETE FROM Track", "delete"),
}


async def test_unrestricted_write_tools_refuse_attacks_in_sql(server, chinook: Path, tmp_path: Path) -> None:
    """Through insert/update/delete `sql`: anything but exactly one statement of that operation is refused."""
    digest = sha256(chinook)
    async with server("--allow", "unrestricted") as connection:
        for template in ATTACKS:
            for tool in ("insert", "update", "delete"):
                if (template, tool) in LEGITIMATE_FOR_TOOL:
                    continue
                result = await connection.call(tool, {"sql": attack_sql(template, tmp_path)})
                assert result.isError is True, f"{tool} accepted {template!r}: {result_text(result)}"
                assert error_code(result), f"{tool} {template!r}: no reason code in {result_text(result)!r}"
        # Destructive statements given to their own tool are not run without confirmation.
        for template, tool in sorted(LEGITIMATE_FOR_TOOL):
            if template.startswith("INSERT"):
                continue
            result = await connection.call(tool, {"sql": attack_sql(template, tmp_path)})
            structured = result.structuredContent or {}
            assert result.isError is True or structured.get("confirmation_required") is True, result_text(result)
    assert_untouched(chinook, digest, tmp_path)


# MARK: - Hidden tables


@pytest.fixture
def chinook_with_views(chinook: Path) -> Path:
    """Chinook with views over a table that --tables hides, created before the server starts."""
    database = sqlite3.connect(chinook)
    with database:
        database.execute("CREATE VIEW TrackNames AS SELECT TrackId, Name FROM Track")
        database.execute("CREATE VIEW AlbumTracks AS SELECT a.Title, t.Name FROM Album a JOIN Track t USING (AlbumId)")
        database.execute("CREATE VIEW AlbumTitles AS SELECT Title FROM Album")
    database.close()
    return chinook


HIDDEN_READS = [
    "SELECT * FROM Track",
    "SELECT count(*) FROM Track",
    "SELECT 1 FROM Track LIMIT 1",
    "SELECT * FROM TrackNames",
    "SELECT * FROM AlbumTracks",
    "SELECT * FROM AlbumTitles",  # a view is visible only when --tables lists it
    "SELECT Title FROM Album WHERE AlbumId IN (SELECT AlbumId FROM Track)",
    "SELECT Title, (SELECT count(*) FROM Track t WHERE t.AlbumId = a.AlbumId) FROM Album a",
    "SELECT * FROM Album JOIN Track USING (AlbumId)",
    "WITH t AS (SELECT Name FROM Track) SELECT Name FROM t",
    "WITH RECURSIVE t(n) AS (SELECT Name FROM Track) SELECT n FROM t",
    "SELECT Name FROM Artist UNION SELECT Name FROM Track",
    "SELECT sql FROM sqlite_master WHERE name = 'Track'",
    "SELECT * FROM pragma_table_info('Track')",
    "PRAGMA table_info(Track)",
]


#: Hidden names, and names of nothing, swapped to compare their answers (longest first).
HIDDEN_TO_MISSING = [("AlbumTracks", "Qx1"), ("TrackNames", "Qx2"), ("AlbumTitles", "Qx3"), ("Track", "Qx4")]


def hidden_to_missing(text: str) -> str:
    for hidden, missing in HIDDEN_TO_MISSING:
        text = text.replace(hidden, missing)
    return text


async def test_hidden_tables_are_unreadable_and_answered_like_missing_ones(server, chinook_with_views: Path) -> None:
    """Every refusal of a hidden table reads exactly like the refusal of a table that does not exist."""
    digest = sha256(chinook_with_views)
    async with server("--tables", "Album,Artist", db=chinook_with_views) as connection:
        visible = await connection.call("query", {"sql": "SELECT count(*) FROM Album JOIN Artist USING (ArtistId)"})
        assert visible.structuredContent["rows"] == [[347]]
        for sql in HIDDEN_READS:
            result = await connection.call("query", {"sql": sql})
            assert result.isError is True, f"{sql!r} read a hidden table: {result.structuredContent}"
            assert result.structuredContent is None
            missing = await connection.call("query", {"sql": hidden_to_missing(sql)})
            assert missing.isError is True
            assert error_code(result) == error_code(missing), f"{sql!r}: {result_text(result)} / {result_text(missing)}"
            assert hidden_to_missing(result_text(result)) == result_text(missing), sql
        aggregate = await connection.call("aggregate", {"table": "Track", "function": "count"})
        missing_aggregate = await connection.call("aggregate", {"table": "Qx4", "function": "count"})
        assert_tool_error(aggregate)
        assert hidden_to_missing(result_text(aggregate)) == result_text(missing_aggregate)
    assert sha256(chinook_with_views) == digest


async def test_visible_view_over_a_hidden_table_is_unreadable(server, chinook_with_views: Path) -> None:
    """Listing a view in --tables does not open the hidden table it reads: the view is hidden too."""
    async with server("--tables", "Album,Artist,AlbumTracks", db=chinook_with_views) as connection:
        result = await connection.call("query", {"sql": "SELECT * FROM AlbumTracks LIMIT 1"})
        missing = await connection.call("query", {"sql": "SELECT * FROM Qx1 LIMIT 1"})
        described = await connection.call("describe_schema", {})
    assert_tool_error(result)
    assert hidden_to_missing(result_text(result)) == result_text(missing)
    assert "Track" not in json.dumps(described.structuredContent).replace("Tracks", "")


async def test_listed_view_over_visible_tables_is_readable(server, chinook_with_views: Path) -> None:
    async with server("--tables", "Album,Artist,AlbumTitles", db=chinook_with_views) as connection:
        result = await connection.call("query", {"sql": "SELECT count(*) FROM AlbumTitles"})
    assert result.structuredContent["rows"] == [[347]]


async def test_hidden_tables_are_absent_from_schema_and_resources(server, chinook_with_views: Path) -> None:
    async with server("--tables", "Album,Artist", db=chinook_with_views) as connection:
        session = connection.session
        described = await connection.call("describe_schema", {"include_samples": True})
        one = await connection.call("describe_schema", {"table": "Track"})
        view = await connection.call("describe_schema", {"table": "TrackNames"})
        resources = await session.list_resources()
        schema = await session.read_resource("sqlite://schema")
        with pytest.raises(McpError):
            await session.read_resource("sqlite://table/Track")
        with pytest.raises(McpError):
            await session.read_resource("sqlite://table/TrackNames")
    assert sorted(table["name"] for table in described.structuredContent["tables"]) == ["Album", "Artist"]
    assert "Track" not in described.structuredContent["ddl"].replace("Tracks", "")
    assert_tool_error(one)
    assert_tool_error(view)
    assert sorted(str(resource.uri) for resource in resources.resources) == [
        "sqlite://schema",
        "sqlite://table/Album",
        "sqlite://table/Artist",
    ]
    assert sorted(table["name"] for table in json.loads(schema.contents[0].text)) == ["Album", "Artist"]
