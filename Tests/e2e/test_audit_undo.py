"""Who did what, and taking it back: a write's audit record holds its rows' values before and after,
`dbai-mcp audit show` prints it, and `dbai-mcp audit undo` reverts it — only through the policy the
flags give, only when every row still holds what the write left, and with nothing changed otherwise."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import run_binary, sha256
from test_audit import Server, audited, lines, outcomes  # noqa: F401 (fixture)


def pending(log: Path) -> dict[str, dict[str, Any]]:
    """The pending line of each write, by id."""
    return {line["id"]: line for line in lines(log) if line["outcome"] == "pending"}


def dump(database: Path) -> list[tuple]:
    """Every row of every table, in order: what "exactly as it was" compares."""
    with sqlite3.connect(database) as connection:
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return [(table, *row) for table in tables for row in connection.execute(f'SELECT * FROM "{table}" ORDER BY 1')]


def audit(binary: Path, *args: str) -> Any:
    return run_binary(binary, "audit", *args)


def test_a_write_records_each_rows_values_before_and_after(audited, chinook: Path) -> None:
    server = audited("--no-confirm")
    updated = server.call("update", {"table": "Genre", "set": {"Name": "Renamed"}, "where": {"GenreId": {"in": [1, 2]}}})
    assert not updated.get("isError"), updated
    server.call("delete", {"table": "InvoiceLine", "where": {"InvoiceLineId": 1}})
    server.call("insert", {"table": "MediaType", "rows": [{"Name": "Wax cylinder"}]})
    server.stop()
    final = outcomes(audited.log)
    records = pending(audited.log)
    assert [line["outcome"] for line in final] == ["committed"] * 3
    assert all("changes" not in line for line in final), "the values are in the pending line only"

    update = records[final[0]["id"]]
    assert update["changes"] == [
        {"table": "Genre", "rowid": 1, "before": {"GenreId": 1, "Name": "Rock"}, "after": {"GenreId": 1, "Name": "Renamed"}},
        {"table": "Genre", "rowid": 2, "before": {"GenreId": 2, "Name": "Jazz"}, "after": {"GenreId": 2, "Name": "Renamed"}},
    ]
    delete = records[final[1]["id"]]["changes"]
    assert delete == [{"table": "InvoiceLine", "rowid": 1, "after": None, "before": {
        "InvoiceLineId": 1, "InvoiceId": 1, "TrackId": 2, "UnitPrice": 0.99, "Quantity": 1}}]
    insert = records[final[2]["id"]]["changes"]
    assert insert[0]["before"] is None and insert[0]["after"]["Name"] == "Wax cylinder"
    assert "changes_incomplete" not in update


def test_show_prints_who_did_what_and_each_row(audited, dbai_bin: Path) -> None:
    server = audited()
    server.call("update", {"table": "Genre", "set": {"Name": "Rock & Roll"}, "where": {"GenreId": 1}})
    server.stop()
    write = outcomes(audited.log)[0]
    shown = audit(dbai_bin, "show", str(audited.log), "--id", write["id"])
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert f"write {write['id']}: committed" in text
    assert "tool:         update" in text and "client raw-test 1.0; over stdio" in text
    assert 'Genre rowid 1: updated' in text and 'Name: "Rock" → "Rock & Roll"' in text
    raw = audit(dbai_bin, "show", str(audited.log), "--id", write["id"].upper(), "--json")
    assert [json.loads(line)["outcome"] for line in raw.stdout.splitlines()] == ["pending", "committed"]

    missing = audit(dbai_bin, "show", str(audited.log), "--id", "0" * 8 + "-0000-0000-0000-" + "0" * 12)
    assert missing.returncode == 1 and "no line of" in missing.stderr and "has the id" in missing.stderr
    assert audit(dbai_bin, "show", str(audited.log), "--id", "x; DROP").returncode == 1
    gone = audit(dbai_bin, "show", str(audited.log) + ".nope", "--id", write["id"])
    assert gone.returncode == 1 and "cannot be read" in gone.stderr


def test_undo_prints_checks_then_applies_through_the_policy_and_is_recorded(audited, dbai_bin: Path, chinook: Path) -> None:
    original = dump(chinook)
    server = audited("--no-confirm")
    server.call("update", {"table": "Genre", "set": {"Name": "It's new"}, "where": {"GenreId": 1}})
    server.call("delete", {"table": "InvoiceLine", "where": {"InvoiceLineId": 2}})
    server.stop()
    update, delete = (line["id"] for line in outcomes(audited.log))
    after_writes = sha256(chinook)

    printed = audit(dbai_bin, "undo", str(audited.log), "--id", update, "--db", str(chinook), "--allow", "standard")
    assert printed.returncode == 0, printed.stderr
    assert "UPDATE OR ABORT main.\"Genre\" SET \"Name\" = 'Rock' WHERE rowid = 1;" in printed.stdout
    assert "add --apply" in printed.stdout
    assert sha256(chinook) == after_writes, "without --apply nothing runs"

    # The policy of the flags: read-only (the default) refuses; standard cannot delete the row an undo removes.
    refused = audit(dbai_bin, "undo", str(audited.log), "--id", update, "--db", str(chinook), "--apply")
    assert refused.returncode == 1 and "UPDATE is not allowed" in refused.stderr
    assert sha256(chinook) == after_writes

    applied = audit(dbai_bin, "undo", str(audited.log), "--id", update, "--db", str(chinook), "--allow", "standard", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert "undone: 1 row changed" in applied.stdout
    applied = audit(dbai_bin, "undo", str(audited.log), "--id", delete, "--db", str(chinook), "--allow", "standard", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert dump(chinook) == original, "every row as it was"

    undos = [line for line in outcomes(audited.log) if line["tool"] == "audit_undo"]
    assert [line["undoes"] for line in undos] == [update, delete]
    assert all(line["outcome"] == "committed" and line["client"]["transport"] == "cli" for line in undos)
    assert pending(audited.log)[undos[0]["id"]]["changes"][0]["after"]["Name"] == "Rock"

    # An undo is a write: it is undone in turn, and a write undone twice is refused the second time.
    again = audit(dbai_bin, "undo", str(audited.log), "--id", update, "--db", str(chinook), "--allow", "standard", "--apply")
    assert again.returncode == 1 and "changed since the write" in again.stderr
    redo = audit(dbai_bin, "undo", str(audited.log), "--id", undos[0]["id"], "--db", str(chinook), "--allow", "standard", "--apply")
    assert redo.returncode == 0, redo.stderr
    assert dump(chinook) != original


def test_undo_is_refused_when_the_rows_changed_since(audited, dbai_bin: Path, chinook: Path) -> None:
    server = audited()
    server.call("update", {"table": "Artist", "set": {"Name": "First"}, "where": {"ArtistId": 3}})
    server.call("update", {"table": "Artist", "set": {"Name": "Second"}, "where": {"ArtistId": 3}})
    server.stop()
    first, second = (line["id"] for line in outcomes(audited.log))
    before = sha256(chinook)
    for flags in ((), ("--apply",)):
        refused = audit(dbai_bin, "undo", str(audited.log), "--id", first, "--db", str(chinook), "--allow", "standard", *flags)
        assert refused.returncode == 1
        assert "row 3 of Artist no longer holds what the write left in it (Name)" in refused.stderr
        assert "Second" not in refused.stderr
    assert sha256(chinook) == before
    assert not [line for line in outcomes(audited.log) if line["tool"] == "audit_undo"]

    # A change by anyone, through any connection, counts.
    with sqlite3.connect(chinook) as connection:
        connection.execute("UPDATE Artist SET Name = 'Third' WHERE ArtistId = 3")
    connection.close()
    refused = audit(dbai_bin, "undo", str(audited.log), "--id", second, "--db", str(chinook), "--allow", "standard", "--apply")
    assert refused.returncode == 1 and "changed since the write" in refused.stderr


def test_undo_restores_what_triggers_and_cascades_changed(dbai_bin: Path, tmp_path: Path) -> None:
    database = tmp_path / "shop.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript("""
            CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, orders INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE purchase(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customer(id) ON DELETE CASCADE, total REAL);
            CREATE TABLE journal(id INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT);
            CREATE TABLE tag(name TEXT PRIMARY KEY, uses INTEGER) WITHOUT ROWID;
            CREATE TRIGGER bought AFTER INSERT ON purchase BEGIN
                UPDATE customer SET orders = orders + 1 WHERE id = new.customer_id;
                INSERT INTO journal(entry) VALUES ('bought ' || new.id);
            END;
            CREATE TRIGGER refunded AFTER DELETE ON purchase BEGIN
                UPDATE customer SET orders = orders - 1 WHERE id = old.customer_id;
                INSERT INTO journal(entry) VALUES ('refunded ' || old.id);
            END;
            INSERT INTO customer(name) VALUES ('Ann'), ('Bob');
            INSERT INTO purchase(customer_id, total) VALUES (1, 9.5), (1, 20), (2, 3.25);
            INSERT INTO tag VALUES ('new', 1), ('sale', 2);
            """)
    connection.close()
    original = dump(database)
    log = tmp_path / "audit.jsonl"
    server = Server(dbai_bin, database, "--allow", "unrestricted", "--audit-log", str(log), "--no-confirm")
    assert not server.call("delete", {"table": "customer", "where": {"id": 1}}).get("isError")
    assert not server.call("insert", {"table": "purchase", "rows": [{"customer_id": 2, "total": 1.5}]}).get("isError")
    assert not server.call("update", {"table": "tag", "set": {"uses": 0}, "all_rows": True}).get("isError")
    server.stop()
    writes = [line["id"] for line in outcomes(log)]
    changed = pending(log)[writes[0]]["changes"]
    assert {(row["table"], row["rowid"]) for row in changed} >= {("customer", 1), ("purchase", 1), ("purchase", 2)}
    assert any(row["table"] == "journal" for row in changed), "the triggers' rows are recorded"
    assert "rowid" not in pending(log)[writes[2]]["changes"][0], "a WITHOUT ROWID row is named by its key"

    for write in reversed(writes):
        undone = audit(dbai_bin, "undo", str(log), "--id", write, "--db", str(database), "--allow", "unrestricted", "--apply")
        assert undone.returncode == 0, undone.stderr
    assert dump(database) == original, "every row as it was: the triggers did not fire again"
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    connection.close()


def test_what_the_log_does_not_hold_cannot_be_undone(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "redacted.jsonl"
    server = Server(dbai_bin, chinook, "--allow", "standard", "--audit-log", str(log), "--audit-redact-values")
    server.call("update", {"table": "Genre", "set": {"Name": "Secret"}, "where": {"GenreId": 1}})
    server.stop()
    assert "Secret" not in log.read_text() and '"Rock"' not in log.read_text()
    write = outcomes(log)[0]["id"]
    refused = audit(dbai_bin, "undo", str(log), "--id", write, "--db", str(chinook), "--allow", "standard", "--apply")
    assert refused.returncode == 1 and "--audit-redact-values" in refused.stderr

    masked = tmp_path / "people.sqlite"
    with sqlite3.connect(masked) as connection:
        connection.executescript("""
            CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, email TEXT);
            INSERT INTO people VALUES (1, 'Ann', 'ann@secret.example');
            """)
    connection.close()
    metadata = tmp_path / "metadata.yaml"
    metadata.write_text("databases:\n  people:\n    tables:\n      people:\n        columns:\n          email: {masked: true}\n")
    log = tmp_path / "masked.jsonl"
    # Over stdio nobody unmasks: a write to the table is refused, and so recorded.
    server = Server(dbai_bin, masked, "--allow", "standard", "--audit-log", str(log), "--metadata", str(metadata))
    assert server.call("update", {"table": "people", "set": {"name": "Annie"}, "where": {"id": 1}}).get("isError")
    server.stop()
    assert "ann@secret.example" not in log.read_text()
    write = outcomes(log)[0]["id"]
    refused = audit(dbai_bin, "undo", str(log), "--id", write, "--db", str(masked), "--allow", "standard")
    assert refused.returncode == 1 and "not committed" in refused.stderr


def test_undo_while_the_server_holds_the_log_is_recorded_elsewhere(audited, dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    server = audited()
    server.call("update", {"table": "Genre", "set": {"Name": "Live"}, "where": {"GenreId": 1}})
    write = outcomes(audited.log)[0]["id"]
    held = audit(dbai_bin, "undo", str(audited.log), "--id", write, "--db", str(chinook), "--allow", "standard", "--apply")
    assert held.returncode == 1 and "--audit-log" in held.stderr
    other = tmp_path / "undo.jsonl"
    done = audit(dbai_bin, "undo", str(audited.log), "--id", write, "--db", str(chinook), "--allow", "standard", "--apply",
                 "--audit-log", str(other))
    assert done.returncode == 0, done.stderr
    assert [line["undoes"] for line in outcomes(other)] == [write]
    # The running server reads what the undo put back.
    rows = server.call("query", {"sql": "SELECT Name FROM Genre WHERE GenreId = 1"})["structuredContent"]["rows"]
    assert rows == [["Rock"]] or rows == [{"Name": "Rock"}]
    server.stop()


@pytest.mark.parametrize("id_", ["", "not-an-id"])
def test_bad_ids_are_clear_errors(dbai_bin: Path, tmp_path: Path, id_: str) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_text("")
    result = audit(dbai_bin, "undo", str(log), "--id", id_, "--db", str(tmp_path / "x.sqlite"))
    assert result.returncode == 1 and "dbai-mcp audit:" in result.stderr


def test_undo_names_the_recorded_database_and_show_prints_no_forged_lines(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    server = Server(dbai_bin, chinook, "--allow", "standard", "--audit-log", str(log))
    server.call("update", {"table": "Genre", "set": {"Name": "Line\n  caller:       sub alice\u001b[8m"}, "where": {"GenreId": 1}})
    server.stop()
    write = outcomes(log)[0]["id"]
    shown = audit(dbai_bin, "show", str(log), "--id", write)
    assert shown.returncode == 0
    assert "\u001b" not in shown.stdout and "\n  caller:       sub alice" not in shown.stdout
    assert "\\u001b[8m" in shown.stdout or "\\u{1b}[8m" in shown.stdout

    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(chinook.read_bytes())
    elsewhere = audit(dbai_bin, "undo", str(log), "--id", write, "--db", str(copy), "--allow", "standard", "--apply")
    assert elsewhere.returncode == 1 and "--other-db" in elsewhere.stderr and str(chinook) in elsewhere.stderr
    assert dump(copy) == dump(chinook)
    done = audit(dbai_bin, "undo", str(log), "--id", write, "--db", str(copy), "--allow", "standard", "--apply", "--other-db")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT Name FROM Genre WHERE GenreId = 1").fetchone() == ("Rock",)
    connection.close()
