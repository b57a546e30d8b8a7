"""The read tools on a copy of Chinook: describe_schema, query, aggregate."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import assert_tool_error, error_code, result_text, sha256, validate_output

pytestmark = pytest.mark.anyio

CHINOOK_TABLES = {
    "Album", "Artist", "Customer", "Employee", "Genre", "Invoice",
    "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track",
}  # fmt: skip


def oracle(database: Path, sql: str, params: Any = ()) -> list[tuple]:
    """The same question asked to SQLite directly (read-only), as the expected answer."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


# MARK: - describe_schema


async def test_describe_schema_lists_every_table(server, chinook: Path) -> None:
    async with server() as connection:
        result = await connection.call("describe_schema", {})
        structured = await validate_output(connection, "describe_schema", result)
    tables = {table["name"]: table for table in structured["tables"]}
    assert set(tables) == CHINOOK_TABLES
    assert "CREATE TABLE" in structured["ddl"]
    track = tables["Track"]
    assert track["kind"] == "table"
    assert track["without_rowid"] is False and track["strict"] is False
    columns = {column["name"]: column for column in track["columns"]}
    assert list(columns)[:3] == ["TrackId", "Name", "AlbumId"]
    assert columns["TrackId"]["primary_key_position"] == 1
    assert columns["TrackId"]["not_null"] is True
    assert columns["Composer"]["not_null"] is False
    assert "primary_key_position" not in columns["Composer"]
    assert columns["UnitPrice"]["type"] == "NUMERIC(10,2)"
    assert all(column["visibility"] == "normal" for column in track["columns"])
    references = sorted(key["references_table"] for key in track["foreign_keys"])
    assert references == ["Album", "Genre", "MediaType"]
    assert {index["name"] for index in track["indexes"]} >= {"IFK_TrackAlbumId", "IFK_TrackGenreId"}
    playlist_track = tables["PlaylistTrack"]
    positions = {column["name"]: column.get("primary_key_position") for column in playlist_track["columns"]}
    assert positions == {"PlaylistId": 1, "TrackId": 2}


async def test_describe_schema_one_table_with_samples(server, chinook: Path) -> None:
    async with server() as connection:
        result = await connection.call("describe_schema", {"table": "Genre", "include_samples": True})
        structured = await validate_output(connection, "describe_schema", result)
    assert [table["name"] for table in structured["tables"]] == ["Genre"]
    genre = structured["tables"][0]
    assert genre["row_count"]["count"] == oracle(chinook, "SELECT count(*) FROM Genre")[0][0] == 25
    assert isinstance(genre["row_count"]["exact"], bool)
    assert "PK_Genre" in genre["sql"]
    assert "Rock" in structured["ddl"], "include_samples adds sample rows to the DDL"
    assert "CREATE TABLE" in result_text(result)


async def test_describe_schema_unknown_table_is_a_tool_error(server) -> None:
    async with server() as connection:
        result = await connection.call("describe_schema", {"table": "Tracks"})
    assert_tool_error(result, "Tracks")
    assert error_code(result) == "unknown_table"


# MARK: - query


async def test_query_returns_rows_columns_and_a_markdown_table(server, chinook: Path) -> None:
    sql = "SELECT GenreId, Name FROM Genre ORDER BY GenreId LIMIT 3"
    async with server() as connection:
        result = await connection.call("query", {"sql": sql})
        structured = await validate_output(connection, "query", result)
    assert structured["columns"] == [{"name": "GenreId", "type": "INTEGER"}, {"name": "Name", "type": "NVARCHAR(120)"}]
    assert structured["rows"] == [list(row) for row in oracle(chinook, sql)]
    assert structured["row_count"] == 3
    assert structured["truncated"] is False
    assert structured["elapsed_ms"] >= 0
    text = result_text(result)
    assert "| GenreId | Name |" in text
    assert "| 1 | Rock |" in text


async def test_query_binds_array_and_object_params(server, chinook: Path) -> None:
    async with server() as connection:
        positional = await connection.call(
            "query", {"sql": "SELECT Name FROM Artist WHERE ArtistId IN (?, ?) ORDER BY ArtistId", "params": [1, 2]}
        )
        named = await connection.call(
            "query", {"sql": "SELECT count(*) AS n FROM Track WHERE GenreId = :genre", "params": {"genre": 1}}
        )
        mixed_up = await connection.call("query", {"sql": "SELECT :n AS n", "params": [5]})
    assert positional.structuredContent["rows"] == [["AC/DC"], ["Accept"]]
    assert named.structuredContent["rows"] == [[oracle(chinook, "SELECT count(*) FROM Track WHERE GenreId = 1")[0][0]]]
    assert_tool_error(mixed_up, "by name")


