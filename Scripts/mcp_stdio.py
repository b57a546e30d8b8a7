"""The one small MCP stdio client of the repository's scripts and raw-stdio tests.

It speaks newline-delimited JSON-RPC 2.0 to a server's stdin/stdout with no MCP library, at one
protocol version (PROTOCOL_VERSION), and is used by the benchmarks (bench_mcp.py and the
benchmarks built on its wire helpers), Scripts/try, Scripts/eval and Tests/e2e/test_raw_stdio.py.

Reads and writes go straight to the pipes' file descriptors with its own line splitting: the
latency benchmark times calls through it, so a call costs one write and, usually, one read.
Reads block, or give up after `timeout` seconds. Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import time
from typing import Any, BinaryIO, Callable

#: The MCP protocol version every client here asks for (the newest dbai-mcp speaks).
PROTOCOL_VERSION = "2025-11-25"


class StdioClientError(Exception):
    """The server went away, or did not answer in time."""


def encode(message: dict) -> bytes:
    """One message as a compact JSON line."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def initialize_request(request_id: Any, client: str = "dbai-scripts", capabilities: dict | None = None,
                       version: str = PROTOCOL_VERSION) -> bytes:
    """The `initialize` request line."""
    return encode({
        "jsonrpc": "2.0", "id": request_id, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": capabilities or {},
                   "clientInfo": {"name": client, "version": "1.0"}},
    })


#: The notification that ends the handshake.
INITIALIZED = encode({"jsonrpc": "2.0", "method": "notifications/initialized"})


def is_server_message(line: bytes) -> bool:
    """True for a notification or request from the server (it has a method); cheap enough for
    timed loops. A response never has a top-level `"method"` key; the check can misfire only when
    result text holds it, and parsing the line then tells."""
    return b'"method"' in line


