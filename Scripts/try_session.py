#!/usr/bin/env python3
"""A short scripted MCP session with dbai-mcp, printed for a human.

Starts `dbai-mcp --db DB --allow standard`, speaks raw newline-delimited JSON-RPC on its
stdin/stdout, and shows each request on one line followed by what the server answered (the
markdown tables and DDL a model would read). Checks the answers on the way and exits non-zero
if the server misbehaves. Normally started by `Scripts/try`, which builds the server and copies
the sample database. Python 3.8+, standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap

from mcp_stdio import PROTOCOL_VERSION, StdioClient, StdioClientError

RESPONSE_TIMEOUT_SECONDS = 60
EXIT_TIMEOUT_SECONDS = 20

TOP_ARTISTS_SQL = (
    "SELECT ar.Name AS Artist, COUNT(*) AS Albums "
    "FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId "
    "GROUP BY ar.ArtistId ORDER BY Albums DESC, ar.Name LIMIT ?"
)


class SessionError(Exception):
    """The server did not do what the session expects."""


class Style:
    """ANSI emphasis on a terminal (unless NO_COLOR is set); plain text otherwise."""

    enabled = sys.stdout.isatty() and not os.environ.get("NO_COLOR")

    @classmethod
    def wrap(cls, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if cls.enabled else text

    @classmethod
    def heading(cls, text: str) -> str:
        return cls.wrap("1", text)

    @classmethod
    def dim(cls, text: str) -> str:
        return cls.wrap("2", text)

    @classmethod
    def good(cls, text: str) -> str:
        return cls.wrap("32", text)

    @classmethod
    def bad(cls, text: str) -> str:
        return cls.wrap("31", text)


class Server(StdioClient):
    """dbai-mcp as a child process, speaking through the shared client; each exchange also
    returns the line sent, for printing."""

    def __init__(self, argv: list[str], log_path: str) -> None:
        open(log_path, "wb").close()  # a fresh log for this session
        try:
            super().__init__(argv, log_path)
        except StdioClientError as error:
            raise SessionError(str(error)) from error
        self.log_path = log_path
        self.notifications: list[dict] = []

    @staticmethod
    def shown(message: dict) -> str:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)

    def send_shown(self, message: dict) -> str:
        """Sends a message; returns it as printed."""
        try:
            self.send(message)
        except BrokenPipeError as error:
            raise SessionError(f"the server closed its input; see {self.log_path}") from error
        return self.shown(message)

    def exchange(self, method: str, params: dict | None = None) -> tuple[str, dict]:
        """Sends a request; returns its line and the response with the same id. Notifications
        that arrive first are kept in `notifications`."""
        try:
            response = self.request(method, params, timeout=RESPONSE_TIMEOUT_SECONDS, on_message=self.notifications.append)
        except StdioClientError as error:
            raise SessionError(f"{error}; see {self.log_path}") from error
        except BrokenPipeError as error:
            raise SessionError(f"the server closed its input; see {self.log_path}") from error
        except ValueError as error:
            raise SessionError(f"the server wrote a line that is not JSON ({error})") from error
        message = {"jsonrpc": "2.0", "id": response.get("id"), "method": method}
        if params is not None:
            message["params"] = params
        return self.shown(message), response

    def hang_up(self) -> int | None:
        """Closes the server's input, as a client does when it is done, keeps what it wrote
        after the last answer (notifications only), and returns the exit status."""
        self.close_stdin()
        with contextlib.suppress(StdioClientError):
            while (line := self.read_line(EXIT_TIMEOUT_SECONDS)) is not None:
                if line.strip():
                    self.notifications.append(json.loads(line))
        return self.close(EXIT_TIMEOUT_SECONDS)


class Session:
    """Prints the numbered steps and remembers whether every check held."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.step_number = 0
        self.failures: list[str] = []

    def step(self, title: str) -> None:
        self.step_number += 1
        print()
        print(Style.heading(f"── {self.step_number}. {title} " + "─" * max(3, 68 - len(title))))

    def sent(self, line: str) -> None:
        print(Style.dim("→ ") + line)

    def answer(self, text: str) -> None:
        print(Style.dim("←"))
        print(textwrap.indent(text.rstrip("\n"), "    "))

    def check(self, condition: bool, description: str) -> None:
        if condition:
            print(Style.good(f"  ✓ {description}"))
        else:
            print(Style.bad(f"  ✗ {description}"))
            self.failures.append(description)

    def flush_notifications(self) -> None:
        for message in self.server.notifications:
            params = message.get("params") or {}
            if message.get("method") == "notifications/message":
                print(Style.dim(f"  (log notification, {params.get('level')}: {params.get('data')})"))
            else:
                print(Style.dim(f"  (notification {message.get('method')})"))
        self.server.notifications.clear()

    def call_tool(self, name: str, arguments: dict) -> dict:
        line, response = self.server.exchange("tools/call", {"name": name, "arguments": arguments})
        self.sent(line)
        self.flush_notifications()
        if "error" in response:
            error = response["error"]
            self.answer(f"JSON-RPC error {error.get('code')}: {error.get('message')}")
            return {"error": error}
        result = response.get("result") or {}
        texts = [item.get("text", "") for item in result.get("content", []) if item.get("type") == "text"]
        if result.get("isError"):
            code = ((result.get("_meta") or {}).get("io.github.swiftdbai/error_code"))
            texts.insert(0, f"isError: true{f' ({code})' if code else ''}")
        self.answer("\n".join(texts) if texts else json.dumps(result, indent=2))
        return result


