"""OpenTelemetry: `dbai-mcp` exports traces, metrics and logs over OTLP/HTTP when the standard
OTEL_EXPORTER_OTLP_ENDPOINT is set, to a real receiver started here (otlp_receiver.py decodes
with `opentelemetry-proto`). Spans follow the conventions for MCP (server spans), databases (a
SQLite child span per statement) and generative AI (a child span per model call of `ask`)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from otlp_receiver import Receiver
from test_ask import FakeOpenAI, fake_openai  # noqa: F401 (a fixture used by fake_model)
from test_http import http_server
from test_revision_2026 import ELICITING, modern_params, post

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE}-{PARENT}-01"
HEADER_TRACE = "0af7651916cd43dd8448eb211c80319c"
HEADER_PARENT = "b7ad6b7169203331"
SERVER, CLIENT, INTERNAL = 2, 3, 1  # OTLP span kinds
ERROR = 2  # OTLP status code


def otel_env(receiver: Receiver, **extra: str) -> dict[str, str]:
    return {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_METRIC_EXPORT_INTERVAL": "200", **extra}


class Stdio:
    """`dbai-mcp` over pipes with an environment: one request, one response line."""

    def __init__(self, binary: Path, database: Path, *args: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(binary), "--db", str(database), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env)
        self.next_id = 0

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.next_id += 1
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> str:
        """Ends the input; the server exits (sending what it has left). Returns its stderr."""
        assert self.process.stdin and self.process.stderr
        self.process.stdin.close()
        assert self.process.wait(30) == 0
        return self.process.stderr.read()


def traced(params: dict[str, Any], capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return modern_params(params, capabilities, traceparent=TRACEPARENT, tracestate="rojo=00f067aa0ba902b7")


def query(sql: str) -> dict[str, Any]:
    return {"name": "query", "arguments": {"sql": sql}}


def only(spans: list[dict[str, Any]]) -> dict[str, Any]:
    assert len(spans) == 1, spans
    return spans[0]


def test_a_stdio_call_continues_the_callers_trace_with_sqlite_spans_metrics_and_logs(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        # A schedule delay far longer than the test: the spans arrive because the exit sends them.
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_BSP_SCHEDULE_DELAY="600000"))
        rows = stdio.call("tools/call", traced(query("SELECT Title FROM Album WHERE Title = 'For Those About To Rock We Salute You' AND AlbumId < 10")))
        assert rows["result"]["structuredContent"]["rows"] == [["For Those About To Rock We Salute You"]]
        failed = stdio.call("tools/call", traced(query("SELECT * FROM nowhere")))
        assert failed["result"]["isError"] is True
        unknown = stdio.call("nope/nothing", traced({}))
        assert unknown["error"]["code"] == -32601
        stderr = stdio.close()
        assert receiver.wait_for(lambda r: len([s for s in r.spans if s["kind"] == SERVER]) == 3)

        call = [s for s in receiver.spans_named("tools/call query") if s["attributes"]["jsonrpc.request.id"] == "1"][0]
        assert (call["trace_id"], call["parent_span_id"], call["kind"]) == (TRACE, PARENT, SERVER)
        assert call["attributes"] == {
            "mcp.method.name": "tools/call", "gen_ai.tool.name": "query", "gen_ai.operation.name": "execute_tool",
            "jsonrpc.request.id": "1", "mcp.protocol.version": "2026-07-28", "network.transport": "pipe"}
        assert call["status_code"] != ERROR
        assert call["resource"]["service.name"] == "dbai-mcp"
        statement = only(receiver.children(call))
        assert statement["name"] == "SELECT Album" and statement["kind"] == CLIENT
        assert statement["attributes"] == {
            "db.system.name": "sqlite", "db.namespace": chinook.name, "db.operation.name": "SELECT",
            "db.collection.name": "Album", "db.response.returned_rows": 1,
            # The values are not in the trace: literals are replaced.
            "db.query.text": "SELECT Title FROM Album WHERE Title = ? AND AlbumId < ?"}
        assert call["start"] <= statement["start"] <= statement["end"] <= call["end"]

        refused = [s for s in receiver.spans_named("tools/call query") if s["attributes"]["jsonrpc.request.id"] == "2"][0]
        assert refused["attributes"]["error.type"] == "tool_error" and refused["status_code"] == ERROR
        assert only(receiver.children(refused))["attributes"]["error.type"] == "invalid_sql"

        # A method the server does not serve names no span (the attribute holds it).
        method = only(receiver.spans_named("_OTHER"))
        assert method["attributes"]["mcp.method.name"] == "nope/nothing"
        assert method["attributes"]["error.type"] == "-32601" and method["attributes"]["rpc.response.status_code"] == "-32601"
        assert method["status_code"] == ERROR and "nope/nothing" in method["status_message"]
        assert "mcp.protocol.version" not in method["attributes"]

        # Logs name the span they were written in, exported and on stderr.
        assert receiver.wait_for(lambda r: any("nowhere" in str(log["body"]) for log in r.logs))
        log = [log for log in receiver.logs if "nowhere" in str(log["body"])][0]
        assert (log["trace_id"], log["span_id"]) == (TRACE, refused["span_id"])
        assert f"trace_id={TRACE}" in stderr and f"span_id={refused['span_id']}" in stderr

        # The same instruments as --metrics, over OTLP.
        assert receiver.wait_for(lambda r: any(p["name"] == "mcp.server.session.duration" for p in r.points))
        durations = [p for p in receiver.points if p["name"] == "mcp.server.operation.duration"]
        assert {"mcp.method.name": "tools/call", "gen_ai.tool.name": "query", "error.type": "tool_error"} in [p["attributes"] for p in durations]
        assert {"mcp.method.name": "_OTHER", "error.type": "-32601"} in [p["attributes"] for p in durations]
        assert [p["attributes"] for p in receiver.points if p["name"] == "mcp.server.session.duration"][-1] == {"network.transport": "pipe"}
        assert any(p["name"] == "dbai.rows.returned" and p["value"] == 1 for p in receiver.points)


def test_over_http_the_header_is_the_parent_without_meta_and_is_linked_with_it(dbai_bin: Path, chinook: Path) -> None:
    header = {"traceparent": f"00-{HEADER_TRACE}-{HEADER_PARENT}-01"}
    with Receiver() as receiver, http_server(
            dbai_bin, chinook, env_extra=otel_env(receiver, OTEL_BSP_SCHEDULE_DELAY="50")) as server:
        status, _ = post(server, {"id": 7, "method": "tools/call", "params": modern_params(query("SELECT 1"))}, headers=header)
        assert status == 200
        status, _ = post(server, {"id": 8, "method": "tools/call", "params": traced(query("SELECT 2"))}, headers=header)
        assert status == 200
        status, _ = post(server, {"id": 9, "method": "tools/list", "params": modern_params()})
        assert status == 200
        assert receiver.wait_for(lambda r: len([s for s in r.spans if s["kind"] == SERVER]) == 3)
    by_id = {s["attributes"]["jsonrpc.request.id"]: s for s in receiver.spans if s["kind"] == SERVER}
    assert (by_id["7"]["trace_id"], by_id["7"]["parent_span_id"]) == (HEADER_TRACE, HEADER_PARENT)
    assert by_id["7"]["links"] == [] and by_id["7"]["attributes"]["network.transport"] == "tcp"
    assert (by_id["8"]["trace_id"], by_id["8"]["parent_span_id"]) == (TRACE, PARENT)
    assert by_id["8"]["links"] == [(HEADER_TRACE, HEADER_PARENT)]
    # Without either, a trace of its own.
    assert by_id["9"]["name"] == "tools/list" and by_id["9"]["parent_span_id"] == "" and by_id["9"]["trace_id"] not in (TRACE, HEADER_TRACE)
    assert only(receiver.children(by_id["7"]))["attributes"]["db.query.text"] == "SELECT ?"


@pytest.fixture
def fake_model(fake_openai: str) -> str:
    """test_ask's fake OpenAI-compatible model, answering with a statement that has a literal."""
    FakeOpenAI.sql = "SELECT COUNT(*) AS tracks FROM Track WHERE Milliseconds > 1000"
    return fake_openai


