#!/usr/bin/env bash
# The whole training job, in one command on the GPU machine (PyTorch,
# transformers, numpy; no internet). From the repository root:
#
#   OUT=/some/dir SB=build/sb bash tools/train/device_run.sh        # all
#   OUT=/some/dir SB=build/sb bash tools/train/device_run.sh refs   # refs only
#
# needs (carried from the machine that built them): $SB, a statically
# linked sb; tools/train/data/corpus.jsonl.gz (make_data.py corpus).
# all:  edit tasks from the corpus (train split seeded by SEED, held-out by
#       HELDOUT_SEED) -> ids through the engine's own prompt code (sb
#       prompt) -> training for TRAIN_SECONDS of wall clock, from INIT
#       (default: the committed model; INIT=none starts from random
#       weights), with the loss weight EDIT_WEIGHT on edited tokens and
#       MISTAKE_WEIGHT more on tokens the model gets wrong; KIND_WEIGHTS
#       (e.g. rename=50) changes the mix of edit kinds ->
#       teacher-forced held-out exact match of the starting model and of
#       the trained one -> F32 GGUF -> sb quantize q8_0 -> reference logits.
#       NON_ASCII (a share, e.g. 0.2) puts comment lines of non-ASCII
#       text into that share of the train tasks; the held-out tasks get a
#       second set (the same seed, non-ASCII in every file, EXTRA_HELDOUT
#       tasks) scored as eval_non_ascii. V2 (a share) makes that share of
#       the train tasks edit prompt v2 tasks (make_data.py --v2), and a
#       third held-out set, all v2, is scored as eval_v2. PACK=1 trains with packed rows
#       (train.py --pack, the default; COMPILE=1 adds torch.compile),
#       falling back to the bucketed loop for the time left if it fails;
#       BENCH_SECONDS (default 30; 0: none) first runs the bucketed loop
#       that long on 4,000 tasks, the same run's throughput baseline.
#       SHAPE (a name in shape.py: base, the committed model's, or wide)
#       is the model trained; QUANT (q8_0 or q4_k_m) the file's
#       quantization. A shape other than INIT's needs INIT=none (the run
#       stops at once otherwise) or INIT=widen: the model at WIDEN_FROM
#       (default models/sonicboom-demo.gguf, shape base) widened to
#       SHAPE by widen.py, the same function with room to grow (README,
#       "Comparing shapes"); the quantized file must fit the
#       25 MB the committed model may hold (status 4 otherwise, after
#       train_summary.json). EVAL_QUANT=1 also scores the quantized file
#       (widened to F32) on the held-out set, as eval_quantized.
# refs: only the reference logits, for the model at $MODEL (default
#       models/sonicboom-demo.gguf).
# Writes under $OUT (7 files at most, each under 16 MiB, so all come back):
# sonicboom-demo.gguf.part-aa and -ab (cat them), ref_trained.bin,
# train_summary.json, device_run.log, and demo_edit.c / demo_edit.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
: "${OUT:?set OUT to the output directory}"
SB=${SB:-build/sb}
SEED=${SEED:-1234}
HELDOUT_SEED=${HELDOUT_SEED:-1234}
TRAIN_SECONDS=${TRAIN_SECONDS:-360}
PER_CHUNK=${PER_CHUNK:-6}
INIT=${INIT:-models/sonicboom-demo.gguf}
WIDEN_FROM=${WIDEN_FROM:-models/sonicboom-demo.gguf}
EDIT_WEIGHT=${EDIT_WEIGHT:-10}
MISTAKE_WEIGHT=${MISTAKE_WEIGHT:-0}
KIND_WEIGHTS=${KIND_WEIGHTS:-}
LR=${LR:-1.5e-3}
NON_ASCII=${NON_ASCII:-0}
V2=${V2:-0}
EXTRA_HELDOUT=${EXTRA_HELDOUT:-150}
PACK=${PACK:-1}
COMPILE=${COMPILE:-0}
BENCH_SECONDS=${BENCH_SECONDS:-30}
SHAPE=${SHAPE:-base}
QUANT=${QUANT:-q8_0}
EVAL_QUANT=${EVAL_QUANT:-0}
JOBS=${JOBS:-$(nproc)}
CORPUS=${CORPUS:-tools/train/data/corpus.jsonl.gz}
MODE=${1:-all}
W=$(mktemp -d /tmp/sbtrain.XXXXXX)
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/device_run.log"; }

