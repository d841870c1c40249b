#!/usr/bin/env python3
"""What a training set costs per batch, on the CPU (numpy; no PyTorch).

usage: batch_stats.py --ids shard.*.bin [--seed 1234] [--tokens-per-batch 65536]
                      [--positions-per-s N] [--peak-tflops 989] [--shape base]

For `sb prompt --tasks` ids (what device_run.sh trains on): the share of
real (unpadded) positions in train.py's length-bucketed batches and in
packed.py's packed rows, and the model FLOPs (forward + backward) per
position. With --positions-per-s, a run's recorded rate (train_summary's
tokens / seconds, which count padded positions), it prints that run's real
tokens per second and MFU: so a run made before train.py logged MFU gets
its number from its own data.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shape as S  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--tokens-per-batch", type=int, default=65536)
    ap.add_argument("--shape", default=S.DEFAULT, help="shape.py's name: %s" % ", ".join(S.SHAPES))
    ap.add_argument("--max-len", type=int, help="default: the shape's n_ctx")
    ap.add_argument("--positions-per-s", type=float)
    ap.add_argument("--peak-tflops", type=float, default=989.0)
    args = ap.parse_args()
    shape = S.get(args.shape)
    args.max_len = args.max_len or shape["n_ctx"]
    import train
    from batches import flops_per_step, pack_rows

    ex = [e for p in args.ids for e in train.read_ids(p)
          if len(e[0]) + len(e[1]) <= args.max_len]
    lens = [len(p) + len(a) for p, a in ex]
    answers = [len(a) for _, a in ex]
    print("tasks %d, mean length %.0f tokens, answers %.1f%% of tokens"
          % (len(ex), sum(lens) / len(ex), 100 * sum(answers) / sum(lens)))
    batches = train.make_batches(ex, args.tokens_per_batch, random.Random(args.seed))
    padded = real = 0
    flops = 0.0
    for idx in batches:
        n = [lens[i] for i in idx]
        padded += (max(n) + 63) // 64 * 64 * len(idx)
        real += sum(n)
        flops += flops_per_step(shape, n, sum(answers[i] for i in idx))
    order = list(range(len(ex)))
    random.Random(args.seed).shuffle(order)
    rows = pack_rows(lens, order, args.max_len)
    print("buckets: %.1f%% of positions real; packed rows of %d: %.1f%% real"
          % (100 * real / padded, args.max_len, 100 * sum(lens) / (len(rows) * args.max_len)))
    print("model FLOPs (fwd + bwd): %.3e per real token, %.3e per bucketed position"
          % (flops / real, flops / padded))
    if args.positions_per_s:
        r = args.positions_per_s
        print("at %.0f bucketed positions/s: %.0f real tokens/s, MFU %.1f%% of %g TFLOP/s"
              % (r, r * real / padded, 100 * r * flops / padded / (args.peak_tflops * 1e12),
                 args.peak_tflops))


if __name__ == "__main__":
    main()
