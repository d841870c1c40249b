#!/usr/bin/env python3
"""Trains the demo model on edit tasks (GPU machine: PyTorch + transformers).

usage: train.py --ids train.bin [more.bin ...] --out DIR [--seconds 360] [--seed 1234]
                [--shape base] [--eval-ids heldout.bin --eval-tasks heldout.jsonl]
                [--init F32.gguf] [--edit-weight 8] [--mistake-weight 8]

Input: `sb prompt --tasks` output (SBTOK001): per task the prompt ids and
the answer ids, exactly as the engine builds them. The model is
transformers' Qwen2ForCausalLM at a shape of shape.py (--shape), trained with
AdamW under bf16 autocast, the loss on the answer tokens only (the prompt
is context, never a target). The learning rate warms up over --warmup
steps, then follows a cosine to 10% of its peak over the wall-clock budget
(--seconds): progress is elapsed / budget, so the schedule ends when the
time does, whatever the GPU's speed. DIR/ckpt.pt (state dict, shape, step)
is written every --save-every seconds and at the end, atomically.

With --init, training continues from a model the engine loads (an F32
GGUF: `sb quantize MODEL OUT --type f32` widens the committed Q8_0 model),
so each run builds on the last; the optimizer state starts afresh. With
--eval-only the --init model is only scored on the held-out sets (into
DIR/eval_only.json): device_run.sh scores the quantized file that way.

--edit-weight W weighs the loss toward the tokens where the answer departs
from the source: an answer token whose 5-gram (it and the four tokens
before it) appears nowhere in the prompt is one a copy cannot predict: the
edited tokens and the few after each edit, where the copy resumes. Those
get weight W, every other answer token 1. Nearly every answer token is a
plain copy, so without this the edits are a percent of the gradient.

--mistake-weight M adds M to the weight of every answer token whose
argmax is wrong in the training pass itself. Exact match needs every
token right, and the few wrong ones (an occurrence a rename missed, a
name changed where it should have been copied) are diluted among
thousands of easy copies; this puts the gradient where the errors are.

--pack trains through packed.py instead: several tasks per row of
--max-len tokens, a FlexAttention document mask, batches made on a CPU
thread, and with --compile the model under torch.compile. It first checks
that its logits match transformers' model on a held-out task (packed
alone and packed second in a row) and exits with status 3 if they do not,
so device_run.sh can fall back to the bucketed loop. Both loops log the
real (unpadded) tokens per second and the model FLOP utilisation (MFU:
model FLOPs of forward + backward over --peak-tflops).

With --eval-ids, the held-out tasks are scored at the end under teacher
forcing: a task whose every answer token is the model's argmax is one that
greedy decoding reproduces exactly, so this is the exact-match rate
(per edit kind with --eval-tasks), written to DIR/eval.json.

--device cpu runs the bucketed loop on the CPU in float32 with eager
attention, for a smoke test of a few steps (PyTorch 1.13 is enough).
"""
import argparse
import json
import math
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shape as S  # noqa: E402


def flops_per_step(shape, lens, n_answer):
    from batches import flops_per_step as f
    return f(shape, lens, n_answer)


def read_ids(path):
    """[(prompt_ids, answer_ids)] from an SBTOK001 file (sb prompt --tasks)."""
    import numpy as np
    buf = open(path, "rb").read()
    if buf[:8] != b"SBTOK001":
        raise SystemExit("%s: not an SBTOK001 file (sb prompt --tasks)" % path)
    words = np.frombuffer(buf, np.int32, offset=8)
    out, i = [], 0
    while i < len(words):
        n_p, n_a = int(words[i]), int(words[i + 1])
        ids = words[i + 2:i + 2 + n_p + n_a]
        out.append((ids[:n_p], ids[n_p:]))
        i += 2 + n_p + n_a
    return out


EDIT_GRAM = 5


