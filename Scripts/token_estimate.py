"""How far TokenEstimate (Sources/SwiftDBAIChat/Chat/Prompt/TokenEstimate.swift) is from the real
tokenizer of Qwen2.5-Coder on the prompts `ask` really sends.

A fake OpenAI-compatible model (answers "SELECT 1", records every request) stands in for the
model; dbai-mcp runs over stdio against it and answers one `ask` per database: Chinook and
Northwind (Examples/), the generated databases of Scripts/eval-data, each without metadata and,
where Scripts/eval-metadata/NAME.yaml exists, with it (all its parts, as Scripts/eval passes it),
and Chinook once more with --llm-sample-rows 0. Every distinct message of the recorded requests
(system, user, ...) is counted twice: by a Python copy of TokenEstimate.tokens(in:) (a token per
digit, non-ASCII scalar and single quote, (n + 2) // 3 for the other characters) and by a llama.cpp
server's /tokenize (a llama-server with the model's tokenizer; only /tokenize is called on it).

It prints one line per message: database, metadata, characters, real tokens, estimate, and how far
the estimate is above the real count (negative: below it, which budgets must not be); then the
least and greatest of those.

Usage: python3 Scripts/token_estimate.py [--binary .build/debug/dbai-mcp]
                                         [--tokenize-url http://127.0.0.1:8088/tokenize] [--dump DIR]
(Scripts/local-llm starts the llama-server it needs.)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_ask import EVAL_DATA, REPO, call_ask, metadata_part  # noqa: E402
from mcp_stdio import StdioClient  # noqa: E402

QUESTION = "How many rows are in the biggest table?"
GENERATED = ["clinic", "library", "tickets", "fitness", "freight", "coworking"]


def estimate(text):
    """TokenEstimate.tokens(in:): Python strings are sequences of unicode scalars, like
    String.unicodeScalars."""
    single = sum(1 for c in text if ord(c) >= 0x80 or "0" <= c <= "9" or c == "'")
    return single + (len(text) - single + 2) // 3


class FakeModel(BaseHTTPRequestHandler):
    """An OpenAI-compatible model that answers every chat completion with "SELECT 1"."""

    requests = []

    def do_GET(self):  # noqa: N802 (http.server API)
        if self.path.rstrip("/").endswith("/models"):
            self.reply(200, {"data": [{"id": "m"}]})
        else:
            self.reply(404, {"error": {"message": "not found"}})

    def do_POST(self):  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not self.path.endswith("/chat/completions"):
            return self.reply(404, {"error": {"message": "not found"}})
        FakeModel.requests.append(body)
        self.reply(200, {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": body.get("model", "m"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "SELECT 1"}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
        })

    def reply(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def real_tokens(url, text):
    request = urllib.request.Request(url, data=json.dumps({"content": text}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.load(response)["tokens"])


def message_text(message):
    """A message's text: its content (a string or a list of text parts) and its tool calls' arguments."""
    content = message.get("content") or ""
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    calls = [call.get("function", {}).get("arguments", "") for call in message.get("tool_calls") or []]
    return "".join([content] + calls)


def prompts_of_one_ask(binary, db, base_url, extra, stderr_path):
    """The distinct (role, text) messages the model was sent for one `ask`."""
    FakeModel.requests = []
    argv = [binary, "--db", db, "--llm", "openai-compatible:m", "--llm-base-url", base_url,
            "--llm-candidates", "1", "--llm-summary", "deterministic"] + extra
    client = StdioClient(argv, stderr_path)
    try:
        client.initialize("token-estimate", timeout=60)
        result = call_ask(client, QUESTION)
        if result.get("isError"):
            text = "".join(part.get("text", "") for part in result.get("content", []))
            print(f"  (ask answered with an error: {text[:200]})", file=sys.stderr)
    finally:
        client.close(timeout=30)
    seen, messages = set(), []
    for body in FakeModel.requests:
        for message in body.get("messages", []):
            key = (message.get("role"), message_text(message))
            if key[1] and key not in seen:
                seen.add(key)
                messages.append(key)
    if not messages:
        raise SystemExit(f"{os.path.basename(db)}: the model was sent no request; stderr: {client.stderr_tail()}")
    return messages


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "dbai-mcp"))
    parser.add_argument("--tokenize-url", default="http://127.0.0.1:8088/tokenize")
    parser.add_argument("--dump", help="also write every message's text to this directory")
    options = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    workdir = tempfile.mkdtemp(prefix="dbai-token-estimate-")
    runs = []  # (label, database file, metadata flag, extra flags)
    try:
        for name in ("chinook", "northwind"):
            db = os.path.join(workdir, name + ".sqlite")
            shutil.copyfile(os.path.join(REPO, "Examples", name + ".sqlite"), db)
            runs.append((name, db, "no", []))
        runs.append(("chinook sample-rows 0", runs[0][1], "no", ["--llm-sample-rows", "0"]))
        for name in GENERATED:
            db = os.path.join(workdir, name + ".sqlite")  # named like the metadata's database
            subprocess.run([sys.executable, os.path.join(EVAL_DATA, f"make_{name}.py"), db],
                           check=True, stdout=subprocess.DEVNULL)
            runs.append((name, db, "no", []))
            metadata = os.path.join(REPO, "Scripts", "eval-metadata", name + ".yaml")
            if os.path.exists(metadata):
                runs.append((name, db, "yes", ["--metadata", metadata_part(metadata, "all", workdir)]))

        print(f"{'database':22} {'metadata':8} {'role':9} {'chars':>7} {'real':>6} {'estimate':>8} {'over':>7}")
        overs = []
        for label, db, has_metadata, extra in runs:
            stderr_path = os.path.join(workdir, f"{len(overs)}.stderr")
            for role, text in prompts_of_one_ask(options.binary, db, base_url, extra, stderr_path):
                real, guess = real_tokens(options.tokenize_url, text), estimate(text)
                if options.dump:
                    os.makedirs(options.dump, exist_ok=True)
                    name = f"{label}-{has_metadata}-{role}".replace(" ", "_")
                    with open(os.path.join(options.dump, name + ".txt"), "w") as file:
                        file.write(text)
                over = 100.0 * (guess / real - 1)
                overs.append((over, label, has_metadata, role))
                print(f"{label:22} {has_metadata:8} {role:9} {len(text):7d} {real:6d} {guess:8d} {over:+6.1f}%"
                      + ("  BELOW" if guess < real else ""), flush=True)
        low, high = min(overs), max(overs)
        print(f"min {low[0]:+.1f}% ({low[1]}, metadata {low[2]}, {low[3]}); "
              f"max {high[0]:+.1f}% ({high[1]}, metadata {high[2]}, {high[3]}); "
              f"{sum(o[0] < 0 for o in overs)} of {len(overs)} prompts estimated below the real count")
    finally:
        server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