refs() {
    local model=$1
    log "refs: $model"
    "$SB" prompt -m "$model" --tasks tools/train/ref_tasks.jsonl --out "$W/ref.bin"
    # the weights through the engine's own dequantization (the reference
    # reader knows F32, F16 and Q8_0; a Q4_K_M model has Q4_K and Q6_K)
    "$SB" quantize "$model" "$W/ref-f32.gguf" --type f32
    python3 tools/train/trained_ref.py "$model" "$W/ref.bin" "$OUT/ref_trained.bin" \
        "$W/ref-f32.gguf" 2>&1 | tee -a "$OUT/device_run.log"
}

test -x "$SB" || { echo "device_run: no sb at $SB (set SB)" >&2; exit 1; }
"$SB" --help >/dev/null
if [ "$MODE" = refs ]; then
    refs "${MODEL:-models/sonicboom-demo.gguf}"
    exit 0
fi
test -f "$CORPUS" || { echo "device_run: no corpus at $CORPUS" >&2; exit 1; }
case "$QUANT" in
    q8_0|q4_k_m) ;;
    *) echo "device_run: QUANT=$QUANT: expected q8_0 or q4_k_m" >&2; exit 1 ;;
esac
python3 tools/train/shape.py "$SHAPE" | tee -a "$OUT/device_run.log"
python3 tools/train/shape.py --fits "$SHAPE" "$QUANT" | tee -a "$OUT/device_run.log" || {
    echo "device_run: shape $SHAPE would not fit at $QUANT (QUANT=q4_k_m?)" >&2
    exit 1
}
if [ "$INIT" = widen ]; then
    python3 tools/train/widen.py --check --in "$WIDEN_FROM" --to "$SHAPE" || {
        echo "device_run: INIT=widen: WIDEN_FROM=$WIDEN_FROM cannot be widened to" \
             "shape $SHAPE" >&2
        exit 1
    }
elif [ "$INIT" != none ] && ! python3 tools/train/shape.py --check "$SHAPE" "$INIT"; then
    echo "device_run: INIT=$INIT is not shape $SHAPE; a new shape starts from" \
         "random weights (INIT=none) or from the base model widened (INIT=widen)" >&2
    exit 1
fi
log "1. tasks (seed $SEED, $PER_CHUNK per chunk, $JOBS jobs)"
"$SB" mkmodel --shape tiny --quant q8_0 --quiet --vocab tools/train/vocab.json -o "$W/tok.gguf"
python3 tools/train/make_data.py tasks --corpus "$CORPUS" --split train --seed "$SEED" \
    --per-chunk "$PER_CHUNK" --jobs "$JOBS" --kind-weights "$KIND_WEIGHTS" \
    --non-ascii "$NON_ASCII" --v2 "$V2" --out "$W/train.jsonl" | tee -a "$OUT/device_run.log"
python3 tools/train/make_data.py tasks --corpus "$CORPUS" --split heldout --seed "$HELDOUT_SEED" \
    --per-chunk 1 --jobs "$JOBS" --out "$W/heldout.jsonl" | tee -a "$OUT/device_run.log"
python3 tools/train/make_data.py tasks --corpus "$CORPUS" --split heldout --seed "$HELDOUT_SEED" \
    --per-chunk 1 --jobs "$JOBS" --non-ascii 1 --limit "$EXTRA_HELDOUT" \
    --out "$W/heldout_na.jsonl" | tee -a "$OUT/device_run.log"
python3 tools/train/make_data.py tasks --corpus "$CORPUS" --split heldout --seed "$HELDOUT_SEED" \
    --per-chunk 1 --jobs "$JOBS" --v2 1 --limit "$EXTRA_HELDOUT" \
    --out "$W/heldout_v2.jsonl" | tee -a "$OUT/device_run.log"

log "2. ids through sb prompt ($JOBS shards)"
split -n "l/$JOBS" -d -a 3 "$W/train.jsonl" "$W/shard."
pids=""
for s in "$W"/shard.[0-9][0-9][0-9]; do
    "$SB" prompt -m "$W/tok.gguf" --tasks "$s" --out "$s.bin" 2>> "$W/prompt.log" &
    pids="$pids $!"
done
for p in $pids; do
    wait "$p" || { cat "$W/prompt.log" >&2; echo "device_run: sb prompt failed" >&2; exit 1; }
