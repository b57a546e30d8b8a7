"""`--state-dir`: `ask` conversations kept in an SQLite file of their own, continued after a
restart, forgotten after `--conversation-ttl`, never interleaved."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import run_binary, sha256
from test_ask import FakeOpenAI, fake_openai, send_chat_completion, sql_or_summary  # noqa: F401 (fixture)
from test_audit import Server
from test_http import http_server
from test_revision_2026 import Stdio, modern_params


class RecordingModel(BaseHTTPRequestHandler):
    """An OpenAI-compatible model that counts tracks, slowly when told, and keeps every prompt."""

    prompts: list[list[dict[str, Any]]] = []
    delay = 0.0
    lock = threading.Lock()

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with RecordingModel.lock:
            RecordingModel.prompts.append(body["messages"])
        time.sleep(RecordingModel.delay)
        prompt = body["messages"][-1]["content"]
        send_chat_completion(self, body["model"], sql_or_summary(prompt, json.dumps({"sql": "SELECT COUNT(*) FROM Track"}), "3503."))

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def model() -> str:
    RecordingModel.prompts = []
    RecordingModel.delay = 0.0
    server = ThreadingHTTPServer(("127.0.0.1", 0), RecordingModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def sql_prompts_mentioning(text: str) -> int:
    """How many requests for SQL (not summaries) carry `text` in an earlier message."""
    return sum(
        1 for messages in RecordingModel.prompts
        if "<data>" not in str(messages[-1]["content"]) and any(text in str(message["content"]) for message in messages[:-1]))


def llm(model: str) -> list[str]:
    # One statement a question: the prompts the model gets are counted.
    return ["--llm", "openai-compatible:local", "--llm-base-url", model, "--llm-candidates", "1"]


def test_a_conversation_continues_after_a_restart(dbai_bin: Path, chinook: Path, tmp_path: Path, model: str) -> None:
    state = tmp_path / "state" / "nested"
    before = sha256(chinook)
    server = Server(dbai_bin, chinook, "--state-dir", str(state), *llm(model))
    try:
        first = server.call("ask", {"question": "How many tracks are there in the store?"})["structuredContent"]
    finally:
        server.stop()
    conversation = first["conversation_id"]
    assert (state / "conversations.sqlite").exists()
    assert (state / "conversations.sqlite").stat().st_mode & 0o077 == 0 and state.stat().st_mode & 0o077 == 0, "the user's alone"
    assert sha256(chinook) == before, "nothing is kept in the user's database"

    restarted = Server(dbai_bin, chinook, "--state-dir", str(state), *llm(model))
    try:
        follow_up = restarted.call("ask", {"question": "And longer than five minutes?", "conversation_id": conversation})
    finally:
        restarted.stop()
    assert not follow_up.get("isError"), follow_up
    assert follow_up["structuredContent"]["conversation_id"] == conversation
    assert sql_prompts_mentioning("How many tracks are there in the store?") == 1, "the follow-up saw the earlier turn"
    with sqlite3.connect(state / "conversations.sqlite") as connection:
        (turns,) = connection.execute("SELECT turns FROM conversation WHERE id = ?", (conversation,)).fetchone()
    assert [turn["question"] for turn in json.loads(turns)] == [
        "How many tracks are there in the store?", "And longer than five minutes?"]


def started_conversation(dbai_bin: Path, chinook: Path, flags: list[str]) -> str:
    """The conversation_id of one stateless question asked of a server that then stops."""
    server = Stdio(dbai_bin, chinook, *flags)
    try:
        first = server.call("tools/call", modern_params({"name": "ask", "arguments": {"question": "Count the tracks"}}))
    finally:
        server.stop()
    return first["result"]["structuredContent"]["conversation_id"]


def test_a_stateless_conversation_id_continues_after_a_restart(dbai_bin: Path, chinook: Path, tmp_path: Path, model: str) -> None:
    state = tmp_path / "state"
    flags = ["--state-dir", str(state), *llm(model)]
    conversation = started_conversation(dbai_bin, chinook, flags)
    restarted = Stdio(dbai_bin, chinook, *flags)
    try:
        again = restarted.call("tools/call", modern_params(
            {"name": "ask", "arguments": {"question": "Only the long ones", "conversation_id": conversation}}))
        unknown = restarted.call("tools/call", modern_params(
            {"name": "ask", "arguments": {"question": "Only the long ones", "conversation_id": "made-up"}}))
    finally:
        restarted.stop()
    assert not again["result"].get("isError"), again
    assert unknown["result"]["isError"] and "Unknown conversation_id" in unknown["result"]["content"][0]["text"]


def test_conversations_expire_after_the_ttl(dbai_bin: Path, chinook: Path, tmp_path: Path, model: str) -> None:
    state = tmp_path / "state"
    flags = ["--state-dir", str(state), "--conversation-ttl", "1s", *llm(model)]
    conversation = started_conversation(dbai_bin, chinook, flags)
    time.sleep(2.2)
    restarted = Stdio(dbai_bin, chinook, *flags)
    try:
        expired = restarted.call("tools/call", modern_params(
            {"name": "ask", "arguments": {"question": "Only the long ones", "conversation_id": conversation}}))
    finally:
        restarted.stop()
    assert expired["result"]["isError"] and "expired" in expired["result"]["content"][0]["text"]
    with sqlite3.connect(state / "conversations.sqlite") as connection:
        assert connection.execute("SELECT count(*) FROM conversation WHERE id = ?", (conversation,)).fetchone() == (0,)


@pytest.mark.parametrize("restarted", [False, True], ids=["held", "restored"])
def test_two_clients_on_one_conversation_take_turns(dbai_bin: Path, chinook: Path, tmp_path: Path, model: str, restarted: bool) -> None:
    state = tmp_path / "state"
    flags = ["--state-dir", str(state), *llm(model)]
    if restarted:
        # Nobody holds the conversation: both sessions restore it from the file at once.
        with http_server(dbai_bin, chinook, *flags) as first:
            opener = first.raw()
            opener.initialize()
            conversation = opener.call(1, "ask", {"question": "Question zero"})["result"]["structuredContent"]["conversation_id"]
    with http_server(dbai_bin, chinook, *flags) as server:
        if not restarted:
            opener = server.raw()
            opener.initialize()
            conversation = opener.call(1, "ask", {"question": "Question zero"})["result"]["structuredContent"]["conversation_id"]
        RecordingModel.delay = 0.3
        RecordingModel.prompts = []
        answers: dict[str, Any] = {}

        def follow_up(name: str) -> None:
            session = server.raw()
            session.initialize()
            answers[name] = session.call(2, "ask", {"question": f"Question {name}", "conversation_id": conversation})

        threads = [threading.Thread(target=follow_up, args=(name,)) for name in ("one", "two")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert all(not answer["result"].get("isError") for answer in answers.values()), answers
    # One after the other: whichever ran second saw the first one's turn.
    assert sql_prompts_mentioning("Question one") + sql_prompts_mentioning("Question two") == 1
    with sqlite3.connect(state / "conversations.sqlite") as connection:
        (turns,) = connection.execute("SELECT turns FROM conversation WHERE id = ?", (conversation,)).fetchone()
    assert sorted(turn["question"] for turn in json.loads(turns)) == ["Question one", "Question two", "Question zero"]


def test_a_state_directory_that_cannot_be_used_is_a_start_up_error(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    not_sqlite = tmp_path / "not-sqlite"
    not_sqlite.mkdir()
    (not_sqlite / "conversations.sqlite").write_text("this is not an SQLite file, it is plain text " * 20)
    occupied = tmp_path / "occupied"
    (occupied / "conversations.sqlite").mkdir(parents=True)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "conversations.sqlite").write_bytes(chinook.read_bytes())
    foreign_before = sha256(foreign / "conversations.sqlite")
    served = tmp_path / "served"
    served.mkdir()
    (served / "conversations.sqlite").write_bytes(chinook.read_bytes())
    cases = [
        ([str(a_file)], "not a directory"),
        ([str(a_file / "below")], "cannot be created"),
        ([str(not_sqlite)], "cannot be opened and written"),
        ([str(occupied)], "cannot be opened and written"),
        ([str(foreign)], "another program's SQLite database"),
    ]
    for arguments, fragment in cases:
        result = run_binary(dbai_bin, "--db", str(chinook), "--state-dir", *arguments)
        assert result.returncode != 0, arguments
        assert "--state-dir" in result.stderr and fragment in result.stderr, result.stderr
    assert sha256(foreign / "conversations.sqlite") == foreign_before, "another program's database is never written"
    before = sha256(served / "conversations.sqlite")
    result = run_binary(dbai_bin, "--db", str(served / "conversations.sqlite"), "--state-dir", str(served))
    assert result.returncode != 0 and "never kept in it" in result.stderr, result.stderr
    assert sha256(served / "conversations.sqlite") == before
    for flags, fragment in [
        (["--conversation-ttl", "7d"], "needs --state-dir"),
        (["--state-dir", str(tmp_path / "s"), "--conversation-ttl", "0"], "not a duration"),
        (["--state-dir", str(tmp_path / "s"), "--conversation-ttl", "soon"], "not a duration"),
    ]:
        result = run_binary(dbai_bin, "--db", str(chinook), *flags)
        assert result.returncode != 0 and fragment in result.stderr, result.stderr


def test_a_conversation_continued_by_another_client_confirms_its_way(dbai_bin: Path, chinook: Path, tmp_path: Path, fake_openai: str) -> None:
    """Started by a stateless client (which cannot be asked mid-call), continued by a handshake
    client that takes elicitation: the model's write is confirmed through that client."""
    FakeOpenAI.sql = "SELECT COUNT(*) FROM Genre"
    server = Stdio(dbai_bin, chinook, "--allow", "standard", "--state-dir", str(tmp_path / "state"),
                   "--llm", "openai-compatible:local", "--llm-base-url", fake_openai)
    try:
        first = server.call("tools/call", modern_params({"name": "ask", "arguments": {"question": "How many genres?"}}))
        conversation = first["result"]["structuredContent"]["conversation_id"]
        raw = server.server
        raw.initialize(capabilities={"elicitation": {}})
        FakeOpenAI.sql = "INSERT INTO Genre (Name) VALUES ('Continued')"
        raw.request("ask-2", "tools/call", {"name": "ask", "arguments": {"question": "Add a genre", "conversation_id": conversation}})
        asked = raw.wait_for(lambda message: message.get("method") == "elicitation/create")
        raw.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"confirm": True}}})
        answer = raw.wait_for(lambda message: message.get("id") == "ask-2" and "method" not in message)
    finally:
        server.stop()
    assert not answer["result"].get("isError"), answer
    assert "A language model wrote this change" in asked["params"]["message"]
    with sqlite3.connect(chinook) as connection:
        assert connection.execute("SELECT count(*) FROM Genre WHERE Name = 'Continued'").fetchone() == (1,)
