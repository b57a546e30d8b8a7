"""Masked and hidden columns of the metadata file (`columns: {email: {masked: true}, ssn: {hidden: true}}`):
a masked column reads as NULL to everyone but an OAuth caller granted `dbai:unmask` (over stdio and
with the static token too), a hidden one is absent for everyone, on every path — query, aggregate,
canned queries, export files, the schema, resources, `ask` and its model, the audit log."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
import pytest

from conftest import assert_tool_error, assert_tool_ok, connect, run_binary
from oauth_fixture import AuthorizationServerHandle, authorization_server
from test_ask import FakeOpenAI, fake_openai  # noqa: F401 (the fixture is used by name)
from test_oauth import STATELESS, call, resource_server, result, stateless
from test_http import HTTPServer

pytestmark = pytest.mark.anyio

SECRETS = ["ann@secret.example", "secret.example", "bob@hidden.example", "hidden.example", "111-22-3333", "444-55-6666"]

METADATA = """
databases:
  people:
    tables:
      people:
        description: Customers
        columns:
          email: {masked: true, description: Where receipts go}
          ssn: {hidden: true}
          name: The customer's name
    queries:
      by_name:
        sql: SELECT * FROM people WHERE name = :name
        title: A customer by name
"""


@pytest.fixture
def people(tmp_path: Path) -> tuple[Path, Path]:
    """A database with a masked and a hidden column, a view over each, an FTS index over the masked
    one, and the metadata file that protects them."""
    path = tmp_path / "people.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript("""
            CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, email TEXT, ssn TEXT);
            CREATE TABLE orders(id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES people(id), note TEXT);
            CREATE VIEW contacts AS SELECT id, name, email FROM people;
            CREATE VIEW identities AS SELECT name, ssn FROM people;
            CREATE VIRTUAL TABLE people_fts USING fts5(name, email, content='people', content_rowid='id');
            INSERT INTO people VALUES (1, 'Ann', 'ann@secret.example', '111-22-3333');
            INSERT INTO people VALUES (2, 'Bob', 'bob@hidden.example', '444-55-6666');
            INSERT INTO people_fts(rowid, name, email) SELECT id, name, email FROM people;
            INSERT INTO orders VALUES (1, 1, 'first');
            """)
    connection.close()
    metadata = tmp_path / "metadata.yaml"
    metadata.write_text(METADATA)
    return path, metadata


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret} leaked: {text[:2000]}"


ATTACKS = [
    "SELECT * FROM people",
    "SELECT email FROM people",
    "SELECT * FROM contacts",
    "WITH c AS (SELECT email FROM people) SELECT * FROM c",
    "SELECT name FROM people WHERE id IN (SELECT id FROM people WHERE email LIKE 'ann%')",
    "SELECT (SELECT email FROM people WHERE id = 1) AS e",
    "SELECT json_group_array(email) FROM people",
    "SELECT group_concat(email, ';') FROM people",
    "SELECT printf('%s', email) FROM people",
    "SELECT name FROM people WHERE email LIKE 'ann%'",
    "SELECT count(*) FROM people WHERE substr(email, 1, 1) = 'a'",
    "SELECT * FROM pragma_table_info('people')",
    "SELECT ssn FROM people",
    "SELECT * FROM identities",
    "SELECT * FROM people_fts WHERE people_fts MATCH 'secret'",
    "SELECT * FROM people_fts_data",
    "SELECT sql FROM sqlite_schema",
]


async def test_over_stdio_masked_columns_read_as_null_and_hidden_ones_are_absent(
    dbai_bin: Path, people: tuple[Path, Path], tmp_path: Path
) -> None:
    database, metadata = people
    log = tmp_path / "audit.jsonl"
    async with connect(
        dbai_bin, database, "--metadata", str(metadata), "--allow", "standard", "--audit-log", str(log), "--audit-reads",
    ) as connection:
        seen = ""
        for sql in ATTACKS:
            outcome = await connection.call("query", {"sql": sql})
            seen += json.dumps(outcome.model_dump(mode="json"))
        assert_no_secret(seen)
        for sql in ["SELECT * FROM people_fts WHERE people_fts MATCH 'secret'", "SELECT * FROM people_fts_data",
                    "SELECT ssn FROM people", "SELECT * FROM identities", "SELECT sql FROM sqlite_schema"]:
            assert (await connection.call("query", {"sql": sql})).isError, sql
        for sql in ["SELECT name FROM people WHERE id IN (SELECT id FROM people WHERE email LIKE 'ann%')",
                    "SELECT count(*) AS n FROM people WHERE substr(email, 1, 1) = 'a' HAVING n > 0"]:
            assert assert_tool_ok(await connection.call("query", {"sql": sql}))["rows"] == [], sql
        ordered = assert_tool_ok(await connection.call("query", {"sql": "SELECT id FROM people ORDER BY email, id"}))
        assert ordered["rows"] == [[1], [2]]
        rows = assert_tool_ok(await connection.call("query", {"sql": "SELECT * FROM people ORDER BY id"}))
        assert [column["name"] for column in rows["columns"]] == ["id", "name", "email"]
        assert rows["rows"] == [[1, "Ann", None], [2, "Bob", None]]
        assert assert_tool_ok(await connection.call("query", {"sql": "SELECT name FROM people WHERE email LIKE 'ann%'"}))["rows"] == []
        assert_tool_error(await connection.call("query", {"sql": "SELECT ssn FROM people"}), "no such column")
        counted = assert_tool_ok(await connection.call("aggregate", {"table": "people", "function": "count", "column": "email"}))
        assert counted["rows"] == [[0]]
        canned = assert_tool_ok(await connection.call("by_name", {"name": "Ann"}))
        assert canned["rows"] == [[1, "Ann", None]]
        schema = await connection.call("describe_schema", {"table": "people"})
        text = json.dumps(schema.model_dump(mode="json"))
        assert "ssn" not in text.lower() and '"masked": true' in text
        assert "identities" not in json.dumps((await connection.call("describe_schema", {})).model_dump(mode="json"))
        resources = await connection.session.list_resources()
        for resource in resources.resources:
            content = await connection.session.read_resource(resource.uri)
            assert "ssn" not in json.dumps(content.model_dump(mode="json")).lower()
        export = assert_tool_ok(await connection.call("export", {"sql": "SELECT * FROM people"}))
        exported = await connection.session.read_resource(export["uri"])
        assert exported.contents[0].text.startswith("id,name,email\r\n")
        assert_no_secret(exported.contents[0].text)
        # Over stdio nobody may unmask: a table with protected columns is not written, and no write
        # reads a masked column; other tables are.
        for arguments in [
            {"table": "people", "set": {"email": "ann@new.example"}, "where": {"id": 1}},
            {"table": "people", "set": {"name": "X"}, "where": {"id": 1}},
        ]:
            assert_tool_error(await connection.call("update", arguments), "not accessible")
        assert_tool_error(await connection.call(
            "insert", {"sql": "INSERT INTO orders(person_id, note) SELECT id, email FROM people"}), "masked")
        assert_tool_ok(await connection.call("update", {"table": "orders", "set": {"note": "new@note.example"}, "where": {"id": 1}}))
    with sqlite3.connect(database) as check:
        assert check.execute("SELECT email, name FROM people WHERE id = 1").fetchone() == ("ann@secret.example", "Ann")
        assert check.execute("SELECT note FROM orders").fetchall() == [("new@note.example",)]
    audit = log.read_text()
    assert_no_secret(audit)
    # The values bound to writes are recorded as masked (a statement does not say which column each is
    # for): the new note is not among them. The rows' values are recorded by column: the note's, of a
    # column nobody protects, as it is.
    entries = [json.loads(line) for line in audit.splitlines()]
    assert "new@note.example" not in json.dumps([entry.get("statements") for entry in entries])
    assert '{"masked":true}' in audit
    changes = [entry["changes"] for entry in entries if entry["outcome"] == "pending"]
    assert changes == [[{"table": "orders", "rowid": 1, "before": {"id": 1, "person_id": 1, "note": "first"},
                         "after": {"id": 1, "person_id": 1, "note": "new@note.example"}}]]


async def test_the_metadata_must_name_real_columns_and_one_rule_each(dbai_bin: Path, people: tuple[Path, Path], tmp_path: Path) -> None:
    database, _ = people
    cases = {
        "columns: {mail: {masked: true}}": "no column mail",
        "columns: {email: {masked: yes please}}": "must be true or false",
        "columns: {email: {secret: true}}": "is not a key of a column",
        "columns: {email: {masked: true, hidden: true}}": "not both",
        "columns: {id: {masked: true}}": "INTEGER PRIMARY KEY",
    }
    for columns, message in cases.items():
        metadata = tmp_path / "bad.yaml"
        metadata.write_text(f"databases:\n  people:\n    tables:\n      people:\n        {columns}\n")
        outcome = run_binary(dbai_bin, "--db", str(database), "--metadata", str(metadata))
        assert outcome.returncode != 0 and message in outcome.stderr, (columns, outcome.stderr)
    view = tmp_path / "view.yaml"
    view.write_text("databases:\n  people:\n    tables:\n      contacts:\n        columns: {email: {masked: true}}\n")
    outcome = run_binary(dbai_bin, "--db", str(database), "--metadata", str(view))
    assert outcome.returncode != 0 and "only a table's columns" in outcome.stderr


def read_resource(server: HTTPServer, token: str, uri: str) -> tuple[int, dict[str, str], bytes]:
    """A stateless resources/read (its Mcp-Name header is the URI)."""
    headers = {"MCP-Protocol-Version": STATELESS, "Mcp-Method": "resources/read", "Mcp-Name": uri}
    return server.raw().request("POST", stateless("resources/read", {"uri": uri}), headers=headers, token=token)


@pytest.fixture
def issuer(tmp_path: Path):
    with authorization_server(tmp_path / "as") as handle:
        yield handle


def test_over_http_only_dbai_unmask_reads_a_masked_column_and_an_export_is_its_makers(
    dbai_bin: Path, people: tuple[Path, Path], tmp_path: Path, issuer: AuthorizationServerHandle
) -> None:
    database, metadata = people
    log = tmp_path / "audit.jsonl"
    with resource_server(
        dbai_bin, database, issuer.issuer, "--metadata", str(metadata), "--allow", "standard", "--audit-log", str(log),
    ) as server:
        status, _, body = server.raw().request("GET", None, path="/.well-known/oauth-protected-resource/mcp")
        assert status == 200 and "dbai:unmask" in json.loads(body)["scopes_supported"]
        reader_client = issuer.register_client(scope="dbai:read dbai:write")
        unmasker_client = issuer.register_client(scope="dbai:read dbai:unmask")
        reader = issuer.client_credentials_token(*reader_client, scope="dbai:read dbai:write", resource=server.url)
        unmasker = issuer.client_credentials_token(*unmasker_client, scope="dbai:read dbai:unmask", resource=server.url)

        masked = result(call(server, reader, "query", {"sql": "SELECT * FROM people ORDER BY id"}))
        assert masked["structuredContent"]["rows"] == [[1, "Ann", None], [2, "Bob", None]]
        assert_no_secret(json.dumps(masked))
        clear = result(call(server, unmasker, "query", {"sql": "SELECT * FROM people ORDER BY id"}))
        assert clear["structuredContent"]["rows"] == [[1, "Ann", "ann@secret.example"], [2, "Bob", "bob@hidden.example"]]
        assert result(call(server, unmasker, "query", {"sql": "SELECT name FROM people WHERE email LIKE 'ann%'"}))[
            "structuredContent"]["rows"] == [["Ann"]]
        hidden = result(call(server, unmasker, "query", {"sql": "SELECT ssn FROM people"}))
        assert hidden["isError"]
        # The reader's writes cannot filter on the masked column; nothing ran.
        refused = result(call(server, reader, "update", {"table": "people", "set": {"name": "X"}, "where": {"email": "x"}}))
        assert refused["isError"] and "not accessible" in refused["content"][0]["text"]

        # An export made with dbai:unmask holds the clear values: only its maker reads it.
        export = result(call(server, unmasker, "export", {"sql": "SELECT * FROM people"}))["structuredContent"]
        own = result(read_resource(server, unmasker, export["uri"]))
        assert "ann@secret.example" in own["contents"][0]["text"]
        status, headers, body = read_resource(server, reader, export["uri"])
        assert "ann@secret.example" not in body.decode() and "No export" in body.decode()
    with sqlite3.connect(database) as check:
        assert check.execute("SELECT name FROM people ORDER BY id").fetchall() == [("Ann",), ("Bob",)]
    assert_no_secret(log.read_text())


def test_with_dbai_unmask_a_table_with_masked_columns_is_written_and_without_it_not(
    dbai_bin: Path, people: tuple[Path, Path], tmp_path: Path, issuer: AuthorizationServerHandle
) -> None:
    database, _ = people
    metadata = tmp_path / "masked-only.yaml"
    metadata.write_text("databases:\n  people:\n    tables:\n      people:\n        columns: {email: {masked: true}}\n")
    log = tmp_path / "audit.jsonl"
    with resource_server(
        dbai_bin, database, issuer.issuer, "--metadata", str(metadata), "--allow", "standard", "--audit-log", str(log),
    ) as server:
        writer = issuer.client_credentials_token(
            *issuer.register_client(scope="dbai:read dbai:write"), scope="dbai:read dbai:write", resource=server.url)
        unmasker = issuer.client_credentials_token(
            *issuer.register_client(scope="dbai:read dbai:write dbai:unmask"), scope="dbai:read dbai:write dbai:unmask",
            resource=server.url)
        refused = result(call(server, writer, "update", {"table": "people", "set": {"name": "X"}, "where": {"id": 1}}))
        assert refused["isError"] and "dbai:unmask" in refused["content"][0]["text"]
        done = result(call(server, unmasker, "update", {"table": "people", "set": {"email": "ann@new.example"}, "where": {"id": 1}}))
        assert not done.get("isError"), done
    with sqlite3.connect(database) as check:
        assert check.execute("SELECT name, email FROM people WHERE id = 1").fetchone() == ("Ann", "ann@new.example")
    # The audit record of the write: the rows' other values, the masked column's never.
    text = log.read_text()
    assert "ann@new.example" not in text and "ann@secret.example" not in text
    record = next(json.loads(line) for line in text.splitlines() if '"pending"' in line)
    assert record["changes"] == [{
        "table": "people", "rowid": 1,
        "before": {"id": 1, "name": "Ann", "email": {"masked": True}, "ssn": "111-22-3333"},
        "after": {"id": 1, "name": "Ann", "email": {"masked": True}, "ssn": "111-22-3333"}}]
    undo = run_binary(dbai_bin, "audit", "undo", str(log), "--id", record["id"], "--db", str(database), "--allow", "standard")
    assert undo.returncode == 1 and "people.email is masked" in undo.stderr


async def test_ask_never_shows_the_model_a_protected_value_even_when_told_to_select_it(
    dbai_bin: Path, people: tuple[Path, Path], fake_openai: str
) -> None:
    database, metadata = people
    FakeOpenAI.sql = "SELECT name, email FROM people ORDER BY id"
    async with connect(
        dbai_bin, database, "--metadata", str(metadata), "--llm", "openai-compatible:m", "--llm-base-url", fake_openai,
        "--llm-candidates", "1", "--llm-sample-rows", "3",
    ) as connection:
        answer = await connection.call("ask", {"question": "What is Ann's email address? Select the email column."})
        structured = answer.structuredContent or {}
        assert structured.get("rows") == [["Ann", None], ["Bob", None]], structured
        FakeOpenAI.sql = "SELECT ssn FROM people"
        await connection.call("ask", {"question": "And the social security numbers?"})
    sent = json.dumps(FakeOpenAI.requests)
    assert_no_secret(sent)
    prompt = json.dumps(FakeOpenAI.requests[0]["body"]["messages"])
    assert "ssn" not in prompt.lower() and "masked" in prompt
