"""Three replicas behind nginx, as docs/deploy ships them: nginx from Debian with
docs/deploy/nginx.conf, each replica started with the ExecStart line of
docs/deploy/dbai-mcp@.service (paths and ports made the test's own).

- Rolling restart: every replica SIGTERMed and started again, one by one, while 4 clients send
  stateless reads and writes through nginx: no call fails, and every committed write is in the
  audit logs.
- Crash: `kill -9` of one replica under load: only its calls in flight fail, and the database and
  the audit logs agree once it is started again.

nginx comes from Debian (Scripts/test installs it when missing).
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from test_http import TOKEN, body_message

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy"
MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((path for path in ("/usr/sbin/nginx",) if os.access(path, os.X_OK)), None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is missing: Scripts/test installs it (apt-get install nginx)")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Replica:
    port: int
    argv: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self, log_dir: Path) -> None:
        self.starts += 1
        stderr = open(log_dir / f"replica-{self.port}-{self.starts}.log", "wb")
        self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=self.env)
        stderr.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (log_dir / f"replica-{self.port}-{self.starts}.log").read_text()
            try:
                if get(self.port, "/readyz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"replica {self.port} never became ready")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        return self.process.wait(60)


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@dataclass
class Deployment:
    database: Path
    logs: Path
    nginx_port: int
    replicas: list[Replica]
    nginx: subprocess.Popen[bytes]

    def audit_records(self) -> list[dict[str, Any]]:
        records = []
        for log in sorted(self.logs.glob("audit-*.jsonl*")):
            records += [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        return records


def unit_command(binary: Path, paths: dict[str, str], port: int) -> list[str]:
    """The ExecStart of the systemd unit, with the test's paths and port."""
    unit = (DEPLOY / "dbai-mcp@.service").read_text()
    line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))[len("ExecStart="):]
    for shipped, ours in paths.items():
        line = line.replace(shipped, ours)
    argv = shlex.split(line.replace("%i", str(port)))
    argv[0] = str(binary)
    return argv


def nginx_config(directory: Path, listen: int, ports: list[int]) -> Path:
    config = (DEPLOY / "nginx.conf").read_text()
    config = config.replace("127.0.0.1:8700", f"127.0.0.1:{listen}")
    for shipped, port in zip((8701, 8702, 8703), ports, strict=True):
        config = config.replace(f"127.0.0.1:{shipped}", f"127.0.0.1:{port}")
    config = config.replace("/run/nginx-dbai-mcp.pid", str(directory / "nginx.pid"))
    config = config.replace("/var/log/nginx/dbai-mcp-error.log", str(directory / "nginx-error.log"))
    config = config.replace("/var/lib/nginx/", str(directory) + "/")
    assert "8701" not in config and "/var/" not in config and "/run/" not in config, "the test must own every path"
    path = directory / "nginx.conf"
    path.write_text(config)
    return path


@pytest.fixture
def deployment(dbai_bin: Path, chinook: Path, tmp_path: Path):
    nginx = nginx_binary()
    with sqlite3.connect(chinook) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("CREATE TABLE Visit (id INTEGER PRIMARY KEY, client INTEGER NOT NULL, n INTEGER NOT NULL)")
    secret = tmp_path / "state-secret"
    secret.write_bytes(os.urandom(48).hex().encode())
    secret.chmod(0o600)
    logs = tmp_path / "logs"
    logs.mkdir()
    paths = {"/srv/dbai/app.sqlite": str(chinook), "/etc/dbai-mcp/state-secret": str(secret),
             "/var/lib/dbai-mcp": str(tmp_path / "state"), "/var/log/dbai-mcp": str(logs)}
    env = dict(os.environ, DBAI_MCP_TOKEN=TOKEN)
    ports = [free_port() for _ in range(3)]
    replicas = [Replica(port, unit_command(dbai_bin, paths, port), env) for port in ports]
    for replica in replicas:
        replica.start(logs)
    listen = free_port()
    process = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(nginx_config(tmp_path, listen, ports)), "-g", "daemon off;"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while True:
        try:
            if get(listen, "/healthz")[0] == 200:
                break
        except OSError:
            pass
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        assert time.monotonic() < deadline, "nginx did not start"
        time.sleep(0.05)
    deployed = Deployment(chinook, logs, listen, replicas, process)
    try:
        yield deployed
    finally:
        process.terminate()
        process.wait(10)
        for replica in replicas:
            if replica.process and replica.process.poll() is None:
                replica.process.kill()
                replica.process.wait()


