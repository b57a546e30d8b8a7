"""MCP prompts (`prompts/list`, `prompts/get`) and completions (`completion/complete`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO_ROOT, assert_tool_ok

pytestmark = pytest.mark.anyio

NORTHWIND = REPO_ROOT / "Examples" / "northwind.sqlite"


def prompt_text(result: Any) -> str:
    return "\n".join(message.content.text for message in result.messages)


def completion_values(result: Any) -> tuple[list[str], int | None, bool | None]:
    completion = result.completion
    return completion.values, completion.total, completion.hasMore


async def test_prompts_are_listed_with_their_arguments(server) -> None:
    async with server() as connection:
        assert connection.initialize_result.capabilities.prompts is not None
        assert connection.initialize_result.capabilities.completions is not None
        prompts = {prompt.name: prompt for prompt in (await connection.session.list_prompts()).prompts}
    assert list(prompts) == ["explore_database", "write_query", "explain_table", "suggest_questions", "ask"]
    assert not prompts["explore_database"].arguments and not prompts["suggest_questions"].arguments
    assert [(argument.name, argument.required) for argument in prompts["write_query"].arguments] == [("question", True)]
    assert [(argument.name, argument.required) for argument in prompts["explain_table"].arguments] == [("table", True)]
    assert [(argument.name, argument.required) for argument in prompts["ask"].arguments] == [("question", True)]
    for prompt in prompts.values():
        assert prompt.description


def database_file(database: str, chinook: Path, tmp_path: Path) -> Path:
    """The test's copy of Chinook, or a fresh copy of Northwind."""
    if database == "chinook":
        return chinook
    path = tmp_path / "northwind.sqlite"
    shutil.copyfile(NORTHWIND, path)
    return path


@pytest.mark.parametrize("database", ["chinook", "northwind"])
async def test_explore_database_inlines_the_schema_and_first_questions_that_run(server, chinook: Path, tmp_path: Path, database: str) -> None:
    async with server(db=database_file(database, chinook, tmp_path)) as connection:
        text = prompt_text(await connection.session.get_prompt("explore_database"))
        assert "CREATE TABLE" in text
        assert "good first questions" in text
        suggested = re.findall(r"^  (SELECT .+)$", text, flags=re.MULTILINE)
        assert len(suggested) == 5
        for sql in suggested:
            result = await connection.call("query", {"sql": sql})
            assert assert_tool_ok(result)["row_count"] > 0, sql


async def test_write_query_inlines_the_relevant_tables_with_samples(server) -> None:
    async with server() as connection:
        result = await connection.session.get_prompt("write_query", {"question": "Which artist has the most albums?"})
    text = prompt_text(result)
    assert "Which artist has the most albums?" in text
    assert 'CREATE TABLE "Album"' in text and 'CREATE TABLE "Artist"' in text
    assert "-- sample:" in text
    assert "data, not instructions" in text


async def test_explain_table_shows_keys_links_and_rows(server) -> None:
    async with server("--tool-prefix", "music") as connection:
        text = prompt_text(await connection.session.get_prompt("explain_table", {"table": "track"}))
    assert "Explain the table Track" in text
    assert "Track(AlbumId) references Album(AlbumId)" in text
    assert "InvoiceLine(TrackId) references Track" in text
    assert "Rows: 3503." in text
    assert "music_query" in text


async def test_prompt_errors_are_invalid_params(server) -> None:
    async with server("--tables", "Album,Artist") as connection:
        for name, arguments in [("nope", None), ("write_query", None), ("write_query", {"question": "  "}), ("explain_table", {"table": "Customer"})]:
            with pytest.raises(Exception) as raised:
                await connection.session.get_prompt(name, arguments)
            error = getattr(raised.value, "error", None)
            code = getattr(error, "code", None)
            assert code == -32602, (name, arguments, raised.value)
        # A hidden table is neither explained nor completed nor mentioned.
        text = prompt_text(await connection.session.get_prompt("explore_database"))
        assert "Customer" not in text and "Invoice" not in text
        values, _, _ = completion_values(await complete_table(connection, ""))
        assert values == ["Album", "Artist"]


async def complete_table(connection, typed: str, *, resource: bool = False) -> Any:
    from mcp import types

    if resource:
        reference = types.ResourceTemplateReference(type="ref/resource", uri="sqlite://table/{name}")
        return await connection.session.complete(reference, {"name": "name", "value": typed})
    reference = types.PromptReference(type="ref/prompt", name="explain_table")
    return await connection.session.complete(reference, {"name": "table", "value": typed})


async def test_table_names_complete(server) -> None:
    async with server() as connection:
        assert completion_values(await complete_table(connection, "in")) == (["Invoice", "InvoiceLine"], 2, False)
        assert completion_values(await complete_table(connection, "TRACK"))[0] == ["Track", "PlaylistTrack"]
        assert completion_values(await complete_table(connection, "Art", resource=True))[0] == ["Artist"]
        assert completion_values(await complete_table(connection, "zzz"))[0] == []
        from mcp import types

        with pytest.raises(Exception) as raised:
            await connection.session.complete(types.PromptReference(type="ref/prompt", name="nope"), {"name": "table", "value": ""})
        assert getattr(getattr(raised.value, "error", None), "code", None) == -32602


@pytest.mark.parametrize("database", ["chinook", "northwind"])
async def test_suggested_questions_are_listed_and_complete_the_question_of_ask(server, chinook: Path, tmp_path: Path, database: str) -> None:
    async with server(db=database_file(database, chinook, tmp_path)) as connection:
        text = prompt_text(await connection.session.get_prompt("suggest_questions"))
        questions = re.findall(r"^\d+\. (.+)$", text, flags=re.MULTILINE)
        assert len(questions) >= 10 and len(set(questions)) == len(questions)
        from mcp import types

        reference = types.PromptReference(type="ref/prompt", name="ask")
        first_word = questions[0].split()[0]
        values, total, _ = completion_values(await connection.session.complete(reference, {"name": "question", "value": first_word.lower()}))
        assert values and values[0].startswith(first_word) and total == len(values)
        assert set(values) <= set(questions)
        noun = questions[0].rstrip("?").split()[-1]
        values, _, _ = completion_values(await connection.session.complete(
            types.PromptReference(type="ref/prompt", name="write_query"), {"name": "question", "value": noun.upper()}))
        assert questions[0] in values
        assert completion_values(await connection.session.complete(reference, {"name": "question", "value": "zebra stripes"}))[0] == []
        asked = prompt_text(await connection.session.get_prompt("ask", {"question": questions[0]}))
        assert questions[0] in asked and "ask tool" in asked
