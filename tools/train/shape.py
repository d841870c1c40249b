#!/usr/bin/env python3
"""The demo model's shapes, in one place (stdlib only; train.py,
export_gguf.py, device_run.sh and the size check read them).

usage: shape.py [NAME ...]               weights and file sizes of each shape
       shape.py --check NAME MODEL.gguf  exit 1 unless MODEL has shape NAME
       shape.py --fits MODEL.gguf        exit 1 if MODEL is over the size limit
       shape.py --fits NAME QUANT        exit 1 if the estimate is (before training)

"base" is the committed model's shape, for Q8_0 (34 bytes per 32 weights).
With tied embeddings:
  embedding  12,288 x 384                      =  4,718,592 weights
  per layer  q, o 384 x 384; k, v 384 x 128;
             gate, up, down 384 x 1,536        =  2,162,688 weights
  8 layers                                     = 17,301,504 weights
  total 22,020,096 weights -> 23,396,352 bytes of Q8_0, plus 46,592 bytes
  of f32 norms and biases and 408,768 of header and vocabulary: the
  committed file's 23,851,712 bytes, under the 25 MB it may hold.

"wide" is for Q4_K_M (sb quantize --type q4_k_m, mkmodel's placement:
mk__q4km_type in mkmodel/mkmodel.c). Q4_K stores 144 bytes per 256
weights, Q6_K 210; a matrix whose rows (n_embd, n_ff) are not whole
256-weight super-blocks falls back to Q5_0 / Q8_0, so both are multiples
of 256. The tied embedding is the LM head, hence Q6_K: 5.16 MB at d 512.
  embedding  12,288 x 512 (Q6_K)               =  6,291,456 weights
  per layer  q, o 512 x 512; k, v 512 x 128;
             gate, up, down 512 x 2,048 (Q4_K;
             attn_v, ffn_down Q6_K in layers
             0, 3, 6, 7: llama.cpp's more bits) =  3,801,088 weights
  8 layers                                     = 30,408,704 weights
  total 36,700,160 weights (1.67 x base) -> 23,414,784 bytes of matrices,
  23,882,944 with the vectors, header and vocabulary (measured: 23,883,008
  for a random-weight export through export_gguf.py and sb quantize). A ninth layer would be
  25.8 MB, n_ff 2,304 25.3 MB: over the limit.
"""
import os
import sys

SHAPES = {
    "base": {
        "n_vocab": 12288,        # tools/train/vocab.json: 12,285 BPE tokens + 3 specials
        "n_embd": 384,
        "n_layer": 8,
        "n_head": 6,             # head_dim 64
        "n_head_kv": 2,          # grouped-query attention, 3 query heads per KV head
        "n_ff": 1536,
        "n_ctx": 4096,           # training sequences are at most this long
        "rope_base": 10000.0,
        "rms_eps": 1e-6,
        "tied": True,
    },
    "wide": {
        "n_vocab": 12288,
        "n_embd": 512,           # 2 Q4_K super-blocks per row
        "n_layer": 8,
        "n_head": 8,             # head_dim 64, as base
        "n_head_kv": 2,          # 4 query heads per KV head
        "n_ff": 2048,            # 4 x n_embd, as base; 8 super-blocks per row
        "n_ctx": 4096,
        "rope_base": 10000.0,
        "rms_eps": 1e-6,
        "tied": True,
    },
}
DEFAULT = "base"
SHAPE = SHAPES[DEFAULT]  # the committed model's; train.py --shape picks another

LIMIT_BYTES = 25_000_000   # what the committed model file may hold
HEADER_BYTES = 408_768     # header and vocabulary of the committed file (sb info)
# bytes per block and weights per block (ggml's layouts, kernels/quant_layout.h)
BLOCK = {"f32": (4, 1), "q8_0": (34, 32), "q5_0": (22, 32), "q4_k": (144, 256),
         "q6_k": (210, 256)}
QUANTS = ("q8_0", "q4_k_m")


def get(name):
    """The shape called name; exits naming the known ones otherwise."""
    if name not in SHAPES:
        raise SystemExit("shape %r is unknown; known: %s" % (name, ", ".join(SHAPES)))
    return SHAPES[name]


def name_of(s):
    """The name of shape s, or None when it is none of SHAPES."""
    return next((n for n, v in SHAPES.items() if v == s), None)


def matrices(s):
    """(GGUF tensor name, row length ne0, rows ne1) of every weight matrix,
    as export_gguf.py writes them (dims [in, out])."""
    e, ff = s["n_embd"], s["n_ff"]
    kv = e // s["n_head"] * s["n_head_kv"]
    out = [("token_embd.weight", e, s["n_vocab"])]
    for il in range(s["n_layer"]):
        b = "blk.%d." % il
        out += [(b + "attn_q.weight", e, e), (b + "attn_k.weight", e, kv),
                (b + "attn_v.weight", e, kv), (b + "attn_output.weight", e, e),
                (b + "ffn_gate.weight", e, ff), (b + "ffn_up.weight", e, ff),
                (b + "ffn_down.weight", ff, e)]
    if not s["tied"]:
        out.append(("output.weight", e, s["n_vocab"]))
    return out


