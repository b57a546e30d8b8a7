"""A database of 420 tables in a context window: every answer within --max-result-bytes, the
schema catalog and lists paged with cursors, search across the schema, and reads paged with
next_cursor while another process writes to the file (issue 31).

The database is generated here: 420 tables of 12 columns, foreign keys in a chain, 20 rows each,
plus a 10,000-row table. Raw JSON-RPC over stdio (Scripts/mcp_stdio.py) measures every answer
exactly as it crosses the wire; one test goes through the official client and validates the
outputSchema.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import connect, validate_output

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Scripts"))
from mcp_stdio import StdioClient  # noqa: E402

TABLES = 420
WORDS = ["alpha", "harbor", "meadow", "copper", "lantern", "orchid", "summit", "velvet", "willow", "quartz"]
BUDGET = 8192


def table_name(index: int) -> str:
    return f"t{index:04d}_{WORDS[index % len(WORDS)]}"


@pytest.fixture(scope="module")
def wide_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wide") / "wide.sqlite"
    database = sqlite3.connect(path)
    with database:
        database.execute("PRAGMA journal_mode = WAL")
        for index in range(TABLES):
            parent = f"REFERENCES {table_name(index - 1)}(id)" if index else ""
            columns = ", ".join(f"c{column:02d} TEXT" for column in range(10))
            comment = " -- sightings of the zeppelin over the bay" if index == 313 else ""
            database.execute(
                f"CREATE TABLE {table_name(index)}(id INTEGER PRIMARY KEY, parent_id INTEGER {parent},{comment}\n{columns})")
            database.executemany(
                f"INSERT INTO {table_name(index)} VALUES (?, ?{', ?' * 10})",
                [(row, row, *(f"{WORDS[(row + c) % 10]} {row}" for c in range(10))) for row in range(1, 21)])
        database.execute("CREATE TABLE big(id INTEGER PRIMARY KEY, label TEXT NOT NULL, grp INTEGER)")
        database.executemany("INSERT INTO big VALUES (?, ?, ?)", [(i, f"label {i}", i % 7) for i in range(1, 10_001)])
        database.execute("CREATE TABLE journal(id INTEGER PRIMARY KEY, at REAL)")
    database.close()
    return path


class Server:
    """dbai-mcp over raw stdio; every answer is measured on the wire."""

    def __init__(self, binary: Path, database: Path, *args: str) -> None:
        self.client = StdioClient([str(binary), "--db", str(database), "--max-result-bytes", str(BUDGET), *args],
                                  subprocess.DEVNULL, keep_lines=True)
        self.initialize = self.client.initialize(timeout=30)

    def request(self, method: str, params: dict | None = None) -> dict:
        message = self.client.request(method, params, timeout=60)
        size = len(self.client.lines[-1])
        # Lists are paged by item count (clients that do not follow nextCursor keep every tool);
        # every other answer fits the budget.
        if "result" in message and not method.endswith("/list"):
            assert size <= BUDGET, f"{method} {params}: {size} bytes on the wire"
        return message

    def call(self, name: str, arguments: dict) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments})["result"]

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def server(dbai_bin: Path, wide_db: Path):
    servers: list[Server] = []

    def start(*args: str) -> Server:
        servers.append(Server(dbai_bin, wide_db, *args))
        return servers[-1]

    yield start
    for started in servers:
        started.close()


def text_of(result: dict) -> str:
    return "".join(item.get("text", "") for item in result["content"])


def visible_tables(path: Path) -> list[str]:
    database = sqlite3.connect(path)
    names = [row[0] for row in database.execute(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%' ORDER BY rowid")]
    database.close()
    return names


def test_the_catalog_paged_to_the_end_is_the_table_list(server, wide_db: Path) -> None:
    running = server()
    assert len(running.initialize["instructions"].encode()) <= BUDGET
    first = running.call("describe_schema", {})
    structured = first["structuredContent"]
    assert structured["mode"] == "catalog" and structured["truncated"] is True
    assert "next_cursor" in structured and structured["next_cursor"] in text_of(first)
    names = [entry["name"] for entry in structured["catalog"]]
    pages = 1
    while "next_cursor" in structured:
        result = running.call("describe_schema", {"cursor": structured["next_cursor"]})
        structured = result["structuredContent"]
        assert structured["mode"] == "catalog"
        names += [entry["name"] for entry in structured["catalog"]]
        pages += 1
    assert pages > 3
    assert names == visible_tables(wide_db)
    entry = next(item for item in first["structuredContent"]["catalog"] if item["name"] == table_name(1))
    assert entry["columns"][:3] == ["id", "parent_id", "c00"]
    assert entry["row_count"] == {"count": 20, "exact": True, "source": "counted"}


def test_tables_asked_for_come_in_full_a_page_at_a_time(server) -> None:
    running = server()
    asked = [table_name(index) for index in range(0, 60)]
    described: list[str] = []
    arguments: dict[str, Any] = {"table": asked}
    while True:
        structured = running.call("describe_schema", arguments)["structuredContent"]
        assert structured["mode"] == "tables"
        described += [table["name"] for table in structured["tables"]]
        assert all(table["columns"] for table in structured["tables"])
        if "next_cursor" not in structured:
            break
        assert structured["truncated"] is True and "note" in structured
        arguments = {"table": asked, "cursor": structured["next_cursor"]}
    assert described == asked
    one = running.call("describe_schema", {"table": table_name(5)})["structuredContent"]
    assert [table["name"] for table in one["tables"]] == [table_name(5)]
    assert one["tables"][0]["foreign_keys"][0]["references_table"] == table_name(4)


def test_search_finds_a_table_by_a_word_of_its_description(server) -> None:
    running = server()
    found = running.call("describe_schema", {"search": "zeppelin"})
    structured = found["structuredContent"]
    assert structured["mode"] == "search"
    assert [entry["name"] for entry in structured["catalog"]] == [table_name(313)]
    assert structured["catalog"][0]["matched_columns"] == ["parent_id"]
    by_name = running.call("describe_schema", {"search": "lanterns"})["structuredContent"]
    assert by_name["catalog"][0]["name"].endswith("_lantern")
    assert all(entry["name"].endswith("_lantern") for entry in by_name["catalog"][:TABLES // 10])
    nothing = running.call("describe_schema", {"search": "xylophone"})
    assert nothing.get("isError") is not True and "No table or view matches" in text_of(nothing)


def test_every_answer_fits_the_budget(server) -> None:
    running = server()
    for method, kind in [("tools/list", "tools"), ("resources/list", "resources"),
                         ("resources/templates/list", "resourceTemplates"), ("prompts/list", "prompts")]:
        params: dict = {}
        seen = 0
        while True:
            result = running.request(method, params)["result"]
            seen += len(result[kind])
            if not result.get("nextCursor"):
                break
            params = {"cursor": result["nextCursor"]}
        if kind == "resources":
            assert seen == TABLES + 3, "the schema resource and one per table"
    schema = json.loads(running.request("resources/read", {"uri": "sqlite://schema"})["result"]["contents"][0]["text"])
    assert schema["complete"] is False and schema["total_tables"] == TABLES + 2
    read = len(schema["tables"])
    while "next_uri" in schema:
        schema = json.loads(running.request("resources/read", {"uri": schema["next_uri"]})["result"]["contents"][0]["text"])
        read += len(schema["tables"])
    assert read == TABLES + 2
    running.request("resources/read", {"uri": f"sqlite://table/{table_name(7)}"})
    running.request("prompts/get", {"name": "explore_database"})
    running.request("prompts/get", {"name": "write_query", "arguments": {"question": "which willow rows have parent 3?"}})
    running.request("prompts/get", {"name": "explain_table", "arguments": {"table": table_name(9)}})
    running.call("describe_schema", {"include_samples": True})
    running.call("describe_schema", {"table": [table_name(i) for i in range(30)], "include_samples": True})
    unknown = running.call("describe_schema", {"table": "no_such_table"})
    assert unknown["isError"] is True and "search" in text_of(unknown)
    running.call("query", {"sql": "SELECT * FROM big"})
    running.call("query", {"sql": "SELECT group_concat(label, ' ') FROM big"})
    running.call("aggregate", {"table": "big", "group_by": ["grp"], "aggregates": [{"function": "count"}]})


@pytest.mark.parametrize("size", [4096, 32 * 1024])
def test_answers_fit_small_and_default_budgets(dbai_bin: Path, wide_db: Path, size: int) -> None:
    client = StdioClient([str(dbai_bin), "--db", str(wide_db), "--max-result-bytes", str(size)],
                         subprocess.DEVNULL, keep_lines=True)
    try:
        client.initialize(timeout=30)
        assert len(client.lines[-1]) <= size
        cursor = None
        names: list[str] = []
        while True:
            arguments = {"cursor": cursor} if cursor else {}
            result = client.request("tools/call", {"name": "describe_schema", "arguments": arguments}, timeout=60)["result"]
            assert len(client.lines[-1]) <= size
            names += [entry["name"] for entry in result["structuredContent"]["catalog"]]
            cursor = result["structuredContent"].get("next_cursor")
            if not cursor:
                break
        assert len(names) == TABLES + 2
    finally:
        client.close()


@pytest.mark.parametrize("method", ["tools/list", "resources/list", "resources/templates/list", "prompts/list"])
def test_a_bad_list_cursor_is_invalid_params(server, method: str) -> None:
    running = server()
    for cursor in ["garbage", "eyJrIjoicXVlcnkiLCJvIjo1LCJyIjowfQ", ""]:
        if cursor == "":
            continue
        error = running.request(method, {"cursor": cursor})["error"]
        assert error["code"] == -32602, error


def test_a_result_paged_to_the_end_holds_every_row_once(server) -> None:
    running = server()
    sql = "SELECT id, label FROM big WHERE id > ? ORDER BY id"
    arguments: dict[str, Any] = {"sql": sql, "params": [0]}
    seen: list[int] = []
    pages = 0
    while True:
        result = running.call("query", arguments)
        assert result.get("isError") is not True, text_of(result)
        structured = result["structuredContent"]
        seen += [row[0] for row in structured["rows"]]
        assert "pages_may_shift" not in structured, "ORDER BY the primary key makes the order unique"
        pages += 1
        if "next_cursor" not in structured:
            break
        assert structured["truncated"] is True and structured["next_cursor"] in text_of(result)
        arguments = {"sql": sql, "params": [0], "cursor": structured["next_cursor"]}
    assert pages > 5
    assert seen == list(range(1, 10_001))


def test_unordered_pages_say_they_may_shift(server) -> None:
    running = server()
    first = running.call("query", {"sql": "SELECT label FROM big"})["structuredContent"]
    assert first["pages_may_shift"] is True
    grouped = running.call("query", {"sql": "SELECT grp, id FROM big ORDER BY grp"})["structuredContent"]
    assert grouped["pages_may_shift"] is True, "grp is not unique"
    aliased = running.call("query", {"sql": "SELECT grp AS id, label FROM big ORDER BY id"})["structuredContent"]
    assert aliased["pages_may_shift"] is True, "id is an alias of grp here"


def test_cursors_refused_for_another_statement_values_or_schema(server, wide_db: Path) -> None:
    running = server("--allow", "standard")
    first = running.call("query", {"sql": "SELECT id FROM big ORDER BY id", "params": []})["structuredContent"]
    cursor = first["next_cursor"]
    for arguments in [
        {"sql": "SELECT id FROM big ORDER BY id DESC", "cursor": cursor},
        {"sql": "SELECT id FROM big WHERE id > ? ORDER BY id", "params": [1], "cursor": cursor},
        {"sql": "SELECT id FROM big ORDER BY id", "cursor": "not-a-cursor"},
        {"sql": "SELECT id FROM big ORDER BY id", "cursor": cursor[:-4]},
    ]:
        refused = running.call("query", arguments)
        assert refused["isError"] is True, arguments
        assert "cursor" in text_of(refused).lower()
        assert refused["_meta"]["io.github.swiftdbai/error_code"] == "invalid_arguments"
    catalog = running.call("describe_schema", {})["structuredContent"]["next_cursor"]
    refused = running.call("describe_schema", {"search": "willow", "cursor": catalog})
    assert refused["isError"] is True and "cursor" in text_of(refused).lower()
    database = sqlite3.connect(wide_db)
    with database:
        database.execute("CREATE TABLE migration_added(id INTEGER PRIMARY KEY)")
    database.close()
    try:
        changed = running.call("query", {"sql": "SELECT id FROM big ORDER BY id", "cursor": cursor})
        assert changed["isError"] is True and "schema changed" in text_of(changed)
        stale = running.call("describe_schema", {"cursor": catalog})
        assert stale["isError"] is True and "schema changed" in text_of(stale)
        seen = running.call("describe_schema", {"table": "migration_added"})
        assert seen.get("isError") is not True, "a migration is seen at once"
    finally:
        database = sqlite3.connect(wide_db)
        with database:
            database.execute("DROP TABLE migration_added")
        database.close()


WRITER = """
import sqlite3, sys, time
database = sqlite3.connect(sys.argv[1], timeout=5)  # waits for the test's checkpoints only
database.execute("PRAGMA journal_mode = WAL")
failures = 0
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        with database:
            database.execute("INSERT INTO journal(at) VALUES (?)", (time.time(),))
    except sqlite3.OperationalError as error:
        failures += 1
        print("writer failed:", error, flush=True)
    time.sleep(0.002)
