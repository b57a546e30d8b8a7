#!/usr/bin/env python3
"""How long N concurrent `ask` calls take against a model that needs D seconds per request.

Starts a local OpenAI-compatible fake model that sleeps D seconds before each answer, starts
dbai-mcp with `--llm openai-compatible:…` pointed at it, sends N `tools/call ask` requests in one
write over raw stdio JSON-RPC, and times until all N answers are read. Runs once with
`--llm-summary deterministic` (one model call per ask) and once with `model` (two calls: SQL,
then the summary). Served concurrently, N asks take about D (2·D with summaries); served one at
a time they take N·D (2·N·D).

Every answer is checked (no error, the expected count). Standard library only. Normally started
by `Scripts/bench-ask-concurrency`, which builds dbai-mcp as it ships.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mcp_stdio import StdioClient, encode


class SlowModel(BaseHTTPRequestHandler):
    delay = 2.0
    lock = threading.Lock()
    in_flight = 0
    most_in_flight = 0
    requests = 0

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = SlowModel
        with cls.lock:
            cls.requests += 1
            cls.in_flight += 1
            cls.most_in_flight = max(cls.most_in_flight, cls.in_flight)
        time.sleep(cls.delay)
        prompt = body["messages"][-1]["content"]
        content = "There are 3503 tracks." if "<data>" in prompt else json.dumps({"sql": "SELECT COUNT(*) FROM Track"})
        data = json.dumps({
            "id": "c", "object": "chat.completion", "created": 1, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        }).encode()
        with cls.lock:
            cls.in_flight -= 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def run(binary: str, database: str, base_url: str, asks: int, summary: str) -> tuple[float, int, int]:
    SlowModel.in_flight = SlowModel.most_in_flight = SlowModel.requests = 0
    client = StdioClient(
        [binary, "--db", database, "--llm", "openai-compatible:slow", "--llm-base-url", base_url,
         "--llm-summary", summary, "--llm-timeout", "120"])
    try:
        client.initialize("bench-ask-concurrency", timeout=30)
        calls = b"".join(
            encode({"jsonrpc": "2.0", "id": index, "method": "tools/call",
                    "params": {"name": "ask", "arguments": {"question": f"How many tracks? ({index})"}}})
            for index in range(1, asks + 1))
        start = time.perf_counter()
        client.write(calls)
        answers = [json.loads(client.read_response(timeout=600)) for _ in range(asks)]
        elapsed = time.perf_counter() - start
        for answer in answers:
            result = answer.get("result", {})
            if result.get("isError") or result.get("structuredContent", {}).get("rows") != [[3503]]:
                raise RuntimeError(f"unexpected answer: {json.dumps(answer)[:300]}")
        return elapsed, SlowModel.most_in_flight, SlowModel.requests
    finally:
        client.close(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--asks", type=int, default=5)
    parser.add_argument("--delay", type=float, default=2.0, help="seconds the model takes per request")
    args = parser.parse_args()

    SlowModel.delay = args.delay
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    print(f"{args.asks} concurrent asks, model answering in {args.delay:.1f} s per request")
    for summary, calls_per_ask in (("deterministic", 1), ("model", 2)):
        elapsed, most, requests = run(args.binary, args.db, base_url, args.asks, summary)
        serial = args.asks * calls_per_ask * args.delay
        concurrent = calls_per_ask * args.delay
        print(f"  --llm-summary {summary:13}  {elapsed:6.2f} s   (concurrent ≈ {concurrent:.1f} s, one at a time "
              f"≈ {serial:.1f} s; {requests} model requests, at most {most} at once)")
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
