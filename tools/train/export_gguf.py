#!/usr/bin/env python3
"""Writes a trained checkpoint as an F32 qwen2 GGUF the engine loads.

usage: export_gguf.py --ckpt DIR/ckpt.pt --tokenizer-model tok.gguf
                      --prompt-versions 1[,2] [--shape base] --out F32.gguf
       export_gguf.py --random --tokenizer-model tok.gguf
                      --prompt-versions 1[,2] [--shape base] --out F32.gguf
                      (stdlib only: seeded random weights, to test the
                      writer, the file's size once quantized and the
                      engine's loader without PyTorch)

--shape names one of shape.py's shapes (default base); a checkpoint must
have been trained at it (train.py --shape).

--prompt-versions lists the edit prompt versions the training data used
(1; 1,2 when some tasks were v2, make_data.py --v2), written as
sonicboom.edit_prompt_versions: the engine prompts with the highest one it
knows (edit_prompt_version_for, docs/gguf.md).

The tokenizer keys (tokenizer.*) are copied, with their types, from the
model `sb prompt` tokenized the training data with, so the exported model
splits text into exactly the ids it was trained on. Tensor names and
layouts are llama.cpp's for qwen2: a PyTorch Linear weight (out, in) is
stored as dims [in, out], row-major bytes unchanged; no permutation of
q/k (qwen2 uses NEOX RoPE, as the engine and transformers do).
Then: `sb quantize F32.gguf OUT.gguf --type q8_0`.
"""
import argparse
import array
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gguf_io as G  # noqa: E402
import shape as S  # noqa: E402

LAYER = {  # transformers name (after model.layers.N.) -> GGUF (after blk.N.)
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight",
    "self_attn.q_proj.bias": "attn_q.bias",
    "self_attn.k_proj.weight": "attn_k.weight",
    "self_attn.k_proj.bias": "attn_k.bias",
    "self_attn.v_proj.weight": "attn_v.weight",
    "self_attn.v_proj.bias": "attn_v.bias",
    "self_attn.o_proj.weight": "attn_output.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
}


def hf_shapes(s=S.SHAPE):
    """transformers parameter name -> shape (rows, cols), in file order."""
    e, ff = s["n_embd"], s["n_ff"]
    kv = e // s["n_head"] * s["n_head_kv"]
    out = [("model.embed_tokens.weight", (s["n_vocab"], e))]
    per = {"input_layernorm.weight": (e,), "self_attn.q_proj.weight": (e, e),
           "self_attn.q_proj.bias": (e,), "self_attn.k_proj.weight": (kv, e),
           "self_attn.k_proj.bias": (kv,), "self_attn.v_proj.weight": (kv, e),
           "self_attn.v_proj.bias": (kv,), "self_attn.o_proj.weight": (e, e),
           "post_attention_layernorm.weight": (e,), "mlp.gate_proj.weight": (ff, e),
           "mlp.up_proj.weight": (ff, e), "mlp.down_proj.weight": (e, ff)}
    for il in range(s["n_layer"]):
        out += [("model.layers.%d.%s" % (il, k), v) for k, v in per.items()]
    out.append(("model.norm.weight", (e,)))
    return out


def gguf_name(hf):
    if hf == "model.embed_tokens.weight":
        return "token_embd.weight"
    if hf == "model.norm.weight":
        return "output_norm.weight"
    if hf == "lm_head.weight":
        return "output.weight"
    _, _, il, rest = hf.split(".", 3)
    return "blk.%s.%s" % (il, LAYER[rest])


