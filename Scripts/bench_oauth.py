#!/usr/bin/env python3
"""What `--oauth-issuer` adds to a call, in one run, for one release build: 1,000 stateless
`query` calls over HTTP (one keep-alive connection) with no authentication, with the static
token (`--auth-token-env`), and with an OAuth access token of a real authorization server
(Tests/e2e/oauth_as.py, authlib) whose key set is cached:

- callgrind instructions per call: the difference between a run of N calls and a run of N/5
  (so that what happens once — the authorization server's metadata and keys fetched, the first
  token verified — cancels out), divided by the calls between; and the difference to the call
  without authentication;
- throughput under wrk (10 connections, Scripts/wrk/stateless.lua), interleaved rounds, and
  the server's own CPU time a call (user and system, from /proc, over the calls wrk made), with
  the difference to the call without authentication;
- the first use of a token (its signature checked, then remembered): calls that each carry a
  new token, for RS256, ES256 and EdDSA keys.

    Scripts/bench-oauth [--calls N] [--rounds N] [--seconds S] BINARY

Runs under the end-to-end Python environment (authlib, flask, the MCP client), which
Scripts/test creates: .venv/e2e-mcp1."""
import argparse
import json
import os
import re
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


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput(binary: str, database: str, flags: tuple[str, ...], env: dict[str, str], port: int,
               token: str | None, seconds: int) -> tuple[float, float]:
    """Calls per second under wrk for `seconds` (every answer must be 200), and the server's own
    CPU time per call in seconds (wrk's left out)."""
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
        wrk_env = {**os.environ, **({"WRK_AUTHORIZATION": f"Bearer {token}"} if token else {})}
        before = cpu_seconds(process.pid)
        run = subprocess.run(["wrk", "-t2", "-c10", f"-d{seconds}s", "-s", str(ROOT / "Scripts" / "wrk" / "stateless.lua"),
                              f"http://127.0.0.1:{port}/mcp"], capture_output=True, text=True, env=wrk_env, check=True)
        line = next((line for line in run.stdout.splitlines() if line.startswith("RESULT ")), "")
        requests, errors, rate = re.search(r"RESULT (\d+) requests, (\d+) errors\(status\), (\d+) req/s", line).groups()
        if int(errors):
            sys.exit(f"bench-oauth: {errors} of {requests} answers were not 200 ({flags})")
        return float(rate), (cpu_seconds(process.pid) - before) / int(requests)
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--only", choices=["callgrind", "wrk"], help="run one of the two parts")
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
            if options.only == "wrk":
                options.calls = 0
            print(f"callgrind, stateless query calls over HTTP: (run of {options.calls} − run of {small}) / {options.calls - small}")
            per_call: dict[str, float] = {}

            def measured(flags: tuple[str, ...], env: dict[str, str], port: int, sent: list[str] | None, few: int, many: int) -> float:
                address = f"127.0.0.1:{port}"
                first = http_instructions(binary, database, "stateless", few, work, flags, address, sent, env)
                second = http_instructions(binary, database, "stateless", many, work, flags, address, sent, env)
                return (second - first) / (many - few)

            for mode in ["none", "static", "oauth"] if options.calls else []:
                port = free_port()
                flags, env = mode_flags(mode, issuer.issuer, port)
                sent = [STATIC_TOKEN] if mode == "static" else tokens(port, 1) if mode == "oauth" else None
                per_call[mode] = measured(flags, env, port, sent, small, options.calls)
                print(f"  {mode:<28} {per_call[mode]:>10,.0f} per call   {per_call[mode] - per_call['none']:>+9,.0f} vs none")
            fresh = 250
            for alg in ["RS256", "ES256", "EdDSA"] if options.calls else []:
                issuer.rotate(alg, retire_old=True)
                port = free_port()
                flags, env = mode_flags("oauth", issuer.issuer, port)
                cost = measured(flags, env, port, tokens(port, fresh + 1), fresh // 5, fresh)
                print(f"  {'oauth, a new ' + alg + ' token':<28} {cost:>10,.0f} per call   {cost - per_call['none']:>+9,.0f} vs none"
                      "  (each call's token verified for the first time)")

            issuer.rotate("RS256", retire_old=True)
            if options.only == "callgrind":
                return
            if shutil.which("wrk") is None:
                sys.exit("bench-oauth: wrk is missing (Debian: apt-get install wrk)")
            print(f"\nwrk, 10 connections, {options.seconds} s a run, {options.rounds} interleaved rounds (median)")
            rates: dict[str, list[float]] = {"none": [], "static": [], "oauth": []}
            cpu: dict[str, list[float]] = {mode: [] for mode in rates}
            for _ in range(options.rounds):
                for mode in rates:
                    port = free_port()
                    flags, env = mode_flags(mode, issuer.issuer, port)
                    token = STATIC_TOKEN if mode == "static" else tokens(port, 1)[0] if mode == "oauth" else None
                    rate, per_call_cpu = throughput(binary, database, flags, env, port, token, options.seconds)
                    rates[mode].append(rate)
                    cpu[mode].append(per_call_cpu)
            base = statistics.median(cpu["none"])
            for mode, values in rates.items():
                spent = statistics.median(cpu[mode])
                print(f"  {mode:<28} {statistics.median(values):>8,.0f} calls/s   server CPU {spent * 1e6:>6.1f} µs a call"
                      f"   {(spent - base) * 1e6:>+6.1f} µs vs none")


if __name__ == "__main__":
    main()
