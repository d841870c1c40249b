#!/usr/bin/env python3
"""Widens a trained model into a larger shape that computes the same function.

usage: widen.py --in BASE-F32.gguf --out WIDE-F32.gguf [--from base] [--to wide]
                [--seed 1234] [--std 0.02]
       widen.py --check --in BASE.gguf [--from base] [--to wide]
                (only the shapes: the file's metadata, any quantization;
                device_run.sh checks INIT=widen before its work)

BASE-F32.gguf is a model of shape --from in F32 (`sb quantize IN OUT --type
f32` widens the committed Q8_0 file); WIDE-F32.gguf is written in F32 at
shape --to, with the tensor names, layouts and metadata of export_gguf.py
(the source's keys, the shape's five changed), so `sb quantize` and
`train.py --init` read it. numpy only.

The widened model's logits are the base model's (up to float rounding:
the comparison is in tools/train/README.md, "Comparing shapes"), so a run
continues from what the base model learned with more room to learn more.
Everything new either multiplies a zero or is multiplied into a zero:

- residual width E -> E': the new dims of the embedding (tied: also the
  LM head) are 0, and every weight that writes into the residual stream
  (attn_output, ffn_down) has zero rows there, so the new dims stay 0 in
  every layer and add nothing to the logits;
- RMSNorm: with the new dims 0, mean(x^2) over E' is E/E' of the old one,
  which scales every normalized vector by sqrt(E'/E); each norm weight
  (attn_norm, ffn_norm, output_norm) is multiplied by sqrt(E/E') on the old
  dims to undo it. The only difference left is the epsilon, in effect
  eps * E'/E instead of eps (1e-6 against mean squares near 1: below float
  rounding). The new dims' norm weights get the mean of the compensated old
  ones: they multiply zeros at first, but a zero there would also zero the
  gradient into those dims for good (the norm's output there is w * x / rms
  and its gradient flows back through w);
- weights that read the residual (attn_q, attn_k, attn_v, ffn_gate,
  ffn_up) get small random columns for the new input dims (N(0, --std), a
  fresh model's initialisation): they read zeros now and learn once the
  dims carry something;
- attention heads: query head h reads KV head h // (n_head / n_head_kv)
  (kernels/cpu/forward.c's attention groups; transformers' repeat_kv), so
  old head h of group g goes to new head g * new_group + h % old_group and
  each group's extra heads come after its old ones (base -> wide: 0,1,2 ->
  0,1,2 and 3,4,5 -> 4,5,6; new heads 3 and 7). A new head has random q
  rows and zero q bias, and zero columns in attn_output, so it adds nothing
  yet but its output projection gets a gradient. K and V keep their heads
  (same n_head_kv and head size); only their input columns widen;
- FFN width F -> F': new hidden units have random gate and up rows and
  zero ffn_down columns, for the same reason.

Limits: the same number of layers, head size, KV heads and vocabulary;
each width at least the old one.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gguf_io as G  # noqa: E402
import shape as S  # noqa: E402
from export_gguf import gguf_name, hf_shapes  # noqa: E402

SHAPE_KEYS = {"qwen2.block_count": "n_layer", "qwen2.embedding_length": "n_embd",
              "qwen2.feed_forward_length": "n_ff", "qwen2.attention.head_count": "n_head",
              "qwen2.attention.head_count_kv": "n_head_kv"}


def head_dim(s):
    return s["n_embd"] // s["n_head"]


def check_pair(a, b):
    """Exits unless shape b can hold shape a's function (see Limits)."""
    same = ("n_layer", "n_head_kv", "n_vocab", "tied", "rope_base", "rms_eps")
    bad = [k for k in same if a[k] != b[k]]
    if head_dim(a) != head_dim(b):
        bad.append("head size")
    bad += [k for k in ("n_embd", "n_ff", "n_head") if b[k] < a[k]]
    if bad:
        raise SystemExit("widen: shape %s cannot hold shape %s (%s differ or shrink)"
                         % (S.name_of(b), S.name_of(a), ", ".join(bad)))


