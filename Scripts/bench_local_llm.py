"""Speed of the local model server (`Scripts/local-llm`): generated tokens/s and prompt tokens/s
of the OpenAI-compatible API Scripts/local-llm starts (llama-server), medians of a few runs, so that two builds of the
server (say, native and generic) can be compared on one machine:

  python3 Scripts/bench_local_llm.py [--base-url http://127.0.0.1:8088/v1] [--runs 3]

generation  a short prompt, 128 tokens generated at temperature 0: the tokens/s of the reply (the
            time of the same prompt with one token generated is taken off)
prompt      a long prompt (Chinook's schema, about 2,000 tokens), one token generated (the
            tokens/s of reading a prompt, the cost that dominates `ask` on a large schema)
logprobs    the generation above again, with and without the tokens' log-probabilities and their
            runner-ups (`logprobs`, `top_logprobs: 2`, as `ask` asks for them), interleaved: the
            server's own generation speed (its `timings`) of each, and their ratio
Standard library only; the server must already answer (`Scripts/local-llm start`).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def chat(base_url: str, messages: list[dict], max_tokens: int, **extra) -> tuple[float, dict]:
    body = json.dumps({"model": "qwen", "messages": messages, "max_tokens": max_tokens, "temperature": 0,
                       "cache_prompt": False, **extra}).encode()
    request = urllib.request.Request(f"{base_url}/chat/completions", body, {"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    usage = dict(answer["usage"])
    usage["generation_per_second"] = (answer.get("timings") or {}).get("predicted_per_second")
    return time.perf_counter() - start, usage


def schema_text() -> str:
    with sqlite3.connect(ROOT / "Examples" / "chinook.sqlite") as connection:
        ddl = [row[0] for row in connection.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")]
    return "\n\n".join(ddl)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    short = [{"role": "user", "content": "Write a long SQL tutorial for beginners, with many examples."}]
    schema = schema_text()
    chat(args.base_url, short, 8)  # warm-up: the model's weights in memory
    generation, prompt = [], []
    for run in range(args.runs):
        reading, _ = chat(args.base_url, short, 1)
        elapsed, usage = chat(args.base_url, short, 128)
        generation.append((usage["completion_tokens"] - 1) / max(elapsed - reading, 1e-6))
        # A different first line each run, so that no cached prompt prefix is reused.
        long = [{"role": "system", "content": f"Run {run} at {time.time()}.\n\nYou write SQLite.\n\n{schema}\n\n{schema}"},
                {"role": "user", "content": "How many tracks are there?"}]
        elapsed, usage = chat(args.base_url, long, 1)
        prompt.append(usage["prompt_tokens"] / elapsed)
        print(f"run {run + 1}: generation {generation[-1]:.1f} tokens/s, prompt {prompt[-1]:.1f} tokens/s "
              f"({usage['prompt_tokens']} prompt tokens)", file=sys.stderr)
    print(f"generation, median: {statistics.median(generation):.1f} tokens/s")
    print(f"prompt, median: {statistics.median(prompt):.1f} tokens/s")
    plain, with_logprobs = [], []
    for run in range(args.runs):
        for logprobs in ([False, True] if run % 2 == 0 else [True, False]):
            extra = {"logprobs": True, "top_logprobs": 2} if logprobs else {}
            elapsed, usage = chat(args.base_url, short, 128, **extra)
            speed = usage["generation_per_second"] or usage["completion_tokens"] / elapsed
            (with_logprobs if logprobs else plain).append(speed)
    ratio = statistics.median(with_logprobs) / statistics.median(plain)
    print(f"logprobs, median: {statistics.median(with_logprobs):.1f} tokens/s against {statistics.median(plain):.1f} "
          f"without ({ratio:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
