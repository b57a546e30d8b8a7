"""Fixtures for the end-to-end tests of `dbai-mcp`.

The tests drive the built binary over real stdio with the official Python MCP client
(`mcp` 1.x or 2.x: the differences are bridged in mcp_compat.py). They never build it: set `DBAI_MCP_BIN`, or build first with
`swift build --product dbai-mcp` (the fixture then asks `swift build --show-bin-path`).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import subprocess
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage

from mcp_compat import CLIENT_SENDS_CANCELLED, cancelled_notification, install_wire_name_accessors, timeout

install_wire_name_accessors()

REPO_ROOT = Path(__file__).resolve().parents[2]
CHINOOK = REPO_ROOT / "Examples" / "chinook.sqlite"

#: The `_meta` key of an error result's reason code.
ERROR_CODE_KEY = "io.github.swiftdbai/error_code"

#: How long any single request may take before a test fails instead of hanging.
REQUEST_TIMEOUT_SECONDS = 30.0

_server_numbers = itertools.count(1)

#: A query that takes a noticeable but finite time (about a second; test_cancellation checks it
#: takes at least 0.5 s).
SLOW_QUERY = (
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < 6000000) "
    "SELECT max(i) FROM c"
)

#: A query that never ends on its own.
RUNAWAY_QUERY = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c) SELECT max(i) FROM c"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def dbai_bin() -> Path:
    """The `dbai-mcp` binary: `$DBAI_MCP_BIN`, else `swift build --show-bin-path`/dbai-mcp."""
    configured = os.environ.get("DBAI_MCP_BIN")
    if configured:
        path = Path(configured)
    else:
        try:
            completed = subprocess.run(
                ["swift", "build", "--show-bin-path"],
                cwd=REPO_ROOT,
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
            )
        except (OSError, subprocess.SubprocessError) as error:
            pytest.fail(f"Cannot locate dbai-mcp: set DBAI_MCP_BIN or install swift ({error}).")
        path = Path(completed.stdout.strip()) / "dbai-mcp"
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"{path} is not an executable: run `swift build --product dbai-mcp` first or set DBAI_MCP_BIN.")
    return path


@pytest.fixture
def chinook(tmp_path: Path) -> Path:
    """A private copy of the bundled Chinook database (tests never touch Examples/)."""
    copy = tmp_path / "chinook.sqlite"
    shutil.copyfile(CHINOOK, copy)
    return copy


def sha256(path: Path) -> str:
    """The digest of a file's bytes (to show a database file is byte-identical)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def result_text(result: types.CallToolResult) -> str:
    """The text content of a tool result (the rendering of a success, the message of an error)."""
    return "\n".join(item.text for item in result.content if isinstance(item, types.TextContent))


def error_code(result: types.CallToolResult) -> str | None:
    """The reason code of an error result (`_meta["io.github.swiftdbai/error_code"]`)."""
    meta = result.meta or {}
    return meta.get(ERROR_CODE_KEY)


def assert_tool_error(result: types.CallToolResult, *fragments: str) -> str:
    """Checks a domain failure: isError, a text message, no structured content."""
    text = result_text(result)
    assert result.isError is True, f"expected isError, got {result.structuredContent!r} / {text!r}"
    assert text, "an error result must say what to change"
    assert result.structuredContent is None
    for fragment in fragments:
        assert fragment.lower() in text.lower(), f"{fragment!r} not in {text!r}"
    return text


def assert_tool_ok(result: types.CallToolResult) -> dict[str, Any]:
    assert result.isError is not True, f"unexpected error: {result_text(result)}"
    assert result.structuredContent is not None
    assert result_text(result), "a successful result also carries a text rendering"
    return result.structuredContent


@dataclass
class Connection:
    """A client session with the server and what the client sent on the wire."""

    session: ClientSession
    initialize_result: types.InitializeResult
    sent: list[dict[str, Any]] = field(default_factory=list)
    stderr_path: Path | None = None

    def sent_requests(self, method: str) -> list[dict[str, Any]]:
        return [message for message in self.sent if message.get("method") == method and "id" in message]

    async def call(self, name: str, arguments: dict[str, Any] | None = None, **kwargs: Any) -> types.CallToolResult:
        return await self.session.call_tool(name, arguments, **kwargs)

    async def cancel(self, request_id: int | str, reason: str = "test cancelled it") -> None:
        """Sends notifications/cancelled for one request, where the client SDK does not send it
        itself (mcp 1.x); mcp 2.x sends it when the caller then cancels the request's scope."""
        if not CLIENT_SENDS_CANCELLED:
            await self.session.send_notification(cancelled_notification(request_id, reason))


