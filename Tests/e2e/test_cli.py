"""The command line: --version, --help, and invalid configurations refused before serving."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import REPO_ROOT, run_binary, sha256


def test_version_prints_a_version_and_exits_zero(dbai_bin: Path) -> None:
    completed = run_binary(dbai_bin, "--version")
    assert completed.returncode == 0
    assert completed.stdout.strip(), "--version prints the version on stdout"
    assert any(character.isdigit() for character in completed.stdout)
    assert "." in completed.stdout


def test_server_json_describes_this_version_for_the_mcp_registry(dbai_bin: Path) -> None:
    """server.json (the MCP registry's format) names the version --version prints and the
    manifest carries, and the flags it documents are ones the binary accepts."""
    server = json.loads((REPO_ROOT / "server.json").read_text())
    manifest = json.loads((REPO_ROOT / "mcp-manifest.json").read_text())
    version = run_binary(dbai_bin, "--version").stdout.strip()
    assert server["version"] == manifest["version"] == version
    assert all(package["version"] == version for package in server["packages"] if "version" in package)
    assert server["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", server["name"])
    assert server["name"].startswith("io.github.") and 1 <= len(server["description"]) <= 100
    help_text = run_binary(dbai_bin, "--help").stdout
    for package in server["packages"]:
        assert package["transport"] == {"type": "stdio"}
        for argument in package.get("packageArguments", []):
            assert argument["type"] == "named" and argument["name"] in help_text, argument


def test_help_mentions_db_and_allow(dbai_bin: Path) -> None:
    completed = run_binary(dbai_bin, "--help")
    assert completed.returncode == 0
    text = completed.stdout + completed.stderr
    assert "--db" in text
    assert "--allow" in text


HELP_SECTIONS = ["DATABASES", "POLICY", "LIMITS", "EXPORTS", "AUDIT AND STATE", "MODEL (ask)", "HTTP", "TOOLS AND VIEW", "OPTIONS"]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_reads_in_sections_with_every_flag_once(dbai_bin: Path, flag: str) -> None:
    """--help groups the options under headings; each flag is under exactly one, none is left
    over (OTHER OPTIONS), and the overview and usage stay on top."""
    completed = run_binary(dbai_bin, flag, "--db", "unused.sqlite")
    assert completed.returncode == 0 and completed.stderr == ""
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("OVERVIEW:") and any(line.startswith("USAGE: dbai-mcp") for line in lines)
    headings = [line[:-1] for line in lines if re.fullmatch(r"[A-Z][A-Za-z ()]+:", line)]
    assert headings == HELP_SECTIONS, headings
    flags = [match.group(1) for line in lines if (match := re.match(r"  (?:-h, )?(--[a-z-]+)", line))]
    assert len(flags) == len(set(flags)) and len(flags) > 40, flags
    under: dict[str, str] = {}
    heading = ""
    for line in lines:
        if line[:-1] in HELP_SECTIONS:
            heading = line[:-1]
        elif match := re.match(r"  (?:-h, )?(--[a-z-]+)", line):
            under[match.group(1)] = heading
    assert under["--db"] == "DATABASES" and under["--allow"] == "POLICY" and under["--http"] == "HTTP"
    assert under["--llm"] == "MODEL (ask)" and under["--audit-log"] == "AUDIT AND STATE" and under["--help"] == "OPTIONS"


def assert_refused(completed, *fragments: str) -> None:
    """A configuration error: a message on stderr, a non-zero exit, nothing on stdout."""
    assert completed.returncode != 0, completed
    assert completed.stdout == "", f"stdout must stay empty, got {completed.stdout!r}"
    assert completed.stderr.strip(), "the reason goes to stderr"
    for fragment in fragments:
        assert fragment.lower() in completed.stderr.lower(), f"{fragment!r} not in {completed.stderr!r}"


def test_missing_db_flag_is_refused(dbai_bin: Path) -> None:
    assert_refused(run_binary(dbai_bin), "--db")


def test_missing_file_is_refused_and_not_created(dbai_bin: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite"
    for allow in ("readonly", "unrestricted"):
        assert_refused(run_binary(dbai_bin, "--db", str(missing), "--allow", allow))
        assert not missing.exists(), f"--allow {allow} created the missing database file"
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "no journal or other file either"


def test_file_that_is_not_sqlite_is_refused_and_left_alone(dbai_bin: Path, tmp_path: Path) -> None:
    text_file = tmp_path / "notes.sqlite"
    text_file.write_text("these are not the bytes of a SQLite database\n" * 20)
    before = sha256(text_file)
    assert_refused(run_binary(dbai_bin, "--db", str(text_file), "--allow", "standard"))
    assert sha256(text_file) == before


@pytest.mark.parametrize(
    "flags, fragment",
    [
        (["--tables", "Album,NoSuchTable"], "NoSuchTable"),
        (["--allow", "standard", "--write-tables", "Genre,Nope"], "Nope"),
        (["--allow", "readonly,drop"], "drop"),
        (["--allow", "everything"], "everything"),
        (["--write-tables", "Genre"], "--write-tables"),
        (["--allow", "standard", "--tables", "Album", "--write-tables", "Genre"], "Genre"),
        (["--llm", "openai-compatible:m", "--llm-base-url", "http://127.0.0.1:9/v1", "--llm-timeout", "0"], "--llm-timeout"),
        (["--max-result-bytes", "10"], "--max-result-bytes"),
        (["--max-value-bytes", "0"], "--max-value-bytes"),
        (["--sqlite-memory-mb", "3"], "--sqlite-memory-mb"),
        (["--llm-sample-rows", "-1"], "--llm-sample-rows"),
        (["--llm-candidates", "0"], "--llm-candidates"),
        (["--llm-candidates", "6"], "--llm-candidates"),
        (["--llm-rewrites", "repair,hunch"], "--llm-rewrites"),
        (["--llm-rewrites", ""], "--llm-rewrites"),
        (["--llm-examples", "9"], "--llm-examples"),
    ],
    ids=[
        "unknown-visible-table",
        "unknown-writable-table",
        "bad-allow-list-word",
        "bad-allow-word",
        "write-tables-under-readonly",
        "writable-table-hidden",
        "llm-timeout-zero",
        "tiny-result-budget",
        "no-value-size",
        "tiny-sqlite-memory",
        "negative-sample-rows",
        "no-candidates",
        "too-many-candidates",
        "unknown-rewrite-kind",
        "no-rewrite-kind",
        "too-many-examples",
    ],
)
def test_invalid_configuration_is_refused(dbai_bin: Path, chinook: Path, flags: list[str], fragment: str) -> None:
    before = sha256(chinook)
    assert_refused(run_binary(dbai_bin, "--db", str(chinook), *flags), fragment)
    assert sha256(chinook) == before