def n_weights(s=SHAPE):
    """(weights in matrices, weights in vectors: norms and q/k/v biases)."""
    e = s["n_embd"]
    kv = e // s["n_head"] * s["n_head_kv"]
    vectors = 3 * e + 2 * kv  # two norms, q/k/v biases
    return sum(r * n for _, r, n in matrices(s)), s["n_layer"] * vectors + e


def _more_bits(i, n):
    """llama.cpp's use_more_bits (mkmodel.c's mk__more_bits)."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def matrix_type(quant, name, ne0, s):
    """The type sb quantize gives a matrix (mk_matrix_type)."""
    if quant == "q8_0":
        return "q8_0"
    t = "q4_k"
    layer = int(name.split(".")[1]) if name.startswith("blk.") else -1
    if name == "output.weight" or (s["tied"] and name == "token_embd.weight"):
        t = "q6_k"
    elif name.endswith((".attn_v.weight", ".ffn_down.weight")) and \
            _more_bits(layer, s["n_layer"]):
        t = "q6_k"
    if ne0 % 256:
        t = "q5_0" if t == "q4_k" else "q8_0"
    return t


def tensor_bytes(s=SHAPE, quant="q8_0"):
    """Bytes of tensor data in a file quantized with quant (f32 vectors
    included; padding between tensors is none at these sizes)."""
    if quant not in QUANTS:
        raise SystemExit("quant %r is unknown; known: %s" % (quant, ", ".join(QUANTS)))
    total = 4 * n_weights(s)[1]
    for name, ne0, ne1 in matrices(s):
        size, per = BLOCK[matrix_type(quant, name, ne0, s)]
        total += ne0 // per * size * ne1
    return total


def file_bytes(s=SHAPE, quant="q8_0"):
    """The model file's estimated size: tensors plus the committed file's
    header and vocabulary (the vocabulary is the same in every shape)."""
    return tensor_bytes(s, quant) + HEADER_BYTES


def check_model(name, path):
    """None when the GGUF at path has shape name, else what differs."""
    import gguf_io as G
    s, kv = get(name), G.Reader(path).kv
    want = {"qwen2.block_count": s["n_layer"], "qwen2.embedding_length": s["n_embd"],
            "qwen2.feed_forward_length": s["n_ff"],
            "qwen2.attention.head_count": s["n_head"],
            "qwen2.attention.head_count_kv": s["n_head_kv"]}
    diff = ["%s %s (shape %s: %s)" % (k, kv.get(k, (0, "absent"))[1], name, v)
            for k, v in want.items() if kv.get(k, (0, None))[1] != v]
    return "; ".join(diff) or None


def describe(name):
    s = get(name)
    m, v = n_weights(s)
    sizes = ", ".join("%s %.2f MB" % (q, file_bytes(s, q) / 1e6) for q in QUANTS)
    return ("%s: d %d, %d layers, %d heads (kv %d), ffn %d: %d weights in matrices, "
            "%d in vectors; file (estimated) %s; limit %.1f MB" %
            (name, s["n_embd"], s["n_layer"], s["n_head"], s["n_head_kv"], s["n_ff"],
             m, v, sizes, LIMIT_BYTES / 1e6))


def main(argv):
    if argv[:1] == ["--fits"]:
        if len(argv) not in (2, 3):
            raise SystemExit("usage: shape.py --fits MODEL.gguf | --fits NAME QUANT")
        what = argv[1] if len(argv) == 2 else "shape %s at %s (estimated)" % tuple(argv[1:])
        size = (os.path.getsize(argv[1]) if len(argv) == 2 else
                file_bytes(get(argv[1]), argv[2]))
        print("%s: %d bytes, limit %d" % (what, size, LIMIT_BYTES))
        if size > LIMIT_BYTES:
            raise SystemExit("%s is %d bytes, over the %d the committed model may "
                             "hold" % (what, size, LIMIT_BYTES))
        return
    if argv[:1] == ["--check"]:
        if len(argv) != 3:
            raise SystemExit("usage: shape.py --check NAME MODEL.gguf")
        diff = check_model(argv[1], argv[2])
        if diff:
            raise SystemExit("%s is not shape %s: %s" % (argv[2], argv[1], diff))
        return
    for name in argv or list(SHAPES):
        print(describe(name))


if __name__ == "__main__":
    main(sys.argv[1:])