done
"$SB" prompt -m "$W/tok.gguf" --tasks "$W/heldout.jsonl" --out "$W/heldout.bin"
"$SB" prompt -m "$W/tok.gguf" --tasks "$W/heldout_na.jsonl" --out "$W/heldout_na.bin"
"$SB" prompt -m "$W/tok.gguf" --tasks "$W/heldout_v2.jsonl" --out "$W/heldout_v2.bin"
python3 - "$W" "$SB" <<'EOF' 2>&1 | tee -a "$OUT/device_run.log" || true
# A cross-check, not a gate: Hugging Face's tokenizer on the subset
# vocabulary against the engine's ids for the first held-out answers.
import json, subprocess, sys
w, sb = sys.argv[1], sys.argv[2]
try:
    from tokenizers import Tokenizer
except ImportError:
    sys.exit("tokenizers check: tokenizers is not installed")
tok = Tokenizer.from_file("tools/train/vocab.json")
same = total = 0
for line in list(open(w + "/heldout.jsonl"))[:50]:
    text = json.loads(line)["edited"]
    ours = subprocess.run([sb, "tokenize", "-m", w + "/tok.gguf", "--no-special"],
                          input=text.encode(), capture_output=True).stdout.split()
    same += [int(x) for x in ours] == tok.encode(text, add_special_tokens=False).ids
    total += 1
print("tokenizers check: %d of %d texts give the engine's ids" % (same, total))
EOF

# IDS_ONLY=1 stops here: the data half runs anywhere (python3, stdlib).
if [ "${IDS_ONLY:-0}" = 1 ]; then
    ls -la "$W" | tee -a "$OUT/device_run.log"
    log "stopping after the ids (IDS_ONLY=1); work files in $W"
    exit 0
fi
python3 -c "import torch, transformers; print('torch', torch.__version__, \
'transformers', transformers.__version__, 'cuda', torch.cuda.is_available())" \
    | tee -a "$OUT/device_run.log"

init_args=()
if [ "$INIT" = widen ]; then
    log "3. starting from $WIDEN_FROM ($(sha256sum < "$WIDEN_FROM" | cut -c1-16)...), widened to F32 and to shape $SHAPE"
    "$SB" quantize "$WIDEN_FROM" "$W/base-f32.gguf" --type f32
    python3 tools/train/widen.py --in "$W/base-f32.gguf" --to "$SHAPE" --seed "$SEED" \
        --out "$W/init-f32.gguf" | tee -a "$OUT/device_run.log"
    rm -f "$W/base-f32.gguf"
    init_args=(--init "$W/init-f32.gguf")
elif [ "$INIT" != none ]; then
    log "3. starting from $INIT ($(sha256sum < "$INIT" | cut -c1-16)...), widened to F32"
    "$SB" quantize "$INIT" "$W/init-f32.gguf" --type f32
    init_args=(--init "$W/init-f32.gguf")
fi
train() {  # train.py with this run's settings and the arguments given
    python3 tools/train/train.py --ids "$W"/shard.*.bin --seed "$SEED" --shape "$SHAPE" \
        --edit-weight "$EDIT_WEIGHT" --mistake-weight "$MISTAKE_WEIGHT" --lr "$LR" \
        "${init_args[@]}" "$@" 2>&1 | tee -a "$OUT/device_run.log"
}
if [ "$BENCH_SECONDS" -gt 0 ]; then
    log "3a. throughput baseline: the bucketed loop for $BENCH_SECONDS s on 4,000 tasks"
    train --out "$W/bench" --seconds "$BENCH_SECONDS" --limit-tasks 4000 --save-every 100000
fi
eval_args=(--eval-ids "$W/heldout.bin" --eval-tasks "$W/heldout.jsonl"
           --eval-extra non_ascii "$W/heldout_na.bin" "$W/heldout_na.jsonl"
           --eval-extra v2 "$W/heldout_v2.bin" "$W/heldout_v2.jsonl")
log "3. training shape $SHAPE for $TRAIN_SECONDS s (edit weight $EDIT_WEIGHT, mistake weight $MISTAKE_WEIGHT, peak lr $LR, pack $PACK, compile $COMPILE)"
started=$(date +%s)
if [ "$PACK" = 1 ]; then
    pack_args=(--pack)
    [ "$COMPILE" = 1 ] && pack_args+=(--compile)
    if ! train --out "$W/run" --seconds "$TRAIN_SECONDS" "${eval_args[@]}" "${pack_args[@]}"; then
        left=$(( TRAIN_SECONDS - ($(date +%s) - started) ))
        [ "$left" -lt 60 ] && left=60
        log "3. the packed loop failed: the bucketed loop for the $left s left"
        rm -rf "$W/run"
        train --out "$W/run" --seconds "$left" "${eval_args[@]}"
    fi
