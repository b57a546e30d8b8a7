"""`ask` end to end: the client's own model through MCP sampling, and `--llm openai-compatible`
pointed at a local fake server that speaks the OpenAI chat-completions wire format."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from conftest import assert_tool_error, assert_tool_ok, connect, error_code, sha256, validate_output

pytestmark = pytest.mark.anyio


def sql_or_summary(prompt: str, sql: str, summary: str) -> str:
    """Plays the model: the summary request carries the result inside <data> tags."""
    return summary if "<data>" in prompt else sql


async def test_ask_is_not_listed_without_a_model(dbai_bin: Path, chinook: Path) -> None:
    async with connect(dbai_bin, chinook) as connection:
        tools = await connection.session.list_tools()
        assert "ask" not in [tool.name for tool in tools.tools]


async def test_ask_through_sampling(dbai_bin: Path, chinook: Path) -> None:
    prompts: list[types.CreateMessageRequestParams] = []

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        prompts.append(params)
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        answer = sql_or_summary(
            text,
            "```sql\nSELECT BillingCountry, SUM(Total) AS total FROM Invoice GROUP BY BillingCountry ORDER BY total DESC LIMIT 3\n```",
            "The USA leads with 523.06, then Canada and France.")
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=answer), model="client-model", stopReason="endTurn")

    async with connect(dbai_bin, chinook, sampling_callback=sampling) as connection:
        tools = await connection.session.list_tools()
        assert "ask" in [tool.name for tool in tools.tools]
        result = await connection.call("ask", {"question": "Which three countries spend the most?"})
        structured = assert_tool_ok(result)
        assert structured["answer"] == "The USA leads with 523.06, then Canada and France."
        assert structured["rows"][0][0] == "USA"
        assert [column["name"] for column in structured["columns"]] == ["BillingCountry", "total"]
        assert structured["chart"] == {"type": "bar", "x": "BillingCountry", "y": "total"}
        # The schema went to the client's model in the system prompt; the data came back fenced.
        assert '"Invoice"' in (prompts[0].systemPrompt or "")
        assert "untrusted data" in prompts[-1].messages[-1].content.text


async def test_ask_refuses_a_write_under_readonly(dbai_bin: Path, chinook: Path) -> None:
    before = sha256(chinook)

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="DELETE FROM Track"), model="m")

    async with connect(dbai_bin, chinook, sampling_callback=sampling) as connection:
        result = await connection.call("ask", {"question": "Delete every track"})
        assert_tool_error(result, "DELETE")
        assert error_code(result) == "refused"
    assert sha256(chinook) == before


def send_chat_completion(handler: BaseHTTPRequestHandler, model: str, content: str) -> None:
    """Answers with an OpenAI chat completion whose message is `content`."""
    reply = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    data = json.dumps(reply).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class FakeOpenAI(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions like an OpenAI-compatible server; records the requests."""

    requests: list[dict[str, Any]] = []
    sql = "SELECT COUNT(*) AS tracks FROM Track"

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeOpenAI.requests.append({"path": self.path, "body": body, "authorization": self.headers.get("Authorization")})
        prompt = body["messages"][-1]["content"]
        content = sql_or_summary(prompt, json.dumps({"sql": FakeOpenAI.sql}), "There are 3503 tracks.")
        send_chat_completion(self, body["model"], content)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def fake_openai() -> str:
    FakeOpenAI.requests = []
    FakeOpenAI.sql = "SELECT COUNT(*) AS tracks FROM Track"
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


