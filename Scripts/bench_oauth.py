#!/usr/bin/env python3
"""What `--oauth-issuer` adds to a call, in one run, for one release build: 1,000 stateless
`query` calls over HTTP (one keep-alive connection) with no authentication, with the static
token (`--auth-token-env`), and with an OAuth access token of a real authorization server
(Tests/e2e/oauth_as.py, authlib) whose key set is cached:

- callgrind instructions per call: the difference between a run of N calls and a run of N/5
  (so that what happens once — the authorization server's metadata and keys fetched, the first
  token verified — cancels out), divided by the calls between; and the difference to the call
  without authentication;
- wall-clock time per call, median of interleaved rounds of sequential calls, and the same
  difference;
- the first use of a token (its signature checked, then remembered): calls that each carry a
  new token, for RS256, ES256 and EdDSA keys.

    Scripts/bench-oauth [--calls N] [--rounds N] BINARY

Runs under the end-to-end Python environment (authlib, flask, the MCP client), which
Scripts/test creates: .venv/e2e-mcp1."""
import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
sys.path.insert(0, str(ROOT / "Scripts"))
from bench_callgrind import http_instructions  # noqa: E402
from oauth_fixture import authorization_server  # noqa: E402

SQL = "SELECT TrackId, Name, Milliseconds FROM Track WHERE AlbumId = ?"
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
STATIC_TOKEN = "bench-static-token-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def mode_flags(mode: str, issuer: str, port: int) -> tuple[tuple[str, ...], dict[str, str]]:
    if mode == "none":
        return (), {}
    if mode == "static":
        return ("--auth-token-env", "BENCH_TOKEN"), {"BENCH_TOKEN": STATIC_TOKEN}
    return ("--oauth-issuer", issuer, "--public-url", f"http://127.0.0.1:{port}/mcp"), {}


def wall_clock(binary: str, database: str, flags: tuple[str, ...], env: dict[str, str], port: int,
               tokens: list[str] | None, calls: int) -> float:
    """Median seconds per call of `calls` sequential calls on one keep-alive connection."""
    process = subprocess.Popen([binary, "--db", database, "--http", f"127.0.0.1:{port}", *flags],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, **env})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit(f"bench-oauth: {binary} did not listen")
                time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "query"}
        times = []
        for index in range(calls + 50):
            sent = dict(headers)
            if tokens:
                sent["Authorization"] = f"Bearer {tokens[index % len(tokens)]}"
            body = json.dumps({"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {
                "name": "query", "arguments": {"sql": SQL, "params": [index % 300 + 1]}, "_meta": META}})
            start = time.perf_counter()
            connection.request("POST", "/mcp", body=body, headers=sent)
            response = connection.getresponse()
            payload = response.read()
            elapsed = time.perf_counter() - start
            if response.status != 200 or b'"result"' not in payload:
                sys.exit(f"bench-oauth: call answered {response.status}: {payload[:300]!r}")
            if index >= 50:  # the first calls warm up the connection and the caches
                times.append(elapsed)
        return statistics.median(times)
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("binary")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        database = os.path.join(work, "chinook.sqlite")
        shutil.copy(ROOT / "Examples" / "chinook.sqlite", database)
        binary = os.path.join(work, "dbai-mcp")
        subprocess.run(["strip", "-o", binary, options.binary], check=True)
        with authorization_server(Path(work) / "as") as issuer:
            client = issuer.register_client(scope="dbai:read")

            def tokens(port: int, count: int) -> list[str]:
                return [issuer.client_credentials_token(*client, scope="dbai:read", resource=f"http://127.0.0.1:{port}/mcp")
                        for _ in range(count)]

            small = max(1, options.calls // 5)
            print(f"callgrind, stateless query calls over HTTP: (run of {options.calls} − run of {small}) / {options.calls - small}")
            per_call: dict[str, float] = {}

            def measured(flags: tuple[str, ...], env: dict[str, str], port: int, sent: list[str] | None, few: int, many: int) -> float:
                address = f"127.0.0.1:{port}"
                first = http_instructions(binary, database, "stateless", few, work, flags, address, sent, env)
                second = http_instructions(binary, database, "stateless", many, work, flags, address, sent, env)
                return (second - first) / (many - few)

            for mode in ["none", "static", "oauth"]:
                port = free_port()
                flags, env = mode_flags(mode, issuer.issuer, port)
                sent = [STATIC_TOKEN] if mode == "static" else tokens(port, 1) if mode == "oauth" else None
                per_call[mode] = measured(flags, env, port, sent, small, options.calls)
                print(f"  {mode:<28} {per_call[mode]:>10,.0f} per call   {per_call[mode] - per_call['none']:>+9,.0f} vs none")
            fresh = 250
            for alg in ["RS256", "ES256", "EdDSA"]:
                issuer.rotate(alg, retire_old=True)
                port = free_port()
                flags, env = mode_flags("oauth", issuer.issuer, port)
                cost = measured(flags, env, port, tokens(port, fresh + 1), fresh // 5, fresh)
                print(f"  {'oauth, a new ' + alg + ' token':<28} {cost:>10,.0f} per call   {cost - per_call['none']:>+9,.0f} vs none"
                      "  (each call's token verified for the first time)")

            issuer.rotate("RS256", retire_old=True)
            print(f"\nwall clock, median per call of {options.calls} sequential calls, {options.rounds} interleaved rounds")
            medians: dict[str, list[float]] = {"none": [], "static": [], "oauth": []}
            for _ in range(options.rounds):
                for mode in medians:
                    port = free_port()
                    flags, env = mode_flags(mode, issuer.issuer, port)
                    sent = [STATIC_TOKEN] if mode == "static" else tokens(port, 1) if mode == "oauth" else None
                    medians[mode].append(wall_clock(binary, database, flags, env, port, sent, options.calls))
            base = statistics.median(medians["none"])
            for mode, values in medians.items():
                value = statistics.median(values)
                print(f"  {mode:<28} {value * 1e6:>8.1f} µs   {(value - base) * 1e6:>+7.1f} µs vs none")


if __name__ == "__main__":
    main()