def gram_hashes(ids, n=EDIT_GRAM):
    """A 64-bit polynomial hash of each n-gram of ids (wrapping arithmetic)."""
    import numpy as np
    a = np.asarray(ids, dtype=np.uint64)
    if len(a) < n:
        return np.zeros(0, dtype=np.uint64)
    h = np.zeros(len(a) - n + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(n):
            h = h * np.uint64(1000003) + a[k:len(a) - n + 1 + k] + np.uint64(1)
    return h


def edit_weights(prompt, answer, weight, n=EDIT_GRAM):
    """Per answer token: weight where its n-gram (with the n-1 tokens before
    it, reaching back into the prompt for the first ones) is not a prompt
    n-gram, else 1.0."""
    import numpy as np
    seq = np.concatenate([np.asarray(prompt), np.asarray(answer)])
    grams = gram_hashes(seq, n)[len(prompt) - n + 1:]  # the grams ending in the answer
    novel = ~np.isin(grams, gram_hashes(prompt, n))
    return np.where(novel, np.float32(weight), np.float32(1.0))


def make_batches(examples, tokens_per_batch, rng):
    """Examples grouped by similar length, each batch at most
    tokens_per_batch tokens once padded (to a multiple of 64)."""
    order = list(range(len(examples)))
    rng.shuffle(order)
    batches = []
    for m in range(0, len(order), 512):
        mega = sorted(order[m:m + 512], key=lambda i: len(examples[i][0]) + len(examples[i][1]))
        cur, cur_max = [], 0
        for i in mega:
            n = len(examples[i][0]) + len(examples[i][1])
            padded = (max(cur_max, n) + 63) // 64 * 64
            if cur and padded * (len(cur) + 1) > tokens_per_batch:
                batches.append(cur)
                cur, cur_max = [], 0
            cur.append(i)
            cur_max = max(cur_max, n)
        if cur:
            batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(examples, idx, pad_id, device, weights=None):
    """Inputs (B, T) and, for the loss, the flat positions whose next token
    is an answer token, with those tokens as targets (and their loss
    weights, when weights[i] holds example i's)."""
    import numpy as np
    import torch
    lens = [len(examples[i][0]) + len(examples[i][1]) for i in idx]
    T = (max(lens) + 63) // 64 * 64
    x = np.full((len(idx), T), pad_id, dtype=np.int64)
    pos, tgt, wts = [], [], []
    for b, i in enumerate(idx):
        prompt, answer = examples[i]
        n_p, n = len(prompt), lens[b]
        x[b, :n_p] = prompt
        x[b, n_p:n] = answer
        # position t predicts token t + 1: the answer is tokens n_p .. n-1
        pos.append(np.arange(b * T + n_p - 1, b * T + n - 1, dtype=np.int64))
        tgt.append(np.asarray(answer, dtype=np.int64))
        if weights is not None:
            wts.append(weights[i])
    to_dev = lambda a: torch.from_numpy(a).to(device, non_blocking=True)
    return (to_dev(x), to_dev(np.concatenate(pos)), to_dev(np.concatenate(tgt)),
            to_dev(np.concatenate(wts)) if weights is not None else None)


def build_model(s, eos_id, attn="sdpa"):
    import transformers
    cfg = transformers.Qwen2Config(
        vocab_size=s["n_vocab"], hidden_size=s["n_embd"], intermediate_size=s["n_ff"],
        num_hidden_layers=s["n_layer"], num_attention_heads=s["n_head"],
        num_key_value_heads=s["n_head_kv"], max_position_embeddings=s["n_ctx"],
        rope_theta=s["rope_base"], rms_norm_eps=s["rms_eps"],
        tie_word_embeddings=s["tied"], use_sliding_window=False,
        hidden_act="silu", eos_token_id=eos_id, attn_implementation=attn)
    return transformers.Qwen2ForCausalLM(cfg)


def answer_loss(model, x, pos, tgt, reduction="mean", wts=None, mistake_weight=0.0):
    """Cross-entropy over the answer tokens: summed, plain mean, or the
    weighted mean (with wts, or with mistake_weight: that much more weight
    on each token the model's argmax gets wrong in this very pass)."""
    import torch
    import torch.nn.functional as F
    h = model.model(input_ids=x).last_hidden_state
    h = h.reshape(-1, h.shape[-1]).index_select(0, pos)
    logits = model.lm_head(h).float()
    if wts is None and not mistake_weight:
        return F.cross_entropy(logits, tgt, reduction=reduction), logits
    if wts is None:
        wts = torch.ones_like(tgt, dtype=torch.float32)
    if mistake_weight:
        wrong = (logits.detach().argmax(-1) != tgt).float()
        wts = wts + mistake_weight * wrong
    ce = F.cross_entropy(logits, tgt, reduction="none")
    return (ce * wts).sum() / wts.sum(), logits


def load_init(model, path, s):
    """The weights of an F32 GGUF the engine loads (export_gguf.py's names
    and layouts, read back)."""
    import numpy as np
    import torch
    import gguf_io as G
    from export_gguf import gguf_name, hf_shapes
    rd = G.Reader(path)
    sd = model.state_dict()
    for name, shp in hf_shapes(s):
        data = torch.from_numpy(np.array(rd.tensor_f32(gguf_name(name)), copy=True))
        if tuple(data.shape) != shp:
            raise SystemExit("--init %s: %s has shape %s, expected %s"
                             % (path, gguf_name(name), tuple(data.shape), shp))
        sd[name].copy_(data)
    if not s["tied"]:
        sd["lm_head.weight"].copy_(torch.from_numpy(np.array(rd.tensor_f32("output.weight"))))
    print("init: %d tensors from %s" % (len(hf_shapes(s)), path), flush=True)


def autocast(device):
    """bf16 autocast on the GPU; float32 on the CPU (--device cpu)."""
    import contextlib
    import torch
    if device != "cuda":
        return contextlib.nullcontext()
    return torch.autocast("cuda", dtype=torch.bfloat16)


def save(model, s, step, log, out):
    import torch
    path = os.path.join(out, "ckpt.pt")
    torch.save({"shape": s, "state_dict": model.state_dict(), "step": step,
                "log": log}, path + ".tmp")
    os.replace(path + ".tmp", path)


def evaluate(model, examples, kinds, pad_id, device):
    """Teacher-forced exact match per kind, and the mean answer loss."""
    import torch
    model.eval()
    per_kind, total_loss, total_tok = {}, 0.0, 0
    with torch.no_grad(), autocast(device):
        for i in range(len(examples)):
            x, pos, tgt, _ = collate(examples, [i], pad_id, device)
            loss, logits = answer_loss(model, x, pos, tgt, reduction="sum")
            total_loss += float(loss)
            total_tok += len(tgt)
            ok = bool((logits.argmax(-1) == tgt).all())
            k = kinds[i] if kinds else "all"
            hit, n = per_kind.get(k, (0, 0))
            per_kind[k] = (hit + ok, n + 1)
    model.train()
    hits = sum(h for h, _ in per_kind.values())
    return {"tasks": len(examples), "exact_match": hits / max(1, len(examples)),
            "answer_loss": total_loss / max(1, total_tok),
            "per_kind": {k: {"exact": h, "tasks": n, "rate": h / n}
                         for k, (h, n) in sorted(per_kind.items())}}


def load_heldout(args, ids=None, tasks=None):
    """(examples, kinds or None): the first --eval-max held-out tasks that
    fit --max-len (of --eval-ids / --eval-tasks unless named)."""
    ids, tasks = ids or args.eval_ids, tasks or args.eval_tasks
    ev = read_ids(ids)
    kinds = None
    if tasks:
        kinds = [json.loads(l)["kind"] for l in open(tasks, encoding="utf-8")]
    keep = [i for i, e in enumerate(ev) if len(e[0]) + len(e[1]) <= args.max_len][:args.eval_max]
    return [ev[i] for i in keep], [kinds[i] for i in keep] if kinds else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", required=True, nargs="+", help="SBTOK001 files (shards)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=360)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--shape", default=S.DEFAULT, help="shape.py's name: %s" % ", ".join(S.SHAPES))
    ap.add_argument("--max-len", type=int, help="default: the shape's n_ctx")
    ap.add_argument("--tokens-per-batch", type=int, default=65536)
    ap.add_argument("--lr", type=float, default=1.5e-3)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--save-every", type=float, default=90)
    ap.add_argument("--eval-ids")
    ap.add_argument("--eval-tasks")
    ap.add_argument("--eval-max", type=int, default=300)
    ap.add_argument("--init", help="an F32 GGUF to start from")
    ap.add_argument("--eval-only", action="store_true",
                    help="score the --init model on the held-out sets, no training")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                    help="cpu: a smoke test of the bucketed loop (float32, eager attention)")
    ap.add_argument("--edit-weight", type=float, default=1.0)
    ap.add_argument("--mistake-weight", type=float, default=0.0)
    ap.add_argument("--limit-tasks", type=int, default=0, help="use only the first N tasks")
    ap.add_argument("--pack", action="store_true", help="packed rows (packed.py)")
    ap.add_argument("--compile", action="store_true", help="with --pack: torch.compile")
    ap.add_argument("--peak-tflops", type=float, default=989.0,
                    help="the GPU's dense bf16 peak, for MFU (H100 SXM / H200: 989)")
    ap.add_argument("--eval-extra", nargs=3, action="append", default=[],
                    metavar=("NAME", "IDS", "TASKS"),
                    help="another held-out set, scored as eval_NAME (e.g. non_ascii, v2)")
    args = ap.parse_args()
    shape = S.get(args.shape)
    args.max_len = args.max_len or shape["n_ctx"]
    if args.eval_only and not (args.init and args.eval_ids):
        ap.error("--eval-only scores the --init model on --eval-ids: give both")
    if args.device == "cpu" and args.pack:
        ap.error("--pack needs the GPU (FlexAttention); --device cpu runs the bucketed loop")

    import torch
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    device = args.device
    os.makedirs(args.out, exist_ok=True)

    examples = [e for path in args.ids for e in read_ids(path)
                if len(e[0]) + len(e[1]) <= args.max_len]
    if args.limit_tasks:
        examples = examples[:args.limit_tasks]
    eos_id = int(examples[0][1][-1])  # every answer ends with <|im_end|>
    n_tok = sum(len(p) + len(a) for p, a in examples)
    print("train: %d tasks within %d tokens, %d tokens" % (len(examples), args.max_len, n_tok),
          flush=True)
    model = build_model(shape, eos_id, "sdpa" if device == "cuda" else "eager")
    if args.init:
        load_init(model, args.init, shape)
    model = model.to(device)
    print("device: %s" % (torch.cuda.get_device_name(0) if device == "cuda" else "cpu"),
          flush=True)
    if args.eval_only:
        return eval_only(args, model, eos_id, device)
    if args.pack:
        return train_packed(args, model, examples, eos_id, device, rng)
    weights = None
    if args.edit_weight != 1.0:
        weights = [edit_weights(p, a, args.edit_weight) for p, a in examples]
        heavy = sum(int((w != 1.0).sum()) for w in weights)
        print("edit weights: %d of %d answer tokens at %g" %
              (heavy, sum(len(w) for w in weights), args.edit_weight), flush=True)
    held = load_heldout(args) if args.eval_ids else None
    init_eval = initial_evals(args, model, held, eos_id, device)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95), eps=1e-8,
                            **({"fused": True} if device == "cuda" else {}))
    log, step, seen, t0 = [], 0, 0, time.time()
    last_save, last_print = t0, t0
    real, flops, mark = 0, 0.0, (0, 0.0, t0)
    epoch_batches = []
    while True:
        elapsed = time.time() - t0
        progress = elapsed / args.seconds
        if progress >= 1:
            break
        if not epoch_batches:
            epoch_batches = make_batches(examples, args.tokens_per_batch, rng)
        idx = epoch_batches.pop()
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * \
            (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))
        for g in opt.param_groups:
            g["lr"] = lr
        x, pos, tgt, wts = collate(examples, idx, eos_id, device, weights)
        with autocast(device):
            loss, _ = answer_loss(model, x, pos, tgt, wts=wts,
                                  mistake_weight=args.mistake_weight)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        seen += x.numel()
        lens = [len(examples[i][0]) + len(examples[i][1]) for i in idx]
        real += sum(lens)
        flops += flops_per_step(shape, lens, len(tgt))
        now = time.time()
        if now - last_print >= 10 or step == 1:
            rec = {"step": step, "s": round(now - t0, 1), "loss": round(float(loss.detach()), 4),
                   "lr": lr, "gnorm": round(float(gnorm), 3), "tokens": seen,
                   "tok_s": round(seen / (now - t0))}
            rec.update(rates(real, flops, now, mark, args.peak_tflops))
            mark = (real, flops, time.time())
            log.append(rec)
            print(json.dumps(rec), flush=True)
            last_print = now
        if now - last_save >= args.save_every:
            save(model, shape, step, log, args.out)
            last_save = now
    save(model, shape, step, log, args.out)
    summary = {"steps": step, "tokens": seen, "real_tokens": real,
               "seconds": round(time.time() - t0, 1), "loop": "buckets",
               "tasks": len(examples), "args": vars(args), "shape": shape,
               "shape_name": args.shape,
               "rate": rates(real, flops, time.time(), (0, 0.0, t0), args.peak_tflops)}
    finish(args, model, summary, held, init_eval, eos_id, device)