async def test_ask_with_an_openai_compatible_model(dbai_bin: Path, chinook: Path, fake_openai: str) -> None:
    # One statement a question: the calls below are counted (test_every_answer_says_how_sure_it_is has the vote).
    async with connect(dbai_bin, chinook, "--llm", "openai-compatible:local-model", "--llm-base-url", fake_openai,
                       "--llm-candidates", "1") as connection:
        tools = await connection.session.list_tools()
        assert "ask" in [tool.name for tool in tools.tools]
        first = assert_tool_ok(await connection.call("ask", {"question": "How many tracks are there?"}))
        assert first["rows"] == [[3503]]
        assert first["answer"] == "There are 3503 tracks."
        assert first["sql"] == "SELECT COUNT(*) AS tracks FROM Track"
        # The SQL request and the summary, with the tokens the model reported for each.
        assert first["usage"] == {"model_calls": 2, "prompt_tokens": 20, "completion_tokens": 10}

        FakeOpenAI.sql = "SELECT COUNT(*) AS tracks FROM Track WHERE GenreId = 1"
        follow_up = assert_tool_ok(await connection.call(
            "ask", {"question": "now only rock", "conversation_id": first["conversation_id"]}))
        assert follow_up["rows"] == [[1297]]

    sql_requests = [r for r in FakeOpenAI.requests if "<data>" not in r["body"]["messages"][-1]["content"]]
    assert all(r["path"] == "/v1/chat/completions" for r in FakeOpenAI.requests)
    assert all(r["body"]["model"] == "local-model" for r in FakeOpenAI.requests)
    # A local server is asked for plain SQL: a JSON schema costs a CPU model time per answer.
    assert "response_format" not in sql_requests[0]["body"]
    assert FakeOpenAI.requests[0]["authorization"] is None  # no key configured, none sent
    # The follow-up carried the first question and its SQL.
    follow_messages = [m["content"] for m in sql_requests[1]["body"]["messages"]]
    assert "Question: How many tracks are there?" in follow_messages
    assert "SELECT COUNT(*) AS tracks FROM Track" in follow_messages


