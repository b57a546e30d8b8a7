"""The span exporter of `dbai-mcp` (its own OTLP/HTTP encoder, batch processor and sender; swift-otel
exports the metrics and logs), against the real receiver of otlp_receiver.py: the standard OTEL_*
variables it reads, the collector's failures, and the settings it refuses."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from otlp_receiver import Receiver
from test_telemetry import PARENT, TRACE, Stdio, only, otel_env, query, traced


def plain_env(**variables: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}, **variables}


def test_headers_resource_and_service_name_reach_the_collector(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        env = plain_env(
            OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=receiver.endpoint + "/v1/traces",
            OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer%20s3cret,x-tenant=db",
            OTEL_RESOURCE_ATTRIBUTES="service.name=ledger,deployment.environment=prod%2Ceu",
        )
        stdio = Stdio(dbai_bin, chinook, env=env)
        stdio.call("tools/call", traced(query("SELECT 1")))
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1)
    span = only(receiver.spans_named("tools/call query"))
    assert span["resource"] == {"service.name": "ledger", "deployment.environment": "prod,eu"}
    sent = receiver.headers[0]
    assert sent["authorization"] == "Bearer s3cret" and sent["x-tenant"] == "db"
    assert sent["content-type"] == "application/x-protobuf"
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_SERVICE_NAME="books", OTEL_RESOURCE_ATTRIBUTES="service.name=ledger"))
        stdio.call("tools/call", traced(query("SELECT 1")))
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1)
        assert receiver.wait_for(lambda r: any(p["name"] == "mcp.server.operation.duration" for p in r.points))
    assert only(receiver.spans_named("tools/call query"))["resource"]["service.name"] == "books"


def test_a_collector_that_answers_503_gets_the_spans_again(dbai_bin: Path, chinook: Path) -> None:
    with Receiver(unavailable_first=2) as receiver:
        env = plain_env(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=receiver.endpoint + "/v1/traces", OTEL_BSP_SCHEDULE_DELAY="100")
        stdio = Stdio(dbai_bin, chinook, env=env)
        for _ in range(3):
            stdio.call("tools/call", traced(query("SELECT 1")))
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 3, timeout=30)
        stdio.close()
    assert receiver.refused == 2
    assert len(receiver.spans_named("tools/call query")) == 3, "each span once"


def test_a_collector_that_cannot_be_reached_costs_no_call_and_no_exit(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        endpoint = receiver.endpoint
    # The receiver is gone: nothing listens there any more.
    env = plain_env(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=endpoint + "/v1/traces", OTEL_BSP_SCHEDULE_DELAY="100")
    stdio = Stdio(dbai_bin, chinook, env=env)
    for _ in range(5):
        assert stdio.call("tools/call", traced(query("SELECT 1")))["result"]["structuredContent"]["rows"] == [[1]]
    started = time.monotonic()
    stderr = stdio.close()
    assert time.monotonic() - started < 15
    assert "spans not exported" in stderr


def test_the_samplers_of_the_specification(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_TRACES_SAMPLER="always_off"))
        stdio.call("tools/call", traced(query("SELECT 1")))
        stdio.close()
        assert receiver.wait_for(lambda r: any(p["name"] == "mcp.server.operation.duration" for p in r.points))
        assert receiver.spans == [], "always_off: no span, even under a sampled parent"
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_TRACES_SAMPLER="parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG="0"))
        stdio.call("tools/call", traced(query("SELECT 1")))
        stdio.call("tools/call", {"name": "query", "arguments": {"sql": "SELECT 2"}})
        stdio.close()
        assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) >= 1)
    # The sampled parent decides for its child; a request without one falls to the ratio, 0.
    assert (only(receiver.spans_named("tools/call query"))["trace_id"], only(receiver.spans_named("tools/call query"))["parent_span_id"]) == (TRACE, PARENT)
    assert len(receiver.spans_named("SELECT")) == 1


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json", "http/protobuf"),
    ("OTEL_TRACES_SAMPLER", "sometimes", "always_on"),
    ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "collector:4318", "http://"),
    ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "no-equals-sign", "key=value"),
    ("OTEL_EXPORTER_OTLP_HEADERS", "x-a=b%0D%0Ainjected: 1", "control characters"),
    ("OTEL_RESOURCE_ATTRIBUTES", "service.name", "key=value"),
    ("OTEL_BSP_EXPORT_TIMEOUT", "soon", "positive number"),
    ("OTEL_EXPORTER_OTLP_CERTIFICATE", "/no/such/ca.pem", "cannot be read"),
])
def test_a_trace_setting_that_cannot_be_used_stops_the_start(dbai_bin: Path, chinook: Path, variable: str, value: str, says: str) -> None:
    with Receiver() as receiver:
        process = subprocess.run(
            [str(dbai_bin), "--db", str(chinook)], input="", capture_output=True, text=True, timeout=30,
            env=otel_env(receiver, **{variable: value}))
    assert process.returncode == 1 and process.stdout == ""
    assert variable in process.stderr and says in process.stderr
    assert "no-equals-sign" not in process.stderr and "injected" not in process.stderr, "header values are never repeated"


def test_every_signal_names_the_same_resource(dbai_bin: Path, chinook: Path) -> None:
    for attributes, expected in (
        ("service.name=my%20svc,team=db%2Cops", {"service.name": "my svc", "team": "db,ops"}),
        ("service.name=ledger,empty=", {"service.name": "ledger", "empty": ""}),
    ):
        with Receiver() as receiver:
            stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_RESOURCE_ATTRIBUTES=attributes))
            stdio.call("tools/call", traced(query("SELECT * FROM nowhere")))
            stdio.close()
            assert receiver.wait_for(lambda r: len(r.spans_named("tools/call query")) == 1 and r.logs and r.points)
        assert only(receiver.spans_named("tools/call query"))["resource"] == expected
        assert all(log["resource"] == expected for log in receiver.logs)
        assert all(point["resource"] == expected for point in receiver.points)


def test_header_values_are_sent_decoded_by_every_signal_and_never_printed(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        env = otel_env(receiver, OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer%20s3cretTOKEN,x-empty=", OTEL_LOG_LEVEL="info")
        stdio = Stdio(dbai_bin, chinook, env=env)
        assert stdio.call("tools/call", traced(query("SELECT 1")))["result"]["structuredContent"]["rows"] == [[1]]
        stderr = stdio.close()
        assert receiver.wait_for(lambda r: {h["_path"] for h in r.headers} >= {"/v1/traces", "/v1/metrics"})
    assert "s3cretTOKEN" not in stderr
    for sent in receiver.headers:
        assert sent["authorization"] == "Bearer s3cretTOKEN", sent["_path"]


def test_logs_name_their_span_whatever_the_propagators(dbai_bin: Path, chinook: Path) -> None:
    with Receiver() as receiver:
        stdio = Stdio(dbai_bin, chinook, env=otel_env(receiver, OTEL_PROPAGATORS="none"))
        stdio.call("tools/call", traced(query("SELECT * FROM nowhere")))
        stdio.close()
        assert receiver.wait_for(lambda r: any("nowhere" in str(log["body"]) for log in r.logs))
    span = only(receiver.spans_named("tools/call query"))
    assert span["trace_id"] != TRACE, "none: the caller's context is not read"
    log = [log for log in receiver.logs if "nowhere" in str(log["body"])][0]
    assert (log["trace_id"], log["span_id"]) == (span["trace_id"], span["span_id"])


def test_a_collector_that_stalls_its_answer_does_not_hold_the_exporter(dbai_bin: Path, chinook: Path) -> None:
    """It sends a response's head, then nothing: each request gives up after OTEL_EXPORTER_OTLP_TIMEOUT."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            accepted.append(connection)
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 100\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    port = listener.getsockname()[1]
    env = plain_env(
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=f"http://127.0.0.1:{port}/v1/traces", OTEL_BSP_SCHEDULE_DELAY="100",
        OTEL_EXPORTER_OTLP_TIMEOUT="500", OTEL_BSP_EXPORT_TIMEOUT="4000")
    stdio = Stdio(dbai_bin, chinook, env=env)
    try:
        # Each batch's request ends (its answer's body given up after the read timeout), so the next
        # batch is sent: a queue held by the first answer would send no second request.
        for sent in range(1, 4):
            assert stdio.call("tools/call", traced(query("SELECT 1")))["result"]["structuredContent"]["rows"] == [[1]]
            deadline = time.monotonic() + 5
            while len(accepted) < sent and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(accepted) >= sent, (sent, len(accepted))
    finally:
        stdio.close()
        listener.close()
        for connection in accepted:
            connection.close()
