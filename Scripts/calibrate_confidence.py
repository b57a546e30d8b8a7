#!/usr/bin/env python3
"""Fits the weights of `ask`'s confidence (ConfidenceModel+Standard.swift) on development sets.

    python3 Scripts/calibrate_confidence.py OUT.jsonl... [--swift FILE] [--candidates 3]

Each OUT.jsonl is the --output of Scripts/eval on a DEV set, run with every answer voted on:
`Scripts/eval --questions SET --output OUT.jsonl -- --llm-candidates 3 --llm-candidate-sampling always`.
Never give it a held-out set: the weights and thresholds it chooses are tuned on what it reads.

For each question it reads the first statement the model wrote (candidates[0]: its tokens'
log-probabilities, whether it was right) and the vote of the first K statements, and fits four
logistic models (L2-regularised, numpy) with the features ConfidenceModel.swift computes: without
and with a vote, with and without the token features. Then it simulates the policy `ask` follows
(no vote when the score without one is outside the vote band, else K statements vote) for a grid of
thresholds and bands (a band holds the threshold and has at least --min-vote-share of the answers
vote), and chooses the one that writes the fewest candidates among those whose high answers are
right at least --precision of the time on every set, with at most --low-ratio times as many
answers marked low as answered wrong on the sets together (when none is that precise on every
set: the one whose worst set is most precise); a leave-one-set-out run says how
far each set moves when it was not in the fit. It prints, per set, accuracy, the share marked low,
how often high is right and low is wrong, the share of questions that wrote candidates, and the
trade-off curve (flag the lowest-scored: accuracy of the rest), and with --swift writes the table.
"""

import argparse
import collections
import json
import math
import os
import sys
import textwrap

import numpy as np

TOKEN_FEATURES = ["min_logprob", "hesitations"]
BASE_FEATURES = ["failed_statements", "repaired", "asked_afresh", "looked_again", "replaced", "empty_result",
                 "null_result", "doubts", "unrelated_columns", "joined_tables"]
SWIFT_NAMES = {
    "min_logprob": "minLogprob", "hesitations": "hesitations", "failed_statements": "failedStatements",
    "repaired": "repaired", "asked_afresh": "askedAfresh", "looked_again": "lookedAgain", "replaced": "replaced",
    "empty_result": "emptyResult", "null_result": "nullResult", "doubts": "doubts",
    "unrelated_columns": "unrelatedColumns", "joined_tables": "joinedTables", "disagreement": "disagreement",
}


def load(paths):
    """(set name, record) for every answered question of the files."""
    rows = []
    for path in paths:
        name = os.path.basename(path).split(".")[0]
        with open(path) as file:
            for line in file:
                if line.strip():
                    rows.append((name, json.loads(line)))
    return rows


def token_values(min_logprob, hesitations):
    return {"min_logprob": max(-8.0, min(0.0, min_logprob)), "hesitations": float(min(5, hesitations or 0))}


def base_values(evidence, empty, null):
    return {
        "failed_statements": float(min(2, evidence.get("failed_statements", 0))),
        "repaired": float(bool(evidence.get("repaired"))),
        "asked_afresh": float(bool(evidence.get("asked_afresh"))),
        "looked_again": float(bool(evidence.get("looked_again"))),
        "replaced": float(bool(evidence.get("replaced"))),
        "empty_result": float(empty),
        "null_result": float(null),
        "doubts": float(min(2, evidence.get("doubts", 0))),
        "unrelated_columns": float(min(3, len(evidence.get("unrelated_columns") or []))),
        "joined_tables": joined_tables(evidence.get("tables_read", 1)),
    }


def joined_tables(tables_read):
    """The feature of ConfidenceModel.swift: tables read beyond the first, at most 3."""
    return float(min(3, max(0, tables_read - 1)))


def table_values(candidate, base):
    """The joined-tables feature of one candidate's statement (eval outputs that count its tables),
    else the answer's."""
    count = candidate.get("tables_read")
    return {"joined_tables": joined_tables(count) if count is not None else base["joined_tables"]}


def vote_of(candidates, k):
    """The winner of the first k statements' vote: (index of its first run, agreeing, written)."""
    runs = candidates[:k]
    counts = collections.Counter(run["result"] for run in runs if run["result"] is not None)
    if not counts:
        return 0, 0, len(runs)
    best = max(counts.values())
    # Ties go to the result that appeared first.
    group = next(run["result"] for run in runs if run["result"] is not None and counts[run["result"]] == best)
    first = next(i for i, run in enumerate(runs) if run["result"] == group)
    return first, best, len(runs)


