"""A small OTLP/HTTP receiver for the tests (the OpenTelemetry Collector is not in Debian): it
accepts POST /v1/traces, /v1/metrics and /v1/logs in protobuf (or JSON), decodes them with the
`opentelemetry-proto` classes, and keeps what arrived as plain dictionaries."""

from __future__ import annotations

import gzip
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

REQUESTS = {
    "/v1/traces": ExportTraceServiceRequest,
    "/v1/metrics": ExportMetricsServiceRequest,
    "/v1/logs": ExportLogsServiceRequest,
}


def value(any_value: AnyValue) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(v) for v in any_value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: value(kv.value) for kv in any_value.kvlist_value.values}
    return getattr(any_value, kind) if kind else None


def attributes(key_values: Any) -> dict[str, Any]:
    return {kv.key: value(kv.value) for kv in key_values}


class Receiver:
    """Spans, metric data points and log records received, with the requests' content types."""

    def __init__(self, unavailable_first: int = 0) -> None:
        """`unavailable_first`: how many requests are answered 503 before any is accepted."""
        self.lock = threading.RLock()
        self.spans: list[dict[str, Any]] = []
        self.points: list[dict[str, Any]] = []
        self.logs: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str]] = []
        self.headers: list[dict[str, str]] = []
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.headers.append({"_path": self.path, **{key.lower(): value for key, value in self.headers.items()}})
                    if receiver.refused < unavailable_first:
                        receiver.refused += 1
                        self.send_response(503)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                kind = REQUESTS.get(self.path)
                if kind is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                message = kind()
                content_type = self.headers.get("Content-Type", "")
                if "json" in content_type:
                    json_format.Parse(body, message)
                else:
                    message.ParseFromString(body)
                receiver.add(self.path, content_type, message)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()

    def add(self, path: str, content_type: str, message: Any) -> None:
        with self.lock:
            self.requests.append((path, content_type))
            if path == "/v1/traces":
                for resource_spans in message.resource_spans:
                    resource = attributes(resource_spans.resource.attributes)
                    for scope in resource_spans.scope_spans:
                        for span in scope.spans:
                            self.spans.append({
                                "name": span.name,
                                "trace_id": span.trace_id.hex(),
                                "span_id": span.span_id.hex(),
                                "parent_span_id": span.parent_span_id.hex(),
                                "kind": span.kind,
                                "attributes": attributes(span.attributes),
                                "status_code": span.status.code,
                                "status_message": span.status.message,
                                "links": [(link.trace_id.hex(), link.span_id.hex()) for link in span.links],
                                "start": span.start_time_unix_nano,
                                "end": span.end_time_unix_nano,
                                "resource": resource,
                            })
            elif path == "/v1/metrics":
                for resource_metrics in message.resource_metrics:
                    resource = attributes(resource_metrics.resource.attributes)
                    for scope in resource_metrics.scope_metrics:
                        for metric in scope.metrics:
                            data = metric.WhichOneof("data")
                            for point in getattr(metric, data).data_points:
                                entry = {"name": metric.name, "kind": data, "unit": metric.unit,
                                         "attributes": attributes(point.attributes), "resource": resource}
                                if data in ("histogram", "exponential_histogram"):
                                    entry["count"] = point.count
                                    entry["sum"] = point.sum
                                else:
                                    entry["value"] = point.as_int if point.WhichOneof("value") == "as_int" else point.as_double
                                self.points.append(entry)
            else:
                for resource_logs in message.resource_logs:
                    resource = attributes(resource_logs.resource.attributes)
                    for scope in resource_logs.scope_logs:
                        for record in scope.log_records:
                            self.logs.append({
                                "body": value(record.body),
                                "severity": record.severity_text,
                                "trace_id": record.trace_id.hex(),
                                "span_id": record.span_id.hex(),
                                "attributes": attributes(record.attributes),
                                "resource": resource,
                            })

    def wait_for(self, predicate: Callable[["Receiver"], bool], timeout: float = 20) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if predicate(self):
                    return True
            time.sleep(0.05)
        return False

    def spans_named(self, name: str) -> list[dict[str, Any]]:
        with self.lock:
            return [span for span in self.spans if span["name"] == name]

    def children(self, parent: dict[str, Any]) -> list[dict[str, Any]]:
        with self.lock:
            return [span for span in self.spans
                    if span["trace_id"] == parent["trace_id"] and span["parent_span_id"] == parent["span_id"]]