class StdioClient:
    """A server process spoken to in JSON lines over its stdin and stdout.

    `stderr` is a path (appended to), an open binary file, or `subprocess.PIPE`. With
    `keep_lines`, every line read is also kept, raw, in `lines`.
    """

    def __init__(self, argv: list[str], stderr: str | BinaryIO | int = subprocess.DEVNULL, *,
                 env: dict | None = None, cwd: str | None = None, preexec_fn: Callable[[], None] | None = None,
                 keep_lines: bool = False) -> None:
        self.argv = argv
        self.stderr_path = stderr if isinstance(stderr, str) else None
        self._stderr_file = open(stderr, "ab") if isinstance(stderr, str) else None
        try:
            self.popen = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr_file if self._stderr_file else stderr,
                bufsize=0, close_fds=True, env=env, cwd=cwd, preexec_fn=preexec_fn)
        except OSError as error:
            if self._stderr_file:
                self._stderr_file.close()
            raise StdioClientError(f"cannot start {argv[0]}: {error}") from error
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self.wfd = self.popen.stdin.fileno()
        self.rfd = self.popen.stdout.fileno()
        self.buffer = b""
        self.lines: list[bytes] | None = [] if keep_lines else None
        self._next_id = 1

    @property
    def name(self) -> str:
        return os.path.basename(self.argv[0])

    # -- writing

    def write(self, data: bytes) -> None:
        """Writes raw bytes (lines, a batch of lines, or anything a test wants to send)."""
        view = memoryview(data)
        while view:
            written = os.write(self.wfd, view)
            view = view[written:]

    def send(self, message: dict) -> None:
        self.write(encode(message))

    def send_request(self, method: str, params: dict | None = None, request_id: Any = None) -> Any:
        """Sends a request without waiting; returns its id (the next number when not given)."""
        if request_id is None:
            request_id, self._next_id = self._next_id, self._next_id + 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def notify(self, method: str, params: dict | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- reading

    def _fill(self, size: int, deadline: float | None) -> bytes:
        """The next chunk of output (empty at its end); StdioClientError past the deadline."""
        if deadline is not None:
            remaining = deadline - time.monotonic()
            ready = remaining > 0 and select.select([self.rfd], [], [], remaining)[0]
            if not ready:
                raise StdioClientError(f"{self.name} sent no line in time")
        return os.read(self.rfd, size)

    def read_line(self, timeout: float | None = None) -> bytes | None:
        """The next line without its newline; None at the end of the output."""
        deadline = None if timeout is None else time.monotonic() + timeout
        buffer = self.buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                self.buffer = buffer[end + 1:]
                if self.lines is not None:
                    self.lines.append(buffer[:end + 1])
                return buffer[:end]
            chunk = self._fill(65536, deadline)
            if not chunk:
                self.buffer = b""
                if buffer and self.lines is not None:
                    self.lines.append(buffer)
                return buffer or None
            buffer += chunk

    def expect_line(self, timeout: float | None = None) -> bytes:
        """The next line; StdioClientError when the output ended."""
        line = self.read_line(timeout)
        if line is None:
            raise StdioClientError(f"{self.name} closed its output (exit code {self.exit_status()}); "
                                   f"stderr: {self.stderr_tail()}")
        return line

    def read_lines(self, count: int) -> list[bytes]:
        """Exactly `count` lines, split once at the end (no per-line copying): for batches."""
        chunks = [self.buffer]
        have = self.buffer.count(b"\n")
        while have < count:
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                self.buffer = b"".join(chunks)
                raise StdioClientError(f"{self.name} closed its output after {have} of {count} lines; "
                                       f"stderr: {self.stderr_tail()}")
            chunks.append(chunk)
            have += chunk.count(b"\n")
        lines = b"".join(chunks).split(b"\n")
        self.buffer = b"\n".join(lines[count:])
        if self.lines is not None:
            self.lines.extend(line + b"\n" for line in lines[:count])
        return lines[:count]

    def read_response(self, timeout: float | None = None) -> bytes:
        """The next line that is not a server notification or request."""
        while True:
            line = self.expect_line(timeout)
            if line and not is_server_message(line):
                return line

    def read_message(self, timeout: float | None = None) -> dict | None:
        """The next line as JSON; None at the end of the output."""
        line = self.read_line(timeout)
        return None if line is None else json.loads(line)

    def request(self, method: str, params: dict | None = None, timeout: float | None = None,
                on_message: Callable[[dict], None] | None = None) -> dict:
        """Sends a request and returns its whole response message. Messages that arrive first
        (notifications, the server's own requests) go to `on_message`."""
        request_id = self.send_request(method, params)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self.expect_line(remaining)
            message = json.loads(line)
            if message.get("id") == request_id and "method" not in message:
                return message
            if on_message:
                on_message(message)

    def initialize(self, client: str = "dbai-scripts", capabilities: dict | None = None,
                   timeout: float | None = None) -> dict:
        """The handshake: `initialize`, then `notifications/initialized`. Returns the result."""
        response = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": capabilities or {},
            "clientInfo": {"name": client, "version": "1.0"},
        }, timeout=timeout)
        if "error" in response:
            raise StdioClientError(f"initialize failed: {response['error']}")
        self.write(INITIALIZED)
        return response["result"]

    # -- ending

    def close_stdin(self) -> None:
        """Ends the server's input (a stdio server then finishes and exits)."""
        with contextlib.suppress(OSError):
            self.popen.stdin.close()  # type: ignore[union-attr]

    def wait(self, timeout: float) -> int | None:
        """The exit code, or None if the process is still running after `timeout` seconds."""
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self, timeout: float = 10.0) -> int | None:
        """Closes stdin and waits; kills on timeout. Returns the exit code (None when killed)."""
        self.close_stdin()
        code = self.wait(timeout)
        if code is None:
            self.popen.kill()
            self.popen.wait()
        with contextlib.suppress(OSError):
            self.popen.stdout.close()  # type: ignore[union-attr]
        if self._stderr_file:
            self._stderr_file.close()
        return code

    def exit_status(self) -> int | None:
        """The exit code once the process has gone (waits up to a second), else None."""
        return self.wait(1)

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.close(timeout=5)

    def stderr_tail(self, limit: int = 600) -> str:
        """The end of stderr, when it goes to a file."""
        if not self.stderr_path:
            return "(not captured)"
        with contextlib.suppress(OSError):
            if self._stderr_file and not self._stderr_file.closed:
                self._stderr_file.flush()
            with open(self.stderr_path, "rb") as handle:
                text = handle.read().decode(errors="replace").strip()
                return ("…" + text[-limit:]) if len(text) > limit else (text or "(empty)")
        return "(unreadable)"