def test_ask_has_a_span_per_model_call_with_the_gen_ai_conventions(dbai_bin: Path, chinook: Path, fake_model: str) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, "--llm", "openai-compatible:local-model", "--llm-base-url", fake_model,
                      "--llm-candidates", "1", "--llm-summary", "model", env=otel_env(receiver))
        answer = stdio.call("tools/call", traced({"name": "ask", "arguments": {"question": "How many tracks are longer than a second?"}}))
        assert answer["result"]["structuredContent"]["answer"] == "There are 3503 tracks."
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call ask")) == 1)
    call = only(receiver.spans_named("tools/call ask"))
    children = receiver.children(call)
    models = [s for s in children if s["name"] == "chat local-model"]
    assert len(models) == len(FakeOpenAI.requests) == 2  # the statement, then the summary
    for model in models:
        assert model["kind"] == CLIENT
        assert model["attributes"]["gen_ai.operation.name"] == "chat"
        assert model["attributes"]["gen_ai.provider.name"] == "openai-compatible"
        assert model["attributes"]["gen_ai.request.model"] == "local-model"
        assert model["attributes"]["gen_ai.usage.input_tokens"] == 10
        assert model["attributes"]["gen_ai.usage.output_tokens"] == 5
        assert model["attributes"]["gen_ai.response.finish_reasons"] == ["stop"]
        assert model["end"] > model["start"]
    statements = [s for s in children if s["attributes"].get("db.system.name") == "sqlite"]
    assert any(s["name"] == "SELECT Track" and s["attributes"]["db.query.text"].endswith("Milliseconds > ?") for s in statements)