def head_map(a, b):
    """New index of each old query head: the same KV group, the group's
    old heads first."""
    ga, gb = a["n_head"] // a["n_head_kv"], b["n_head"] // b["n_head_kv"]
    return [h // ga * gb + h % ga for h in range(a["n_head"])]


class Widener:
    """Builds shape b's tensors (transformers layout: (out, in)) from
    shape a's."""

    def __init__(self, a, b, rng, std):
        self.a, self.b, self.rng, self.std = a, b, rng, std
        self.norm_scale = np.float32(np.sqrt(a["n_embd"] / b["n_embd"]))
        hd = head_dim(a)
        # old query rows -> new query rows, as index arrays
        self.q_old = np.arange(a["n_head"] * hd)
        self.q_new = np.concatenate([np.arange(hd) + n * hd for n in head_map(a, b)])

    def random(self, rows, cols):
        return self.rng.normal(0.0, self.std, (rows, cols)).astype(np.float32)

    def norm(self, w):
        """Old dims compensated for the wider mean; new dims their mean."""
        out = np.empty(self.b["n_embd"], np.float32)
        out[:len(w)] = w * self.norm_scale
        out[len(w):] = out[:len(w)].mean()
        return out

    def reader(self, w, out_rows, out_index=None):
        """A weight reading the residual: old values in place (rows moved
        by out_index), random everywhere else (new rows, new input dims)."""
        out = self.random(out_rows, self.b["n_embd"])
        rows = np.arange(w.shape[0]) if out_index is None else out_index
        out[rows, :w.shape[1]] = w
        return out

    def writer(self, w, in_cols, in_index=None):
        """A weight writing into the residual: old values in place (columns
        moved by in_index), zero everywhere else (new rows, new inputs)."""
        out = np.zeros((self.b["n_embd"], in_cols), np.float32)
        cols = np.arange(w.shape[1]) if in_index is None else in_index
        out[:w.shape[0], cols] = w
        return out

    def tensor(self, name, w):
        """Shape b's tensor called name (transformers' name) from shape a's w."""
        b = self.b
        e, ff, q_dim = b["n_embd"], b["n_ff"], b["n_head"] * head_dim(b)
        if name == "model.embed_tokens.weight":
            out = np.zeros((w.shape[0], e), np.float32)
            out[:, :w.shape[1]] = w
            return out
        if name.endswith("norm.weight"):
            return self.norm(w)
        if name.endswith("q_proj.weight"):
            return self.reader(w, q_dim, self.q_new)
        if name.endswith("q_proj.bias"):
            out = np.zeros(q_dim, np.float32)
            out[self.q_new] = w
            return out
        if name.endswith(("k_proj.weight", "v_proj.weight")):
            return self.reader(w, w.shape[0])
        if name.endswith(("k_proj.bias", "v_proj.bias")):
            return np.array(w, np.float32)
        if name.endswith("o_proj.weight"):
            return self.writer(w, q_dim, self.q_new)
        if name.endswith(("gate_proj.weight", "up_proj.weight")):
            return self.reader(w, ff)
        if name.endswith("down_proj.weight"):
            return self.writer(w, ff)
        raise SystemExit("widen: no rule for tensor %s" % name)


def metadata(src, b):
    """The source's keys in its order, the shape's five set to shape b."""
    out = []
    for key, (t, v) in src.kv.items():
        if key in SHAPE_KEYS:
            v = b[SHAPE_KEYS[key]]
        out.append((key, t, v))
    return out


def check_source(src, path, a):
    """Exits unless the GGUF read as src has shape a."""
    diff = [k for k, f in SHAPE_KEYS.items() if src.kv.get(k, (0, None))[1] != a[f]]
    if diff:
        raise SystemExit("widen: %s is not shape %s (%s)" % (path, S.name_of(a), ", ".join(diff)))


def widen(src_path, dst_path, a, b, seed, std):
    src = G.Reader(src_path)
    check_source(src, src_path, a)
    wd = Widener(a, b, np.random.default_rng(seed), std)
    new_shapes = dict(hf_shapes(b))
    tensors = []
    for name, shp in hf_shapes(a):
        w = np.asarray(src.tensor_f32(gguf_name(name)), np.float32)
        if tuple(w.shape) != shp:
            raise SystemExit("widen: %s has shape %s, expected %s" % (gguf_name(name), w.shape, shp))
        out = np.ascontiguousarray(wd.tensor(name, w), dtype="<f4")
        assert tuple(out.shape) == new_shapes[name], (name, out.shape)
        tensors.append((gguf_name(name), list(reversed(out.shape)), out.tobytes()))
    G.write(dst_path, metadata(src, b), tensors)
    return len(tensors)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--in", dest="src", required=True, help="F32 GGUF of shape --from")
    ap.add_argument("--out", help="the F32 GGUF of shape --to")
    ap.add_argument("--check", action="store_true",
                    help="only check that --in has shape --from and --to can hold it")
    ap.add_argument("--from", dest="frm", default="base", help="default base")
    ap.add_argument("--to", default="wide", help="default wide")
    ap.add_argument("--seed", type=int, default=1234, help="of the new random weights")
    ap.add_argument("--std", type=float, default=0.02,
                    help="of the new random weights (default 0.02, a fresh model's)")
    args = ap.parse_args()
    a, b = S.get(args.frm), S.get(args.to)
    check_pair(a, b)
    if args.check:
        check_source(G.Reader(args.src), args.src, a)
        print("widen: %s is shape %s, which shape %s can hold" % (args.src, args.frm, args.to))
        return
    if not args.out:
        ap.error("--out is needed (unless --check)")
    n = widen(args.src, args.out, a, b, args.seed, args.std)
    print("widen: %s (shape %s) -> %s (shape %s): %d tensors, heads %s -> %s of %d, "
          "%d bytes" % (args.src, args.frm, args.out, args.to, n,
                        ",".join(map(str, range(a["n_head"]))),
                        ",".join(map(str, head_map(a, b))), b["n_head"],
                        os.path.getsize(args.out)))


if __name__ == "__main__":
    main()
