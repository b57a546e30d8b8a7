#!/usr/bin/env python3
"""Check the held-out clinic questions against a freshly generated clinic.sqlite.

Generates the database twice into a temporary directory (the two dumps must match:
generation is deterministic), then for every question of the JSONL file:
  - the keys, id, db, ordered flag and tags are well formed;
  - the gold SQL runs without error and returns at least one row (and not a single
    row of NULLs or zeros, which would be an empty aggregate);
  - for ordered or topk questions with an ORDER BY: the result does not depend on how
    ties are broken. The query is run twice, once with its ORDER BY completed by all
    output columns ascending, once with every tie-breaker (each ORDER BY term after the
    first, then the output columns) reversed; the two results must be equal (as lists
    when ordered, as multisets otherwise). A tie on the first term that straddles the
    LIMIT cut-off, or that reorders an ordered list, shows up as a difference.
Exit status 1 with a message per problem if anything fails.

Usage: python3 check_questions.py [QUESTIONS.jsonl]
"""

import collections
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_QUESTIONS = os.path.join(HERE, "..", "eval-questions", "clinic-heldout.jsonl")
KEYS = ["id", "db", "question", "sql", "ordered", "tags"]
TAGS = {"count", "filter", "list", "topk", "join", "multijoin", "group", "having", "aggregate",
        "date", "distinct", "order", "null", "nested", "selfjoin", "ratio"}


def generate(directory, name):
    path = os.path.join(directory, name)
    subprocess.run([sys.executable, os.path.join(HERE, "make_clinic.py"), path],
                   check=True, stdout=subprocess.DEVNULL)
    return path


def dump_hash(path):
    db = sqlite3.connect(path)
    digest = hashlib.sha256()
    for line in db.iterdump():
        digest.update(line.encode() + b"\n")
    db.close()
    return digest.hexdigest()


def top_level(sql):
    """Yield (index, char) for characters outside parentheses and string literals."""
    depth, quote = 0, None
    for i, ch in enumerate(sql):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            yield i, ch


def split_order_by(sql):
    """Return (head, [order terms], tail) for the outermost ORDER BY, or None."""
    outside = set(i for i, _ in top_level(sql))
    matches = [m for m in re.finditer(r"\bORDER\s+BY\b", sql, re.I) if m.start() in outside]
    if not matches:
        return None
    order = matches[-1]
    limit = [m for m in re.finditer(r"\bLIMIT\b", sql, re.I)
             if m.start() in outside and m.start() > order.end()]
    end = limit[0].start() if limit else len(sql)
    body = sql[order.end():end]
    terms, start = [], 0
    for i, ch in top_level(body):
        if ch == ",":
            terms.append(body[start:i].strip())
            start = i + 1
    terms.append(body[start:].strip())
    return sql[:order.start()], terms, sql[end:]


def reverse(term):
    if re.search(r"\bDESC$", term, re.I):
        return re.sub(r"\s+DESC$", " ASC", term, flags=re.I)
    if re.search(r"\bASC$", term, re.I):
        return re.sub(r"\s+ASC$", " DESC", term, flags=re.I)
    return term + " DESC"


def tie_problem(db, question, width):
    parts = split_order_by(question["sql"])
    if parts is None:
        return "ordered/topk question without ORDER BY" if question["ordered"] else None
    head, terms, tail = parts
    columns = [str(i) for i in range(1, width + 1)]
    first = terms[:1] + terms[1:] + columns
    second = terms[:1] + [reverse(t) for t in terms[1:] + columns]
    results = [db.execute(f"{head} ORDER BY {', '.join(order)} {tail}").fetchall()
               for order in (first, second)]
    if question["ordered"]:
        same = results[0] == results[1]
    else:
        same = collections.Counter(results[0]) == collections.Counter(results[1])
    return None if same else "answer depends on tie-breaking (ties on the first ORDER BY term)"


def check(db, question, seen):
    problems = []
    if list(question) != KEYS:
        problems.append(f"keys are {list(question)}, expected {KEYS}")
    if not re.fullmatch(r"clinic-\d{3}", str(question.get("id"))) or question.get("id") in seen:
        problems.append("bad or duplicate id")
    if question.get("db") != "clinic.sqlite":
        problems.append("db must be clinic.sqlite")
    if not isinstance(question.get("ordered"), bool):
        problems.append("ordered must be a boolean")
    tags = question.get("tags") or []
    if not tags or set(tags) - TAGS or len(set(tags)) != len(tags):
        problems.append(f"bad tags {tags}")
    if problems:
        return problems
    try:
        cursor = db.execute(question["sql"])
        rows = cursor.fetchall()
    except sqlite3.Error as error:
        return [f"SQL error: {error}"]
    if not rows:
        return ["gold SQL returns no rows"]
    if len(rows) == 1 and all(v is None or v == 0 for v in rows[0]):
        problems.append(f"gold SQL returns an empty aggregate {rows[0]}")
    if question["ordered"] and "order" not in tags and "topk" not in tags:
        problems.append("ordered question should be tagged order or topk")
    if question["ordered"] or "topk" in tags:
        problem = tie_problem(db, question, len(cursor.description))
        if problem:
            problems.append(problem)
    return problems


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_QUESTIONS
    with open(path) as file:
        questions = [json.loads(line) for line in file if line.strip()]
    with tempfile.TemporaryDirectory(prefix="clinic-check-") as directory:
        first, second = generate(directory, "clinic.sqlite"), generate(directory, "again.sqlite")
        digest = dump_hash(first)
        if digest != dump_hash(second):
            print("FAIL: two generations of clinic.sqlite differ")
            return 1
        print(f"generation is deterministic (dump sha256 {digest[:16]}…, "
              f"file {os.path.getsize(first)} bytes, byte-identical: "
              f"{open(first, 'rb').read() == open(second, 'rb').read()})")
        db = sqlite3.connect(f"file:{first}?mode=ro", uri=True)
        failures, seen, tags = 0, set(), collections.Counter()
        for question in questions:
            problems = check(db, question, seen)
            seen.add(question.get("id"))
            tags.update(question.get("tags") or [])
            for problem in problems:
                print(f"FAIL {question.get('id')}: {problem}")
            failures += bool(problems)
        db.close()
    print(f"{len(questions)} questions, {len(questions) - failures} pass, {failures} fail")
    print("tags: " + ", ".join(f"{tag} {n}" for tag, n in tags.most_common()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