def run(server_path: str, database: str, log_path: str) -> int:
    argv = [server_path, "--db", database, "--allow", "standard"]
    print(Style.heading("dbai-mcp: a scripted session over stdio"))
    print(f"  server:   {' '.join(argv)}")
    print(f"  database: {database}")
    print("            (a copy of Examples/chinook.sqlite; the bundled file is never touched)")
    print(f"  log:      {log_path} (the server's stderr; stdout carries only JSON-RPC)")

    server = Server(argv, log_path)
    session = Session(server)
    try:
        session.step("initialize")
        line, response = server.exchange("initialize", {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "try-session", "version": "1.0"},
        })
        session.sent(line)
        result = response.get("result") or {}
        info = result.get("serverInfo") or {}
        session.answer(
            f"{info.get('name')} {info.get('version')} (protocol {result.get('protocolVersion')})\n"
            + "\n".join(textwrap.wrap(f"instructions: {result.get('instructions', '')}", 96)))
        session.check("error" not in response and bool(info), "the server introduced itself")

        session.step("notifications/initialized (a notification: no answer)")
        session.sent(server.send_shown({"jsonrpc": "2.0", "method": "notifications/initialized"}))

        session.step("tools/list")
        line, response = server.exchange("tools/list")
        session.sent(line)
        tools = (response.get("result") or {}).get("tools") or []
        names = [tool.get("name") for tool in tools]
        width = max((len(name or "") for name in names), default=0)
        session.answer("\n".join(f"{tool.get('name', ''):<{width}}  {tool.get('title', '')}" for tool in tools))
        session.check({"describe_schema", "query", "aggregate", "insert", "update"} <= set(names),
                      "read tools and insert/update are offered")

        session.step("describe_schema: the Album table")
        result = session.call_tool("describe_schema", {"table": "Album"})
        session.check(not result.get("isError") and "error" not in result, "DDL for Album")

        session.step("query: top 5 artists by number of albums (JOIN, GROUP BY, bound LIMIT)")
        result = session.call_tool("query", {"sql": TOP_ARTISTS_SQL, "params": [5]})
        rows = (result.get("structuredContent") or {}).get("rows") or []
        session.check(not result.get("isError") and len(rows) == 5, "5 rows")

        session.step("aggregate: sales by billing country, top 5")
        result = session.call_tool("aggregate", {
            "table": "Invoice", "function": "sum", "column": "Total",
            "group_by": ["BillingCountry"], "order": "desc", "limit": 5,
        })
        rows = (result.get("structuredContent") or {}).get("rows") or []
        session.check(not result.get("isError") and len(rows) == 5, "5 groups, no SQL written")

        session.step("a write through query is refused")
        result = session.call_tool("query", {"sql": "DELETE FROM Track"})
        session.check(result.get("isError") is True, "refused with isError: true")

        session.step("delete is not even offered under --allow standard")
        session.check("delete" not in names, f"tools/list above has no delete ({', '.join(names)})")
        result = session.call_tool("delete", {"table": "Track", "where": [{"column": "TrackId", "op": "=", "value": 1}]})
        session.check("error" in result or result.get("isError") is True, "calling it anyway is refused")

        session.step("close stdin (the client hangs up)")
        status = server.hang_up()
        session.flush_notifications()
        session.check(status == 0, f"the server exited with status {status}")
        tracks = count_tracks(database)
        if tracks is not None:
            session.check(tracks == 3503, f"Track still has {tracks} rows in the copy")
    except SessionError as error:
        server.kill()
        print(Style.bad(f"\ntry: {error}"), file=sys.stderr)
        return 1

    print()
    with open(log_path, encoding="utf-8", errors="replace") as handle:
        log_lines = [line.rstrip("\n") for line in handle if line.strip()]
    if log_lines:
        print(Style.dim("server log (stderr):"))
        print(Style.dim(textwrap.indent("\n".join(log_lines), "    ")))
    print()
    print(f"The database copy is at {database}; run the server on it yourself:")
    print(f"    {server_path} --db {database} --allow standard")
    if session.failures:
        print(Style.bad(f"\n{len(session.failures)} check(s) failed: {'; '.join(session.failures)}"), file=sys.stderr)
        return 1
    return 0


def count_tracks(database: str) -> int | None:
    """Rows in Track, read directly with SQLite (None when Python lacks its sqlite3 module)."""
    try:
        import sqlite3
    except ImportError:
        return None
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT COUNT(*) FROM Track").fetchone()[0]
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="path of the dbai-mcp binary")
    parser.add_argument("--db", required=True, help="the database the session may read and change (a copy)")
    parser.add_argument("--log", help="where the server's stderr goes (default: next to the database)")
    args = parser.parse_args()
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    log_path = args.log or os.path.join(os.path.dirname(os.path.abspath(args.db)), "dbai-mcp.log")
    return run(args.server, args.db, log_path)


if __name__ == "__main__":
    sys.exit(main())
