#!/usr/bin/env python3
"""A subset of Qwen2.5's byte-level BPE vocabulary for the demo model
(stdlib only; tokenizes with the engine itself through `sb tokenize`).

usage: build_vocab.py --sb build/sb --tokenizer build/tokref/tokenizer.json
                      --corpus DIR/corpus.jsonl.gz --tasks TASKS.jsonl
                      --size 12288 --out tools/train/vocab.json

1. Encodes the training text (the corpus's train chunks, and the
   instructions and edited files of a task sample) with the full Qwen
   vocabulary, using a throwaway `sb mkmodel --vocab` model, and counts how
   often each token is used.
2. Keeps all 256 byte tokens, then tokens by falling count, each with the
   tokens of the merge that makes it (recursively), until size - 3 tokens
   are kept; then <|endoftext|>, <|im_start|>, <|im_end|>.
3. Keeps every merge whose two halves and result are all kept, in Qwen's
   order (so ranks keep their relative order), and renumbers the tokens
   densely in Qwen's id order. Every merge's halves and result are tokens of
   the subset, so the engine's BPE (tokenizer/bpe.c) and Hugging Face's apply
   to it unchanged; the text a merge was dropped from simply stays in
   smaller pieces.
4. Writes a tokenizer.json with Qwen's normalizer, pre-tokenizer and
   decoder, and reports characters per token before and after.
"""
import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
SYSTEM_TEXT = ("You are a precise code editor. You are given an instruction and "
               "the complete text of a file.")


def training_text(corpus, tasks):
    parts = [SYSTEM_TEXT]
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["split"] == "train":
                parts.append(r["text"])
    with open(tasks, encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            parts.append(t["instruction"])
            parts.append(t["edited"])
    return "\n\n".join(parts)


def sb_ids(sb, model, text):
    out = subprocess.run([sb, "tokenize", "-m", model, "--no-special"],
                         input=text.encode("utf-8"), capture_output=True, check=True)
    return [int(x) for x in out.stdout.split()]


def make_model(sb, tokenizer_json, path):
    subprocess.run([sb, "mkmodel", "--shape", "tiny", "--quant", "q8_0", "--quiet",
                    "--vocab", tokenizer_json, "-o", path], check=True)


def merge_pairs(merges):
    for m in merges:
        yield tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1))


def choose(full, counts, size):
    vocab = full["model"]["vocab"]
    by_id = {i: t for t, i in vocab.items()}
    maker = {}
    for a, b in merge_pairs(full["model"]["merges"]):
        maker.setdefault(a + b, (a, b))
    # the 256 single-byte tokens: the tokens no merge makes
    keep = {t for t in vocab if t not in maker and len(t) == 1}
    assert len(keep) == 256, len(keep)
    want = size - len(SPECIALS)

    def add(t):
        stack = [t]
        while stack:
            x = stack.pop()
            if x in keep:
                continue
            keep.add(x)
            stack.extend(maker[x])

    for i, _ in counts.most_common():
        t = by_id.get(i)
        if t is None or t in keep or t not in maker:
            continue
        need, stack, seen = 0, [t], set()
        while stack:  # how many tokens t brings in with its makers
            x = stack.pop()
            if x in keep or x in seen:
                continue
            seen.add(x)
            need += 1
            stack.extend(maker[x])
        if len(keep) + need <= want:
            add(t)
        if len(keep) >= want:
            break
    return keep


def write_subset(full, keep, out):
    vocab = full["model"]["vocab"]
    order = sorted(keep, key=lambda t: vocab[t])
    new_vocab = {t: i for i, t in enumerate(order)}
    merges = [m for m in full["model"]["merges"]
              if all(x in keep for x in merge_pairs([m]).__next__()) and
              "".join(merge_pairs([m]).__next__()) in keep]
    added = []
    for k, name in enumerate(SPECIALS):
        src = next(a for a in full["added_tokens"] if a["content"] == name)
        added.append(dict(src, id=len(order) + k))
    sub = dict(full)
    sub["added_tokens"] = added
    sub["model"] = dict(full["model"], vocab=new_vocab, merges=merges)
    sub["post_processor"] = full.get("post_processor")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(sub, f, ensure_ascii=False, separators=(",", ":"))
    os.replace(out + ".tmp", out)
    return len(order) + len(added), len(merges)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sb", required=True)
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--size", type=int, default=12288)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.size % 64:
        sys.exit("build_vocab: --size %d is not a multiple of 64 (the engine's "
                 "embedding rows are)" % args.size)
    full = json.load(open(args.tokenizer, encoding="utf-8"))
    text = training_text(args.corpus, args.tasks)
    with tempfile.TemporaryDirectory() as tmp:
        make_model(args.sb, args.tokenizer, os.path.join(tmp, "full.gguf"))
        ids = sb_ids(args.sb, os.path.join(tmp, "full.gguf"), text)
        keep = choose(full, collections.Counter(ids), args.size)
        n, n_merges = write_subset(full, keep, args.out)
        make_model(args.sb, args.out, os.path.join(tmp, "sub.gguf"))
        sub_ids = sb_ids(args.sb, os.path.join(tmp, "sub.gguf"), text)
    used = len(set(sub_ids))
    print("vocab: %d tokens, %d merges -> %s" % (n, n_merges, args.out))
    print("  %d chars: %.3f chars/token with Qwen's %d tokens, %.3f with the "
          "subset (%d of its tokens used)" % (len(text), len(text) / len(ids),
          len(full["model"]["vocab"]), len(text) / len(sub_ids), used))


if __name__ == "__main__":
    main()
