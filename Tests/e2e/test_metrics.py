"""`--metrics HOST:PORT`: the server's metrics in the Prometheus text format, on a listener of its
own, scraped by Debian's Prometheus (started by the test), whose HTTP API is asked for the
request-duration histogram. Scripts/test installs Prometheus when missing.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from conftest import run_binary
from test_http import http_server
from test_revision_2026 import modern_params, post


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """Distinct free ports, all held until all are chosen."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def get(port: int, path: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        connection.close()


def calls(server: Any) -> None:
    for request_id, params in enumerate([
        {"name": "query", "arguments": {"sql": "SELECT Name FROM Genre ORDER BY GenreId LIMIT 3"}},
        {"name": "query", "arguments": {"sql": "SELECT * FROM nowhere"}},
        {"name": "no_such_tool_0123", "arguments": {}},
    ], start=1):
        post(server, {"id": request_id, "method": "tools/call", "params": modern_params(params)})


def series(text: str, name: str) -> dict[str, float]:
    found = {}
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            key, value = line.rsplit(" ", 1)
            found[key] = float(value)
    return found


def test_metrics_serve_the_mcp_instruments_in_the_prometheus_format(dbai_bin: Path, chinook: Path) -> None:
    port = free_port()
    with http_server(dbai_bin, chinook, "--metrics", f"127.0.0.1:{port}") as server:
        calls(server)
        status, headers, text = get(port, "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain; version=0.0.4")
    counts = series(text, "mcp_server_operation_duration_seconds_count")
    assert counts['mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="query"}'] == 1
    assert counts['mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="query",error_type="tool_error"}'] == 1
    # A name the server does not serve never becomes a label of its own.
    assert "no_such_tool_0123" not in text
    assert counts['mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="_OTHER",error_type="-32602"}'] == 1
    assert series(text, "dbai_rows_returned") == {'dbai_rows_returned{gen_ai_tool_name="query"}': 3}
    assert any(value > 0 for value in series(text, "dbai_bytes_returned").values())
    assert "# TYPE mcp_server_operation_duration_seconds histogram" in text
    # No value from the database: the genre names the query returned are not in the metrics.
    assert "Rock" not in text


def test_the_session_duration_is_recorded_when_a_session_ends(dbai_bin: Path, chinook: Path) -> None:
    port = free_port()
    with http_server(dbai_bin, chinook, "--metrics", f"127.0.0.1:{port}") as server:
        raw = server.raw()
        raw.initialize()
        status, _, _ = raw.request("DELETE")
        assert status in (200, 204)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            text = get(port, "/metrics")[2]
            if "mcp_server_session_duration_seconds_count" in text:
                break
            time.sleep(0.1)
    assert sum(series(text, "mcp_server_session_duration_seconds_count").values()) == 1


def test_without_the_flag_no_metric_is_served_and_a_port_in_use_stops_the_server(dbai_bin: Path, chinook: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_binary(dbai_bin, "--db", str(chinook), "--http", "127.0.0.1:0", "--metrics", f"127.0.0.1:{port}")
    assert result.returncode == 1 and "--metrics" in result.stderr and "cannot listen" in result.stderr
    bad = run_binary(dbai_bin, "--db", str(chinook), "--metrics", "nowhere")
    assert bad.returncode != 0 and "--metrics" in bad.stderr


def prometheus_binary() -> str:
    found = shutil.which("prometheus") or ("/usr/bin/prometheus" if os.access("/usr/bin/prometheus", os.X_OK) else None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Prometheus is missing: Scripts/test installs it (apt-get install prometheus)")
        pytest.skip("Prometheus is not installed (apt-get install prometheus)")
    return found


def test_debian_prometheus_scrapes_the_duration_histogram(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    prometheus = prometheus_binary()
    metrics_port, web_port = free_ports(2)
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n"
        "scrape_configs:\n  - job_name: dbai-mcp\n    static_configs:\n"
        f"      - targets: ['127.0.0.1:{metrics_port}']\n")
    with http_server(dbai_bin, chinook, "--metrics", f"127.0.0.1:{metrics_port}") as server:
        calls(server)
        process = subprocess.Popen(
            [prometheus, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
             f"--web.listen-address=127.0.0.1:{web_port}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            query = 'sum by (gen_ai_tool_name) (mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"})'
            quantile = 'histogram_quantile(0.5, sum by (le) (mcp_server_operation_duration_seconds_bucket))'
            answer: dict[str, Any] = {}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
                try:
                    status, _, body = get(web_port, "/api/v1/query?" + urllib.parse.urlencode({"query": query}))
                    answer = json.loads(body) if status == 200 else {}
                except OSError:
                    answer = {}
                if answer.get("data", {}).get("result"):
                    break
                time.sleep(0.5)
            assert answer.get("data", {}).get("result"), f"Prometheus never had the histogram: {answer}"
            results = {item["metric"].get("gen_ai_tool_name"): float(item["value"][1]) for item in answer["data"]["result"]}
            assert results == {"query": 2.0, "_OTHER": 1.0}
            status, _, body = get(web_port, "/api/v1/query?" + urllib.parse.urlencode({"query": quantile}))
            median = json.loads(body)["data"]["result"]
            assert status == 200 and median and 0 < float(median[0]["value"][1]) < 10
            status, _, body = get(web_port, "/api/v1/targets")
            assert json.loads(body)["data"]["activeTargets"][0]["health"] == "up"
        finally:
            process.terminate()
            process.wait(20)