def metadata(tok, prompt_versions, s=S.SHAPE):
    kv = [("general.architecture", G.STRING, "qwen2"),
          ("general.name", G.STRING, "sonicboom-demo"),
          ("general.description", G.STRING, "SonicBoom's demo model: a small "
           "qwen2 trained on generated code-edit tasks (tools/train/README.md)"),
          ("general.alignment", G.U32, 32),
          ("general.file_type", G.U32, 0),
          ("qwen2.block_count", G.U32, s["n_layer"]),
          ("qwen2.context_length", G.U32, s["n_ctx"]),
          ("qwen2.embedding_length", G.U32, s["n_embd"]),
          ("qwen2.feed_forward_length", G.U32, s["n_ff"]),
          ("qwen2.attention.head_count", G.U32, s["n_head"]),
          ("qwen2.attention.head_count_kv", G.U32, s["n_head_kv"]),
          ("qwen2.rope.freq_base", G.F32, s["rope_base"]),
          ("qwen2.attention.layer_norm_rms_epsilon", G.F32, s["rms_eps"]),
          # int32, as mkmodel writes it: sb quantize copies int32 arrays
          ("sonicboom.edit_prompt_versions", G.ARRAY, (G.I32, prompt_versions))]
    for key, (t, v) in tok.kv.items():
        if key.startswith("tokenizer."):
            kv.append((key, t, v))
    tokens = tok.kv["tokenizer.ggml.tokens"][1][1]
    if len(tokens) != s["n_vocab"]:
        raise SystemExit("export: the tokenizer model has %d tokens, shape.py "
                         "says %d" % (len(tokens), s["n_vocab"]))
    return kv


def parse_versions(text):
    """"1" or "1,2" -> [1, 2]: versions 1..31 (engine/model.c's bounds)."""
    try:
        versions = sorted({int(v) for v in text.split(",")})
    except ValueError:
        versions = []
    if not versions or not all(1 <= v <= 31 for v in versions):
        raise SystemExit("export: --prompt-versions %r: expected versions 1..31 "
                         "separated by commas, e.g. 1,2" % text)
    return versions


def tensors_from_ckpt(path, s=S.SHAPE):
    import torch
    ck = torch.load(path, map_location="cpu", weights_only=False)
    if ck["shape"] != s:
        raise SystemExit("export: the checkpoint's shape (%s) is not --shape %s"
                         % (S.name_of(ck["shape"]) or ck["shape"], S.name_of(s)))
    sd = ck["state_dict"]
    out = []
    for name, shp in hf_shapes(s):
        t = sd[name].detach().to(torch.float32).contiguous()
        if tuple(t.shape) != shp:
            raise SystemExit("export: %s has shape %s, expected %s" % (name, tuple(t.shape), shp))
        out.append((gguf_name(name), list(reversed(shp)), t.numpy().tobytes()))
    if not s["tied"]:
        t = sd["lm_head.weight"].to(torch.float32).contiguous()
        out.append(("output.weight", list(reversed(t.shape)), t.numpy().tobytes()))
    return out


def tensors_random(s=S.SHAPE, seed=1):
    """Weights like a freshly initialised model: N(0, 0.02), norms 1,
    biases 0 (stdlib only)."""
    rng = random.Random(seed)
    out = []
    for name, shp in hf_shapes(s):
        n = 1
        for d in shp:
            n *= d
        if len(shp) == 1:
            v = array.array("f", [1.0 if "norm" in name else 0.0]) * n
        else:
            v = array.array("f", (rng.gauss(0, 0.02) for _ in range(n)))
        if sys.byteorder != "little":
            v.byteswap()
        out.append((gguf_name(name), list(reversed(shp)), v.tobytes()))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt")
    ap.add_argument("--random", action="store_true")
    ap.add_argument("--tokenizer-model", required=True)
    ap.add_argument("--prompt-versions", required=True,
                    help="edit prompt versions of the training data: 1, or 1,2")
    ap.add_argument("--shape", default=S.DEFAULT, help="shape.py's name: %s" % ", ".join(S.SHAPES))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if bool(args.ckpt) == args.random:
        ap.error("give exactly one of --ckpt and --random")
    versions = parse_versions(args.prompt_versions)
    s = S.get(args.shape)
    tok = G.Reader(args.tokenizer_model)
    tensors = tensors_random(s) if args.random else tensors_from_ckpt(args.ckpt, s)
    G.write(args.out, metadata(tok, versions, s), tensors)
    print("export: %d tensors, edit prompt versions %s -> %s (%d bytes)" %
          (len(tensors), ",".join(map(str, versions)), args.out, os.path.getsize(args.out)))


if __name__ == "__main__":
    main()
