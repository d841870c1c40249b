#!/usr/bin/env python3
"""Reference logits for the CPU engine's correctness test (run once, on the
device machine, where PyTorch and transformers are installed).

It loads a synthetic qwen2 GGUF made by `sb mkmodel` (F32 or Q8_0 tensors),
dequantizes the weights with numpy, puts them into transformers'
Qwen2ForCausalLM in float64, and records the logits of every position of a
few prompts. Two references are written per model:

  exact     plain float64 transformers: the model as a mathematician sees it.
  emulated  the same float64 model with the engine's deliberate roundings
            applied at the same points: keys (after RoPE) and values rounded
            to fp16 as the KV cache stores them, and, for quantized weights,
            each matmul input quantized per 32 elements to int8 exactly as
            krn_quantize_act does. What remains between the engine and this
            reference is fp32-vs-fp64 arithmetic only.

Output format (little-endian), read by tests/engine/test_reference.c:
  magic "SBREF002", the SHA-256 of the model's tensor data section (from the
  aligned start of the data to the end of the file: the weights alone, so a
  change of tokenizer metadata does not invalidate the logits; 64 ascii hex),
  u32 n_prompts, then per
  prompt: u32 n_tokens, i32 ids[n_tokens], u32 n_vocab,
  f32 logits[n_tokens][n_vocab].

usage: reference_logits.py MODEL.gguf OUT_PREFIX
  writes OUT_PREFIX.exact.bin and OUT_PREFIX.emulated.bin
Python is for this one-off tool only; nothing at build or run time uses it.
"""
import hashlib
import struct
import sys

import numpy as np
import torch
import transformers
from transformers.models.qwen2 import modeling_qwen2

# Prompts as text; the built-in byte-level vocabulary maps byte b to id b.
PROMPTS = [
    "def add(a, b):\n    return a + b\n",
    "int main(void) { return 0; }",
    "The quick brown fox jumps over the lazy dog.",
    "\u00e9t\u00e9 \u2192 \u6f22\u5b57 \U0001f600",
]

F32, F16, Q8_0 = 0, 1, 8


