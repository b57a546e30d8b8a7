"""Results bounded in bytes, long values clipped, value limits, NUL bytes, statements named.

What a client receives stays small whatever the statement returns, and no single value or
function call can take the server down.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import assert_tool_error, connect, error_code, result_text, sha256, validate_output

pytestmark = pytest.mark.anyio


@pytest.fixture
def big_db(tmp_path: Path) -> Path:
    """40 rows of 200 kB of text and a 5,000-row table of short rows."""
    path = tmp_path / "big.sqlite"
    database = sqlite3.connect(path)
    with database:
        database.execute("CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT, data BLOB)")
        database.executemany(
            "INSERT INTO doc VALUES (?, ?, randomblob(100000))", [(i, "ab" * 100_000) for i in range(1, 41)])
        database.execute("CREATE TABLE small(id INTEGER PRIMARY KEY, name TEXT)")
        database.executemany("INSERT INTO small VALUES (?, ?)", [(i, f"name {i}") for i in range(1, 5001)])
    database.close()
    return path


async def test_long_values_are_clipped_and_the_result_stays_within_the_budget(dbai_bin: Path, big_db: Path) -> None:
    async with connect(dbai_bin, big_db, "--max-result-bytes", "20000") as connection:
        result = await connection.call("query", {"sql": "SELECT id, body, data FROM doc"})
        structured = await validate_output(connection, "query", result)
    assert structured["truncated"] is True
    assert structured["truncated_by"] == "bytes"
    assert 0 < structured["row_count"] < 40
    assert structured["clipped_cells"] == 2 * structured["row_count"]
    assert len(json.dumps(structured["rows"], separators=(",", ":"))) <= 20000
    body = structured["rows"][0][1]
    assert body.startswith("abab") and body.endswith("…[clipped: 200000 bytes in all]")
    blob = structured["rows"][0][2]
    assert blob["bytes"] == 100000 and blob["clipped"] is True
    text = result_text(result)
    assert len(text.encode()) < 25000, "the text rendering does not double a large payload"
    assert "…[clipped: 200000 bytes in all]" in text
    assert "--max-result-bytes 20000" in text


async def test_many_rows_stop_at_the_byte_budget(dbai_bin: Path, big_db: Path) -> None:
    async with connect(dbai_bin, big_db, "--max-rows", "100000") as connection:
        result = await connection.call("query", {"sql": "SELECT * FROM small"})
        structured = await validate_output(connection, "query", result)
        capped = await connection.call("query", {"sql": "SELECT * FROM small", "max_rows": 5})
    assert structured["truncated_by"] == "bytes"
    assert 100 < structured["row_count"] < 5000
    assert structured["rows"][0] == [1, "name 1"]
    assert len(json.dumps(structured["rows"], separators=(",", ":"))) <= 32 * 1024
    assert len(result_text(result).encode()) < 40 * 1024
    assert capped.structuredContent["truncated_by"] == "rows"
    assert capped.structuredContent["row_count"] == 5


async def test_a_complete_result_says_nothing_about_truncation(server) -> None:
    async with server() as connection:
        result = await connection.call("query", {"sql": "SELECT Name FROM Artist WHERE ArtistId <= 3"})
    assert result.structuredContent["truncated"] is False
    assert "truncated_by" not in result.structuredContent
    assert "clipped_cells" not in result.structuredContent


@pytest.mark.parametrize("sql", [
    "SELECT length(randomblob(999999999))",
    "SELECT hex(zeroblob(300000000))",
    "SELECT length(replace(hex(zeroblob(9000000)), '0', '00'))",
])
async def test_a_huge_value_is_refused_with_the_flag_to_change(server, sql: str) -> None:
    async with server() as connection:
        result = await connection.call("query", {"sql": sql})
        after = await connection.call("query", {"sql": "SELECT 1"})
    assert_tool_error(result, "--max-value-bytes")
    assert error_code(result) == "value_too_large"
    assert after.structuredContent["rows"] == [[1]]


async def test_the_value_limit_is_a_flag(server) -> None:
    async with server("--max-value-bytes", "2048") as connection:
        refused = await connection.call("query", {"sql": "SELECT zeroblob(4096)"})
        allowed = await connection.call("query", {"sql": "SELECT length(zeroblob(1024))"})
    assert error_code(refused) == "value_too_large"
    assert "2048 bytes" in result_text(refused)
    assert allowed.structuredContent["rows"] == [[1024]]


@pytest.mark.parametrize("tool, arguments", [
    ("update", {"sql": "UPDATE Genre SET Name = 'x'\u0000 WHERE GenreId = 5"}),
    ("delete", {"sql": "DELETE FROM Genre\u0000 WHERE GenreId = 5"}),
    ("insert", {"sql": "INSERT INTO Genre(Name) VALUES ('x')\u0000; DELETE FROM Genre"}),
    ("query", {"sql": "SELECT 1\u0000; DELETE FROM Genre"}),
])
async def test_sql_with_a_nul_character_is_refused_and_changes_nothing(server, chinook: Path, tool: str, arguments: dict) -> None:
    before = sha256(chinook)
    async with server("--allow", "unrestricted", "--no-confirm") as connection:
        result = await connection.call(tool, arguments)
    assert_tool_error(result, "NUL")
    assert error_code(result) == "nul_character"
    assert sha256(chinook) == before


async def test_a_nul_in_a_value_is_refused_rather_than_cut(server, chinook: Path) -> None:
    """SQLite binds text up to its first NUL: the rest would be lost without a word."""
    before = sha256(chinook)
    async with server("--allow", "standard") as connection:
        structured = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "a\u0000b"}]})
        bound = await connection.call("insert", {"sql": "INSERT INTO Genre(Name) VALUES (?)", "params": ["a\u0000b"]})
        read = await connection.call("query", {"sql": "SELECT ?", "params": ["x\u0000y"]})
    for result in (structured, bound, read):
        assert_tool_error(result, "NUL", "blob")
        assert error_code(result) == "invalid_arguments"
    assert sha256(chinook) == before


@pytest.mark.parametrize("sql, word", [("ANALYZE", "ANALYZE"), ("ANALYZE Track", "ANALYZE"), ("REINDEX", "REINDEX")])
async def test_maintenance_statements_are_refused_by_name(server, chinook: Path, sql: str, word: str) -> None:
    before = sha256(chinook)
    async with server("--allow", "unrestricted", "--no-confirm") as connection:
        for tool in ("query", "update", "insert", "delete"):
            result = await connection.call(tool, {"sql": sql})
            text = assert_tool_error(result, word)
            assert "Schema changes" not in text
    assert sha256(chinook) == before


async def test_insert_reports_its_rowid_after_a_failed_insert_used_it(server) -> None:
    async with server("--allow", "standard") as connection:
        failed = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "ok"}, {"GenreId": 1, "Name": "taken"}]})
        assert_tool_error(failed)
        inserted = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "Lo-fi"}]})
    assert inserted.structuredContent["last_insert_rowid"] == 26
