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
    python3 tools/train/trained_ref.py "$model" "$W/ref.bin" "$OUT/ref_trained.bin" \
        2>&1 | tee -a "$OUT/device_run.log"
}

test -x "$SB" || { echo "device_run: no sb at $SB (set SB)" >&2; exit 1; }
"$SB" --help >/dev/null
if [ "$MODE" = refs ]; then
    refs "${MODEL:-models/sonicboom-demo.gguf}"
    exit 0
fi
test -f "$CORPUS" || { echo "device_run: no corpus at $CORPUS" >&2; exit 1; }
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
if [ "$INIT" != none ]; then
    log "3. starting from $INIT ($(sha256sum < "$INIT" | cut -c1-16)...), widened to F32"
    "$SB" quantize "$INIT" "$W/init-f32.gguf" --type f32
    init_args=(--init "$W/init-f32.gguf")
fi
train() {  # train.py with this run's settings and the arguments given
    python3 tools/train/train.py --ids "$W"/shard.*.bin --seed "$SEED" \
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
log "3. training for $TRAIN_SECONDS s (edit weight $EDIT_WEIGHT, mistake weight $MISTAKE_WEIGHT, peak lr $LR, pack $PACK, compile $COMPILE)"
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

log "4. export and quantize"
# the prompt versions the tasks used: v2 too when V2 > 0 (the engine then
# prompts the model with v2, edit_prompt_version_for)
versions=1
awk -v share="$V2" 'BEGIN { exit !(share + 0 > 0) }' && versions=1,2
python3 tools/train/export_gguf.py --ckpt "$W/run/ckpt.pt" --tokenizer-model "$W/tok.gguf" \
    --prompt-versions "$versions" --out "$W/demo-f32.gguf" | tee -a "$OUT/device_run.log"
"$SB" quantize "$W/demo-f32.gguf" "$W/sonicboom-demo.gguf" --type q8_0
"$SB" info "$W/sonicboom-demo.gguf" | tee -a "$OUT/device_run.log"
sha256sum "$W/sonicboom-demo.gguf" | tee -a "$OUT/device_run.log"
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