async def test_ask_reports_an_unreachable_model(dbai_bin: Path, chinook: Path) -> None:
    async with connect(dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", "http://127.0.0.1:9/v1") as connection:
        result = await connection.call("ask", {"question": "How many tracks are there?"})
        assert_tool_error(result, "could not be reached")
        assert error_code(result) == "model_error"


class BarrierOpenAI(BaseHTTPRequestHandler):
    """An OpenAI-compatible model that answers nothing until `expected` requests are in flight at
    once (or 15 s pass): a server that sends its model calls one at a time never gets there."""

    expected = 5
    lock = threading.Lock()
    all_arrived = threading.Event()
    in_flight = 0
    most_in_flight = 0

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = BarrierOpenAI
        with cls.lock:
            cls.in_flight += 1
            cls.most_in_flight = max(cls.most_in_flight, cls.in_flight)
            if cls.in_flight >= cls.expected:
                cls.all_arrived.set()
        cls.all_arrived.wait(timeout=15)
        with cls.lock:
            cls.in_flight -= 1
        send_chat_completion(self, body["model"], json.dumps({"sql": "SELECT COUNT(*) AS tracks FROM Track"}))

    def log_message(self, *args: Any) -> None:
        pass


async def test_concurrent_asks_reach_the_model_at_once(dbai_bin: Path, chinook: Path) -> None:
    """Five asks in flight are five model requests in flight: nothing serialises them (the
    URLSession-era limiter sent one at a time on Linux)."""
    import anyio

    BarrierOpenAI.in_flight = BarrierOpenAI.most_in_flight = 0
    BarrierOpenAI.all_arrived = threading.Event()
    server = ThreadingHTTPServer(("127.0.0.1", 0), BarrierOpenAI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        async with connect(
            dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", base_url,
            "--llm-summary", "deterministic",
        ) as connection:
            results: list[dict[str, Any]] = []

            async def ask(index: int) -> None:
                results.append(assert_tool_ok(await connection.call("ask", {"question": f"How many tracks? ({index})"})))

            async with anyio.create_task_group() as group:
                for index in range(5):
                    group.start_soon(ask, index)
        assert [result["rows"] for result in results] == [[[3503]]] * 5
        assert BarrierOpenAI.most_in_flight == 5
    finally:
        server.shutdown()


class SlowOpenAI(BaseHTTPRequestHandler):
    """An OpenAI-compatible model that takes `delay` seconds to answer each request."""

    delay = 2.5
    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        import time

        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        SlowOpenAI.requests.append(body)
        time.sleep(SlowOpenAI.delay)
        content = sql_or_summary(body["messages"][-1]["content"], json.dumps({"sql": "SELECT COUNT(*) FROM Track"}), "3503.")
        try:
            send_chat_completion(self, body["model"], content)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server gave up waiting

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def slow_openai() -> str:
    SlowOpenAI.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowOpenAI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


async def test_the_first_request_with_a_prompt_may_take_longer(dbai_bin: Path, chinook: Path, slow_openai: str) -> None:
    """A local model reads a new prompt slowly, once: the first request gets --llm-first-timeout,
    later ones (of any conversation) --llm-timeout."""
    async with connect(
        dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", slow_openai, "--llm-summary", "deterministic",
        "--llm-timeout", "1", "--llm-first-timeout", "30",
    ) as connection:
        first = assert_tool_ok(await connection.call("ask", {"question": "How many tracks are there?"}))
        assert first["rows"] == [[3503]]
        second = await connection.call("ask", {"question": "How many tracks are there, again?"})
        assert_tool_error(second, "1 s")
        assert error_code(second) == "model_error"


async def test_warm_up_reads_the_prompt_at_start(dbai_bin: Path, chinook: Path, fake_openai: str) -> None:
    """--llm-warm-up sends one short request with the system prompt of ask as the server starts."""
    import anyio

    async with connect(
        dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", fake_openai, "--llm-warm-up",
    ) as connection:
        with anyio.fail_after(20):
            while not FakeOpenAI.requests:
                await anyio.sleep(0.05)
        warm_up = FakeOpenAI.requests[0]["body"]
        assert warm_up["max_tokens"] == 1
        assert_tool_ok(await connection.call("ask", {"question": "How many tracks are there?"}))
    asked = FakeOpenAI.requests[1]["body"]
    assert warm_up["messages"][0] == asked["messages"][0]
    assert warm_up["messages"][0]["role"] == "system" and '"Invoice"' in warm_up["messages"][0]["content"]


async def test_warm_up_needs_a_model(dbai_bin: Path, chinook: Path) -> None:
    import subprocess

    result = subprocess.run([str(dbai_bin), "--db", str(chinook), "--llm-warm-up"], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "--llm-warm-up needs --llm" in result.stderr


async def test_progress_while_the_model_reads_the_prompt(dbai_bin: Path, chinook: Path, slow_openai: str) -> None:
    """While ask waits for a slow model, progress notifications say what it waits for."""
    SlowOpenAI.delay = 1.0
    messages: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    try:
        async with connect(
            dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", slow_openai,
        ) as connection:
            result = await connection.call("ask", {"question": "How many tracks are there?"}, progress_callback=on_progress)
            assert_tool_ok(result)
    finally:
        SlowOpenAI.delay = 2.5
    assert any("reading the schema for the first time and writing SQL" in message for message in messages), messages
    assert any("summarizing the result" in message for message in messages), messages


async def test_structured_sql_output_when_asked(dbai_bin: Path, chinook: Path, fake_openai: str) -> None:
    async with connect(
        dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", fake_openai, "--llm-sql-output", "structured",
    ) as connection:
        assert assert_tool_ok(await connection.call("ask", {"question": "How many tracks are there?"}))["rows"] == [[3503]]
    assert FakeOpenAI.requests[0]["body"]["response_format"]["type"] in ("json_schema", "json_object")


async def test_ask_shows_what_the_model_wrote_and_every_rewrite(dbai_bin: Path, chinook: Path) -> None:
    written = "SELECT FirstName FROM Employee WHERE EmployeeId NOT IN (SELECT ReportsTo FROM Employee) ORDER BY EmployeeId"

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        answer = sql_or_summary(text, "SELECT count(*) FROM Album" if "albums" in text else written, "Answered.")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=answer), model="m")

    async with connect(dbai_bin, chinook, sampling_callback=sampling) as connection:
        result = await connection.call("ask", {"question": "Which employees manage nobody?"})
        structured = await validate_output(connection, "ask", result)
        plain = await validate_output(connection, "ask", await connection.call("ask", {"question": "How many albums are there?"}))
    # ReportsTo is NULL for the general manager: as written, NOT IN is never true.
    assert structured["model_sql"] == written
    assert structured["sql"] != written and "IS NOT NULL" in structured["sql"]
    assert structured["rewrites"] == [
        {"rule": "not_in_null", "kind": "equivalence", "before": written, "after": structured["sql"]}]
    assert len(structured["rows"]) == 5
    text = "".join(part.text for part in result.content if isinstance(part, types.TextContent))
    assert "not the statement the language model wrote" in text and "not_in_null (equivalence)" in text and written in text
    assert plain["rewrites"] == [] and plain["model_sql"] == plain["sql"] == "SELECT count(*) FROM Album"
    assert structured["doubts"] == [] and plain["doubts"] == []


async def test_ask_says_what_looks_wrong_in_an_answer(dbai_bin: Path, chinook: Path) -> None:
    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        answer = sql_or_summary(text, "SELECT count(*) FROM Genre WHERE Name = 'Polka'", "None.")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=answer), model="m")

    async with connect(dbai_bin, chinook, "--llm-candidates", "1", sampling_callback=sampling) as connection:
        result = await connection.call("ask", {"question": "How many polka genres are there?"})
        structured = await validate_output(connection, "ask", result)
    assert structured["rows"] == [[0]]
    assert len(structured["doubts"]) == 1 and structured["doubts"][0].startswith("'Polka' is not a value of Genre.Name; its values are")
    text = "".join(part.text for part in result.content if isinstance(part, types.TextContent))
    assert "Check before trusting this answer:\n- 'Polka' is not a value of Genre.Name" in text
    assert "The language model was asked to look at its statement again:\n- 'Polka' is not a value" in text
    assert "replaced_sql" not in structured and "It replaced the statement" not in text


