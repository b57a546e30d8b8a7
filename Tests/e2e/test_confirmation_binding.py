"""A confirmation covers the rows it previewed, not only the statement.

Between the preview and the confirmed write, another process changes the rows: the confirmed
write then changes nothing, says what changed, and offers a new confirmation.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from conftest import assert_tool_error, error_code, result_text, validate_output
from test_raw_stdio import RawServer



DELETE_SCRATCH = {"table": "Genre", "where": {"Name": {"like": "Scratch%"}}}


def execute(database: Path, sql: str) -> None:
    """Runs one statement as another process would."""
    connection = sqlite3.connect(database)
    with connection:
        connection.execute(sql)
    connection.close()


def count(database: Path, where: str = "Name LIKE 'Scratch%'") -> int:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(f"SELECT count(*) FROM Genre WHERE {where}").fetchone()[0]
    finally:
        connection.close()


@pytest.fixture
def scratch_db(chinook: Path) -> Path:
    """Chinook plus two Genre rows nothing refers to."""
    execute(chinook, "INSERT INTO Genre (GenreId, Name) VALUES (100, 'Scratch 100'), (101, 'Scratch 101')")
    return chinook


@pytest.mark.anyio
async def test_rows_added_after_the_preview_void_the_token(server, scratch_db: Path) -> None:
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        first = await connection.call("delete", DELETE_SCRATCH)
        assert first.structuredContent["preview"]["rows_affected"] == 2
        # Another process adds 50 matching rows.
        execute(scratch_db, "WITH RECURSIVE n(i) AS (SELECT 200 UNION ALL SELECT i + 1 FROM n WHERE i < 249) "
                            "INSERT INTO Genre (GenreId, Name) SELECT i, 'Scratch ' || i FROM n")
        confirmed = await connection.call("delete", {**DELETE_SCRATCH, "confirm": first.structuredContent["confirmation_token"]})
        structured = await validate_output(connection, "delete", confirmed)
        assert count(scratch_db) == 52, "nothing was deleted"
        assert structured["confirmation_required"] is True
        assert structured["changed_since_preview"] is True
        assert structured["preview"]["rows_affected"] == 52
        assert "2 rows then, 52 now" in structured["message"]
        # The new token, for the new preview, runs.
        again = await connection.call("delete", {**DELETE_SCRATCH, "confirm": structured["confirmation_token"]})
        assert again.structuredContent["rows_affected"] == 52
    assert count(scratch_db) == 0


@pytest.mark.anyio
async def test_a_preview_of_no_rows_confirms_no_rows(server, scratch_db: Path) -> None:
    arguments = {"table": "Genre", "where": {"Name": "Vaporwave"}}
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        first = await connection.call("delete", arguments)
        assert first.structuredContent["preview"]["rows_affected"] == 0
        execute(scratch_db, "INSERT INTO Genre (GenreId, Name) VALUES (300, 'Vaporwave'), (301, 'Vaporwave')")
        confirmed = await connection.call("delete", {**arguments, "confirm": first.structuredContent["confirmation_token"]})
    assert confirmed.structuredContent["changed_since_preview"] is True
    assert "0 rows then, 2 now" in result_text(confirmed)
    assert count(scratch_db, "Name = 'Vaporwave'") == 2


@pytest.mark.anyio
async def test_a_changed_row_voids_the_token_even_with_the_same_count(server, scratch_db: Path) -> None:
    execute(scratch_db, "INSERT INTO Genre (GenreId, Name) VALUES (150, 'Other')")
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        first = await connection.call("delete", DELETE_SCRATCH)
        # One previewed row is renamed out of the match and another one is renamed into it.
        execute(scratch_db, "UPDATE Genre SET Name = 'Kept' WHERE GenreId = 100")
        execute(scratch_db, "UPDATE Genre SET Name = 'Scratch 150' WHERE GenreId = 150")
        confirmed = await connection.call("delete", {**DELETE_SCRATCH, "confirm": first.structuredContent["confirmation_token"]})
    assert confirmed.structuredContent["changed_since_preview"] is True
    assert count(scratch_db) == 2
    assert count(scratch_db, "Name = 'Kept'") == 1


@pytest.mark.anyio
async def test_an_unchanged_preview_runs_with_its_token(server, scratch_db: Path) -> None:
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        first = await connection.call("delete", DELETE_SCRATCH)
        execute(scratch_db, "INSERT INTO Genre (GenreId, Name) VALUES (400, 'Unrelated')")
        confirmed = await connection.call("delete", {**DELETE_SCRATCH, "confirm": first.structuredContent["confirmation_token"]})
    assert confirmed.structuredContent["rows_affected"] == 2
    assert count(scratch_db) == 0


class ChangingElicitor:
    """Accepts every confirmation; before answering the first, adds a matching row elsewhere."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.requests: list[types.ElicitRequestParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.requests.append(params)
        if len(self.requests) == 1:
            execute(self.database, "INSERT INTO Genre (GenreId, Name) VALUES (102, 'Scratch 102')")
        return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.anyio
