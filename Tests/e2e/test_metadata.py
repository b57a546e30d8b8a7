"""`--metadata FILE` (Datasette's format, JSON or YAML): descriptions in describe_schema, the
resources and the prompt of `ask`; hidden tables hidden and unreadable; canned queries as tools
with bound parameters; and every bad input a start-up error naming the file, entry and reason.
Also column comments written in the schema's own DDL."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from conftest import assert_tool_error, assert_tool_ok, connect, error_code, run_binary, sha256, validate_output

pytestmark = pytest.mark.anyio

YAML = """\
title: A Datasette project
license: CC0
databases:
  chinook:
    description: A digital music store
    tables:
      Album:
        description: One row per release
        columns:
          Title: As printed on the cover
      Employee:
        hidden: true
    queries:
      albums_by_artist:
        sql: SELECT Title FROM Album WHERE ArtistId = :artist_id ORDER BY Title
        title: Albums of an artist
        description: The albums of one artist, by title.
      tracks_longer_than: SELECT count(*) AS n FROM Track WHERE Milliseconds > :ms
      rename_genre:
        sql: UPDATE Genre SET Name = :name WHERE GenreId = :id
        write: true
      remove_playlist:
        sql: DELETE FROM Playlist WHERE PlaylistId = :id
        write: true
"""


def metadata_file(tmp_path: Path, text: str, name: str = "metadata.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(params=["yaml", "json"])
def metadata(request, tmp_path: Path) -> Path:
    if request.param == "yaml":
        return metadata_file(tmp_path, YAML)
    return metadata_file(tmp_path, json.dumps(YAML_AS_DATA), "metadata.json")


YAML_AS_DATA: dict[str, Any] = {
    "title": "A Datasette project",
    "license": "CC0",
    "databases": {"chinook": {
        "description": "A digital music store",
        "tables": {
            "Album": {"description": "One row per release", "columns": {"Title": "As printed on the cover"}},
            "Employee": {"hidden": True},
        },
        "queries": {
            "albums_by_artist": {
                "sql": "SELECT Title FROM Album WHERE ArtistId = :artist_id ORDER BY Title",
                "title": "Albums of an artist", "description": "The albums of one artist, by title."},
            "tracks_longer_than": "SELECT count(*) AS n FROM Track WHERE Milliseconds > :ms",
            "rename_genre": {"sql": "UPDATE Genre SET Name = :name WHERE GenreId = :id", "write": True},
            "remove_playlist": {"sql": "DELETE FROM Playlist WHERE PlaylistId = :id", "write": True},
        },
    }},
}


async def test_descriptions_reach_describe_schema_and_resources(dbai_bin, chinook, metadata) -> None:
    async with connect(dbai_bin, chinook, "--metadata", str(metadata)) as connection:
        result = await connection.call("describe_schema", {"table": "Album"})
        structured = await validate_output(connection, "describe_schema", result)
        resource = json.loads((await connection.session.read_resource("sqlite://table/Album")).contents[0].text)
        instructions = connection.initialize_result.instructions or ""
    album = structured["tables"][0]
    assert album["description"] == "One row per release"
    assert {column["name"]: column.get("description") for column in album["columns"]}["Title"] == "As printed on the cover"
    assert "-- One row per release" in structured["ddl"]
    assert "-- As printed on the cover" in structured["ddl"]
    assert resource["description"] == "One row per release"
    assert "A digital music store" in instructions


def album_counter(prompts: list[types.CreateMessageRequestParams]):
    """A client model that counts albums, whatever it is asked, and keeps every request."""

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        prompts.append(params)
        text = params.messages[-1].content.text
        answer = "Counted." if "<data>" in text else "SELECT count(*) FROM Album"
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=answer), model="m")

    return sampling


async def test_descriptions_reach_the_prompt_of_ask(dbai_bin, chinook, metadata) -> None:
    prompts: list[types.CreateMessageRequestParams] = []
    sampling = album_counter(prompts)
    async with connect(dbai_bin, chinook, "--metadata", str(metadata), sampling_callback=sampling) as connection:
        assert_tool_ok(await connection.call("ask", {"question": "How many albums are there?"}))
    system = prompts[0].systemPrompt or ""
    assert "One row per release" in system and "As printed on the cover" in system
    assert '"Employee"' not in system


async def test_examples_reach_the_prompt_of_ask_after_the_schema(dbai_bin, chinook, tmp_path) -> None:
    path = metadata_file(tmp_path, """\
databases:
  chinook:
    examples:
      - question: Which artists have more than ten albums?
        sql: SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.ArtistId HAVING COUNT(*) > 10
      - question: How long is the longest track, in minutes?
        sql: SELECT MAX(Milliseconds) / 60000.0 FROM Track
    queries:
      albums_by_artist:
        sql: SELECT Title FROM Album WHERE ArtistId = :artist_id ORDER BY Title
        title: Albums of an artist
      artists_with_most_albums:
        sql: SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.ArtistId ORDER BY COUNT(*) DESC LIMIT 5
        title: The five artists with the most albums
