"""`ask` on a database of hundreds of tables, with a real model (run through Scripts/bench-ask-schema-size).

It generates a database of --tables tables (default 400) of 12 columns, each with a foreign key
to the one before it and --rows rows (default 20), starts dbai-mcp on it with the local model of
Scripts/local-llm, asks a few questions that name tables, and prints for each: whether the rows
equal the gold SQL's, the prompt tokens the model read (all calls), and the time. The prompt must
fit the model server's context (8,192 tokens for Scripts/local-llm): a question whose prompt does
not fit fails with the server's error instead.
"""

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time

from eval_ask import call_ask, rows_equal, start_server

QUESTIONS = [
    ("How many rows does table_0123 have?", "SELECT COUNT(*) FROM table_0123"),
    ("What is the total amount in table_0250?", "SELECT SUM(amount) FROM table_0250"),
    ("How many rows of table_0042 have the status 'open'?", "SELECT COUNT(*) FROM table_0042 WHERE status = 'open'"),
    ("What is the average amount of table_0007, rounded to two decimals?", "SELECT ROUND(AVG(amount), 2) FROM table_0007"),
    ("List the names of the rows of table_0300 whose parent in table_0299 is closed.",
     "SELECT t.name FROM table_0300 t JOIN table_0299 p ON p.id = t.parent_id WHERE p.status = 'closed'"),
    ("Which status is the most common in table_0399?",
     "SELECT status FROM table_0399 GROUP BY status ORDER BY COUNT(*) DESC LIMIT 1"),
]


def make_database(path, tables, rows):
    db = sqlite3.connect(path)
    statuses = ["open", "closed", "pending"]
    for number in range(1, tables + 1):
        name = f"table_{number:04d}"
        parent = f"parent_id INTEGER REFERENCES table_{number - 1:04d}(id)" if number > 1 else "parent_id INTEGER"
        db.execute(f"CREATE TABLE {name} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT, amount REAL, "
                   f"created_at TEXT, attribute_1 TEXT, attribute_2 TEXT, attribute_3 TEXT, attribute_4 TEXT, "
                   f"attribute_5 TEXT, attribute_6 TEXT, {parent})")
        db.executemany(f"INSERT INTO {name} VALUES (?, ?, ?, ?, ?, 'a', 'b', 'c', 'd', 'e', 'f', ?)", [
            (row, f"item {number}-{row}", statuses[(row * 7 + number) % (3 if row % 5 else 2)], round(row * 1.5 + number % 7, 2),
             f"2025-{1 + row % 12:02d}-{1 + row % 28:02d}", 1 + (row * 3 + number) % rows if number > 1 else None)
            for row in range(1, rows + 1)])
    db.commit()
    db.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--model", default="qwen")
    options = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="dbai-schema-size-")
    path = os.path.join(workdir, "wide.sqlite")
    make_database(path, options.tables, options.rows)
    server = start_server(options.binary, path, options.base_url, options.model, [], os.path.join(workdir, "stderr"))
    latencies, tokens, right = [], [], 0
    try:
        for question, gold_sql in QUESTIONS:
            gold = sqlite3.connect(path).execute(gold_sql).fetchall()
            start = time.perf_counter()
            result = call_ask(server, question)
            latency = time.perf_counter() - start
            structured = result.get("structuredContent") or {}
            executed = not result.get("isError") and "rows" in structured
            correct = executed and rows_equal(structured["rows"], gold, False)
            prompt = (structured.get("usage") or {}).get("prompt_tokens")
            right += correct
            latencies.append(latency)
            if prompt is not None:
                tokens.append(prompt)
            mark = "ok  " if correct else ("rows" if executed else "ERR ")
            detail = structured.get("sql") if executed else "".join(p.get("text", "") for p in result.get("content", []))[:200]
            print(f"{mark} {latency:5.1f}s {prompt if prompt is not None else '-':>6} tok  {question}\n       {detail}", flush=True)
    finally:
        server.close(timeout=30)
    print()
    print(f"Schema:        {options.tables} tables of 12 columns, {options.rows} rows each, foreign keys in a chain")
    print(f"Correct:       {right}/{len(QUESTIONS)}")
    print(f"Latency:       median {statistics.median(latencies):.2f} s (the first question reads the system prompt)")
    if tokens:
        print(f"Prompt tokens: median {statistics.median(tokens):.0f} per question (all model calls), max {max(tokens)}")


if __name__ == "__main__":
    sys.exit(main())
