"""Several replicas of one server on one WAL database, sharing `--state-secret-file` and
`--state-dir`: a confirmation begun on one is accepted on another, and runs once across all of
them (replayed elsewhere, raced on two at once, for an insert, after its rows were put back).

Each replica is its own `dbai-mcp --http` process, spoken to directly (the balancer in front of
them is tested in test_deploy.py).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from conftest import run_binary
from test_http import http_server
from test_revision_2026 import DELETE, ELICITING, count, modern_params, post
from test_ask import FakeOpenAI, fake_openai  # noqa: F401 (the fixture is used by name)

ACCEPT = {"confirm": {"action": "accept", "content": {"confirm": True}}}


def write_secret(path: Path, content: bytes = b"0123456789abcdef0123456789abcdef-replicas\n", mode: int = 0o600) -> Path:
    path.write_bytes(content)
    path.chmod(mode)
    return path


@pytest.fixture
def shared(tmp_path: Path, chinook: Path) -> dict[str, Path]:
    with sqlite3.connect(chinook) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
    return {"secret": write_secret(tmp_path / "secret"), "state": tmp_path / "state", "db": chinook}


def replicas(stack: ExitStack, binary: Path, shared: dict[str, Path], *args: str, n: int = 3, tmp: Path | None = None) -> list[Any]:
    started = []
    for index in range(n):
        audit = (tmp or shared["state"].parent) / f"audit-{index}.jsonl"
        started.append(stack.enter_context(http_server(
            binary, shared["db"], "--allow", "unrestricted", "--state-secret-file", str(shared["secret"]),
            "--state-dir", str(shared["state"]), "--audit-log", str(audit), *args)))
    return started


def call(server: Any, params: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    status, answer = post(server, {"id": request_id, "method": "tools/call", "params": modern_params(params, ELICITING)})
    assert status == 200, answer
    return answer


def begin(server: Any, params: dict[str, Any]) -> str:
    answer = call(server, params)
    assert answer["result"]["resultType"] == "input_required", answer
    return answer["result"]["requestState"]


def accepted(params: dict[str, Any], state: str) -> dict[str, Any]:
    return {**params, "inputResponses": ACCEPT, "requestState": state}


INVOICE_1 = "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1"


def test_a_confirmation_begun_on_one_replica_is_accepted_on_another_and_runs_once(dbai_bin: Path, shared) -> None:
    with ExitStack() as stack:
        a, b, c = replicas(stack, dbai_bin, shared)
        state = begin(a, DELETE)
        assert count(shared["db"], INVOICE_1) == 2
        done = call(b, accepted(DELETE, state))
        assert done["result"]["structuredContent"]["rows_affected"] == 2, done
        assert count(shared["db"], INVOICE_1) == 0
        # The rows put back, exactly as they were: the same state replayed on C changes nothing.
        with sqlite3.connect(shared["db"]) as connection:
            connection.execute("INSERT INTO InvoiceLine VALUES (1, 1, 2, 0.99, 1), (2, 1, 4, 0.99, 1)")
        for server in (c, a, b):
            replay = call(server, accepted(DELETE, state))
            assert replay["error"]["code"] == -32602 and "already used" in replay["error"]["message"], replay
        assert count(shared["db"], INVOICE_1) == 2


def test_a_state_signed_by_a_replica_without_the_secret_is_refused(dbai_bin: Path, shared, tmp_path: Path) -> None:
    other = dict(shared, secret=write_secret(tmp_path / "other-secret", b"another secret of at least thirty-two bytes"))
    (tmp_path / "other").mkdir()
    with ExitStack() as stack:
        (a,) = replicas(stack, dbai_bin, shared, n=1)
        (b,) = replicas(stack, dbai_bin, other, n=1, tmp=tmp_path / "other")
        state = begin(a, DELETE)
        refused = call(b, accepted(DELETE, state))
        assert refused["error"]["code"] == -32602 and "state-secret-file" in refused["error"]["message"]
        assert count(shared["db"], INVOICE_1) == 2


def test_a_model_written_insert_confirmed_on_another_replica_runs_once(
    dbai_bin: Path, shared, fake_openai: str, tmp_path: Path
) -> None:
    FakeOpenAI.sql = "INSERT INTO Genre (GenreId, Name) VALUES (9001, 'Replicated')"
    ask = {"name": "ask", "arguments": {"question": "Add the genre Replicated"}}
    genre = "SELECT count(*) FROM Genre WHERE GenreId = 9001"
    with ExitStack() as stack:
        a, b, c = replicas(stack, dbai_bin, shared, "--llm", "openai-compatible:m", "--llm-base-url", fake_openai)
        state = begin(a, ask)
        done = call(b, accepted(ask, state))
        assert not done["result"].get("isError") and done["result"]["structuredContent"]["rows_affected"] == 1, done
        assert count(shared["db"], genre) == 1
        # Put back (the row removed): replaying the state inserts nothing, on any replica.
        with sqlite3.connect(shared["db"]) as connection:
            connection.execute("DELETE FROM Genre WHERE GenreId = 9001")
        for server in (c, b, a):
            replay = call(server, accepted(ask, state))
            assert replay["error"]["code"] == -32602, replay
        assert count(shared["db"], genre) == 0


def test_one_state_sent_to_two_replicas_at_once_runs_exactly_once(dbai_bin: Path, shared) -> None:
    with ExitStack() as stack:
        a, b, c = replicas(stack, dbai_bin, shared)
        for round_number in range(5):
            invoice = round_number + 1
            delete = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": invoice}}}
            before = count(shared["db"], "SELECT count(*) FROM InvoiceLine")
            lines = count(shared["db"], f"SELECT count(*) FROM InvoiceLine WHERE InvoiceId = {invoice}")
            state = begin(a, delete)
            answers: list[dict[str, Any]] = []
            barrier = threading.Barrier(2)

            def send(server: Any) -> None:
                barrier.wait()
                answers.append(call(server, accepted(delete, state)))

            threads = [threading.Thread(target=send, args=(server,)) for server in (b, c)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            ran = [answer for answer in answers if "result" in answer and not answer["result"].get("isError")]
            refused = [answer for answer in answers if answer.get("error", {}).get("code") == -32602]
            assert len(ran) == 1 and len(refused) == 1, answers
            assert count(shared["db"], "SELECT count(*) FROM InvoiceLine") == before - lines


def test_a_confirm_token_issued_by_one_replica_is_used_once_on_another(dbai_bin: Path, shared) -> None:
    with ExitStack() as stack:
        a, b, c = replicas(stack, dbai_bin, shared)
        status, first = post(a, {"id": 1, "method": "tools/call", "params": modern_params(DELETE)})
        token = first["result"]["structuredContent"]["confirmation_token"]
        with_token = {**DELETE, "arguments": {**DELETE["arguments"], "confirm": token}}
        status, done = post(b, {"id": 2, "method": "tools/call", "params": modern_params(with_token)})
        assert done["result"]["structuredContent"]["rows_affected"] == 2, done
        status, again = post(c, {"id": 3, "method": "tools/call", "params": modern_params(with_token)})
        assert again["result"]["isError"] and "already used" in again["result"]["content"][0]["text"], again
        assert count(shared["db"], INVOICE_1) == 0


@pytest.mark.parametrize(("content", "mode", "extra", "fragment"), [
    (b"0123456789abcdef0123456789abcdef", 0o644, ["--state-dir", "STATE"], "mode is 644"),
    (b"too short\n", 0o600, ["--state-dir", "STATE"], "at least 32"),
    (b"0123456789abcdef0123456789abcdef", 0o600, [], "needs --state-dir"),
])
def test_a_bad_secret_stops_the_server_with_the_reason(
    dbai_bin: Path, chinook: Path, tmp_path: Path, content: bytes, mode: int, extra: list[str], fragment: str
) -> None:
    secret = write_secret(tmp_path / "secret", content, mode)
    flags = [str(tmp_path / "state") if flag == "STATE" else flag for flag in extra]
    result = run_binary(dbai_bin, "--db", str(chinook), "--http", "127.0.0.1:0", "--state-secret-file", str(secret), *flags)
    assert result.returncode != 0 and fragment in result.stderr, result.stderr


def test_without_the_flag_a_state_is_the_process_own(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    with http_server(dbai_bin, chinook, "--allow", "unrestricted", "--state-dir", str(tmp_path / "s")) as a, \
            http_server(dbai_bin, chinook, "--allow", "unrestricted", "--state-dir", str(tmp_path / "s")) as b:
        state = begin(a, DELETE)
        refused = call(b, accepted(DELETE, state))
        assert refused["error"]["code"] == -32602
        assert not (tmp_path / "s" / "confirmations.sqlite").exists()
        assert call(a, accepted(DELETE, state))["result"]["structuredContent"]["rows_affected"] == 2


def test_a_ledger_that_cannot_be_written_makes_the_replica_not_ready(dbai_bin: Path, shared) -> None:
    import http.client
    import time

    def readyz(server: Any) -> int:
        connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
        connection.request("GET", "/readyz")
        status = connection.getresponse().status
        connection.close()
        return status

    with ExitStack() as stack:
        (a,) = replicas(stack, dbai_bin, shared, n=1)
        ledger = shared["state"] / "confirmations.sqlite"
        assert readyz(a) == 200
        ledger.rename(ledger.with_name("moved.sqlite"))
        time.sleep(1.1)  # a check serves for a second
        assert readyz(a) == 503
        ledger.with_name("moved.sqlite").rename(ledger)
        time.sleep(1.1)
        assert readyz(a) == 200
        # Another file at its path (a copy): not the one this replica writes.
        copy = ledger.with_name("copy.sqlite")
        copy.write_bytes(ledger.read_bytes())
        copy.rename(ledger)
        time.sleep(1.1)
        assert readyz(a) == 503
