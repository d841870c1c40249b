#!/usr/bin/env python3
"""Reference logits of the trained demo model, for
tests/engine/test_trained_ref.c (GPU machine: PyTorch, transformers, numpy).

usage: trained_ref.py MODEL.gguf IDS.bin OUT.bin [WEIGHTS.gguf]

MODEL.gguf is the committed model; IDS.bin is `sb prompt --tasks
tools/train/ref_tasks.jsonl` output (each task's prompt then its gold
answer, teacher-forced). WEIGHTS.gguf, when given, is MODEL widened by
`sb quantize MODEL WEIGHTS --type f32` (the engine's own dequantization):
the weights are read from it, so a Q4_K_M model works although the reader
here knows only F32, F16 and Q8_0; the hash is still MODEL's. The weights
are dequantized into transformers' Qwen2ForCausalLM in float64
(tools/reference_logits.py does the loading and the emulation), and every
position is run twice:

  exact     float64 throughout;
  emulated  float64 with the engine's deliberate roundings: fp16 K/V and
            int8 activation blocks before every matmul.

A full vocabulary of logits per position would be 48 KB, so the file keeps,
for every position, the top-1 id, the top-1 and top-2 logits and the
largest |logit| of both runs, and full vectors of both at four positions
per task (mid-prompt, the first answer token, mid-answer, <|im_end|>).

Format (little-endian): "SBTRF001", the SHA-256 of the model's tensor data
(64 hex digits, as test_reference hashes it), u32 n_tasks, u32 n_vocab;
per task: u32 n_tokens, u32 n_prompt, i32 ids[n_tokens], then for the
exact run and the emulated run: i32 top1[n_tokens], f32 first[n_tokens],
f32 second[n_tokens], f32 scale[n_tokens]; then u32 n_full, and per full
position u32 pos, f32 exact[n_vocab], f32 emulated[n_vocab].
"""
import hashlib
import os
import struct
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import reference_logits as R  # noqa: E402
from train import read_ids  # noqa: E402


def logits_of(model, ids):
    with torch.no_grad():
        return model(torch.tensor([ids]), use_cache=False).logits[0].numpy()


def summary(lg):
    top = np.argsort(-lg, axis=1)[:, :2]
    rows = np.arange(lg.shape[0])
    return (top[:, 0].astype(np.int32), lg[rows, top[:, 0]].astype(np.float32),
            lg[rows, top[:, 1]].astype(np.float32),
            np.abs(lg).max(axis=1).astype(np.float32))


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit("usage: trained_ref.py MODEL.gguf IDS.bin OUT.bin [WEIGHTS.gguf]")
    model_path, ids_path, out = sys.argv[1:4]
    g = R.Gguf(model_path)
    sha = hashlib.sha256(g.buf[g.data:]).hexdigest()
    tasks = [(list(map(int, p)), list(map(int, a))) for p, a in read_ids(ids_path)]
    model = R.build_model(R.Gguf(sys.argv[4]) if len(sys.argv) == 5 else g)
    exact = [logits_of(model, p + a) for p, a in tasks]
    handles, original_rope = R.emulate_engine(model, quantized=True)
    emulated = [logits_of(model, p + a) for p, a in tasks]
    for h in handles:
        h.remove()
    R.modeling_qwen2.apply_rotary_pos_emb = original_rope
    n_vocab = exact[0].shape[1]
    with open(out + ".tmp", "wb") as f:
        f.write(b"SBTRF001" + sha.encode() + struct.pack("<II", len(tasks), n_vocab))
        for (p, a), ex, em in zip(tasks, exact, emulated):
            ids = p + a
            f.write(struct.pack("<II", len(ids), len(p)))
            f.write(np.asarray(ids, np.int32).tobytes())
            for lg in (ex, em):
                for arr in summary(lg):
                    f.write(arr.tobytes())
            n = len(ids)
            full = sorted({len(p) // 2, len(p) - 1, len(p) - 1 + len(a) // 2, n - 2})
            f.write(struct.pack("<I", len(full)))
            for pos in full:
                f.write(struct.pack("<I", pos))
                f.write(ex[pos].astype(np.float32).tobytes())
                f.write(em[pos].astype(np.float32).tobytes())
            agree = float((summary(ex)[0] == summary(em)[0]).mean())
            print("trained_ref: task of %d tokens, exact vs emulated top-1 agree "
                  "on %.4f of positions" % (n, agree))
    os.replace(out + ".tmp", out)
    print("trained_ref: %s (weights sha256 %s) -> %s" % (model_path, sha, out))


if __name__ == "__main__":
    main()
