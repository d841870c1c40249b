"""Packed training for the demo model (GPU machine: PyTorch >= 2.5).

train.py's first loop pads each batch to its longest task (length
buckets); this one packs several tasks into each row of a fixed length
(first fit, longest first, within a window of shuffled tasks), so nearly
every position is a real token, every step has the same shape (what
torch.compile wants) and the batches are made on a CPU thread while the
GPU runs the step before.

Attention stays inside each task through a FlexAttention block mask (a
query sees the keys of its own task, up to itself) and RoPE positions
restart at 0 for each task, so a packed task gets the logits it would get
alone. The module below is Qwen2 written out: its parameters have
transformers' Qwen2ForCausalLM names and layouts, so its state dict loads
into that model and back (train.py evaluates and saves through it, and
export_gguf.py reads it), and check_same() compares the two on a task
before any training.
"""
import queue
import threading

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from batches import flops_per_step, make_packed_batches, pack_rows  # noqa: F401


# ---- batches ---------------------------------------------------------------------

def collate_packed(examples, rows, row_len, pad_id, weights=None):
    """CPU tensors for one batch: ids (B, L), per-position task number
    (-1 for padding: it attends only to padding) and RoPE position, and the
    loss's flat positions, targets and weights (as train.collate)."""
    B = len(rows)
    x = np.full((B, row_len), pad_id, dtype=np.int64)
    doc = np.full((B, row_len), -1, dtype=np.int32)
    rope = np.tile(np.arange(row_len, dtype=np.int64), (B, 1))
    pos, tgt, wts, lens = [], [], [], []
    for b, row in enumerate(rows):
        at = 0
        for d, i in enumerate(row):
            prompt, answer = examples[i]
            n_p, n = len(prompt), len(prompt) + len(answer)
            x[b, at:at + n_p] = prompt
            x[b, at + n_p:at + n] = answer
            doc[b, at:at + n] = d
            rope[b, at:at + n] = np.arange(n)
            start = b * row_len + at
            pos.append(np.arange(start + n_p - 1, start + n - 1, dtype=np.int64))
            tgt.append(np.asarray(answer, dtype=np.int64))
            if weights is not None:
                wts.append(weights[i])
            lens.append(n)
            at += n
    out = {"x": torch.from_numpy(x), "doc": torch.from_numpy(doc),
           "rope": torch.from_numpy(rope),
           "pos": torch.from_numpy(np.concatenate(pos)),
           "tgt": torch.from_numpy(np.concatenate(tgt)),
           "wts": torch.from_numpy(np.concatenate(wts)) if weights is not None else None}
    return out, lens


class Prefetch:
    """Runs make() -> item on a CPU thread, `depth` items ahead (numpy
    releases the GIL for most of collate's work)."""

    def __init__(self, make, depth=4):
        self.q = queue.Queue(depth)
        self.make = make
        self.stop = False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        try:
            while not self.stop:
                item = self.make()
                for k, v in item[0].items():
                    if v is not None:
                        item[0][k] = v.pin_memory()
                self.q.put(item)
        except Exception as e:  # handed to get(), which raises it
            self.q.put(e)

    def get(self):
        item = self.q.get(timeout=120)  # never wait forever on a dead thread
        if isinstance(item, Exception):
            raise item
        return item


# ---- the model ---------------------------------------------------------------------

class RMSNorm(nn.Module):
    def __init__(self, n, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x):
        dt = x.dtype
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(dt)