class Gguf:
    """A minimal GGUF v3 reader: metadata scalars/strings and F32/F16/Q8_0
    tensors, enough for the synthetic test models."""

    SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i",
               6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}

    def __init__(self, path):
        self.buf = open(path, "rb").read()
        self.pos = 0
        assert self.buf[:4] == b"GGUF", "not a GGUF file"
        self.pos = 4
        version, n_tensors, n_kv = self._u32(), self._u64(), self._u64()
        assert version == 3, version
        self.kv = {}
        for _ in range(n_kv):
            key = self._str()
            self.kv[key] = self._value(self._u32())
        self.tensors = {}
        for _ in range(n_tensors):
            name = self._str()
            dims = [self._u64() for _ in range(self._u32())]
            ttype, offset = self._u32(), self._u64()
            self.tensors[name] = (dims, ttype, offset)
        align = self.kv.get("general.alignment", 32)
        self.data = (self.pos + align - 1) // align * align

    def _unpack(self, fmt):
        v = struct.unpack_from(fmt, self.buf, self.pos)[0]
        self.pos += struct.calcsize(fmt)
        return v

    def _u32(self):
        return self._unpack("<I")

    def _u64(self):
        return self._unpack("<Q")

    def _str(self):
        n = self._u64()
        s = self.buf[self.pos:self.pos + n].decode("utf-8", "surrogateescape")
        self.pos += n
        return s

    def _value(self, vtype):
        if vtype == 8:
            return self._str()
        if vtype == 9:
            etype, n = self._u32(), self._u64()
            return [self._value(etype) for _ in range(n)]
        return self._unpack(self.SCALARS[vtype])

    def tensor(self, name):
        """The tensor as float64, shaped (rows, row_length) = (ne1, ne0)."""
        dims, ttype, offset = self.tensors[name]
        n = int(np.prod(dims))
        start = self.data + offset
        if ttype == F32:
            v = np.frombuffer(self.buf, np.float32, n, start).astype(np.float64)
        elif ttype == F16:
            v = np.frombuffer(self.buf, np.float16, n, start).astype(np.float64)
        elif ttype == Q8_0:
            blocks = np.frombuffer(self.buf, np.uint8, n // 32 * 34, start)
            blocks = blocks.reshape(-1, 34)
            d = blocks[:, :2].copy().view(np.float16).astype(np.float32)
            q = blocks[:, 2:].copy().view(np.int8).astype(np.float32)
            # ggml's dequantization: y = d * q, one fp32 product.
            v = (d * q).astype(np.float64).reshape(-1)
        else:
            raise SystemExit(f"{name}: tensor type {ttype} not supported here")
        return v.reshape(list(reversed(dims))) if len(dims) > 1 else v


def build_model(g):
    a = "qwen2."
    n_embd = g.kv[a + "embedding_length"]
    n_head = g.kv[a + "attention.head_count"]
    tied = "output.weight" not in g.tensors
    n_vocab = g.tensors["token_embd.weight"][0][1]
    cfg = transformers.Qwen2Config(
        vocab_size=n_vocab, hidden_size=n_embd,
        intermediate_size=g.kv[a + "feed_forward_length"],
        num_hidden_layers=g.kv[a + "block_count"],
        num_attention_heads=n_head,
        num_key_value_heads=g.kv[a + "attention.head_count_kv"],
        max_position_embeddings=g.kv[a + "context_length"],
        rms_norm_eps=g.kv[a + "attention.layer_norm_rms_epsilon"],
        rope_theta=g.kv.get(a + "rope.freq_base", 10000.0),
        tie_word_embeddings=tied, use_sliding_window=False,
        attn_implementation="eager")
    model = transformers.Qwen2ForCausalLM(cfg).to(torch.float64).eval()
    names = {"token_embd.weight": "model.embed_tokens.weight",
             "output_norm.weight": "model.norm.weight",
             "output.weight": "lm_head.weight"}
    hf = {"attn_norm.weight": "input_layernorm.weight",
          "ffn_norm.weight": "post_attention_layernorm.weight",
          "attn_q.weight": "self_attn.q_proj.weight",
          "attn_q.bias": "self_attn.q_proj.bias",
          "attn_k.weight": "self_attn.k_proj.weight",
          "attn_k.bias": "self_attn.k_proj.bias",
          "attn_v.weight": "self_attn.v_proj.weight",
          "attn_v.bias": "self_attn.v_proj.bias",
          "attn_output.weight": "self_attn.o_proj.weight",
          "ffn_gate.weight": "mlp.gate_proj.weight",
          "ffn_up.weight": "mlp.up_proj.weight",
          "ffn_down.weight": "mlp.down_proj.weight"}
    state = {}
    for name in g.tensors:
        if name.startswith("blk."):
            _, layer, rest = name.split(".", 2)
            target = f"model.layers.{layer}.{hf[rest]}"
        else:
            target = names[name]
        state[target] = torch.from_numpy(g.tensor(name).copy())
    if tied:
        state["lm_head.weight"] = state["model.embed_tokens.weight"]
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected, unexpected
    assert all("rotary" in m for m in missing), missing
    return model


def quantize_act(x):
    """krn_quantize_act in float64: per 32 elements, d = amax/127 (fp32),
    q = rint(x * (127/amax)) (fp32 product, ties to even), value q*d."""
    x32 = x.to(torch.float32)
    blocks = x32.reshape(*x32.shape[:-1], -1, 32)
    amax = blocks.abs().amax(dim=-1, keepdim=True)
    d = amax / 127.0
    inv = torch.where(amax > 0, 127.0 / amax, torch.zeros_like(amax))
    q = torch.round(blocks * inv).clamp(-127, 127)
    return (q.to(torch.float64) * d.to(torch.float64)).reshape(x.shape)


def emulate_engine(model, quantized):
    """Applies the engine's roundings with hooks; returns the handles."""
    handles = []
    original_rope = modeling_qwen2.apply_rotary_pos_emb

    def rope_then_fp16_keys(q, k, cos, sin, *args, **kwargs):
        q, k = original_rope(q, k, cos, sin, *args, **kwargs)
        return q, k.to(torch.float32).to(torch.float16).to(torch.float64)

    modeling_qwen2.apply_rotary_pos_emb = rope_then_fp16_keys
    for layer in model.model.layers:
        handles.append(layer.self_attn.v_proj.register_forward_hook(
            lambda mod, inp, out: out.to(torch.float32).to(torch.float16)
            .to(torch.float64)))
    if quantized:
        for mod in model.modules():
            if isinstance(mod, torch.nn.Linear):
                handles.append(mod.register_forward_pre_hook(
                    lambda mod, inp: (quantize_act(inp[0]),)))
    return handles, original_rope


def write_refs(path, sha, runs):
    with open(path, "wb") as f:
        f.write(b"SBREF002")
        f.write(sha.encode())
        f.write(struct.pack("<I", len(runs)))
        for ids, logits in runs:
            f.write(struct.pack("<I", len(ids)))
            f.write(np.asarray(ids, np.int32).tobytes())
            f.write(struct.pack("<I", logits.shape[1]))
            f.write(logits.astype(np.float32).tobytes())


def run_prompts(model):
    runs = []
    with torch.no_grad():
        for text in PROMPTS:
            ids = list(text.encode("utf-8"))
            out = model(torch.tensor([ids]), use_cache=False).logits[0]
            runs.append((ids, out.numpy()))
    return runs


def main():
    model_path, prefix = sys.argv[1], sys.argv[2]
    g = Gguf(model_path)
    sha = hashlib.sha256(g.buf[g.data:]).hexdigest()
    quantized = any(t[1] not in (F32, F16) for t in g.tensors.values())
    model = build_model(g)
    write_refs(prefix + ".exact.bin", sha, run_prompts(model))
    handles, original_rope = emulate_engine(model, quantized)
    write_refs(prefix + ".emulated.bin", sha, run_prompts(model))
    for h in handles:
        h.remove()
    modeling_qwen2.apply_rotary_pos_emb = original_rope
    print(f"{model_path}: tensor data sha256 {sha}, {len(PROMPTS)} prompts written")


if __name__ == "__main__":
    main()