else
    train --out "$W/run" --seconds "$TRAIN_SECONDS" "${eval_args[@]}"
fi
cp "$W/run/train_summary.json" "$OUT/"

log "4. export and quantize ($QUANT)"
# the prompt versions the tasks used: v2 too when V2 > 0 (the engine then
# prompts the model with v2, edit_prompt_version_for)
versions=1
awk -v share="$V2" 'BEGIN { exit !(share + 0 > 0) }' && versions=1,2
python3 tools/train/export_gguf.py --ckpt "$W/run/ckpt.pt" --tokenizer-model "$W/tok.gguf" \
    --prompt-versions "$versions" --shape "$SHAPE" --out "$W/demo-f32.gguf" \
    | tee -a "$OUT/device_run.log"
"$SB" quantize "$W/demo-f32.gguf" "$W/sonicboom-demo.gguf" --type "$QUANT"
"$SB" info "$W/sonicboom-demo.gguf" | tee -a "$OUT/device_run.log"
sha256sum "$W/sonicboom-demo.gguf" | tee -a "$OUT/device_run.log"
if [ "$EVAL_QUANT" = 1 ]; then
    log "4a. the $QUANT file on the held-out set (widened to F32)"
    "$SB" quantize "$W/sonicboom-demo.gguf" "$W/quant-f32.gguf" --type f32
    python3 tools/train/train.py --ids "$W/heldout.bin" --shape "$SHAPE" --eval-only \
        --init "$W/quant-f32.gguf" --eval-ids "$W/heldout.bin" \
        --eval-tasks "$W/heldout.jsonl" --out "$W/qeval" 2>&1 | tee -a "$OUT/device_run.log"
    python3 - "$W/qeval/eval_only.json" "$OUT/train_summary.json" <<'EOF'
import json, sys
summary = json.load(open(sys.argv[2]))
summary["eval_quantized"] = json.load(open(sys.argv[1]))["eval_init"]
json.dump(summary, open(sys.argv[2], "w"), indent=1)
EOF
fi
python3 - "$OUT/train_summary.json" "$W/sonicboom-demo.gguf" "$QUANT" <<'EOF' \
    | tee -a "$OUT/device_run.log"
# The line to compare shapes by: held-out exact match per training minute
# (tools/train/README.md, "Comparing shapes").
import json, os, sys
s = json.load(open(sys.argv[1]))
minutes = s["seconds"] / 60
ev = s.get("eval", {})
line = ("compare: shape %s, %s file %d bytes; %.1f min, %d steps, %.0f M tokens; "
        "held-out exact %.1f%% (%.2f points/min), answer loss %.4f"
        % (s.get("shape_name", "base"), sys.argv[3], os.path.getsize(sys.argv[2]),
           minutes, s["steps"], s["tokens"] / 1e6, 100 * ev.get("exact_match", 0),
           100 * ev.get("exact_match", 0) / minutes, ev.get("answer_loss", 0)))
if "eval_init" in s:  # the starting model (widened: the base model's function)
    line += "; start exact %.1f%%, loss %.4f" % (100 * s["eval_init"]["exact_match"],
                                                  s["eval_init"]["answer_loss"])
if "eval_quantized" in s:
    q = s["eval_quantized"]
    line += "; quantized file exact %.1f%%, loss %.4f" % (100 * q["exact_match"], q["answer_loss"])
print(line)
EOF
python3 tools/train/shape.py --fits "$W/sonicboom-demo.gguf" | tee -a "$OUT/device_run.log" || {
    log "the $QUANT model is over the size limit: not written (train_summary.json is)"
    exit 4
}
# Files come back from $OUT at 16 MiB each at most: the 24 MB model in two
# parts (cat sonicboom-demo.gguf.part-* > sonicboom-demo.gguf).
split -b 12m "$W/sonicboom-demo.gguf" "$OUT/sonicboom-demo.gguf.part-"

log "5. reference logits"
refs "$W/sonicboom-demo.gguf"

if "$SB" edit --help >/dev/null 2>&1; then
    log "6. a demo edit on the CPU (models/demo/ring.c)"
    timeout 40 "$SB" edit -m "$W/sonicboom-demo.gguf" --file models/demo/ring.c \
        --instruction "$(cat models/demo/instruction.txt)" --device cpu \
        > "$OUT/demo_edit.c" 2> "$OUT/demo_edit.log" || log "demo edit failed (see demo_edit.log)"
fi
log "done"