def train_packed(args, hf, examples, eos_id, device, rng):
    """The packed loop (packed.py): same schedule, loss and outputs as the
    bucketed one; evaluation and the checkpoint go through hf, which gets
    the trained weights back at the end."""
    import torch
    import packed as P
    shape = S.get(args.shape)
    held = load_heldout(args) if args.eval_ids else None
    init_eval = initial_evals(args, hf, held, eos_id, device)
    model = P.PackedQwen2(shape)
    model.load_state_dict(hf.state_dict())
    model = model.to(device)
    attend = P.attention_fn()  # compiled: the eager body calls it as it is
    probe = held[0][0] if held else examples[0]
    d1, d2, mag = P.check_same(model, hf, probe, device, attend)
    print("packed vs transformers, max |logit diff| on a %d-token task: alone %.4f, "
          "packed second %.4f (max |logit| %.2f)" % (len(probe[0]) + len(probe[1]), d1, d2, mag),
          flush=True)
    if max(d1, d2) > 0.05 * mag:
        print("train.py --pack: the packed model does not match transformers'", flush=True)
        sys.exit(3)
    body, body_attend = model.model, attend
    if args.compile:  # the whole body compiled, flex_attention inside it
        from torch.nn.attention.flex_attention import flex_attention
        body, body_attend = torch.compile(model.model, dynamic=False), flex_attention
    lengths = [len(p) + len(a) for p, a in examples]
    weight_cache = {}

    def weight_of(i):
        if i not in weight_cache:
            weight_cache[i] = edit_weights(examples[i][0], examples[i][1], args.edit_weight)
        return weight_cache[i]

    rows_per_batch = max(1, args.tokens_per_batch // args.max_len)
    epoch = []

    def make():
        if not epoch:
            epoch.extend(P.make_packed_batches(lengths, args.max_len, rows_per_batch, rng))
        rows = epoch.pop()
        wts = {i: weight_of(i) for row in rows for i in row} if args.edit_weight != 1.0 else None
        return P.collate_packed(examples, rows, args.max_len, eos_id, wts)

    feed = P.Prefetch(make)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95), eps=1e-8, fused=True)
    log, step, seen, real, flops = [], 0, 0, 0, 0.0
    t0 = time.time()
    last_save, last_print, mark = t0, t0, (0, 0.0, t0)
    while True:
        progress = (time.time() - t0) / args.seconds
        if progress >= 1:
            break
        batch, lens = feed.get()
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * \
            (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))
        for g in opt.param_groups:
            g["lr"] = lr
        b = {k: (v.to(device, non_blocking=True) if v is not None else None)
             for k, v in batch.items()}
        block_mask = P.document_mask(b["doc"])
        with torch.autocast("cuda", dtype=torch.bfloat16):
            h = body(b["x"], b["rope"], block_mask, body_attend)
            h = h.reshape(-1, h.shape[-1]).index_select(0, b["pos"])
            logits = model.lm_head(h).float()
            loss = weighted_ce(logits, b["tgt"], b["wts"], args.mistake_weight)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        seen += b["x"].numel()
        real += sum(lens)
        flops += P.flops_per_step(shape, lens, len(batch["tgt"]))
        now = time.time()
        if now - last_print >= 10 or step == 1:
            rec = {"step": step, "s": round(now - t0, 1), "loss": round(float(loss.detach()), 4),
                   "lr": lr, "gnorm": round(float(gnorm), 3), "tokens": seen,
                   "tok_s": round(seen / (now - t0))}
            rec.update(rates(real, flops, time.time(), mark, args.peak_tflops))
            mark = (real, flops, time.time())
            log.append(rec)
            print(json.dumps(rec), flush=True)
            last_print = now
        if now - last_save >= args.save_every:
            hf.load_state_dict(model.state_dict())
            save(hf, shape, step, log, args.out)
            last_save = now
    feed.stop = True
    hf.load_state_dict(model.state_dict())
    save(hf, shape, step, log, args.out)
    summary = {"steps": step, "tokens": seen, "real_tokens": real,
               "seconds": round(time.time() - t0, 1), "loop": "packed" +
               (" compiled" if args.compile else ""),
               "tasks": len(examples), "args": vars(args), "shape": shape,
               "shape_name": args.shape,
               "rate": rates(real, flops, time.time(), (0, 0.0, t0), args.peak_tflops),
               "rate_after_first_minute": first_minute_rate(log)}
    finish(args, hf, summary, held, init_eval, eos_id, device)


