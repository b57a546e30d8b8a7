"""`GET /healthz` and `GET /readyz` for load balancers: no token, a status word only, and readiness
that follows the databases, the audit log and the drain."""

from __future__ import annotations

import http.client
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from conftest import SLOW_QUERY
from test_http import http_server, served  # noqa: F401 (fixture)


def head(server: Any, path: str) -> int:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    connection.request("HEAD", path)
    status = connection.getresponse().status
    connection.close()
    return status


def probe(server: Any, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    answer = (response.status, {key.lower(): value for key, value in response.getheaders()}, response.read())
    connection.close()
    return answer


def test_health_and_readiness_answer_without_a_token_and_say_one_word(served, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with served("--audit-log", str(log)) as server:
        for path, word in (("/healthz", b"ok\n"), ("/readyz", b"ready\n")):
            status, headers, body = probe(server, path)
            assert (status, body) == (200, word)
            assert headers["content-type"].startswith("text/plain") and headers["cache-control"] == "no-store"
        assert head(server, "/healthz") == 200 and head(server, "/readyz") == 200
        # An audit log that can no longer be written: not ready (writes would be refused), and
        # the answer names nothing. A check serves the probes of its second.
        os.chmod(log, 0o444)
        time.sleep(1.1)
        for _ in range(3):
            status, _, body = probe(server, "/readyz")
            assert (status, body) == (503, b"not ready\n")
        assert probe(server, "/healthz")[0] == 200, "the process still answers"
        os.chmod(log, 0o600)
        time.sleep(1.1)
        assert probe(server, "/readyz")[:1] == (200,)
        # A FIFO in the log's place: the probe does not open it (it would wait for a reader).
        log.unlink()
        os.mkfifo(log)
        time.sleep(1.1)
        assert probe(server, "/readyz")[:1] == (503,)
        assert probe(server, "/healthz")[0] == 200
        log.unlink()
        time.sleep(1.1)
        assert probe(server, "/readyz")[:1] == (200,), "a missing log is created by the next write"
        assert not log.exists(), "the probe created nothing"
        # Other paths stay as they were.
        assert probe(server, "/readyz/x")[0] == 404
    stderr = server.stderr()
    assert "read-only" in stderr and "not a regular file" in stderr, "why goes to the log"
    assert stderr.count("not ready: the audit log") == 2, "once per change, not once per probe"


def test_a_database_that_cannot_be_opened_and_read_is_not_ready(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    other.write_bytes(chinook.read_bytes())
    with http_server(dbai_bin, chinook) as server:
        assert probe(server, "/readyz")[0] == 200
        raw = server.raw()
        raw.initialize()
        raw.call(1, "query", {"sql": "SELECT count(*) FROM Track"})
        chinook.write_bytes(b"not a database any more" * 100)
        time.sleep(1.1)
        assert probe(server, "/readyz")[:1] == (503,)
        chinook.unlink()
        time.sleep(1.1)
        status, _, body = probe(server, "/readyz")
        assert (status, body) == (503, b"not ready\n"), "a deleted file, though connections still hold it"
        chinook.write_bytes(other.read_bytes())
        time.sleep(1.1)
        assert probe(server, "/readyz")[:1] == (200,)


def test_a_probe_leaves_the_servers_locks_alone(dbai_bin: Path, chinook: Path) -> None:
    """POSIX drops a process's locks on a file when it closes any descriptor of it: the probe
    must open the database through SQLite only, or another process could write under a read."""
    with http_server(dbai_bin, chinook) as server:  # a rollback-journal database: a read holds SHARED
        raw = server.raw()
        raw.initialize()
        caller = threading.Thread(target=raw.call, args=(1, "query", {"sql": SLOW_QUERY.replace("6000000", "30000000")}))
        caller.start()
        time.sleep(0.5)
        for _ in range(2):
            other = sqlite3.connect(chinook, timeout=0)
            try:
                try:
                    other.execute("BEGIN EXCLUSIVE")
                    locked = False
                    other.execute("ROLLBACK")
                except sqlite3.OperationalError as error:
                    locked = "locked" in str(error)
            finally:
                other.close()
            assert locked, "the server's read holds its lock"
            assert probe(server, "/readyz")[0] == 200
        caller.join(60)


def sigterm_during_a_slow_call(server: Any) -> tuple[threading.Thread, dict[str, Any]]:
    """Starts a slow query in a session, SIGTERMs the server while it runs, and returns the
    caller's thread and where its reply lands."""
    raw = server.raw()
    raw.initialize()
    outcome: dict[str, Any] = {}

    def slow_call() -> None:
        outcome["reply"] = raw.call(1, "query", {"sql": SLOW_QUERY})

    caller = threading.Thread(target=slow_call)
    caller.start()
    time.sleep(0.3)
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    return caller, outcome


def refuses_connections(server: Any, path: str) -> bool:
    try:
        probe(server, path)
    except ConnectionRefusedError:
        return True
    return False


def test_on_sigterm_readiness_turns_503_first_then_the_listener_closes_and_calls_finish(served) -> None:
    with served("--drain-delay", "2") as server:
        other = server.raw()
        other.initialize()
        caller, outcome = sigterm_during_a_slow_call(server)
        # Within --drain-delay: still listening; not ready; the process itself answers, and so
        # does a session's call.
        draining = probe(server, "/readyz")
        health = probe(server, "/healthz")
        during = other.call(2, "query", {"sql": "SELECT 1 AS one"})
        time.sleep(2.5)
        # Then the listener is closed: a balancer's new connection is refused.
        refused = refuses_connections(server, "/healthz")
        caller.join(30)
        assert server.process.wait(30) == 0
    assert (draining[0], draining[2]) == (503, b"draining\n")
    assert health[0] == 200
    assert during["result"]["structuredContent"]["rows"] == [[1]]
    assert refused
    assert outcome["reply"]["result"]["structuredContent"]["rows"] == [[6000000]]


def test_without_a_drain_delay_the_listener_closes_at_once_and_the_call_in_flight_is_answered(served) -> None:
    with served() as server:
        caller, outcome = sigterm_during_a_slow_call(server)
        refused = refuses_connections(server, "/readyz")
        caller.join(30)
        assert server.process.wait(30) == 0
    assert refused, "the listener closes first"
    assert outcome["reply"]["result"]["structuredContent"]["rows"] == [[6000000]]


def test_probes_need_no_token_behind_oauth_either(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    from oauth_fixture import authorization_server
    from test_oauth import resource_server

    with authorization_server(tmp_path / "as") as issuer, resource_server(dbai_bin, chinook, issuer.issuer) as server:
        assert probe(server, "/healthz")[:1] == (200,)
        status, headers, body = probe(server, "/readyz")
        assert (status, body) == (200, b"ready\n") and "www-authenticate" not in headers
        assert probe(server, "/mcp")[0] == 401, "the endpoint itself still needs a token"