def test_the_confirmation_round_trip_is_a_child_span(dbai_bin: Path, chinook: Path) -> None:
    delete = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": 1}}}
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, "--allow", "unrestricted", env=otel_env(receiver))
        first = stdio.call("tools/call", traced(delete, ELICITING))["result"]
        assert first["resultType"] == "input_required"
        accepted = {**delete, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}},
                    "requestState": first["requestState"]}
        done = stdio.call("tools/call", traced(accepted, ELICITING))["result"]
        assert done["structuredContent"]["rows_affected"] == 2
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call delete")) == 2)
    asked, ran = sorted(receiver.spans_named("tools/call delete"), key=lambda s: int(s["attributes"]["jsonrpc.request.id"]))
    asking = [s for s in receiver.children(asked) if s["name"] == "confirm DELETE"]
    assert [s["attributes"] for s in asking] == [{"dbai.confirmation.mode": "request_state", "dbai.confirmation.outcome": "asked"}]
    confirming = [s for s in receiver.children(ran) if s["name"] == "confirm DELETE"]
    assert [s["attributes"] for s in confirming] == [{"dbai.confirmation.mode": "request_state", "dbai.confirmation.outcome": "accepted"}]
    write = [s for s in receiver.children(ran) if s["name"] == "DELETE InvoiceLine"]
    assert len(write) == 1 and write[0]["attributes"]["dbai.rows.affected"] == 2
    assert write[0]["attributes"]["db.operation.name"] == "DELETE"


def test_a_token_confirmation_is_a_child_span_too(dbai_bin: Path, chinook: Path) -> None:
    delete = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": 1}}}
    with Receiver() as receiver:
        # A client without elicitation: a preview and a token, then the call that redeems it, twice.
        stdio = Stdio(dbai_bin, chinook, "--allow", "unrestricted", env=otel_env(receiver))
        token = stdio.call("tools/call", traced(delete))["result"]["structuredContent"]["confirmation_token"]
        confirmed = {**delete, "arguments": {**delete["arguments"], "confirm": token}}
        assert stdio.call("tools/call", traced(confirmed))["result"]["structuredContent"]["rows_affected"] == 2
        assert stdio.call("tools/call", traced(confirmed))["result"]["isError"] is True
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call delete")) == 3)
    calls = sorted(receiver.spans_named("tools/call delete"), key=lambda s: int(s["attributes"]["jsonrpc.request.id"]))
    outcomes = [[c["attributes"] for c in receiver.children(call) if c["name"] == "confirm DELETE"] for call in calls]
    assert outcomes == [
        [{"dbai.confirmation.mode": "token", "dbai.confirmation.outcome": "asked"}],
        [{"dbai.confirmation.mode": "token", "dbai.confirmation.outcome": "accepted"}],
        [{"dbai.confirmation.mode": "token", "dbai.confirmation.outcome": "refused"}],
    ]
    # The preview runs the write and rolls it back: a span of its own.
    preview = [c for c in receiver.children(calls[0]) if c["name"] == "DELETE InvoiceLine"]
    assert len(preview) == 1 and preview[0]["attributes"]["dbai.preview"] is True