def first_minute_rate(log):
    """Real tokens/s and MFU averaged over the log records after 60 s (the
    compile and warm-up left out)."""
    late = [r for r in log if r["s"] > 60]
    if not late:
        return None
    return {k: round(sum(r[k] for r in late) / len(late), 4) for k in ("real_tok_s", "mfu")}


def weighted_ce(logits, tgt, wts, mistake_weight):
    """answer_loss's weighting, on logits already computed."""
    import torch
    import torch.nn.functional as F
    if wts is None and not mistake_weight:
        return F.cross_entropy(logits, tgt)
    if wts is None:
        wts = torch.ones_like(tgt, dtype=torch.float32)
    if mistake_weight:
        wts = wts + mistake_weight * (logits.detach().argmax(-1) != tgt).float()
    ce = F.cross_entropy(logits, tgt, reduction="none")
    return (ce * wts).sum() / wts.sum()


def initial_evals(args, model, held, eos_id, device):
    """The starting model on the held-out sets: the baseline ({} from scratch)."""
    out = {}
    if held and args.init:
        out["eval_init"] = evaluate(model, held[0], held[1], eos_id, device)
        print("init eval: %s" % json.dumps(out["eval_init"]), flush=True)
    for name, ids, tasks in args.eval_extra if args.init else []:
        extra = load_heldout(args, ids, tasks)
        out["eval_%s_init" % name] = evaluate(model, extra[0], extra[1], eos_id, device)
        print("init eval (%s): %s" % (name, json.dumps(out["eval_%s_init" % name])), flush=True)
    return out