@dataclass
class Load:
    """4 clients sending stateless reads and inserts through nginx until stopped."""

    port: int
    clients: int = 4
    stop: threading.Event = field(default_factory=threading.Event)
    failures: list[str] = field(default_factory=list)
    inserted: list[int] = field(default_factory=list)
    calls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: Any = field(default_factory=lambda: itertools.count(1))
    threads: list[threading.Thread] = field(default_factory=list)

    def __enter__(self) -> Load:
        self.threads = [threading.Thread(target=self.run, args=(client,), daemon=True) for client in range(self.clients)]
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def run(self, client: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        number = 0
        while not self.stop.is_set():
            number += 1
            with self.lock:
                request_id = next(self.ids)
            if number % 2:
                call = {"name": "insert", "arguments": {"table": "Visit", "rows": [{"id": request_id, "client": client, "n": number}]}}
            else:
                call = {"name": "query", "arguments": {"sql": "SELECT count(*) FROM Visit"}}
            body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {**call, "_meta": META}}
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                       "Authorization": f"Bearer {TOKEN}", "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call",
                       "Mcp-Name": call["name"]}
            try:
                connection.request("POST", "/mcp", json.dumps(body), headers)
                response = connection.getresponse()
                payload = response.read()
                answer = json.loads(body_message({k.lower(): v for k, v in response.getheaders()}, payload)) \
                    if response.status == 200 else None
                if answer is None or "error" in answer or answer["result"].get("isError"):
                    self.record_failure(f"{call['name']} {request_id}: HTTP {response.status} {payload[:300]!r}")
                elif call["name"] == "insert":
                    with self.lock:
                        self.inserted.append(request_id)
            except (OSError, http.client.HTTPException) as error:
                self.record_failure(f"{call['name']} {request_id}: {error!r}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            with self.lock:
                self.calls += 1
        connection.close()

    def record_failure(self, text: str) -> None:
        with self.lock:
            self.failures.append(text)


def committed_visits(records: list[dict[str, Any]]) -> set[int]:
    """The Visit ids of the inserts the audit logs record as committed."""
    statements = {record["id"]: record for record in records if record.get("outcome") == "pending"}
    ids = set()
    for record in records:
        if record.get("outcome") != "committed":
            continue
        pending = statements.get(record["id"], record)
        for change in pending.get("changes") or []:
            if change.get("table") == "Visit" and change.get("after"):
                ids.add(change["rowid"])
    return ids


def visits(database: Path) -> set[int]:
    with sqlite3.connect(database) as connection:
        return {row[0] for row in connection.execute("SELECT id FROM Visit")}


def test_a_rolling_restart_under_load_fails_no_call(deployment: Deployment) -> None:
    with Load(deployment.nginx_port) as load:
        time.sleep(1.0)
        for replica in deployment.replicas:
            assert replica.stop(signal.SIGTERM) == 0
            replica.start(deployment.logs)
            time.sleep(0.5)
        time.sleep(1.0)
    assert load.calls > 100, load.calls
    print(f"rolling restart: {load.calls} calls, {len(load.inserted)} inserts, {len(load.failures)} failed")
    assert load.failures == [], \
        f"{len(load.failures)} of {load.calls} calls failed: {load.failures[:5]}"
    in_database = visits(deployment.database)
    assert in_database == set(load.inserted)
    assert committed_visits(deployment.audit_records()) == in_database


def test_kill_9_of_one_replica_fails_only_its_calls_in_flight(deployment: Deployment) -> None:
    victim = deployment.replicas[1]
    with Load(deployment.nginx_port) as load:
        time.sleep(1.0)
        victim.stop(signal.SIGKILL)
        time.sleep(1.5)
    print(f"kill -9: {load.calls} calls, {len(load.failures)} failed")
    # At most one call per client was in flight on the killed replica; nginx never resends a POST.
    assert len(load.failures) <= load.clients, load.failures
    for failure in load.failures:
        assert "HTTP 502" in failure, failure
    # Started again, it completes what its log left pending; the database and the logs agree.
    victim.start(deployment.logs)
    in_database = visits(deployment.database)
    assert set(load.inserted) <= in_database
    assert len(in_database - set(load.inserted)) <= load.clients
    assert committed_visits(deployment.audit_records()) == in_database