async def test_query_truncates_at_max_rows(server) -> None:
    async with server("--max-rows", "7") as connection:
        capped = await connection.call("query", {"sql": "SELECT TrackId FROM Track ORDER BY TrackId"})
        smaller = await connection.call("query", {"sql": "SELECT TrackId FROM Track ORDER BY TrackId", "max_rows": 2})
        exact = await connection.call("query", {"sql": "SELECT TrackId FROM Track ORDER BY TrackId LIMIT 7"})
    assert capped.structuredContent["rows"] == [[index] for index in range(1, 8)]
    assert capped.structuredContent["truncated"] is True
    assert smaller.structuredContent["rows"] == [[1], [2]]
    assert smaller.structuredContent["truncated"] is True
    assert exact.structuredContent["truncated"] is False
    assert exact.structuredContent["row_count"] == 7


async def test_query_default_row_cap_is_500(server) -> None:
    async with server() as connection:
        result = await connection.call("query", {"sql": "SELECT TrackId FROM Track"})
    assert result.structuredContent["row_count"] == 500
    assert result.structuredContent["truncated"] is True


async def test_query_returns_blobs_as_base64_and_null_as_null(server) -> None:
    async with server() as connection:
        result = await connection.call("query", {"sql": "SELECT x'00ff10' AS b, NULL AS n, 1.5 AS f, 'é' AS s"})
    assert result.structuredContent["rows"] == [[{"base64": "AP8Q", "bytes": 3}, None, 1.5, "é"]]


async def test_query_bad_sql_is_a_tool_error(server, chinook: Path) -> None:
    before = sha256(chinook)
    async with server() as connection:
        syntax = await connection.call("query", {"sql": "SELEKT * FROM Track"})
        unknown_table = await connection.call("query", {"sql": "SELECT * FROM Tracks"})
        unknown_column = await connection.call("query", {"sql": "SELECT Nope FROM Track"})
        still_serving = await connection.call("query", {"sql": "SELECT 1 AS one"})
    for result in (syntax, unknown_table, unknown_column):
        assert_tool_error(result)
        assert error_code(result), "a reason code goes in _meta"
    assert "Tracks" in result_text(unknown_table)
    assert "Nope" in result_text(unknown_column)
    assert still_serving.structuredContent["rows"] == [[1]]
    assert sha256(chinook) == before


async def test_query_counts_rows_of_a_cte(server) -> None:
    async with server() as connection:
        count = await connection.call("query", {"sql": "WITH x(a) AS (VALUES (1), (2), (3)) SELECT count(*) FROM x"})
        assert count.isError is not True, result_text(count)
        assert count.structuredContent["rows"] == [[3]]


# MARK: - aggregate


async def test_aggregate_count_all_rows(server, chinook: Path) -> None:
    async with server() as connection:
        result = await connection.call("aggregate", {"table": "Track", "function": "count"})
        structured = await validate_output(connection, "aggregate", result)
    assert [column["name"] for column in structured["columns"]] == ["count"]
    assert structured["rows"] == [[oracle(chinook, "SELECT count(*) FROM Track")[0][0]]]
    assert "| count |" in result_text(result)


async def test_aggregate_sum_grouped_ordered_limited(server, chinook: Path) -> None:
    arguments = {
        "table": "Invoice", "function": "sum", "column": "Total",
        "group_by": "BillingCountry", "order": "desc", "limit": 3,
    }  # fmt: skip
    async with server() as connection:
        result = await connection.call("aggregate", arguments)
        structured = await validate_output(connection, "aggregate", result)
    assert [column["name"] for column in structured["columns"]] == ["BillingCountry", "sum_Total"]
    expected = oracle(
        chinook,
        "SELECT BillingCountry, sum(Total) FROM Invoice GROUP BY BillingCountry ORDER BY sum(Total) DESC LIMIT 3",
    )
    assert [row[0] for row in structured["rows"]] == [row[0] for row in expected]
    assert [row[1] for row in structured["rows"]] == pytest.approx([row[1] for row in expected])