""")
    prompts: list[types.CreateMessageRequestParams] = []
    async with connect(dbai_bin, chinook, "--metadata", str(path), "--llm-candidates", "1",
                       sampling_callback=album_counter(prompts)) as connection:
        assert_tool_ok(await connection.call("ask", {"question": "How many albums does each artist have?"}))
        assert_tool_ok(await connection.call("ask", {"question": "Which track is the longest?"}))
    system = prompts[0].systemPrompt or ""
    # Every example fits the model's context with the schema: all of them go after the schema, in
    # the system prompt the model caches, the same for every question; the questions carry none.
    assert system.index("CREATE TABLE") < system.index("-- Which artists have more than ten albums?")
    assert "ar.ArtistId HAVING COUNT(*) > 10;" in system and "-- The five artists with the most albums" in system
    assert "-- How long is the longest track, in minutes?\nSELECT MAX(Milliseconds) / 60000.0 FROM Track;" in system
    # A canned query with parameters is no example: its SQL does not run as written.
    assert "Albums of an artist" not in system and ":artist_id" not in system
    assert all(prompt.systemPrompt == system for prompt in prompts)
    first, second = prompts[0].messages[-1].content.text, prompts[2].messages[-1].content.text
    assert first == "Question: How many albums does each artist have?" and second == "Question: Which track is the longest?"


async def test_a_hidden_table_is_hidden_and_unreadable(dbai_bin, chinook, metadata) -> None:
    async with connect(dbai_bin, chinook, "--metadata", str(metadata)) as connection:
        tables = [table["name"] for table in assert_tool_ok(await connection.call("describe_schema", {}))["tables"]]
        direct = await connection.call("query", {"sql": "SELECT * FROM Employee"})
        nested = await connection.call("query", {"sql": "SELECT (SELECT count(*) FROM main.employee)"})
        aggregate = await connection.call("aggregate", {"table": "Employee", "function": "count"})
        described = await connection.call("describe_schema", {"table": "Employee"})
        resources = {str(resource.uri) for resource in (await connection.session.list_resources()).resources}
    assert "Employee" not in tables and "Album" in tables
    for refused in (direct, nested, aggregate, described):
        assert_tool_error(refused)
        assert "FirstName" not in str(refused.content)
    assert "sqlite://table/Employee" not in resources


def test_tables_listing_a_hidden_table_stops_start_up(dbai_bin, chinook, metadata) -> None:
    completed = run_binary(dbai_bin, "--db", str(chinook), "--metadata", str(metadata), "--tables", "Album,Employee")
    assert completed.returncode != 0
    assert "Employee" in completed.stderr and "hides" in completed.stderr


async def test_canned_queries_are_read_only_tools_with_bound_string_arguments(dbai_bin, chinook, metadata) -> None:
    async with connect(dbai_bin, chinook, "--metadata", str(metadata)) as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
        albums = await connection.call("albums_by_artist", {"artist_id": "1"})
        structured = await validate_output(connection, "albums_by_artist", albums)
        injected = assert_tool_ok(await connection.call("albums_by_artist", {"artist_id": "1 OR 1=1"}))
        quoted = assert_tool_ok(await connection.call("albums_by_artist", {"artist_id": "1'; DROP TABLE Album; --"}))
        longer = assert_tool_ok(await connection.call("tracks_longer_than", {"ms": "1000000"}))
        missing = await connection.call("albums_by_artist", {})
        null = await connection.call("albums_by_artist", {"artist_id": None})
        unknown = await connection.call("albums_by_artist", {"artist_id": "1", "sql": "SELECT 1"})
    tool = tools["albums_by_artist"]
    assert tool.title == "Albums of an artist"
    assert "The albums of one artist" in (tool.description or "")
    assert tool.inputSchema["properties"]["artist_id"]["type"] == "string"
    assert tool.inputSchema["required"] == ["artist_id", "cursor"], "a read pages with cursor"
    assert tool.annotations.readOnlyHint is True and tool.annotations.destructiveHint is False
    assert structured["rows"] == [["For Those About To Rock We Salute You"], ["Let There Be Rock"]]
    assert injected["rows"] == [] and quoted["rows"] == []
    assert longer["rows"][0][0] > 0
    assert_tool_error(missing, "artist_id")
    assert error_code(missing) == "invalid_arguments"
    assert_tool_error(null, "artist_id")
    assert_tool_error(unknown, "sql")
    # Write queries are not served under the default read-only allowlist.
    assert "rename_genre" not in tools and "remove_playlist" not in tools


async def test_canned_writes_are_listed_by_the_allowlist_and_confirmed_like_every_write(dbai_bin, chinook, metadata) -> None:
    async with connect(dbai_bin, chinook, "--metadata", str(metadata), "--allow", "standard") as standard:
        standard_tools = {tool.name: tool for tool in (await standard.session.list_tools()).tools}
        renamed = assert_tool_ok(await standard.call("rename_genre", {"name": "Rock & Roll", "id": "1"}))
    assert "rename_genre" in standard_tools and "remove_playlist" not in standard_tools
    assert standard_tools["rename_genre"].annotations.readOnlyHint is False
    assert renamed["rows_affected"] == 1
    with sqlite3.connect(chinook) as db:
        assert db.execute("SELECT Name FROM Genre WHERE GenreId = 1").fetchone()[0] == "Rock & Roll"

    before = sha256(chinook)
    async with connect(dbai_bin, chinook, "--metadata", str(metadata), "--allow", "unrestricted") as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
        preview = assert_tool_ok(await connection.call("remove_playlist", {"id": "2"}))
        unchanged = sha256(chinook)
        wrong = await connection.call("remove_playlist", {"id": "4", "confirm": preview["confirmation_token"]})
        confirmed = assert_tool_ok(await connection.call("remove_playlist", {"id": "2", "confirm": preview["confirmation_token"]}))
    assert tools["remove_playlist"].annotations.destructiveHint is True
    assert "confirm" in tools["remove_playlist"].inputSchema["properties"]
    assert preview["confirmation_required"] is True and preview["preview"]["rows_affected"] == 1
    assert unchanged == before
    assert_tool_error(wrong, "token")
    assert confirmed["rows_affected"] == 1


async def test_canned_queries_of_several_databases_are_named_after_them(dbai_bin, chinook, tmp_path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t(x)")
    path = metadata_file(tmp_path, """\