class Attention(nn.Module):
    def __init__(self, s):
        super().__init__()
        e, self.hd = s["n_embd"], s["n_embd"] // s["n_head"]
        self.nh, self.nkv = s["n_head"], s["n_head_kv"]
        self.q_proj = nn.Linear(e, self.nh * self.hd, bias=True)
        self.k_proj = nn.Linear(e, self.nkv * self.hd, bias=True)
        self.v_proj = nn.Linear(e, self.nkv * self.hd, bias=True)
        self.o_proj = nn.Linear(self.nh * self.hd, e, bias=False)

    def forward(self, x, cos, sin, block_mask, attend):
        B, L, _ = x.shape
        q = self.q_proj(x).view(B, L, self.nh, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(B, L, self.nkv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(B, L, self.nkv, self.hd).transpose(1, 2)
        # RoPE in float32 as transformers does it (its cos and sin take the
        # float32 residual stream's type), then all three in v's type (bf16
        # under autocast, which flex_attention does not apply by itself)
        q, k = rope(q, cos, sin).to(v.dtype), rope(k, cos, sin).to(v.dtype)
        o = attend(q, k, v, block_mask=block_mask, enable_gqa=True)
        return self.o_proj(o.transpose(1, 2).reshape(B, L, self.nh * self.hd))


class MLP(nn.Module):
    def __init__(self, s):
        super().__init__()
        e, ff = s["n_embd"], s["n_ff"]
        self.gate_proj = nn.Linear(e, ff, bias=False)
        self.up_proj = nn.Linear(e, ff, bias=False)
        self.down_proj = nn.Linear(ff, e, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.self_attn = Attention(s)
        self.mlp = MLP(s)
        self.input_layernorm = RMSNorm(s["n_embd"], s["rms_eps"])
        self.post_attention_layernorm = RMSNorm(s["n_embd"], s["rms_eps"])

    def forward(self, h, cos, sin, block_mask, attend):
        h = h + self.self_attn(self.input_layernorm(h), cos, sin, block_mask, attend)
        return h + self.mlp(self.post_attention_layernorm(h))


def rope(x, cos, sin):
    """transformers' rotate-half RoPE, in float32; cos, sin (B, L, head_dim)."""
    x, cos, sin = x.float(), cos.unsqueeze(1), sin.unsqueeze(1)
    half = x.shape[-1] // 2
    rot = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rot * sin


class Body(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.embed_tokens = nn.Embedding(s["n_vocab"], s["n_embd"])
        self.layers = nn.ModuleList(Layer(s) for _ in range(s["n_layer"]))
        self.norm = RMSNorm(s["n_embd"], s["rms_eps"])
        hd = s["n_embd"] // s["n_head"]
        inv = 1.0 / (s["rope_base"] ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))
        self.register_buffer("inv_freq", inv, persistent=False)

    def forward(self, x, rope_pos, block_mask, attend):
        freqs = rope_pos.float().unsqueeze(-1) * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        h = self.embed_tokens(x)
        for layer in self.layers:
            h = layer(h, cos, sin, block_mask, attend)
        return self.norm(h)


class PackedQwen2(nn.Module):
    """Qwen2ForCausalLM's parameters (same names), packed-row forward."""

    def __init__(self, s):
        super().__init__()
        self.model = Body(s)
        self.lm_head = nn.Linear(s["n_embd"], s["n_vocab"], bias=False)
        if s["tied"]:
            self.lm_head.weight = self.model.embed_tokens.weight


def document_mask(doc, compiled=True):
    """The block mask: a query attends to keys of its own task (doc, (B, L)
    on the GPU) at or before it."""
    from torch.nn.attention.flex_attention import create_block_mask
    B, L = doc.shape

    def mask_mod(b, h, q, kv):
        return (doc[b, q] == doc[b, kv]) & (q >= kv)
    try:
        return create_block_mask(mask_mod, B, None, L, L, device=doc.device, _compile=compiled)
    except TypeError:  # a PyTorch without the private _compile argument
        return create_block_mask(mask_mod, B, None, L, L, device=doc.device)


def attention_fn():
    """flex_attention, compiled (its eager form is a slow reference)."""
    from torch.nn.attention.flex_attention import flex_attention
    return torch.compile(flex_attention, dynamic=False)


def check_same(packed, hf, example, device, attend):
    """Largest |logit| difference between this module (one task in one
    row, then the same task packed after another) and transformers' model
    on that task: the packing and the rewrite must not change the maths."""
    prompt, answer = example
    ids = np.concatenate([prompt, answer]).astype(np.int64)
    n = len(ids)
    L = (2 * n + 127) // 128 * 128
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
        ref = hf(input_ids=torch.from_numpy(ids)[None].to(device)).logits[0].float()
        x = np.zeros((1, L), np.int64)
        doc = np.full((1, L), -1, np.int32)
        rp = np.tile(np.arange(L), (1, 1))
        x[0, :n], doc[0, :n], rp[0, :n] = ids, 0, np.arange(n)        # alone
        x[0, n:2 * n], doc[0, n:2 * n], rp[0, n:2 * n] = ids, 1, np.arange(n)  # packed second
        t = lambda a: torch.from_numpy(a).to(device)
        bm = document_mask(t(doc))
        h = packed.model(t(x), t(rp), bm, attend)[0]
        lg = packed.lm_head(h).float()
        first = (lg[:n] - ref).abs().max().item()
        second = (lg[n:2 * n] - ref).abs().max().item()
    return first, second, ref.abs().max().item()