async def test_ask_shows_the_statement_a_second_look_replaced(dbai_bin: Path, chinook: Path) -> None:
    first, second = "SELECT count(*) FROM Genre WHERE Name = 'Polka'", "SELECT count(*) FROM Genre WHERE Name = 'Rock'"

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        answer = sql_or_summary(text, second if "That statement runs, but:" in text else first, "One.")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=answer), model="m")

    async with connect(dbai_bin, chinook, "--llm-candidates", "1", sampling_callback=sampling) as connection:
        result = await connection.call("ask", {"question": "How many polka genres are there?"})
        structured = await validate_output(connection, "ask", result)
    assert structured["sql"] == structured["model_sql"] == second and structured["rows"] == [[1]]
    assert structured["replaced_sql"] == first and structured["looked_again_for"][0].startswith("'Polka' is not a value")
    text = "".join(part.text for part in result.content if isinstance(part, types.TextContent))
    assert "It replaced the statement it wrote first, which ran: " + first in text


async def test_rewrites_and_examples_can_be_turned_off(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    written = "SELECT FirstName FROM Employee WHERE EmployeeId NOT IN (SELECT ReportsTo FROM Employee)"
    metadata = tmp_path / "metadata.yaml"
    metadata.write_text(
        "databases:\n  chinook:\n    examples:\n"
        "      - {question: Which employees manage somebody?, sql: SELECT DISTINCT ReportsTo FROM Employee}\n")
    prompts: list[str] = []

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        last = params.messages[-1].content
        text = last.text if isinstance(last, types.TextContent) else ""
        prompts.append(text)
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=sql_or_summary(text, written, "None.")), model="m")

    async with connect(
        dbai_bin, chinook, "--metadata", str(metadata), "--llm-rewrites", "none", "--llm-examples", "0",
        sampling_callback=sampling,
    ) as connection:
        structured = await validate_output(connection, "ask", await connection.call("ask", {"question": "Which employees manage nobody?"}))
    # As written, NOT IN over a column with a NULL returns nothing; with rewrites off it runs so.
    assert structured["sql"] == structured["model_sql"] == written and structured["rewrites"] == [] and structured["rows"] == []
    assert not any("Examples of questions" in prompt for prompt in prompts)


