"""export through the official client: the whole result, read back in chunks with
resources/read, equals the table; --export-dir gets a new file and nothing anywhere else."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
from pathlib import Path

import pytest

from conftest import assert_tool_error, connect, result_text, validate_output

pytestmark = pytest.mark.anyio

META_KEY = "io.github.swiftdbai/export"


@pytest.fixture
def table_db(tmp_path: Path) -> Path:
    path = tmp_path / "rows.sqlite"
    database = sqlite3.connect(path)
    with database:
        database.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT, amount REAL, note TEXT)")
        database.executemany("INSERT INTO item VALUES (?, ?, ?, ?)", [
            (i, f"label {i}, \"q\"", i / 8, None if i % 5 == 0 else ("line\nbreak" if i % 7 == 0 else "ünï 🦜"))
            for i in range(1, 5001)])
        database.execute("CREATE TABLE secret(x)")
    database.close()
    return path


async def read_export(connection, uri: str) -> str:
    data = ""
    next_uri: str | None = uri
    while next_uri:
        result = await connection.session.read_resource(next_uri)
        content = result.contents[0]
        data += content.text
        meta = (content.meta or {}).get(META_KEY) if hasattr(content, "meta") else None
        if meta is None:
            meta = content.model_dump(by_alias=True).get("_meta", {}).get(META_KEY, {})
        next_uri = meta.get("next_uri")
    return data


async def test_the_export_equals_the_table(dbai_bin: Path, table_db: Path) -> None:
    expected = sqlite3.connect(table_db).execute("SELECT id, label, amount, note FROM item ORDER BY id").fetchall()
    async with connect(dbai_bin, table_db, "--max-result-bytes", "8192", "--tables", "item") as connection:
        result = await connection.call("export", {"sql": "SELECT id, label, amount, note FROM item ORDER BY id"})
        structured = await validate_output(connection, "export", result)
        links = [item for item in result.content if item.type == "resource_link"]
        assert len(links) == 1 and str(links[0].uri) == structured["uri"]
        assert structured["row_count"] == 5000 and structured["chunks"] > 10
        data = await read_export(connection, structured["uri"])
        assert len(data.encode()) == structured["bytes"]
        rows = list(csv.reader(io.StringIO(data, newline="")))
        assert rows[0] == ["id", "label", "amount", "note"]
        assert [(int(r[0]), r[1], float(r[2]), r[3] or None) for r in rows[1:]] == expected

        jsonl = await connection.call("export", {"sql": "SELECT * FROM item ORDER BY id", "format": "jsonl"})
        lines = (await read_export(connection, jsonl.structuredContent["uri"])).splitlines()
        assert [tuple(json.loads(line).values()) for line in lines] == expected


async def test_refusals_write_nothing(dbai_bin: Path, table_db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "taken.csv").write_text("keep")
    os.symlink(tmp_path / "outside.csv", folder / "link.csv")
    async with connect(dbai_bin, table_db, "--export-dir", str(folder), "--tables", "item") as connection:
        for name in ["../escape.csv", "sub/x.csv", ".dot.csv", "taken.csv", "link.csv", str(tmp_path / "abs.csv")]:
            result = await connection.call("export", {"sql": "SELECT * FROM item", "file_name": name})
            assert_tool_error(result)
        assert_tool_error(await connection.call("export", {"sql": "SELECT * FROM secret"}))
        assert_tool_error(await connection.call("export", {"sql": "DELETE FROM item"}))
        done = await connection.call("export", {"sql": "SELECT * FROM item WHERE id <= 2", "file_name": "two.csv"})
        assert "two.csv" in result_text(done)
    assert sorted(os.listdir(folder)) == ["link.csv", "taken.csv", "two.csv"]
    assert (folder / "taken.csv").read_text() == "keep"
    assert not (tmp_path / "outside.csv").exists() and not (tmp_path / "escape.csv").exists()
    assert (folder / "two.csv").read_bytes().startswith(b"id,label,amount,note\r\n1,")
    assert sqlite3.connect(table_db).execute("SELECT count(*) FROM item").fetchone()[0] == 5000