def _single_failure(group: BaseExceptionGroup) -> Exception | None:
    """The one exception inside nested task-group wrappers, if there is exactly one."""
    leaves: list[BaseException] = []

    def collect(error: BaseException) -> None:
        if isinstance(error, BaseExceptionGroup):
            for inner in error.exceptions:
                collect(inner)
        else:
            leaves.append(error)

    collect(group)
    return leaves[0] if len(leaves) == 1 and isinstance(leaves[0], Exception) else None


@asynccontextmanager
async def connect(
    binary: Path,
    database: Path,
    *args: str,
    stderr_path: Path | None = None,
    **session_options: Any,
) -> AsyncIterator[Connection]:
    """Starts `dbai-mcp --db DATABASE ARGS…` and yields an initialized client session.

    `session_options` go to `ClientSession` (elicitation_callback, logging_callback, …).
    Outgoing messages are recorded in `Connection.sent` (to learn request ids, e.g. to cancel).
    A single failure inside the session comes out as itself, not wrapped in task-group groups.
    """
    try:
        async with _connect(binary, database, *args, stderr_path=stderr_path, **session_options) as connection:
            yield connection
    except BaseExceptionGroup as group:
        failure = _single_failure(group)
        if failure is None:
            raise
        raise failure from None


@asynccontextmanager
async def _connect(
    binary: Path,
    database: Path,
    *args: str,
    stderr_path: Path | None = None,
    **session_options: Any,
) -> AsyncIterator[Connection]:
    parameters = StdioServerParameters(command=str(binary), args=["--db", str(database), *args])
    stderr_path = stderr_path or database.parent / f"dbai-mcp-{next(_server_numbers)}.stderr"
    with open(stderr_path, "w") as errlog:
        async with stdio_client(parameters, errlog=errlog) as (read_stream, write_stream):
            async with session_over(read_stream, write_stream, stderr_path=stderr_path, **session_options) as connection:
                yield connection


@asynccontextmanager
async def session_over(
    read_stream: Any, write_stream: Any, *, stderr_path: Path | None = None, **session_options: Any
) -> AsyncIterator[Connection]:
    """An initialized client session over a transport's streams, recording what it sends."""
    sent: list[dict[str, Any]] = []
    # A recording relay between the session and the transport.
    relay_send, relay_receive = anyio.create_memory_object_stream[SessionMessage](0)

    async def forward() -> None:
        async with relay_receive, write_stream:
            async for message in relay_receive:
                sent.append(message.message.model_dump(by_alias=True, mode="json", exclude_none=True))
                await write_stream.send(message)

    async with anyio.create_task_group() as group:
        group.start_soon(forward)
        try:
            async with ClientSession(
                read_stream, relay_send, read_timeout_seconds=timeout(REQUEST_TIMEOUT_SECONDS), **session_options
            ) as session:
                with anyio.fail_after(REQUEST_TIMEOUT_SECONDS):
                    initialized = await session.initialize()
                yield Connection(session, initialized, sent, stderr_path)
        finally:
            await relay_send.aclose()


@pytest.fixture
def server(dbai_bin: Path, chinook: Path):
    """`server(*flags, db=…, **session_options)`: an async context manager over a connected session.

    The database defaults to the per-test Chinook copy.
    """

    def open_server(*args: str, db: Path | None = None, **session_options: Any):
        return connect(dbai_bin, db or chinook, *args, **session_options)

    return open_server


def run_binary(binary: Path, *args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """Runs the binary to completion with stdin closed (for flag handling tests)."""
    return subprocess.run(
        [str(binary), *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )


async def validate_output(connection: Connection, tool: str, result: types.CallToolResult) -> dict[str, Any]:
    """Validates a successful result's structuredContent against the outputSchema from tools/list.

    (ClientSession.call_tool already does it; this checks it explicitly, with a strict validator.)
    """
    structured = assert_tool_ok(result)
    tools = {listed.name: listed for listed in (await connection.session.list_tools()).tools}
    schema = tools[tool].outputSchema
    assert schema is not None, f"{tool} has no outputSchema"
    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    validator_class.check_schema(schema)
    validator_class(schema).validate(structured)
    return structured