def eval_only(args, model, eos_id, device):
    """--eval-only: the --init model's held-out scores, as initial_evals
    names them (eval_init, eval_NAME_init), into DIR/eval_only.json."""
    out = initial_evals(args, model, load_heldout(args), eos_id, device)
    with open(os.path.join(args.out, "eval_only.json"), "w") as f:
        json.dump(out, f, indent=1)


def rates(real, flops, now, mark, peak_tflops):
    """Real tokens/s and MFU since mark (tokens, flops, time)."""
    dt = max(1e-9, now - mark[2])
    return {"real_tok_s": round((real - mark[0]) / dt),
            "mfu": round((flops - mark[1]) / dt / (peak_tflops * 1e12), 4)}


def finish(args, model, summary, held, init_eval, eos_id, device):
    """The held-out scores (and the extra set's), into train_summary.json."""
    summary.update(init_eval or {})
    if held:
        summary["eval"] = evaluate(model, held[0], held[1], eos_id, device)
    for name, ids, tasks in args.eval_extra:
        extra = load_heldout(args, ids, tasks)
        summary["eval_" + name] = evaluate(model, extra[0], extra[1], eos_id, device)
    with open(os.path.join(args.out, "train_summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "args"}), flush=True)


if __name__ == "__main__":
    main()