def test_a_malformed_or_oversized_context_from_the_client_is_not_used(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver))
        junk = {"traceparent": "not-a-trace-parent " + "x" * 300}
        stdio.call("tools/call", modern_params(query("SELECT 1"), **junk))
        huge = {"traceparent": TRACEPARENT, "tracestate": ",".join(f"k{i}=v" for i in range(5000))}
        stdio.call("tools/call", modern_params(query("SELECT 2"), **huge))
        stderr = stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 2)
    first, second = sorted(receiver.spans_named("tools/call query"), key=lambda s: int(s["attributes"]["jsonrpc.request.id"]))
    assert first["parent_span_id"] == "" and first["trace_id"] != TRACE
    assert (second["trace_id"], second["parent_span_id"]) == (TRACE, PARENT)
    assert "x" * 300 not in stderr and "k4999" not in stderr
    assert all("k4999" not in json.dumps(span["attributes"]) for span in receiver.spans)


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "over HTTP only"),
    ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc", "over HTTP only"),
    ("OTEL_METRICS_EXPORTER", "prometheus", "otlp"),
    ("OTEL_TRACES_SAMPLER", "xray", "not supported"),
    ("OTEL_PROPAGATORS", "tracecontext,b3", "b3 is not supported"),
    ("OTEL_TRACES_EXPORTER", "console", "--http"),
    ("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "0", "positive number"),
    ("OTEL_METRIC_EXPORT_INTERVAL", "0", "positive number"),
])
def test_a_setting_swift_otel_cannot_use_stops_the_start_with_what_to_change(
        dbai_bin: Path, chinook: Path, variable: str, value: str, says: str) -> None:
    with Receiver() as receiver:
        process = subprocess.run(
            [str(dbai_bin), "--db", str(chinook)], input="", capture_output=True, text=True, timeout=30,
            env=otel_env(receiver, **{variable: value}))
    assert process.returncode == 1 and process.stdout == ""
    assert f"{variable}" in process.stderr and says in process.stderr


def test_over_http_only_logs_may_go_to_the_console(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        process = subprocess.run(
            [str(dbai_bin), "--db", str(chinook), "--http", "127.0.0.1:0", "--auth-token-env", "NO_SUCH_TOKEN_VARIABLE"],
            input="", capture_output=True, text=True, timeout=30, env=otel_env(receiver, OTEL_TRACES_EXPORTER="console"))
    assert process.returncode == 1 and "OTEL_TRACES_EXPORTER=console" in process.stderr


def test_a_later_traceparent_version_is_read_and_a_malformed_tracestate_dropped(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver))
        later = {"traceparent": f"01-{TRACE}-{PARENT}-01-future", "tracestate": "no equals sign\nforged log line"}
        stdio.call("tools/call", modern_params(query("SELECT 1"), **later))
        stderr = stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1)
    assert (only(receiver.spans_named("tools/call query"))["trace_id"], only(receiver.spans_named("tools/call query"))["parent_span_id"]) == (TRACE, PARENT)
    assert "forged log line" not in stderr


def test_the_default_propagators_with_baggage_still_trace(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_PROPAGATORS="tracecontext,baggage"))
        stdio.call("tools/call", traced(query("SELECT 1")))
        stderr = stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1)
    assert only(receiver.spans_named("tools/call query"))["parent_span_id"] == PARENT
    assert "baggage is not propagated" in stderr


def test_values_are_in_the_trace_only_when_opted_in(dbai_bin: Path, chinook: Path) -> None:
    sql = "SELECT Name FROM Artist WHERE ArtistId = ? AND Name <> 'nobody'"
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, "--trace-sql-values", env=otel_env(receiver))
        answer = stdio.call("tools/call", traced({"name": "query", "arguments": {"sql": sql, "params": [1]}}))
        assert answer["result"]["structuredContent"]["rows"] == [["AC/DC"]]
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("SELECT Artist")) == 1)
    statement = only(receiver.spans_named("SELECT Artist"))
    assert statement["attributes"]["db.query.text"] == sql
    assert statement["attributes"]["db.query.parameter.0"] == "1"


def test_nothing_is_exported_without_an_endpoint_or_when_disabled(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        plain = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        for env in (plain, otel_env(receiver, OTEL_SDK_DISABLED="true"),
                    otel_env(receiver, OTEL_TRACES_EXPORTER="none", OTEL_METRICS_EXPORTER="none", OTEL_LOGS_EXPORTER="none")):
            stdio = Stdio(dbai_bin, chinook, env=env)
            assert stdio.call("tools/call", traced(query("SELECT 1")))["result"]["structuredContent"]["rows"] == [[1]]
            stderr = stdio.close()
            assert "trace_id=" not in stderr
        assert receiver.requests == []


def test_only_the_signal_whose_endpoint_is_set_is_exported(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = receiver.endpoint + "/v1/traces"
        stdio = Stdio(dbai_bin, chinook, env=env)
        stdio.call("tools/call", traced(query("SELECT 1")))
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1)
        assert {path for path, _ in receiver.requests} == {"/v1/traces"}