class LogprobOpenAI(BaseHTTPRequestHandler):
    """An OpenAI-compatible server that gives token log-probabilities when asked (as llama.cpp's
    server does): sure of the first statement, then, for the vote, one that returns other rows."""

    requests: list[dict[str, Any]] = []
    statements = ["SELECT COUNT(*) AS tracks FROM Track", "SELECT COUNT(*) AS tracks FROM Track",
                  "SELECT COUNT(*) AS tracks FROM Track WHERE GenreId = 1"]

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        LogprobOpenAI.requests.append(body)
        prompt = body["messages"][-1]["content"]
        sql_count = sum("<data>" not in request["messages"][-1]["content"] for request in LogprobOpenAI.requests)
        sql = LogprobOpenAI.statements[min(sql_count, len(LogprobOpenAI.statements)) - 1]
        content = sql_or_summary(prompt, sql, "There are 3503 tracks.")
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        if body.get("logprobs"):
            words = content.split(" ")
            choice["logprobs"] = {"content": [
                {"token": (" " if index else "") + word, "logprob": -0.01 if index != 1 else -0.9, "bytes": None,
                 "top_logprobs": [{"token": "x", "logprob": -5.0, "bytes": None}]}
                for index, word in enumerate(words)]}
        data = json.dumps({"id": "c", "object": "chat.completion", "created": 1, "model": body["model"], "choices": [choice],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


async def test_every_answer_says_how_sure_it_is(dbai_bin: Path, chinook: Path) -> None:
    LogprobOpenAI.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), LogprobOpenAI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        async with connect(dbai_bin, chinook, "--llm", "openai-compatible:m", "--llm-base-url", base_url,
                           "--llm-candidates", "3", "--llm-candidate-sampling", "always") as connection:
            result = await connection.call("ask", {"question": "How many tracks are there?"})
            structured = await validate_output(connection, "ask", result)
        sql_requests = [r for r in LogprobOpenAI.requests if "<data>" not in r["messages"][-1]["content"]]
        assert len(sql_requests) == 3 and all(r["logprobs"] is True and r["top_logprobs"] == 2 for r in sql_requests)
        assert structured["rows"] == [[3503]]
        # Two of three statements agree; the model hesitated at one token (41%).
        evidence = structured["confidence_evidence"]
        assert (evidence["candidates_written"], evidence["candidates_cast"], evidence["candidates_agreeing"]) == (3, 3, 2)
        assert evidence["hesitations"] == 1 and abs(evidence["token_logprob_min"] + 0.9) < 1e-9
        assert [(c["result"], c["agrees"]) for c in structured["candidates"]] == [(0, True), (0, True), (1, False)]
        codes = [reason["code"] for reason in structured["confidence_reasons"]]
        assert codes[:2] == ["candidates_disagree", "model_unsure"]
        assert structured["confidence"] in ("high", "low") and 0 <= structured["confidence_score"] <= 1
        text = "".join(part.text for part in result.content if part.type == "text")
        assert f"Confidence: {structured['confidence']}" in text
        if structured["confidence"] == "low":
            assert "may be wrong" in text and "disagree" in text
        else:
            assert "may be wrong" not in text
    finally:
        server.shutdown()
