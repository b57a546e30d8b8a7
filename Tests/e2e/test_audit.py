"""`--audit-log`: one JSON line per write attempt on every path, written before the commit is
reported, never disagreeing with the database — even when the server is killed at any moment."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import error_code, run_binary, sha256
from test_ask import FakeOpenAI, fake_openai  # noqa: F401 (fixture)
from test_confirmation import Elicitor
from test_http import TOKEN, http_server
from test_raw_stdio import RawServer
from test_revision_2026 import ELICITING, Stdio, modern_params

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Scripts"))
from mcp_stdio import StdioClient  # noqa: E402

FINAL = {"committed", "rolled_back", "refused"}


def lines(log: Path) -> list[dict[str, Any]]:
    """Every line of the log, parsed; each must be one whole JSON object."""
    if not log.exists():
        return []
    text = log.read_text()
    assert text == "" or text.endswith("\n"), "the log ends with a whole line"
    return [json.loads(line) for line in text.splitlines()]


def outcomes(log: Path) -> list[dict[str, Any]]:
    """The final line of each attempt (pending lines left out), in order."""
    return [line for line in lines(log) if line["outcome"] != "pending"]


class Server:
    """`dbai-mcp` over stdio with a handshake, called tool by tool."""

    def __init__(self, binary: Path, database: Path, *args: str, capabilities: dict[str, Any] | None = None) -> None:
        self.raw = RawServer(binary, database, *args)
        self.raw.initialize(capabilities=capabilities)
        self.next_id = 0

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        request_id = self.next_id
        self.raw.request(request_id, "tools/call", {"name": name, "arguments": arguments})
        return self.raw.wait_for(lambda message: message.get("id") == request_id and "method" not in message)["result"]

    def stop(self) -> None:
        self.raw.stop()


@pytest.fixture
def audited(dbai_bin: Path, chinook: Path, tmp_path: Path):
    """`audited(*flags)`: a server writing `tmp_path/audit.jsonl`; stopped at the end."""
    started: list[Server] = []
    log = tmp_path / "audit.jsonl"

    def start(*args: str) -> Server:
        server = Server(dbai_bin, chinook, "--allow", "unrestricted", "--audit-log", str(log), *args)
        started.append(server)
        return server

    start.log = log  # type: ignore[attr-defined]
    yield start
    for server in started:
        server.stop()


def rows(database: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(database) as connection:
        return connection.execute(sql).fetchall()


# MARK: - What a line records


def test_each_write_attempt_ends_in_one_line_with_its_outcome(audited, chinook: Path) -> None:
    server = audited()
    log: Path = audited.log
    inserted = server.call("insert", {"table": "Genre", "rows": [{"Name": "Audited"}]})
    assert not inserted.get("isError")
    assert server.call("insert", {"table": "Genre", "rows": [{"GenreId": 1, "Name": "Twice"}]})["isError"]
    preview = server.call("delete", {"table": "Genre", "where": {"Name": "Audited"}})["structuredContent"]
    deleted = server.call("delete", {"table": "Genre", "where": {"Name": "Audited"}, "confirm": preview["confirmation_token"]})
    assert deleted["structuredContent"]["rows_affected"] == 1
    assert server.call("update", {"table": "Genre", "set": {"Name": "x"}})["isError"]  # no where, no all_rows
    server.call("query", {"sql": "SELECT count(*) FROM Genre"})
    server.stop()

    assert log.stat().st_mode & 0o077 == 0, "the log is the user's alone"
    final = outcomes(log)
    assert [(line["tool"], line["outcome"]) for line in final] == [
        ("insert", "committed"), ("insert", "rolled_back"), ("delete", "refused"), ("delete", "committed"), ("update", "refused"),
    ], "one final line per write attempt; reads are not recorded"
    assert len({line["id"] for line in final}) == 5

    committed = final[0]
    assert committed["v"] == 1 and committed["kind"] == "write"
    assert committed["database"] == {"name": "chinook", "file": str(chinook.resolve())}
    assert committed["client"] == {"transport": "stdio", "name": "raw-test", "version": "1.0", "protocol": "2025-11-25"}
    assert committed["statements"] == [{"sql": 'INSERT INTO "Genre" ("Name") VALUES (?)', "values": ["Audited"]}]
    assert committed["confirmation"] == "not_needed"
    new_id = inserted["structuredContent"]["last_insert_rowid"]
    assert rows(chinook, "SELECT count(*) FROM Genre WHERE GenreId = ?".replace("?", str(new_id))) == [(0,)], "deleted since"
    assert committed["rows_affected"] == 1 and committed["last_insert_rowid"] == new_id
    assert committed["rowids"] == {"Genre": [new_id]} and committed["rows_digest"].startswith("fnv1a64:")
    assert time.strptime(committed["time"], "%Y-%m-%dT%H:%M:%S.%f%z")

    assert final[1]["code"] == "sqlite_error" and "UNIQUE" in final[1]["message"]
    assert final[2]["code"] == "confirmation_required" and final[2]["confirmation"] == "token"
    assert final[3]["confirmation"] == "token" and final[3]["rowids"] == {"Genre": [new_id]}
    assert final[4]["code"] == "missing_filter"

    # A committed write is preceded by its pending line (same id, same statement).
    every = lines(log)
    for line in (final[0], final[3]):
        pending = [entry for entry in every if entry["id"] == line["id"]]
        assert [entry["outcome"] for entry in pending] == ["pending", "committed"]
        assert pending[0]["statements"] == line["statements"]
    assert all(entry["outcome"] in FINAL | {"pending"} for entry in every)


def test_an_unknown_tool_argument_or_a_refused_table_is_a_refused_attempt(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    server = Server(dbai_bin, chinook, "--allow", "standard", "--write-tables", "Genre", "--audit-log", str(log))
    try:
        result = server.call("insert", {"table": "Artist", "rows": [{"Name": "Nobody"}]})
        assert result["isError"]
        server.call("update", {"sql": "UPDATE Artist SET Name = 'x' WHERE ArtistId = 1"})
    finally:
        server.stop()
    final = outcomes(log)
    assert [line["outcome"] for line in final] == ["refused", "refused"]
    assert all(line["code"] in {"write_not_allowed", "table_not_allowed"} for line in final), final
    assert rows(chinook, "SELECT Name FROM Artist WHERE ArtistId = 1") == [("AC/DC",)]


def test_reads_are_recorded_only_with_audit_reads(audited) -> None:
    server = audited("--audit-reads")
    server.call("query", {"sql": "SELECT Name FROM Genre WHERE GenreId = ?", "params": [1]})
    server.call("query", {"sql": "SELECT * FROM nowhere"})
    server.call("describe_schema", {})
    server.stop()
    final = lines(audited.log)
    assert [(line["kind"], line["tool"], line["outcome"]) for line in final] == [
        ("read", "query", "read"), ("read", "query", "failed"), ("read", "describe_schema", "read")]
    assert final[0]["sql"] == "SELECT Name FROM Genre WHERE GenreId = ?" and final[0]["values"] == [1]
    assert final[0]["row_count"] == 1 and final[0]["arguments"] == ["params", "sql"]
    assert "confirmation" not in final[0] and "statements" not in final[0]
    assert final[1]["code"] == "invalid_sql" or final[1]["code"]


def test_redacted_values_keep_their_type_and_length(audited) -> None:
    server = audited("--audit-redact-values")
    server.call("insert", {"sql": "INSERT INTO Genre (Name, GenreId) VALUES (?, ?)", "params": ["Secret name", 4242]})
    server.call("insert", {"sql": "INSERT INTO Genre (Name) VALUES (:name)", "params": {"name": None}})
    server.stop()
    text = audited.log.read_text()
    assert "Secret name" not in text
    final = outcomes(audited.log)
    assert final[0]["statements"][0]["values"] == [{"type": "text", "length": 11}, {"type": "integer", "length": 4}]
    assert final[1]["statements"][0]["values"] == {"name": {"type": "null"}}


@pytest.mark.anyio
async def test_an_elicitation_confirmed_delete_says_so(server, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    async with server("--allow", "unrestricted", "--audit-log", str(log), elicitation_callback=Elicitor("accept", {"confirm": True})) as connection:
        await connection.call("delete", {"table": "InvoiceLine", "where": {"InvoiceId": 1}})
    async with server("--allow", "unrestricted", "--audit-log", str(log), elicitation_callback=Elicitor("decline")) as connection:
        await connection.call("delete", {"table": "InvoiceLine", "where": {"InvoiceId": 2}})
    final = outcomes(log)
    assert [(line["outcome"], line["confirmation"]) for line in final] == [("committed", "elicitation"), ("refused", "elicitation")]
    assert final[0]["rows_affected"] == 2 and len(final[0]["rowids"]["InvoiceLine"]) == 2
    assert final[1]["code"] == "confirmation_declined"
    assert final[0]["client"]["transport"] == "stdio" and final[0]["client"]["name"]


def test_the_2026_retry_and_no_confirm_are_named(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    modern = Stdio(dbai_bin, chinook, "--allow", "unrestricted", "--audit-log", str(log))
    try:
        call = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": 1}}}
        first = modern.call("tools/call", modern_params(call, ELICITING, **{"io.modelcontextprotocol/clientInfo": {"name": "new", "version": "9"}}))
        state = first["result"]["requestState"]
        modern.call("tools/call", modern_params(
            {**call, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}}, "requestState": state}, ELICITING))
    finally:
        modern.stop()
    unconfirmed = Server(dbai_bin, chinook, "--allow", "unrestricted", "--no-confirm", "--audit-log", str(log))
    try:
        unconfirmed.call("delete", {"table": "InvoiceLine", "where": {"InvoiceId": 2}})
        unconfirmed.call("insert", {"table": "Genre", "rows": [{"Name": "Free"}]})
    finally:
        unconfirmed.stop()
    final = outcomes(log)
    assert [(line["outcome"], line.get("confirmation"), line.get("code")) for line in final] == [
        ("refused", "retry", "confirmation_required"), ("committed", "retry", None),
        ("committed", "no_confirm", None), ("committed", "not_needed", None)]
    assert final[0]["client"] == {"transport": "stdio", "name": "new", "version": "9", "protocol": "2026-07-28"}


def test_canned_writes_and_the_writes_ask_proposed_are_recorded(dbai_bin: Path, chinook: Path, tmp_path: Path, fake_openai: str) -> None:
    metadata = tmp_path / "metadata.json"
    metadata.write_text(json.dumps({"databases": {"chinook": {"queries": {
        "rename_genre": {"sql": "UPDATE Genre SET Name = :name WHERE GenreId = :id", "write": True}}}}}))
    log = tmp_path / "audit.jsonl"
    FakeOpenAI.sql = "INSERT INTO Genre (Name) VALUES ('Asked for')"
    flags = ["--allow", "unrestricted", "--metadata", str(metadata), "--audit-log", str(log),
             "--llm", "openai-compatible:local", "--llm-base-url", fake_openai]
    server = Server(dbai_bin, chinook, *flags)
    try:
        assert not server.call("rename_genre", {"name": "Renamed", "id": "1"}).get("isError")
        refused = server.call("ask", {"question": "Add a genre called Asked for"})
        assert refused["isError"], "a model's write without elicitation is not run"
    finally:
        server.stop()
    unconfirmed = Server(dbai_bin, chinook, *flags, "--no-confirm")
    try:
        assert not unconfirmed.call("ask", {"question": "Add a genre called Asked for"}).get("isError")
        FakeOpenAI.sql = "DROP TABLE Genre"
        assert unconfirmed.call("ask", {"question": "Remove the genres table"})["isError"]
    finally:
        unconfirmed.stop()
    final = outcomes(log)
    assert [(line["tool"], line["outcome"], line.get("confirmation")) for line in final] == [
        ("rename_genre", "committed", "not_needed"), ("ask", "refused", None), ("ask", "committed", "no_confirm"),
        ("ask", "refused", None)]
    assert final[3]["statements"] == [{"sql": "DROP TABLE Genre", "values": []}], "a statement refused whatever the policy counts"
    assert final[0]["statements"][0]["values"] == {"id": "1", "name": "Renamed"}
    assert final[1]["code"] == "confirmation_required"
    assert final[1]["statements"] == [{"sql": "INSERT INTO Genre (Name) VALUES ('Asked for')", "values": []}] == final[2]["statements"]
    assert rows(chinook, "SELECT count(*) FROM Genre WHERE Name = 'Asked for'") == [(1,)]


def test_a_write_sent_through_a_read_path_is_a_refused_write_attempt(
    dbai_bin: Path, chinook: Path, tmp_path: Path, fake_openai: str
) -> None:
    """`query` with `DELETE …` on a read-only server is refused and recorded, like any other write
    attempt; so are `export`, a hidden table's write, DDL, and a write `ask`'s model proposed."""
    log = tmp_path / "audit.jsonl"
    FakeOpenAI.sql = "DELETE FROM Track"
    apps = {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}
    server = Server(dbai_bin, chinook, "--audit-log", str(log), "--tables", "Genre,Artist,Track",
                    "--llm", "openai-compatible:local", "--llm-base-url", fake_openai, capabilities=apps)
    before = sha256(chinook)
    writes = [
        "DELETE FROM Invoice",  # a hidden table
        "DROP TABLE Genre", "ATTACH ':memory:' AS other", "PRAGMA foreign_keys = OFF", "PRAGMA optimize",
        "SELECT 1; DELETE FROM Genre", "WITH doomed AS (SELECT 1) DELETE FROM Genre", "REPLACE INTO Genre VALUES (1, 'x')",
    ]
    try:
        assert server.call("query", {"sql": "DELETE FROM Genre WHERE GenreId = ?", "params": [1]})["isError"]
        assert server.call("export", {"sql": "UPDATE Artist SET Name = 'x'"})["isError"]
        assert server.call("view_rows", {"sql": "DELETE FROM Genre WHERE GenreId = 2"})["isError"]
        for sql in writes:
            assert server.call("query", {"sql": sql})["isError"], sql
        assert server.call("ask", {"question": "Remove every track"})["isError"]
        FakeOpenAI.sql = "DELETE FROM Invoice"
        assert server.call("ask", {"question": "Remove every invoice"})["isError"]
        # Not write attempts: reads, refused reads, SQL that does not compile, EXPLAIN.
        for sql in ["SELECT * FROM Invoice", "DELETE FROM", "EXPLAIN DELETE FROM Genre", "EXPLAIN QUERY PLAN DELETE FROM Genre", "PRAGMA table_info(Invoice)", "PRAGMA index_list(Invoice)",
                    "SELECT 1; SELECT 2"]:
            assert server.call("query", {"sql": sql})["isError"], sql
        for sql in ["SELECT count(*) FROM Genre", "PRAGMA user_version"]:
            assert not server.call("query", {"sql": sql}).get("isError"), sql
    finally:
        server.stop()
    assert sha256(chinook) == before
    final = outcomes(log)
    assert [(line["tool"], line["kind"], line["outcome"]) for line in final] == [
        ("query", "write", "refused"), ("export", "write", "refused"), ("view_rows", "write", "refused"),
        *[("query", "write", "refused")] * len(writes), ("ask", "write", "refused"), ("ask", "write", "refused")]
    assert final[0]["statements"] == [{"sql": "DELETE FROM Genre WHERE GenreId = ?", "values": [1]}]
    assert final[0]["code"] == "operation_not_allowed" and final[0]["database"]["name"] == "chinook"
    assert [line["statements"][0]["sql"] for line in final[3:3 + len(writes)]] == writes
    assert final[-2]["statements"] == [{"sql": "DELETE FROM Track", "values": []}]
    assert final[-1]["statements"] == [{"sql": "DELETE FROM Invoice", "values": []}], "a model's write to a hidden table"
    assert all("changes" not in line for line in lines(log)), "nothing ran: no rows"

    # Where the policy allows the write, the read path still refuses it; with --audit-reads the
    # call's line is that write attempt, not a failed read.
    log.unlink()
    server = Server(dbai_bin, chinook, "--allow", "unrestricted", "--audit-log", str(log), "--audit-reads")
    try:
        assert server.call("query", {"sql": "DELETE FROM Genre"})["isError"]
        assert not server.call("query", {"sql": "SELECT 1"}).get("isError")
    finally:
        server.stop()
    assert sha256(chinook) == before
    assert [(line["kind"], line["outcome"], line.get("code")) for line in outcomes(log)] == [
        ("write", "refused", "unexpected_operation"), ("read", "read", None)]


def test_http_lines_name_the_session_and_the_token_digest(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with http_server(dbai_bin, chinook, "--allow", "unrestricted", "--audit-log", str(log)) as server:
        session = server.raw()
        session.initialize()
        session.call(1, "insert", {"table": "Genre", "rows": [{"Name": "Over HTTP"}]})
        session_id = session.session_id
    text = log.read_text()
    assert TOKEN not in text
    line = outcomes(log)[0]
    assert line["client"] == {
        "transport": "http", "name": "raw", "version": "1", "protocol": "2025-11-25", "session": session_id,
        "token_sha256": hashlib.sha256(TOKEN.encode()).hexdigest()}


# MARK: - The log and the database never disagree


def test_an_unusable_log_is_a_start_up_error(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    directory = tmp_path / "a-directory"
    directory.mkdir()
    device = tmp_path / "full"
    device.symlink_to("/dev/full")
    read_only = tmp_path / "read-only.jsonl"
    read_only.write_text("")
    read_only.chmod(0o444)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nthe last line, without a newline")
    config = tmp_path / "config.json"
    config.write_text('{"a": 1}')
    for path, fragment in [
        (read_only, "read-only"),
        (notes, "not a dbai-mcp audit log"),
        (config, "not a dbai-mcp audit log"),
        (chinook, "not a dbai-mcp audit log"),
        (tmp_path / "missing" / "audit.jsonl", "a new file"),
        (tmp_path / "missing" / "audit.jsonl", "cannot be opened"),
        (directory, "cannot be opened"),
        (device, "not a regular file"),
    ]:
        result = run_binary(dbai_bin, "--db", str(chinook), "--allow", "standard", "--audit-log", str(path))
        assert result.returncode != 0, path
        assert "--audit-log" in result.stderr and fragment in result.stderr, result.stderr
    assert notes.read_text() == "my notes\nthe last line, without a newline", "a file of another kind is left as it was"
    assert config.read_text() == '{"a": 1}'
    result = run_binary(dbai_bin, "--db", str(chinook), "--audit-reads")
    assert result.returncode != 0 and "need --audit-log" in result.stderr


def test_a_log_held_by_another_server_is_a_start_up_error(audited, dbai_bin: Path, chinook: Path) -> None:
    audited()
    result = run_binary(dbai_bin, "--db", str(chinook), "--allow", "standard", "--audit-log", str(audited.log))
    assert result.returncode != 0 and "another dbai-mcp process" in result.stderr


@pytest.mark.parametrize("breakage", ["read-only", "full device", "directory"])
def test_a_log_that_becomes_unwritable_turns_writes_into_refusals(audited, chinook: Path, breakage: str) -> None:
    server = audited()
    log: Path = audited.log
    assert not server.call("insert", {"table": "Genre", "rows": [{"Name": "Before"}]}).get("isError")
    before_lines = log.read_text()
    kept = log.with_suffix(".kept")
    if breakage == "read-only":
        log.chmod(0o444)
    else:
        log.rename(kept)
    if breakage == "full device":
        log.symlink_to("/dev/full")
    elif breakage == "directory":
        log.mkdir()
    before = sha256(chinook)
    for call in [
        ("insert", {"table": "Genre", "rows": [{"Name": "During"}]}),
        ("update", {"table": "Genre", "set": {"Name": "During"}, "where": {"GenreId": 1}}),
    ]:
        result = server.call(*call)
        assert result["isError"] and result["_meta"]["io.github.swiftdbai/error_code"] == "audit_log_failed", result
        assert "nothing was changed" in result["content"][0]["text"]
    assert sha256(chinook) == before, "a write that cannot be recorded is not committed"
    assert rows(chinook, "SELECT count(*) FROM Genre WHERE Name = 'During'") == [(0,)]
    # Writable again: writes resume (in a new file at the same path when the old one was moved).
    if breakage == "read-only":
        assert log.read_text() == before_lines, "nothing was added to the read-only file"
        log.chmod(0o600)
    else:
        log.unlink() if log.is_symlink() else log.rmdir()
    assert not server.call("insert", {"table": "Genre", "rows": [{"Name": "After"}]}).get("isError")
    if breakage == "read-only":
        assert lines(log)[:2] == [json.loads(line) for line in before_lines.splitlines()]
        assert [line["outcome"] for line in lines(log)[2:]] == ["pending", "committed"]
    else:
        assert kept.read_text() == before_lines
        assert [line["outcome"] for line in lines(log)] == ["pending", "committed"]


def lines_after_kill(log: Path) -> list[dict[str, Any]]:
    """The whole lines of a log whose writer was just killed. Its last line may be cut short: Linux
    stops a write to a file between pages when the process gets SIGKILL, so even one `write` per
    line can leave part of one. The next start cuts that part off (checked by `lines` after it)."""
    text = log.read_text() if log.exists() else ""
    whole, _, unfinished = text.rpartition("\n")
    # What follows the last newline is not a line yet (even if its JSON is whole: its newline is not).
    assert unfinished == "" or unfinished.startswith("{"), "only the last line is unfinished"
    return [json.loads(line) for line in whole.splitlines()]


def cut_last_outcome_short(log: Path) -> None:
    """Does what the kernel may do to a writer killed in the middle of its last line, when that line
    is an outcome (written after its commit): leaves only its first half."""
    data = log.read_bytes()
    if not data.endswith(b"\n"):
        return  # the kill already cut it
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    if json.loads(data[start:])["outcome"] != "committed":
        return
    with log.open("r+b") as file:
        file.truncate(start + (len(data) - start) // 2)


def check_agreement(database: Path, log: Path, *, just_killed: bool = False) -> None:
    """Every row the stream wrote has a line with its value; every committed line's row is there."""
    in_database = {name for (name,) in rows(database, "SELECT Name FROM Genre WHERE Name LIKE 'kill-%'")}
    every = lines_after_kill(log) if just_killed else lines(log)
    recorded = {line["statements"][0]["values"][0]: line for line in every if line.get("kind") == "write"}
    missing = in_database - set(recorded)
    assert not missing, f"committed without a line: {sorted(missing)[:5]}"
    committed = {value for value, line in recorded.items() if any(
        entry["outcome"] == "committed" for entry in every if entry["id"] == line["id"])}
    assert committed <= in_database, f"lines say committed, the database has not: {sorted(committed - in_database)[:5]}"


