"""`--load-extension PATH`: a real extension (sqlite-vec's vec0.so, from its PyPI wheel) loaded on
every connection and where statements are classified, so that its functions and its virtual-table
module classify and run; `load_extension()` stays refused; a bad extension stops start-up."""

from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path

import pytest
import sqlite_vec

from conftest import assert_tool_error, assert_tool_ok, connect, error_code, run_binary, sha256

pytestmark = pytest.mark.anyio

VEC = sqlite_vec.loadable_path()


def vector_database(path: Path) -> Path:
    """A database with a vec0 virtual table of three 3-dimensional vectors and a plain table.

    Written through SQLite's C API (ctypes): Python's sqlite3 module is often built without
    extension loading (pyenv's is), while the library under it has it.
    """
    library = ctypes.util.find_library("sqlite3")
    assert library, "the tests need libsqlite3 (Debian: apt-get install libsqlite3-0)"
    sqlite = ctypes.CDLL(library)
    sqlite.sqlite3_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    sqlite.sqlite3_enable_load_extension.argtypes = [ctypes.c_void_p, ctypes.c_int]
    sqlite.sqlite3_load_extension.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
    sqlite.sqlite3_exec.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    sqlite.sqlite3_close.argtypes = [ctypes.c_void_p]
    handle = ctypes.c_void_p()
    assert sqlite.sqlite3_open(str(path).encode(), ctypes.byref(handle)) == 0
    try:
        assert sqlite.sqlite3_enable_load_extension(handle, 1) == 0
        assert sqlite.sqlite3_load_extension(handle, VEC.encode(), None, None) == 0, "vec0.so did not load"
        script = """
            CREATE VIRTUAL TABLE items USING vec0(embedding float[3]);
            INSERT INTO items(rowid, embedding) VALUES (1, '[1, 0, 0]'), (2, '[0, 1, 0]'), (3, '[0.9, 0.1, 0]');
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
        """
        assert sqlite.sqlite3_exec(handle, script.encode(), None, None, None) == 0
    finally:
        sqlite.sqlite3_close(handle)
    return path


@pytest.fixture
def vectors(tmp_path: Path) -> Path:
    return vector_database(tmp_path / "vectors.sqlite")


async def test_extension_functions_and_its_virtual_table_classify_and_run(dbai_bin, vectors) -> None:
    async with connect(dbai_bin, vectors, "--load-extension", VEC) as connection:
        version = assert_tool_ok(await connection.call("query", {"sql": "SELECT vec_version() AS v, vec_length('[1, 2, 3]') AS n"}))
        nearest = assert_tool_ok(await connection.call("query", {
            "sql": "SELECT rowid, distance FROM items WHERE embedding MATCH :q AND k = 2 ORDER BY distance",
            "params": [{"name": "q", "value": "[1, 0, 0]"}]}))
        schema = assert_tool_ok(await connection.call("describe_schema", {}))
        write = await connection.call("query", {"sql": "INSERT INTO items(rowid, embedding) VALUES (4, '[0, 0, 1]')"})
    assert version["rows"][0][0].startswith("v") and version["rows"][0][1] == 3
    assert [row[0] for row in nearest["rows"]] == [1, 3]
    items = next(table for table in schema["tables"] if table["name"] == "items")
    assert items["kind"] == "virtual" and items["module"] == "vec0"
    assert_tool_error(write, "INSERT")  # read-only: the vec0 write is classified as an insert and refused


async def test_writes_into_the_virtual_table_follow_the_policy(dbai_bin, vectors) -> None:
    async with connect(dbai_bin, vectors, "--load-extension", VEC, "--allow", "standard", "--write-tables", "items") as connection:
        inserted = assert_tool_ok(await connection.call(
            "insert", {"sql": "INSERT INTO items(rowid, embedding) VALUES (4, '[0, 0, 1]')"}))
        refused = await connection.call("insert", {"table": "notes", "rows": {"columns": ["body"], "values": [["x"]]}})
        count = assert_tool_ok(await connection.call("query", {"sql": "SELECT count(*) FROM items"}))
    assert inserted["rows_affected"] == 1
    assert_tool_error(refused, "notes")
    assert count["rows"] == [[4]]


async def test_load_extension_stays_refused(dbai_bin, vectors) -> None:
    before = sha256(vectors)
    async with connect(dbai_bin, vectors, "--load-extension", VEC, "--allow", "unrestricted") as connection:
        direct = await connection.call("query", {"sql": f"SELECT load_extension('{VEC}')"})
        hidden = await connection.call("query", {"sql": "SELECT * FROM (SELECT load_extension(:p))", "params": [{"name": "p", "value": VEC}]})
    for result in (direct, hidden):
        assert_tool_error(result, "load_extension")
        assert error_code(result) == "function_not_allowed"
    assert sha256(vectors) == before


async def test_without_the_extension_the_server_starts_and_says_what_is_missing(dbai_bin, vectors) -> None:
    async with connect(dbai_bin, vectors) as connection:
        notes = assert_tool_ok(await connection.call("query", {"sql": "SELECT count(*) FROM notes"}))
        missing = await connection.call("query", {"sql": "SELECT vec_version()"})
    assert notes["rows"] == [[0]]
    assert_tool_error(missing, "vec_version")


async def test_extensions_load_on_every_database(dbai_bin, vectors, chinook) -> None:
    async with connect(dbai_bin, vectors, "--db", f"music={chinook}", "--load-extension", VEC) as connection:
        for database in ("vectors", "music"):
            result = assert_tool_ok(await connection.call("query", {"database": database, "sql": "SELECT vec_length('[1, 2]')"}))
            assert result["rows"] == [[2]]


@pytest.mark.parametrize(
    ("extension", "reason"),
    [
        ("{tmp}/missing/vec0.so", "no such file"),
        ("{chinook}", "could not be loaded"),
        ("{tmp}/empty.so", "could not be loaded"),
    ],
)
def test_an_extension_that_fails_to_load_stops_start_up(dbai_bin, chinook, tmp_path, extension, reason) -> None:
    (tmp_path / "empty.so").write_bytes(b"")
    path = extension.format(tmp=tmp_path, chinook=chinook)
    completed = run_binary(dbai_bin, "--db", str(chinook), "--load-extension", path)
    assert completed.returncode != 0
    assert path in completed.stderr and reason in completed.stderr
    assert "Fatal error" not in completed.stderr