def examples(rows, k):
    """Per question: the features and label without a vote, and with a vote of k statements."""
    out = []
    for set_name, record in rows:
        evidence = record.get("confidence_evidence")
        if not evidence or not record.get("executed"):
            # An error answer has no confidence: it is a failure the user sees as such.
            continue
        candidates = record.get("candidates") or []
        if candidates:
            first = candidates[0]
            first_correct = bool(first["correct"])
            first_tokens = (first.get("token_logprob_min"), first.get("hesitations"))
            first_empty = first["result"] is None
        else:
            first_correct = bool(record["correct"])
            first_tokens = (evidence.get("token_logprob_min"), evidence.get("hesitations"))
            first_empty = bool(evidence.get("empty_result"))
        base = base_values(evidence, first_empty, bool(evidence.get("null_result")))
        unvoted = dict(base)
        if candidates:
            unvoted.update(table_values(candidates[0], base))
        if first_tokens[0] is not None:
            unvoted.update(token_values(*first_tokens))
        item = {"set": set_name, "id": record["id"], "unvoted": unvoted, "first_correct": first_correct,
                "has_tokens": first_tokens[0] is not None, "latency": record.get("latency")}
        if len(candidates) >= 2:
            index, agreeing, written = vote_of(candidates, k)
            winner = candidates[index]
            voted = dict(base)
            voted["empty_result"] = float(winner["result"] is None)
            voted.update(table_values(winner, base))
            if winner.get("token_logprob_min") is not None:
                voted.update(token_values(winner["token_logprob_min"], winner.get("hesitations")))
            voted["disagreement"] = (written - max(1, agreeing)) / (written - 1) if written > 1 else 0.0
            item["voted"] = voted
            item["voted_correct"] = bool(winner["correct"])
            item["written"] = written
        out.append(item)
    return out


# The sign each weight must have: every sign of trouble may only lower the score, and a surer
# model (a higher least log-probability) may only raise it. A feature whose fitted weight has the
# other sign on the dev sets is left out (weight 0) and the rest fitted again: a small set's
# accident must not make a repair or a failure a reason to trust an answer.
POSITIVE = {"min_logprob"}


def fit(items, key, label, features, l2=1.0):
    """Logistic regression with an L2 penalty and the signs above."""
    features = list(features)
    while True:
        model = fit_unconstrained(items, key, label, features, l2)
        wrong = [name for name, value in model["features"].items()
                 if (value < 0 if name in POSITIVE else value > 0)]
        if not wrong:
            return model
        features = [name for name in features if name not in wrong]


