#!/usr/bin/env python3
"""Two models' logits through the engine itself (sb logits --prompt-logits),
on the CPU, with numpy only: how far apart they are, and the held-out score.

usage: engine_logits.py agree --sb SB --ids IDS.bin --tasks I[,J...] A.gguf B.gguf
       engine_logits.py exact --sb SB --ids IDS.bin --tasks-jsonl T.jsonl
                              [--max N] MODEL.gguf

IDS.bin is what `sb prompt --tasks` writes (SBTOK001: prompt and answer
ids per task). Each sequence is a task's prompt and answer, every position
scored, as a teacher-forced pass sees it.

agree: for each task named, the largest and mean |A - B| over all
positions and the vocabulary, and the positions whose argmax differs, with
A's gap between its top two logits there (a difference at a small gap is a
near-tie, not a different model). widen.py's check: A the base model in
F32, B the widened one (tools/train/README.md, "Comparing shapes").

exact: train.py's held-out score (a task counts when the argmax at every
answer position is the answer's token; the mean cross-entropy over answer
tokens) of MODEL as the engine runs it, quantization included, over the
first N tasks of at most 4,096 tokens (train.py's --eval-max and n_ctx).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import read_ids  # noqa: E402  (numpy only)

N_CTX = 4096


def engine_logits(sb, model, ids, work):
    """(len(ids), n_vocab) float32: row t is the logits after ids[:t+1]."""
    with open(os.path.join(work, "ids.json"), "w") as f:
        json.dump([int(i) for i in ids], f)
    prefix = os.path.join(work, "out")
    run = subprocess.run([sb, "logits", "-m", model, "--ids-in", f.name, "--prompt-logits",
                          "-o", prefix], capture_output=True, text=True)
    if run.returncode:
        raise SystemExit("sb logits on %s failed:\n%s" % (model, run.stderr))
    rows = np.fromfile(prefix + ".bin", "<f4").reshape(len(ids), -1)
    os.remove(prefix + ".bin")
    return rows


def agree(args, tasks, work):
    total = same = 0
    worst = 0.0
    for i in args.tasks:
        prompt, answer = tasks[i]
        ids = np.concatenate([prompt, answer])
        a = engine_logits(args.sb, args.models[0], ids, work)
        b = engine_logits(args.sb, args.models[1], ids, work)
        diff = np.abs(a - b)
        differ = np.nonzero(a.argmax(1) != b.argmax(1))[0]
        top2 = np.sort(a[differ], 1)[:, -2:]
        gaps = ", ".join("%.3g" % g for g in top2[:, 1] - top2[:, 0])
        print("task %d: %d positions (prompt %d): max |A-B| %.3g, mean %.3g, max |A| %.1f; "
              "argmax differs at %d%s" % (i, len(ids), len(prompt), diff.max(), diff.mean(),
                                          np.abs(a).max(), len(differ),
                                          " (A's top-2 gaps %s)" % gaps if len(differ) else ""))
        total += len(ids)
        same += len(ids) - len(differ)
        worst = max(worst, float(diff.max()))
    print("all: %d positions, argmax agrees at %d (%.2f%%), max |A-B| %.3g"
          % (total, same, 100 * same / total, worst))


def exact(args, tasks, work):
    kinds = [json.loads(line)["kind"] for line in open(args.tasks_jsonl, encoding="utf-8")]
    keep = [i for i, (p, a) in enumerate(tasks) if len(p) + len(a) <= N_CTX][:args.max]
    hits, loss, n_tok, per_kind = 0, 0.0, 0, {}
    for i in keep:
        prompt, answer = tasks[i]
        # the last answer token is only a target
        rows = engine_logits(args.sb, args.models[0],
                             np.concatenate([prompt, answer[:-1]]), work)
        lg = rows[len(prompt) - 1:].astype(np.float64)
        tgt = np.asarray(answer, np.int64)
        ok = bool((lg.argmax(1) == tgt).all())
        top = lg.max(1)
        lse = np.log(np.exp(lg - top[:, None]).sum(1)) + top
        loss += float((lse - lg[np.arange(len(tgt)), tgt]).sum())
        n_tok += len(tgt)
        hits += ok
        h, n = per_kind.get(kinds[i], (0, 0))
        per_kind[kinds[i]] = (h + ok, n + 1)
    print(json.dumps({"model": args.models[0], "tasks": len(keep),
                      "exact_match": hits / max(1, len(keep)),
                      "answer_loss": loss / max(1, n_tok),
                      "per_kind": {k: {"exact": h, "tasks": n}
                                   for k, (h, n) in sorted(per_kind.items())}}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("agree", "exact"))
    ap.add_argument("models", nargs="+")
    ap.add_argument("--sb", default="build/sb")
    ap.add_argument("--ids", required=True, help="SBTOK001 (sb prompt --tasks)")
    ap.add_argument("--tasks", type=lambda t: [int(i) for i in t.split(",")],
                    help="agree: task numbers, e.g. 0,6")
    ap.add_argument("--tasks-jsonl", help="exact: the tasks' JSONL (their kinds)")
    ap.add_argument("--max", type=int, default=300, help="exact: tasks scored")
    args = ap.parse_args()
    if args.mode == "agree" and (len(args.models) != 2 or not args.tasks):
        ap.error("agree: two models and --tasks")
    if args.mode == "exact" and (len(args.models) != 1 or not args.tasks_jsonl):
        ap.error("exact: one model and --tasks-jsonl")
    tasks = read_ids(args.ids)
    with tempfile.TemporaryDirectory() as work:
        (agree if args.mode == "agree" else exact)(args, tasks, work)


if __name__ == "__main__":
    main()