async def test_elicitation_asks_again_when_the_rows_changed(server, scratch_db: Path) -> None:
    elicitor = ChangingElicitor(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db, elicitation_callback=elicitor) as connection:
        result = await connection.call("delete", DELETE_SCRATCH)
    assert result.structuredContent["rows_affected"] == 3
    assert len(elicitor.requests) == 2
    assert "2 rows" in elicitor.requests[0].message
    assert "Scratch 100" in elicitor.requests[0].message, "the message shows the rows"
    assert "2 rows then, 3 now" in elicitor.requests[1].message
    assert "3 rows" in elicitor.requests[1].message
    assert count(scratch_db) == 0


class AlwaysChangingElicitor(ChangingElicitor):
    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.requests.append(params)
        execute(self.database, f"INSERT INTO Genre (GenreId, Name) VALUES ({500 + len(self.requests)}, 'Scratch x')")
        return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.anyio
async def test_rows_that_keep_changing_are_never_deleted(server, scratch_db: Path) -> None:
    elicitor = AlwaysChangingElicitor(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db, elicitation_callback=elicitor) as connection:
        result = await connection.call("delete", DELETE_SCRATCH)
    assert_tool_error(result, "no longer the ones")
    assert error_code(result) == "changed_since_preview"
    assert len(elicitor.requests) == 3
    assert count(scratch_db) == 5


def test_calls_go_on_while_the_user_decides(dbai_bin: Path, scratch_db: Path) -> None:
    """A write waiting for the user's confirmation steps out of the order of requests: a read
    and a write sent after it are answered before the user answers. Driven raw, because the
    official client runs elicitation callbacks inline (it would answer nothing meanwhile)."""
    server = RawServer(dbai_bin, scratch_db, "--allow", "unrestricted")
    try:
        server.initialize(capabilities={"elicitation": {}})
        server.request(1, "tools/call", {"name": "delete", "arguments": DELETE_SCRATCH})
        question = server.wait_for(lambda message: message.get("method") == "elicitation/create")
        server.request(2, "tools/call", {"name": "query", "arguments": {"sql": "SELECT count(*) FROM Genre"}})
        server.request(3, "tools/call", {"name": "insert", "arguments": {"table": "Genre", "rows": [{"Name": "Meanwhile"}]}})
        read = server.wait_for(lambda message: message.get("id") == 2)
        written = server.wait_for(lambda message: message.get("id") == 3)
        assert read["result"]["structuredContent"]["rows"] == [[27]]
        assert written["result"]["structuredContent"]["rows_affected"] == 1
        assert not any(message.get("id") == 1 for message in server.seen), "the delete still waits for the user"
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"confirm": True}}})
        deleted = server.wait_for(lambda message: message.get("id") == 1)
        assert deleted["result"]["structuredContent"]["rows_affected"] == 2
    finally:
        server.stop()
    assert count(scratch_db) == 0
    assert count(scratch_db, "Name = 'Meanwhile'") == 1
