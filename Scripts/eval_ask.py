"""Execution-accuracy evaluation of dbai-mcp's `ask` tool (run through Scripts/eval).

For each question of a JSONL file (id, db, question, sql, ordered, tags) it calls `ask` on a
fresh conversation through the real server over stdio (raw JSON-RPC), runs the gold SQL with
sqlite3, and compares the results: equal multisets of rows, or equal lists when `ordered`.
Numbers are compared after rounding to 4 decimals; 1 and 1.0 are equal.
"""

import argparse
import base64
import collections
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

from mcp_stdio import StdioClient

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_server(binary, db, base_url, model, extra, stderr_path):
    """dbai-mcp over stdio with the model to evaluate, initialized."""
    client = StdioClient(
        [binary, "--db", db, "--llm", f"openai-compatible:{model}", "--llm-base-url", base_url, "--timeout-ms", "30000"]
        + extra, stderr_path)
    client.initialize("dbai-eval", timeout=60)
    return client


def call_ask(client, question):
    """The result of one `ask` on a new conversation."""
    reply = client.request("tools/call", {"name": "ask", "arguments": {"question": question}})
    if "error" in reply:
        raise RuntimeError(f"tools/call: {reply['error']}")
    return reply["result"]


def normalize(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return round(float(value), 4)
    if isinstance(value, dict) and "base64" in value:
        return ("blob", value["base64"])
    if isinstance(value, (bytes, bytearray)):
        return ("blob", base64.b64encode(value).decode())
    return value


def rows_equal(predicted, gold, ordered):
    predicted = [tuple(normalize(v) for v in row) for row in predicted]
    gold = [tuple(normalize(v) for v in row) for row in gold]
    if ordered:
        return predicted == gold
    return collections.Counter(predicted) == collections.Counter(gold)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--questions", default=os.path.join(REPO, "..", "shared", "eval", "chinook-dev.jsonl"))
    parser.add_argument("--data-dir", default=os.path.join(REPO, "..", "shared", "data"))
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--model", default="qwen")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("server_args", nargs="*", help="extra dbai-mcp flags, after --")
    options = parser.parse_args()

    with open(options.questions) as file:
        questions = [json.loads(line) for line in file if line.strip()]
    if options.limit:
        questions = questions[: options.limit]

    workdir = tempfile.mkdtemp(prefix="dbai-eval-")
    servers = {}
    outcomes = []
    try:
        for question in questions:
            source = os.path.join(options.data_dir, question["db"])
            if question["db"] not in servers:
                copy = os.path.join(workdir, question["db"])
                shutil.copyfile(source, copy)
                servers[question["db"]] = start_server(
                    options.binary, copy, options.base_url, options.model, options.server_args,
                    os.path.join(workdir, question["db"] + ".stderr"))
            gold_connection = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
            gold = gold_connection.execute(question["sql"]).fetchall()
            gold_connection.close()

            start = time.perf_counter()
            result = call_ask(servers[question["db"]], question["question"])
            latency = time.perf_counter() - start
            structured = result.get("structuredContent") or {}
            executed = not result.get("isError") and "rows" in structured
            text = "".join(part.get("text", "") for part in result.get("content", []))
            correct = executed and rows_equal(structured["rows"], gold, question["ordered"])
            outcome = {
                "id": question["id"], "tags": question["tags"], "correct": correct, "executed": executed,
                "attempts": structured.get("attempts", 1) if executed else None, "latency": latency,
                "sql": structured.get("sql") if executed else None, "error": None if executed else text[:300],
            }
            outcomes.append(outcome)
            mark = "ok  " if correct else ("rows" if executed else "ERR ")
            print(f"{mark} {question['id']} {latency:5.1f}s  {question['question']}", flush=True)
            if options.verbose or not correct:
                print(f"       predicted: {outcome['sql'] or outcome['error']}")
                if not correct:
                    print(f"       gold:      {question['sql']}")
    finally:
        for server in servers.values():
            server.close(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)

    count = len(outcomes)
    correct = sum(o["correct"] for o in outcomes)
    executed = sum(o["executed"] for o in outcomes)
    retried = [o for o in outcomes if o["executed"] and o["attempts"] and o["attempts"] > 1]
    latencies = sorted(o["latency"] for o in outcomes)
    print()
    print(f"Questions:            {count}  ({options.questions})")
    print(f"Execution accuracy:   {correct}/{count} = {100 * correct / count:.1f}%   (goal >= 75%)")
    print(f"SQL that executes:    {executed}/{count} = {100 * executed / count:.1f}%   (goal >= 95%)")
    print(f"Retries used:         {sum(o['attempts'] - 1 for o in retried)} over {len(retried)} question(s)")
    print(f"Latency:              median {statistics.median(latencies):.2f} s, p90 {latencies[int(0.9 * (count - 1))]:.2f} s, "
          f"max {latencies[-1]:.2f} s   (goal: median < 8 s)")
    by_tag = collections.defaultdict(lambda: [0, 0])
    for outcome in outcomes:
        for tag in outcome["tags"]:
            by_tag[tag][0] += outcome["correct"]
            by_tag[tag][1] += 1
    print("By question type:     " + ", ".join(f"{tag} {ok}/{total}" for tag, (ok, total) in sorted(by_tag.items())))
    failed = [o["id"] for o in outcomes if not o["correct"]]
    print("Failed:               " + (", ".join(failed) if failed else "none"))


if __name__ == "__main__":
    sys.exit(main())