@pytest.mark.parametrize(
    "function, column, sql",
    [
        ("avg", "Milliseconds", "SELECT avg(Milliseconds) FROM Track"),
        ("min", "Milliseconds", "SELECT min(Milliseconds) FROM Track"),
        ("max", "Milliseconds", "SELECT max(Milliseconds) FROM Track"),
        ("total", "Bytes", "SELECT total(Bytes) FROM Track"),
        ("count", "Composer", "SELECT count(Composer) FROM Track"),
    ],
)
async def test_aggregate_functions(server, chinook: Path, function: str, column: str, sql: str) -> None:
    async with server() as connection:
        result = await connection.call("aggregate", {"table": "Track", "function": function, "column": column})
    assert result.structuredContent["rows"] == [[pytest.approx(oracle(chinook, sql)[0][0])]]


async def test_aggregate_group_by_several_columns(server, chinook: Path) -> None:
    async with server() as connection:
        result = await connection.call(
            "aggregate", {"table": "Track", "function": "count", "group_by": ["MediaTypeId", "GenreId"]}
        )
    expected = oracle(chinook, "SELECT MediaTypeId, GenreId, count(*) FROM Track GROUP BY MediaTypeId, GenreId")
    assert [column["name"] for column in result.structuredContent["columns"]] == ["MediaTypeId", "GenreId", "count"]
    assert sorted(map(tuple, result.structuredContent["rows"])) == sorted(expected)


#: A `where` filter and the same condition in SQL, asked to SQLite directly as the oracle.
WHERE_CASES = [
    ({"GenreId": 1}, "GenreId = ?", [1]),
    ({"Composer": None}, "Composer IS NULL", []),
    ({"GenreId": {"=": 2}}, "GenreId = ?", [2]),
    ({"GenreId": {"!=": 1}}, "GenreId != ?", [1]),
    ({"Milliseconds": {"<": 100000}}, "Milliseconds < ?", [100000]),
    ({"Milliseconds": {"<=": 100000}}, "Milliseconds <= ?", [100000]),
    ({"Milliseconds": {">": 1000000}}, "Milliseconds > ?", [1000000]),
    ({"Milliseconds": {">=": 1000000}}, "Milliseconds >= ?", [1000000]),
    ({"Name": {"like": "a%"}}, "Name LIKE ?", ["a%"]),
    ({"Name": {"not_like": "a%"}}, "Name NOT LIKE ?", ["a%"]),
    ({"GenreId": {"in": [1, 3, 5]}}, "GenreId IN (?, ?, ?)", [1, 3, 5]),
    ({"GenreId": {"not_in": [1, 3, 5]}}, "GenreId NOT IN (?, ?, ?)", [1, 3, 5]),
    ({"AlbumId": {"between": [10, 20]}}, "AlbumId BETWEEN ? AND ?", [10, 20]),
    ({"Composer": {"is_null": True}}, "Composer IS NULL", []),
    ({"Composer": {"is_null": False}}, "Composer IS NOT NULL", []),
    (
        {"GenreId": 1, "Milliseconds": {">": 300000, "<=": 400000}},
        "GenreId = ? AND Milliseconds > ? AND Milliseconds <= ?",
        [1, 300000, 400000],
    ),
]


@pytest.mark.parametrize("where, sql_condition, params", WHERE_CASES, ids=[json.dumps(case[0]) for case in WHERE_CASES])
async def test_aggregate_where_operators(server, chinook: Path, where: dict, sql_condition: str, params: list) -> None:
    async with server() as connection:
        result = await connection.call("aggregate", {"table": "Track", "function": "count", "where": where})
    expected = oracle(chinook, f"SELECT count(*) FROM Track WHERE {sql_condition}", params)[0][0]
    assert 0 < expected < 3503, "the oracle condition must select some but not all rows"
    assert result.structuredContent["rows"] == [[expected]]


async def test_aggregate_unknown_names_are_tool_errors(server) -> None:
    async with server() as connection:
        table = await connection.call("aggregate", {"table": "Tracks", "function": "count"})
        column = await connection.call("aggregate", {"table": "Track", "function": "sum", "column": "Price"})
        where = await connection.call("aggregate", {"table": "Track", "function": "count", "where": {"Nope": 1}})
        operator = await connection.call(
            "aggregate", {"table": "Track", "function": "count", "where": {"GenreId": {"regexp": "1"}}}
        )
    assert_tool_error(table, "Tracks")
    assert error_code(table) == "unknown_table"
    assert_tool_error(column, "Price")
    assert error_code(column) == "unknown_column"
    assert_tool_error(where, "Nope")
    assert_tool_error(operator, "regexp")