databases:
  music:
    queries:
      artist_count: SELECT count(*) FROM Artist
  other:
    queries:
      artist_count: SELECT count(*) FROM t
""")
    async with connect(
        dbai_bin, Path(f"music={chinook}"), "--db", f"other={other}", "--metadata", str(path),
        stderr_path=tmp_path / "several.stderr",
    ) as connection:
        tools = {tool.name: tool for tool in (await connection.session.list_tools()).tools}
        music = assert_tool_ok(await connection.call("music_artist_count", {}))
    assert {"music_artist_count", "other_artist_count"} <= set(tools)
    assert "database" not in tools["music_artist_count"].inputSchema["properties"]
    assert music["rows"] == [[275]]


async def test_a_canned_querys_cursor_is_bound_to_its_values_exactly(dbai_bin, chinook, tmp_path) -> None:
    path = metadata_file(tmp_path, """\
databases:
  chinook:
    queries:
      tracks_after:
        sql: SELECT TrackId FROM Track WHERE TrackId > :max_rows AND Name >= :start ORDER BY TrackId
""")
    async with connect(dbai_bin, chinook, "--metadata", str(path), "--max-rows", "5") as connection:
        first = assert_tool_ok(await connection.call("tracks_after", {"max_rows": "0", "start": ""}))
        cursor = first["next_cursor"]
        following = assert_tool_ok(await connection.call("tracks_after", {"max_rows": "0", "start": "", "cursor": cursor}))
        # A :max_rows parameter is a value of the query, and a blank string a value like any other.
        other_value = await connection.call("tracks_after", {"max_rows": "100", "start": "", "cursor": cursor})
        blank = await connection.call("tracks_after", {"max_rows": "0", "start": " ", "cursor": cursor})
    assert first["rows"] == [[1], [2], [3], [4], [5]]
    assert following["rows"] == [[6], [7], [8], [9], [10]]
    for refused in (other_value, blank):
        assert_tool_error(refused, "cursor")
        assert error_code(refused) == "invalid_arguments"


async def test_column_comments_in_the_ddl_become_descriptions(dbai_bin, tmp_path: Path) -> None:
    database = tmp_path / "books.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("""
            CREATE TABLE "Book" (
                "Id" INTEGER PRIMARY KEY,
                "Title" TEXT NOT NULL, -- as printed on the cover
                /* the price in cents, "net" */
                "Price" INTEGER CHECK (Price >= 0),
                "Note" TEXT DEFAULT '-- not a comment',
                "Shelf, (left)" INTEGER, -- where it stands
                CHECK (length(Title) > 0) -- a table constraint, not a column
            )""")
    async with connect(dbai_bin, database) as connection:
        structured = assert_tool_ok(await connection.call("describe_schema", {"table": "Book"}))
    columns = {column["name"]: column.get("description") for column in structured["tables"][0]["columns"]}
    assert columns == {
        "Id": None, "Title": "as printed on the cover", "Price": 'the price in cents, "net"', "Note": None,
        "Shelf, (left)": "where it stands",
    }
    assert '"Title" TEXT NOT NULL, -- as printed on the cover' in structured["ddl"]


BAD_METADATA = [
    ("{not json", "metadata.json", None, "malformed JSON"),
    ("databases: [unclosed", "metadata.yaml", None, "malformed YAML"),
    ("- just\n- a list\n", "metadata.yaml", None, "mapping"),
    ("databases:\n  chinook:\n    tables:\n      Albums: {description: x}\n", "m.yaml", "databases.chinook.tables.Albums", "no table"),
    ("databases:\n  chinook:\n    tables:\n      Album:\n        columns: {Titel: x}\n", "m.yaml",
     "databases.chinook.tables.Album.columns.Titel", "no column"),
    ("databases:\n  sales: {}\n", "m.yaml", "databases.sales", "no database is served"),
    ("databases:\n  chinook:\n    tables:\n      Album: {hidden: maybe}\n", "m.yaml", "databases.chinook.tables.Album.hidden",
     "true or false"),
    ("databases:\n  chinook:\n    queries:\n      broken: SELEC 1\n", "m.yaml", "databases.chinook.queries.broken", "compile"),
    ("databases:\n  chinook:\n    queries:\n      gone: SELECT * FROM Nope\n", "m.yaml", "databases.chinook.queries.gone", "Nope"),
    ("databases:\n  chinook:\n    queries:\n      positional: SELECT * FROM Album WHERE AlbumId = ?\n", "m.yaml",
     "databases.chinook.queries.positional", "positional"),
    ("databases:\n  chinook:\n    queries:\n      sneaky: DELETE FROM Album\n", "m.yaml", "databases.chinook.queries.sneaky",
     "write: true"),
    ("databases:\n  chinook:\n    queries:\n      query: SELECT 1\n", "m.yaml", "databases.chinook.queries.query", "built-in"),
    ("databases:\n  chinook:\n    queries:\n      two: SELECT 1; SELECT 2\n", "m.yaml", "databases.chinook.queries.two", ""),
    ("databases:\n  chinook:\n    queries:\n      nosql: {title: x}\n", "m.yaml", "databases.chinook.queries.nosql.sql", "required"),
    ("databases:\n  chinook:\n    queries:\n      'bad name': SELECT 1\n", "m.yaml", "databases.chinook.queries.bad name", "tool"),
    ("databases:\n  chinook:\n    examples:\n      - {question: q, sql: SELEC 1}\n", "m.yaml", "databases.chinook.examples[0].sql",
     "compile"),
    ("databases:\n  chinook:\n    examples:\n      - {question: q, sql: DELETE FROM Album}\n", "m.yaml",
     "databases.chinook.examples[0].sql", "only read"),
    ("databases:\n  chinook:\n    tables:\n      Employee: {hidden: true}\n    examples:\n      - {question: q, sql: SELECT 1}\n"
     "      - {question: Who works here?, sql: SELECT LastName FROM Employee}\n", "m.yaml", "databases.chinook.examples[1].sql",
     "Employee"),
    ("databases:\n  chinook:\n    examples: [{question: q}]\n", "m.yaml", "databases.chinook.examples[0].sql", "required"),
    ("databases:\n  chinook:\n    examples:\n      - {question: q, sql: 'SELECT * FROM Album WHERE AlbumId = :id'}\n", "m.yaml",
     "databases.chinook.examples[0].sql", "parameter"),
]


@pytest.mark.parametrize(("text", "name", "entry", "reason"), BAD_METADATA)
def test_bad_metadata_stops_start_up_naming_file_entry_and_reason(dbai_bin, chinook, tmp_path, text, name, entry, reason) -> None:
    path = metadata_file(tmp_path, text, name)
    completed = run_binary(dbai_bin, "--db", str(chinook), "--metadata", str(path))
    assert completed.returncode != 0
    assert str(path) in completed.stderr
    if entry:
        assert entry in completed.stderr
    assert reason in completed.stderr
    assert "Fatal error" not in completed.stderr


def test_a_missing_metadata_file_stops_start_up(dbai_bin, chinook, tmp_path) -> None:
    completed = run_binary(dbai_bin, "--db", str(chinook), "--metadata", str(tmp_path / "nope.yaml"))
    assert completed.returncode != 0
    assert "nope.yaml" in completed.stderr and "does not exist" in completed.stderr


def test_a_canned_write_the_policy_refuses_stops_start_up(dbai_bin, chinook, tmp_path) -> None:
    path = metadata_file(tmp_path, YAML)
    completed = run_binary(
        dbai_bin, "--db", str(chinook), "--metadata", str(path), "--allow", "standard", "--write-tables", "Album")
    assert completed.returncode != 0
    assert "databases.chinook.queries.rename_genre" in completed.stderr and "policy" in completed.stderr