print("writes done", failures, flush=True)
"""


def test_paging_holds_no_read_transaction_between_calls(server, wide_db: Path, tmp_path: Path) -> None:
    running = server()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(wide_db), "4"], stdout=subprocess.PIPE, text=True)
    # The checkpoint waits for the writer's short transactions, not for a reader's snapshot:
    # TRUNCATE reports busy when a reader still holds a part of the WAL.
    checkpoints = sqlite3.connect(wide_db, timeout=5)
    try:
        arguments: dict[str, Any] = {"sql": "SELECT * FROM big ORDER BY id"}
        rows = 0
        while True:
            structured = running.call("query", arguments)["structuredContent"]
            rows += structured["row_count"]
            # Between two pages nothing holds a snapshot: a full checkpoint completes.
            busy, _, _ = checkpoints.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            assert busy == 0, "a reader held the WAL between pages"
            if "next_cursor" not in structured:
                break
            arguments["cursor"] = structured["next_cursor"]
            time.sleep(0.05)
        assert rows == 10_000
    finally:
        output, _ = writer.communicate(timeout=30)
        checkpoints.close()
    assert "writes done 0" in output, output


@pytest.mark.anyio
async def test_the_catalog_validates_against_the_output_schema(dbai_bin: Path, wide_db: Path) -> None:
    async with connect(dbai_bin, wide_db, "--max-result-bytes", str(BUDGET)) as connection:
        for arguments in [{}, {"search": "orchid"}, {"table": [table_name(1), table_name(2)]}]:
            result = await connection.call("describe_schema", arguments)
            await validate_output(connection, "describe_schema", result)
        paged = await connection.call("query", {"sql": "SELECT * FROM big"})
        structured = await validate_output(connection, "query", paged)
        assert structured["next_cursor"]


def test_wide_results_long_inputs_and_long_descriptions_stay_within_the_budget(dbai_bin: Path, wide_db: Path, tmp_path: Path) -> None:
    wide = tmp_path / "wide.sqlite"
    database = sqlite3.connect(wide)
    with database:
        database.execute("CREATE TABLE w(" + ", ".join(f"column_with_a_long_name_{i:03d} TEXT" for i in range(300)) + ")")
        database.execute("INSERT INTO w VALUES (" + ", ".join("?" * 300) + ")", ["x" * 100] * 300)
        database.execute("CREATE TABLE ctl(v TEXT)")
        database.executemany("INSERT INTO ctl VALUES (?)", [("\x01" * 50,) for _ in range(200)])
        for index in range(60):
            database.execute(f"CREATE TABLE t{index:02d}(id INTEGER PRIMARY KEY, name TEXT)")
    database.close()
    metadata = tmp_path / "metadata.json"
    metadata.write_text(json.dumps({"databases": {"wide": {"tables": {"t05": {"description": "long " * 500}}}}}))
    budget = 4096
    client = StdioClient([str(dbai_bin), "--db", str(wide), "--max-result-bytes", str(budget), "--metadata", str(metadata)],
                         subprocess.DEVNULL, keep_lines=True)
    try:
        client.initialize(timeout=30)

        def call(name: str, arguments: dict) -> dict:
            response = client.request("tools/call", {"name": name, "arguments": arguments}, timeout=60)
            assert len(client.lines[-1]) <= budget, f"{name} {str(arguments)[:80]}: {len(client.lines[-1])} bytes"
            return response["result"]

        wide_result = call("query", {"sql": "SELECT * FROM w"})
        assert wide_result.get("isError") or wide_result["structuredContent"]["row_count"] <= 1
        assert "fewer columns" in text_of(wide_result) or wide_result["structuredContent"]["truncated"]
        controls = call("query", {"sql": "SELECT v FROM ctl"})
        assert controls["structuredContent"]["truncated"] is True
        call("describe_schema", {"search": "word " * 4000})
        call("describe_schema", {"table": "n" * 20000})
        call("query", {"sql": "SELECT * FROM " + "n" * 20000})
        names: list[str] = []
        arguments: dict = {}
        while True:
            result = call("describe_schema", arguments)
            assert result.get("isError") is not True, text_of(result)
            names += [entry["name"] for entry in result["structuredContent"]["catalog"]]
            if "next_cursor" not in result["structuredContent"]:
                break
            arguments = {"cursor": result["structuredContent"]["next_cursor"]}
        assert len(names) == 62 and "t05" in names
        schema = json.loads(client.request("resources/read", {"uri": "sqlite://schema"}, timeout=60)["result"]["contents"][0]["text"])
        seen = len(schema["tables"])
        for _ in range(100):
            if "next_uri" not in schema:
                break
            response = client.request("resources/read", {"uri": schema["next_uri"]}, timeout=60)
            assert len(client.lines[-1]) <= budget
            schema = json.loads(response["result"]["contents"][0]["text"])
            assert schema["tables"], "every page moves on"
            seen += len(schema["tables"])
        assert seen == 62
        for fmt in ("csv", "jsonl"):
            for sql in ("SELECT rowid FROM ctl", "SELECT v FROM ctl"):
                export = call("export", {"sql": sql, "format": fmt})["structuredContent"]
                for chunk in range(export["chunks"]):
                    client.request("resources/read", {"uri": f"{export['uri']}?chunk={chunk}"}, timeout=60)
                    assert len(client.lines[-1]) <= budget, f"{sql} {fmt} chunk {chunk}: {len(client.lines[-1])}"
    finally:
        client.close()


def test_aggregate_groups_page_with_a_cursor(server) -> None:
    running = server()
    arguments: dict[str, Any] = {"table": "big", "function": "count", "group_by": ["label"]}
    labels: list[str] = []
    while True:
        result = running.call("aggregate", arguments)
        assert result.get("isError") is not True, text_of(result)
        structured = result["structuredContent"]
        labels += [row[0] for row in structured["rows"]]
        if "next_cursor" not in structured:
            break
        assert "aggregate" in text_of(result) and structured["next_cursor"] in text_of(result)
        arguments = {**arguments, "cursor": structured["next_cursor"]}
    assert len(labels) == len(set(labels)) == 10_000
    other = running.call("aggregate", {"table": "big", "function": "count", "group_by": ["grp"], "cursor": arguments["cursor"]})
    assert other["isError"] is True, "a cursor continues only the call it came with"