def test_kill_9_at_random_moments_never_leaves_the_log_and_the_database_disagreeing(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    generator = random.Random(34)
    counter = 0
    kills = int(os.environ.get("DBAI_AUDIT_KILLS", "24"))
    for round_number in range(kills):
        client = StdioClient([str(dbai_bin), "--db", str(chinook), "--allow", "standard", "--audit-log", str(log)], subprocess.DEVNULL)
        client.initialize()
        # A stream of writes sent without waiting, killed at a random moment.
        for _ in range(40):
            counter += 1
            client.send_request("tools/call", {"name": "insert", "arguments": {"table": "Genre", "rows": [{"Name": f"kill-{counter}"}]}})
        time.sleep(generator.uniform(0.0, 0.06))
        client.popen.kill()
        client.popen.wait()
        if round_number % 3 == 2:
            cut_last_outcome_short(log)
        # Right after the kill, before any restart: what the log says committed is in the database, and
        # every row written has its line (a line the kill cut short is not counted).
        check_agreement(chinook, log, just_killed=True)
    # A restart completes the log: no write is left pending.
    server = Server(dbai_bin, chinook, "--allow", "standard", "--audit-log", str(log))
    server.stop()
    every = lines(log)
    ids = {line["id"] for line in every}
    finals = {line["id"] for line in every if line["outcome"] != "pending"}
    assert ids == finals, "each pending write got its outcome at the next start"
    check_agreement(chinook, log)
    names = {name for (name,) in rows(chinook, "SELECT Name FROM Genre WHERE Name LIKE 'kill-%'")}
    committed = {line["statements"][0]["values"][0] for line in every if line["outcome"] == "committed"}
    assert names == committed, "after the restart the committed lines are exactly the rows"
    assert names, "some writes committed"


def test_rotation_keeps_every_line_whole(audited, chinook: Path) -> None:
    server = audited("--audit-log-max-mb", "1")
    value = "x" * 150_000
    for number in range(16):
        assert not server.call("insert", {"table": "Genre", "rows": [{"Name": f"{number}-{value}"}]}).get("isError")
    server.stop()
    log: Path = audited.log
    rotated = sorted(log.parent.glob("audit.jsonl.*"), key=lambda path: int(path.suffix[1:]) if path.suffix[1:].isdigit() else 0)
    rotated = [path for path in rotated if path.suffix[1:].isdigit()]
    assert len(rotated) >= 2, [path.name for path in log.parent.iterdir()]
    files = list(reversed(rotated)) + [log]  # oldest first
    every: list[dict[str, Any]] = []
    for path in files:
        assert path.stat().st_size <= (1 << 20) or len(lines(path)) == 1, path
        file_lines = lines(path)
        # A write's pending line and its outcome are in one file.
        assert {line["id"] for line in file_lines if line["outcome"] == "pending"} <= {
            line["id"] for line in file_lines if line["outcome"] == "committed"}
        every += file_lines
    numbers = [int(line["statements"][0]["values"][0].split("-")[0]) for line in every if line["outcome"] == "committed"]
    assert numbers == list(range(16)), "no line lost, in order across the files"
