"""Confirmation of DELETE under --allow unrestricted: elicitation, tokens, --no-confirm."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from conftest import assert_tool_error, error_code, result_text, sha256, validate_output

pytestmark = pytest.mark.anyio

SCRATCH_IDS = [100, 101, 102]
DELETE_SCRATCH = {"table": "Genre", "where": {"GenreId": {">=": 100}}}


@pytest.fixture
def scratch_db(chinook: Path) -> Path:
    """Chinook plus three Genre rows nothing refers to (so deleting them breaks no foreign key)."""
    database = sqlite3.connect(chinook)
    with database:
        database.executemany("INSERT INTO Genre (GenreId, Name) VALUES (?, ?)", [(i, f"Scratch {i}") for i in SCRATCH_IDS])
    database.close()
    return chinook


def scratch_ids(database: Path) -> list[int]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return [row[0] for row in connection.execute("SELECT GenreId FROM Genre WHERE GenreId >= 100 ORDER BY GenreId")]
    finally:
        connection.close()


class Elicitor:
    """An elicitation callback that answers with a fixed action and content, and records requests."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action = action
        self.content = content
        self.requests: list[types.ElicitRequestParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.requests.append(params)
        return types.ElicitResult(action=self.action, content=self.content)


# MARK: - Elicitation


async def test_elicitation_accept_deletes(server, scratch_db: Path) -> None:
    elicitor = Elicitor("accept", {"confirm": True})
    async with server("--allow", "unrestricted", db=scratch_db, elicitation_callback=elicitor) as connection:
        result = await connection.call("delete", DELETE_SCRATCH)
        structured = await validate_output(connection, "delete", result)
    assert structured["operation"] == "delete"
    assert structured["rows_affected"] == 3
    assert "confirmation_required" not in structured
    assert scratch_ids(scratch_db) == []

    assert len(elicitor.requests) == 1
    request = elicitor.requests[0]
    assert isinstance(request, types.ElicitRequestFormParams)
    assert request.mode == "form"
    assert "DELETE" in request.message
    assert "Genre" in request.message, "the message shows the statement"
    assert "3 rows" in request.message, "the message gives the number of rows"
    properties = request.requestedSchema["properties"]
    assert list(properties) == ["confirm"]
    assert properties["confirm"]["type"] == "boolean"


@pytest.mark.parametrize(
    "action, content",
    [("decline", None), ("cancel", None), ("accept", {"confirm": False})],
    ids=["decline", "cancel", "accept-with-false"],
)
async def test_elicitation_refusal_deletes_nothing(server, scratch_db: Path, action: str, content: Any) -> None:
    digest = sha256(scratch_db)
    elicitor = Elicitor(action, content)
    async with server("--allow", "unrestricted", db=scratch_db, elicitation_callback=elicitor) as connection:
        result = await connection.call("delete", DELETE_SCRATCH)
    assert_tool_error(result, "nothing was changed")
    assert error_code(result) == "confirmation_declined"
    assert len(elicitor.requests) == 1
    assert scratch_ids(scratch_db) == SCRATCH_IDS
    assert sha256(scratch_db) == digest


async def test_no_confirm_deletes_without_asking(server, scratch_db: Path) -> None:
    elicitor = Elicitor("decline")
    async with server(
        "--allow", "unrestricted", "--no-confirm", db=scratch_db, elicitation_callback=elicitor
    ) as connection:
        result = await connection.call("delete", DELETE_SCRATCH)
        structured = await validate_output(connection, "delete", result)
    assert structured["rows_affected"] == 3
    assert elicitor.requests == []
    assert scratch_ids(scratch_db) == []


async def test_insert_and_update_need_no_confirmation(server, scratch_db: Path) -> None:
    elicitor = Elicitor("decline")
    async with server("--allow", "unrestricted", db=scratch_db, elicitation_callback=elicitor) as connection:
        insert = await connection.call("insert", {"table": "Genre", "rows": [{"GenreId": 103, "Name": "New"}]})
        update = await connection.call("update", {"table": "Genre", "set": {"Name": "Renamed"}, "where": {"GenreId": 103}})
    assert insert.structuredContent["rows_affected"] == 1
    assert update.structuredContent["rows_affected"] == 1
    assert elicitor.requests == []


# MARK: - Tokens (client without elicitation)


async def test_token_path_previews_then_deletes(server, scratch_db: Path) -> None:
    digest = sha256(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        first = await connection.call("delete", DELETE_SCRATCH)
        request = await validate_output(connection, "delete", first)
        assert first.isError is not True
        assert request["confirmation_required"] is True
        assert isinstance(request["confirmation_token"], str) and request["confirmation_token"]
        assert request["expires_in_seconds"] > 0
        assert request["message"]
        preview = request["preview"]
        assert preview["rows_affected"] == 3
        assert [column["name"] for column in preview["columns"]] == ["GenreId", "Name"]
        assert sorted(row[0] for row in preview["rows"]) == SCRATCH_IDS
        assert preview["truncated"] is False
        assert sha256(scratch_db) == digest, "nothing is deleted before confirmation"
        assert request["confirmation_token"] in result_text(first)

        confirmed = await connection.call("delete", {**DELETE_SCRATCH, "confirm": request["confirmation_token"]})
        done = await validate_output(connection, "delete", confirmed)
    assert done["operation"] == "delete"
    assert done["rows_affected"] == 3
    assert scratch_ids(scratch_db) == []


async def test_token_path_with_sql_and_params(server, scratch_db: Path) -> None:
    arguments = {"sql": "DELETE FROM Genre WHERE GenreId = ?", "params": [101]}
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        request = (await connection.call("delete", arguments)).structuredContent
        assert request["confirmation_required"] is True
        assert request["preview"]["rows_affected"] == 1
        other_value = await connection.call(
            "delete", {**arguments, "params": [102], "confirm": request["confirmation_token"]}
        )
        assert_tool_error(other_value)
        assert scratch_ids(scratch_db) == SCRATCH_IDS
        done = await connection.call("delete", {**arguments, "confirm": request["confirmation_token"]})
    assert done.structuredContent["rows_affected"] == 1
    assert scratch_ids(scratch_db) == [100, 102]


async def test_reused_token_is_refused(server, scratch_db: Path) -> None:
    arguments = {"table": "Genre", "where": {"GenreId": 100}}
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        token = (await connection.call("delete", arguments)).structuredContent["confirmation_token"]
        first = await connection.call("delete", {**arguments, "confirm": token})
        assert first.structuredContent["rows_affected"] == 1
        # Put the row back so that a wrongly accepted reuse would show.
        await connection.call("insert", {"table": "Genre", "rows": [{"GenreId": 100, "Name": "Back"}]})
        digest = sha256(scratch_db)
        reused = await connection.call("delete", {**arguments, "confirm": token})
    assert_tool_error(reused, "token")
    assert error_code(reused) == "invalid_confirmation_token"
    assert sha256(scratch_db) == digest
    assert scratch_ids(scratch_db) == SCRATCH_IDS


async def test_wrong_token_is_refused(server, scratch_db: Path) -> None:
    digest = sha256(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        never_issued = await connection.call("delete", {**DELETE_SCRATCH, "confirm": "0123456789abcdef0123456789abcdef"})
        real = (await connection.call("delete", DELETE_SCRATCH)).structuredContent["confirmation_token"]
        altered = await connection.call("delete", {**DELETE_SCRATCH, "confirm": real[::-1]})
        empty = await connection.call("delete", {**DELETE_SCRATCH, "confirm": ""})
    for result in (never_issued, altered):
        assert_tool_error(result, "token")
        assert error_code(result) == "invalid_confirmation_token"
    assert empty.isError is True or (empty.structuredContent or {}).get("confirmation_required") is True
    assert sha256(scratch_db) == digest


async def test_token_for_other_arguments_is_refused(server, scratch_db: Path) -> None:
    digest = sha256(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        narrow = {"table": "Genre", "where": {"GenreId": 100}}
        token = (await connection.call("delete", narrow)).structuredContent["confirmation_token"]
        wider = await connection.call("delete", {**DELETE_SCRATCH, "confirm": token})
        other_table = await connection.call("delete", {"table": "MediaType", "where": {"MediaTypeId": 5}, "confirm": token})
        as_sql = await connection.call(
            "delete", {"sql": 'DELETE FROM "Genre" WHERE "GenreId" = 100', "confirm": token}
        )
    for result in (wider, other_table, as_sql):
        assert_tool_error(result, "token")
    assert error_code(wider) == "invalid_confirmation_token"
    assert sha256(scratch_db) == digest


async def test_delete_without_where_needs_all_rows(server, scratch_db: Path) -> None:
    digest = sha256(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        refused = await connection.call("delete", {"table": "Genre"})
        refused_empty = await connection.call("delete", {"table": "Genre", "where": {}})
        assert_tool_error(refused, "all_rows")
        assert_tool_error(refused_empty, "all_rows")
        request = (await connection.call("delete", {"table": "PlaylistTrack", "all_rows": True})).structuredContent
    assert request["confirmation_required"] is True
    assert request["preview"]["rows_affected"] == 8715
    assert request["preview"]["truncated"] is True
    assert sha256(scratch_db) == digest


async def test_insert_or_replace_needs_confirmation(server, scratch_db: Path) -> None:
    arguments = {"sql": "INSERT OR REPLACE INTO Genre (GenreId, Name) VALUES (?, ?)", "params": [100, "Replaced"]}
    digest = sha256(scratch_db)
    async with server("--allow", "unrestricted", db=scratch_db) as connection:
        request = (await connection.call("insert", arguments)).structuredContent
        assert request["confirmation_required"] is True
        assert request["preview"]["rows_affected"] == 1
        assert sha256(scratch_db) == digest
        done = await connection.call("insert", {**arguments, "confirm": request["confirmation_token"]})
        await validate_output(connection, "insert", done)
    assert done.structuredContent["rows_affected"] == 1
    database = sqlite3.connect(f"file:{scratch_db}?mode=ro", uri=True)
    try:
        assert database.execute("SELECT Name FROM Genre WHERE GenreId = 100").fetchall() == [("Replaced",)]
    finally:
        database.close()
