"""The write tools' happy paths and failures under --allow standard/unrestricted (on a Chinook copy)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import assert_tool_error, error_code, result_text, sha256, validate_output

pytestmark = pytest.mark.anyio


def rows(database: Path, sql: str, params: Any = ()) -> list[tuple]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


async def test_insert_rows(server, chinook: Path) -> None:
    async with server("--allow", "standard") as connection:
        result = await connection.call(
            "insert", {"table": "Genre", "rows": [{"GenreId": 100, "Name": "Chiptune"}, {"GenreId": 101, "Name": None}]}
        )
        structured = await validate_output(connection, "insert", result)
    assert structured["operation"] == "insert"
    assert structured["rows_affected"] == 2
    assert structured["last_insert_rowid"] == 101
    assert "confirmation_required" not in structured
    assert "2 rows" in result_text(result)
    assert rows(chinook, "SELECT GenreId, Name FROM Genre WHERE GenreId >= 100 ORDER BY GenreId") == [
        (100, "Chiptune"),
        (101, None),
    ]
    # Writing changes no setting of the file: same journal mode, no leftover journal or WAL.
    assert rows(chinook, "PRAGMA journal_mode") == [("delete",)]
    assert sorted(path.name for path in chinook.parent.glob("chinook.sqlite*")) == ["chinook.sqlite"]


async def test_insert_sql_with_params(server, chinook: Path) -> None:
    async with server("--allow", "standard") as connection:
        positional = await connection.call(
            "insert", {"sql": "INSERT INTO Artist (Name) VALUES (?)", "params": ["The Testers"]}
        )
        named = await connection.call(
            "insert", {"sql": "INSERT INTO Artist (ArtistId, Name) VALUES (:id, :name)", "params": {"id": 900, "name": "Named"}}
        )
        await validate_output(connection, "insert", positional)
        await validate_output(connection, "insert", named)
    assert positional.structuredContent["rows_affected"] == 1
    new_id = positional.structuredContent["last_insert_rowid"]
    assert rows(chinook, "SELECT Name FROM Artist WHERE ArtistId = ?", [new_id]) == [("The Testers",)]
    assert named.structuredContent["last_insert_rowid"] == 900
    assert rows(chinook, "SELECT Name FROM Artist WHERE ArtistId = 900") == [("Named",)]


@pytest.mark.parametrize(
    "bad_rows",
    [
        [{"AlbumId": 1000, "Title": "Fine", "ArtistId": 1}, {"AlbumId": 1001, "Title": None, "ArtistId": 1}],
        [{"AlbumId": 1000, "Title": "Fine", "ArtistId": 1}, {"AlbumId": 1, "Title": "Duplicate key", "ArtistId": 1}],
    ],
    ids=["not-null-violation", "primary-key-conflict"],
)
async def test_failing_multi_row_insert_changes_nothing(server, chinook: Path, bad_rows: list[dict]) -> None:
    before = sha256(chinook)
    async with server("--allow", "standard") as connection:
        result = await connection.call("insert", {"table": "Album", "rows": bad_rows})
        assert_tool_error(result)
    assert sha256(chinook) == before, "the first row must be rolled back with the failing one"
    assert rows(chinook, "SELECT count(*) FROM Album WHERE AlbumId = 1000") == [(0,)]


async def test_update_structured(server, chinook: Path) -> None:
    async with server("--allow", "standard") as connection:
        result = await connection.call(
            "update", {"table": "Genre", "set": {"Name": "Rock & Roll"}, "where": {"GenreId": {"in": [1, 2]}}}
        )
        structured = await validate_output(connection, "update", result)
    assert structured["operation"] == "update"
    assert structured["rows_affected"] == 2
    assert rows(chinook, "SELECT GenreId, Name FROM Genre WHERE GenreId <= 3 ORDER BY GenreId") == [
        (1, "Rock & Roll"),
        (2, "Rock & Roll"),
        (3, "Metal"),
    ]


async def test_update_sql_with_params(server, chinook: Path) -> None:
    expected = rows(chinook, "SELECT count(*) FROM Track WHERE GenreId = 1")[0][0]
    async with server("--allow", "standard") as connection:
        result = await connection.call(
            "update", {"sql": "UPDATE Track SET UnitPrice = ? WHERE GenreId = ?", "params": [1.49, 1]}
        )
        structured = await validate_output(connection, "update", result)
    assert structured["rows_affected"] == expected
    assert rows(chinook, "SELECT DISTINCT UnitPrice FROM Track WHERE GenreId = 1") == [(1.49,)]


async def test_update_without_where_is_refused_unless_all_rows(server, chinook: Path) -> None:
    before = sha256(chinook)
    async with server("--allow", "standard") as connection:
        refused = await connection.call("update", {"table": "MediaType", "set": {"Name": "x"}})
        refused_empty = await connection.call("update", {"table": "MediaType", "set": {"Name": "x"}, "where": {}})
        assert_tool_error(refused, "all_rows")
        assert_tool_error(refused_empty, "all_rows")
        assert sha256(chinook) == before
        done = await connection.call("update", {"table": "MediaType", "set": {"Name": "x"}, "all_rows": True})
    assert done.structuredContent["rows_affected"] == 5
    assert rows(chinook, "SELECT DISTINCT Name FROM MediaType") == [("x",)]


async def test_write_tables_limits_writes(server, chinook: Path) -> None:
    before = sha256(chinook)
    async with server("--allow", "standard", "--write-tables", "Genre") as connection:
        refused = await connection.call("insert", {"table": "Artist", "rows": [{"Name": "Nope"}]})
        refused_sql = await connection.call("update", {"sql": "UPDATE Artist SET Name = 'x' WHERE ArtistId = 1"})
        readable = await connection.call("query", {"sql": "SELECT Name FROM Artist WHERE ArtistId = 1"})
        assert_tool_error(refused, "Artist")
        assert_tool_error(refused_sql, "Artist")
        assert sha256(chinook) == before
        allowed = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "Allowed"}]})
    assert readable.structuredContent["rows"] == [["AC/DC"]]
    assert allowed.structuredContent["rows_affected"] == 1


async def test_write_tables_covers_writes_made_by_triggers(server, chinook: Path) -> None:
    """A trigger that may write a table outside --write-tables gets the statement refused, even
    when its WHEN clause would not fire."""
    database = sqlite3.connect(chinook)
    with database:
        database.execute(
            "CREATE TRIGGER genre_audit AFTER INSERT ON Genre WHEN NEW.Name = 'never' "
            "BEGIN UPDATE Artist SET Name = Name WHERE ArtistId = 1; END"
        )
    database.close()
    digest = sha256(chinook)
    async with server("--allow", "standard", "--write-tables", "Genre,MediaType") as connection:
        refused = await connection.call("insert", {"table": "Genre", "rows": [{"Name": "x"}]})
        assert_tool_error(refused, "Artist")
        assert error_code(refused) == "write_not_allowed"
        assert sha256(chinook) == digest
        allowed = await connection.call("insert", {"table": "MediaType", "rows": [{"Name": "x"}]})
    assert allowed.structuredContent["rows_affected"] == 1


@pytest.mark.parametrize("sql", ["REPLACE INTO MediaType VALUES (1, 'y')", "INSERT OR REPLACE INTO MediaType VALUES (2, 'z')"])
async def test_replace_is_refused_when_delete_is_not_allowed(server, chinook: Path, sql: str) -> None:
    digest = sha256(chinook)
    async with server("--allow", "standard") as connection:
        result = await connection.call("insert", {"sql": sql})
    assert_tool_error(result, "DELETE")
    assert error_code(result) == "operation_not_allowed"
    assert sha256(chinook) == digest


async def test_write_with_unknown_column_is_a_tool_error(server, chinook: Path) -> None:
    before = sha256(chinook)
    async with server("--allow", "standard") as connection:
        insert = await connection.call("insert", {"table": "Genre", "rows": [{"Title": "x"}]})
        update = await connection.call("update", {"table": "Genre", "set": {"Name": "x"}, "where": {"Id": 1}})
    assert_tool_error(insert, "Title")
    assert_tool_error(update, "Id")
    assert error_code(insert) == "unknown_column"
    assert sha256(chinook) == before


async def test_write_failures_carry_a_reason_code(server, chinook: Path) -> None:
    async with server("--allow", "standard") as connection:
        constraint = await connection.call("insert", {"table": "Album", "rows": [{"AlbumId": 1, "Title": "x", "ArtistId": 1}]})
        wrong_operation = await connection.call("update", {"sql": "INSERT INTO Genre (Name) VALUES ('x')"})
        two_statements = await connection.call("insert", {"sql": "INSERT INTO Genre (Name) VALUES ('x'); SELECT 1"})
    assert_tool_error(constraint, "UNIQUE")
    assert error_code(constraint) == "sqlite_error"
    assert_tool_error(wrong_operation, "insert")
    assert error_code(wrong_operation) == "unexpected_operation"
    assert_tool_error(two_statements, "one statement")
    assert error_code(two_statements) == "multiple_statements"


async def test_every_domain_failure_carries_a_reason_code(server, chinook: Path) -> None:
    database = sqlite3.connect(chinook)
    with database:
        database.execute("CREATE TABLE Doubled (n INTEGER, twice INTEGER GENERATED ALWAYS AS (n * 2) VIRTUAL)")
        database.execute("CREATE VIEW GenreNames AS SELECT Name FROM Genre")
    database.close()
    digest = sha256(chinook)
    calls = [
        ("query", {"sql": "SELECT ?", "params": []}),
        ("query", {"sql": "SELECT ?", "params": [1, 2]}),
        ("query", {"sql": "SELECT :a", "params": {"b": 1}}),
        ("aggregate", {"table": "Track", "function": "sum"}),
        ("insert", {"table": "Genre", "rows": []}),
        ("insert", {"table": "GenreNames", "rows": [{"Name": "x"}]}),
        ("update", {"table": "Genre", "set": {}, "where": {"GenreId": 1}}),
        ("update", {"table": "Doubled", "set": {"twice": 5}, "where": {"n": 1}}),
    ]
    missing = []
    async with server("--allow", "standard") as connection:
        for tool, arguments in calls:
            result = await connection.call(tool, arguments)
            assert_tool_error(result)
            if not error_code(result):
                missing.append(f"{tool} {arguments}: {result_text(result)}")
    assert sha256(chinook) == digest
    assert missing == []