def fit_unconstrained(items, key, label, features, l2):
    """Logistic regression by Newton's method with an L2 penalty (the intercept unpenalised)."""
    data = [item for item in items if key in item]
    X = np.array([[1.0] + [item[key].get(name, 0.0) for name in features] for item in data])
    y = np.array([1.0 if item[label] else 0.0 for item in data])
    w = np.zeros(X.shape[1])
    penalty = np.eye(X.shape[1]) * l2
    penalty[0, 0] = 0
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ w))
        gradient = X.T @ (p - y) + penalty @ w
        hessian = X.T @ (X * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return {"intercept": float(w[0]), "features": {name: float(value) for name, value in zip(features, w[1:])}}


def score(weights, values):
    total = weights["intercept"] + sum(weight * values.get(name, 0.0) for name, weight in weights["features"].items())
    return 1 / (1 + math.exp(-total))


def fit_all(items):
    with_tokens = TOKEN_FEATURES + BASE_FEATURES
    return {
        "unvoted": fit(items, "unvoted", "first_correct", with_tokens),
        "voted": fit(items, "voted", "voted_correct", with_tokens + ["disagreement"]),
        "unvoted_without_tokens": fit(items, "unvoted", "first_correct", BASE_FEATURES),
        "voted_without_tokens": fit(items, "voted", "voted_correct", BASE_FEATURES + ["disagreement"]),
    }


def simulate(items, models, threshold, band, tokens=True):
    """Each question's (score, correct, wrote candidates) under the policy."""
    out = []
    unvoted = models["unvoted" if tokens else "unvoted_without_tokens"]
    voted = models["voted" if tokens else "voted_without_tokens"]
    for item in items:
        s0 = score(unvoted, item["unvoted"])
        if band[0] <= s0 < band[1] and "voted" in item:
            out.append((score(voted, item["voted"]), item["voted_correct"], True))
        else:
            out.append((s0, item["first_correct"], False))
    return out


def summary(results, threshold):
    n = len(results)
    high = [r for r in results if r[0] >= threshold]
    low = [r for r in results if r[0] < threshold]
    right = sum(r[1] for r in results)
    return {
        "n": n, "accuracy": right / n if n else 0, "low_share": len(low) / n if n else 0,
        "wrong_share": (n - right) / n if n else 0,
        "high_right": sum(r[1] for r in high) / len(high) if high else 1.0,
        "low_wrong": sum(not r[1] for r in low) / len(low) if low else 0.0,
        "voted_share": sum(r[2] for r in results) / n if n else 0, "high": len(high), "low": len(low),
    }


def curve(results):
    ordered = sorted(results, key=lambda r: r[0])
    points = []
    for percent in range(0, 100, 10):
        rest = ordered[round(len(ordered) * percent / 100):]
        points.append(f"{percent}%:{100 * sum(r[1] for r in rest) / len(rest):.0f}%" if rest else f"{percent}%:-")
    return " ".join(points)


def per_set(items, models, threshold, band, tokens=True):
    """The summary of each set under the policy."""
    names = sorted({item["set"] for item in items})
    return [summary(simulate([item for item in items if item["set"] == name], models, threshold, band, tokens), threshold)
            for name in names]


def choose(items, models, precision, low_ratio, min_vote_share):
    """The threshold and band whose high answers are right at least `precision` of the time on
    every set, with at most `low_ratio` answers marked low per answer wrong on the sets together
    (a set the model answers nearly all right has one or two wrong answers: a ratio on it alone is
    noise), with the fewest votes, then the fewest answers marked low. When no choice is that
    precise on every set: the one whose worst set's high answers are right most often. Either way
    the band holds the threshold and has at least `min_vote_share` of the answers vote: the dev
    sets are easier than a new database, where the vote is the evidence a wrong answer leaves
    most often."""
    best = None
    for threshold in [t / 100 for t in range(50, 96)]:
        for lower in [t / 100 for t in range(5, 96, 5)]:
            for upper in [t / 100 for t in range(5, 101, 5)] + [1.01]:
                # The band holds the threshold: a vote is for the answers near it, which it can move.
                if upper <= lower or not lower <= threshold < upper:
                    continue
                band = (lower, upper)
                stats = summary(simulate(items, models, threshold, band), threshold)
                if stats["voted_share"] < min_vote_share:
                    continue
                if stats["low_share"] > low_ratio * stats["wrong_share"] + 1e-9:
                    continue
                sets = per_set(items, models, threshold, band)
                worst = min(one["high_right"] for one in sets)
                key = (worst < precision, -min(worst, precision), round(stats["voted_share"], 3),
                       round(stats["low_share"], 3), -stats["accuracy"])
                if best is None or key < best[0]:
                    best = (key, threshold, band)
    return best


def choose_band_without_tokens(items, models, threshold, precision, low_ratio):
    """The vote band for answers without token log-probabilities, at the same threshold, judged as
    the threshold is (high right on every set, the share marked low on the sets together): the one
    that meets the goals with the fewest votes; else, of those that keep the share marked low, the
    one whose worst set's high answers are right most often; else the one whose worst set is most
    precise."""
    ranked = []
    for lower in [t / 100 for t in range(5, 96, 5)]:
        for upper in [t / 100 for t in range(5, 101, 5)] + [1.01]:
            if upper <= lower:
                continue
            worst = min(one["high_right"] for one in per_set(items, models, threshold, (lower, upper), tokens=False))
            stats = summary(simulate(items, models, threshold, (lower, upper), tokens=False), threshold)
            keeps_low = stats["low_share"] <= low_ratio * stats["wrong_share"] + 1e-9
            meets = keeps_low and worst >= precision
            key = (not meets, not keeps_low, round(stats["voted_share"], 3) if meets else -worst,
                   round(stats["low_share"], 3), -stats["accuracy"])
            ranked.append((key, (lower, upper)))
    return min(ranked)[1]


def swift_table(models, threshold, band, sets, band_without_tokens):
    def weights(model):
        parts = [f".{SWIFT_NAMES[name]}: {value:.4f}" for name, value in model["features"].items()]
        lines = []
        line = "            "
        for part in parts:
            if len(line) + len(part) + 2 > 118:
                lines.append(line.rstrip())
                line = "            "
            line += part + ", "
        lines.append(line.rstrip())
        return f"Weights(intercept: {model['intercept']:.4f}, features: [\n" + "\n".join(lines) + "\n        ])"
    def bounds(band):
        return f"{band[0]:.2f}..<" + ("1.01" if band[1] > 1 else f"{band[1]:.2f}")
    names = textwrap.wrap(f"({', '.join(sets)}), written by `Scripts/calibrate_confidence.py`.", 96, break_on_hyphens=False)
    doc = "\n".join(f"    /// {line}" for line in names)
    return f"""extension ConfidenceModel {{
    /// The weights fitted with the local Qwen2.5-Coder-1.5B on the development sets
{doc}
    package static let standard = ConfidenceModel(
        unvoted: {weights(models["unvoted"])},
        voted: {weights(models["voted"])},
        unvotedWithoutTokens: {weights(models["unvoted_without_tokens"])},
        votedWithoutTokens: {weights(models["voted_without_tokens"])},
        highThreshold: {threshold:.2f}, voteBand: {bounds(band)}, voteBandWithoutTokens: {bounds(band_without_tokens)})
}}
"""


def report(label, items, models, threshold, band, tokens=True):
    results = simulate(items, models, threshold, band, tokens)
    stats = summary(results, threshold)
    print(f"{label:22s} n={stats['n']:3d} acc {100 * stats['accuracy']:5.1f}%  low {100 * stats['low_share']:5.1f}% "
          f"(wrong {100 * stats['wrong_share']:5.1f}%)  high right {100 * stats['high_right']:5.1f}%  "
          f"low wrong {100 * stats['low_wrong']:5.1f}%  voted {100 * stats['voted_share']:5.1f}%")
    print(f"{'':22s} curve: {curve(results)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outputs", nargs="+")
    parser.add_argument("--candidates", type=int, default=3, help="the statements of a vote (the default of --llm-candidates)")
    parser.add_argument("--precision", type=float, default=0.88, help="the least share of high answers right, on the dev sets")
    parser.add_argument("--low-ratio", type=float, default=1.4, help="the most answers marked low per answer wrong")
    parser.add_argument("--min-vote-share", type=float, default=0.3,
                        help="the least share of the dev answers whose score puts them in the vote band")
    parser.add_argument("--swift", help="write the Swift table to this file")
    options = parser.parse_args()
    items = examples(load(options.outputs), options.candidates)
    if not items:
        raise SystemExit("no answered question in the files")
    models = fit_all(items)
    chosen = choose(items, models, options.precision, options.low_ratio, options.min_vote_share)
    if chosen is None:
        raise SystemExit("no threshold and band meet the goals on these sets")
    key, threshold, band = chosen
    print(f"threshold {threshold:.2f}, vote band [{band[0]:.2f}, {band[1]:.2f})"
          + (" (no choice meets the goals on every set: the worst set's high answers are right most often)" if key[0] else ""))
    for name, model in models.items():
        print(f"  {name}: " + ", ".join(f"{k} {v:+.2f}" for k, v in [("intercept", model["intercept"])] + list(model["features"].items())))
    print("\nIn-sample, per set and all:")
    for name in sorted({item["set"] for item in items}):
        report(name, [item for item in items if item["set"] == name], models, threshold, band)
    report("all", items, models, threshold, band)
    print("\nLeave one set out (weights, threshold and band fitted without it):")
    for name in sorted({item["set"] for item in items}):
        rest = [item for item in items if item["set"] != name]
        held = [item for item in items if item["set"] == name]
        fitted = fit_all(rest)
        again = choose(rest, fitted, options.precision, options.low_ratio, options.min_vote_share)
        if again is None:
            print(f"{name:22s} no choice meets the goals without it")
            continue
        report(name, held, fitted, again[1], again[2])
    band_without_tokens = choose_band_without_tokens(items, models, threshold, options.precision, options.low_ratio)
    print(f"\nWithout token log-probabilities (a provider that gives none), vote band "
          f"[{band_without_tokens[0]:.2f}, {band_without_tokens[1]:.2f}):")
    for name in sorted({item["set"] for item in items}):
        report(name, [item for item in items if item["set"] == name], models, threshold, band_without_tokens, tokens=False)
    report("all", items, models, threshold, band_without_tokens, tokens=False)
    if options.swift:
        with open(options.swift, "w") as file:
            file.write(swift_table(models, threshold, band, sorted({item["set"] for item in items}), band_without_tokens))
        print(f"\nwrote {options.swift}")


if __name__ == "__main__":
    sys.exit(main())
