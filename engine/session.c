/*
 * session.c — one sequence: a backend, its KV cache length, and the steps
 * that append tokens to it.
 *
 * The KV cache itself lives in the backend; the session only tracks how many
 * slots hold this sequence. Rolling back is lowering that count: the slots
 * beyond it are overwritten by the next step and never read before then,
 * because a row at position p attends to slots 0..p only.
 *
 * The prefix cache (eng_session_reuse) rests on the same fact: the K/V of
 * position p is a function of the tokens at 0..p alone, and the same bits
 * whatever steps computed it (docs/determinism.md), so a new prompt that
 * starts with tokens already held needs only the rest computed.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

struct eng_session {
    const eng_model *model; /* borrowed */
    krn_backend *backend;   /* owned */
    int32_t n_vocab;
    int32_t length;         /* positions 0..length-1 hold this sequence */
    int32_t capacity;
    /* A sliding window's ring (krn_kv_slots) keeps only the last kv_slots
     * positions written: `written` is one past the highest since the last
     * reset, so a step can tell when a truncation went back further than
     * the ring remembers. */
    int32_t kv_slots, written;
    int32_t prefill_chunk;  /* eng_options.prefill_chunk (0 made 64): a
                               generation's chunk unless it names one */
    int32_t max_rows;       /* the most rows of a prefill step: the
                               backend's max_batch_rows, at least 64 */
    float *logits;          /* KRN_MAX_ROWS * n_vocab scratch, owned (a
                               larger batch's logits are its last 64 rows
                               at most: kernels.h, krn_batch) */
    int32_t *held;          /* capacity ids: held[p] is the token whose K/V
                               position p holds, for p < length; owned */
};

static int eng__default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* eng_options.prefill_chunk checked, 0 made KRN_MAX_ROWS; -1 with err. */
static int32_t eng__prefill_chunk(const eng_options *opt, sb_err *err) {
    if (opt->prefill_chunk == 0) return KRN_MAX_ROWS;
    if (opt->prefill_chunk < 1 || opt->prefill_chunk > KRN_MAX_BATCH_ROWS) {
        sb_err_set(err, "eng_session_create", "prefill_chunk is %d; expected "
                   "0 (%d) or 1..%d", (int)opt->prefill_chunk, KRN_MAX_ROWS,
                   KRN_MAX_BATCH_ROWS);
        return -1;
    }
    return opt->prefill_chunk;
}

/* The backend, made for steps of up to 64 rows (verify steps, and every
 * prefill chunk by default) or for the session's longer prefill chunk. */
static krn_backend *eng__backend_create(const eng_model *m,
                                        const eng_options *opt, int32_t capacity,
                                        int32_t prefill_chunk, sb_err *err) {
    krn_options ko = {
        .n_threads = opt->n_threads > 0 ? opt->n_threads : eng__default_threads(),
        .kv_capacity = capacity,
        .max_batch_rows = prefill_chunk > KRN_MAX_ROWS ? prefill_chunk : 0,
        .choices = opt->choices,
        .n_choices = opt->n_choices,
        .tuning = opt->tuning,
    };
    if (opt->device == ENG_DEVICE_CUDA)
        return krn_cuda_create(eng_model_desc(m), &ko, err);
    return krn_cpu_create(eng_model_desc(m), &ko, err);
}

eng_session *eng_session_create(const eng_model *m, const eng_options *opt,
                                sb_err *err) {
    eng_options defaults = {0};
    if (!opt) opt = &defaults;
    int32_t model_ctx = eng_model_n_ctx(m);
    int32_t capacity = opt->n_ctx > 0 ? opt->n_ctx
                                      : (model_ctx < 4096 ? model_ctx : 4096);
    if (capacity < 1 || capacity > model_ctx) {
        sb_err_set(err, __func__, "context size %d is out of range (1..%d, the "
                   "model's context_length)", (int)capacity, (int)model_ctx);
        return NULL;
    }
    const int32_t chunk = eng__prefill_chunk(opt, err);
    if (chunk < 0) return NULL;
    eng_session *s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->model = m;
    s->n_vocab = eng_n_vocab(m);
    s->capacity = capacity;
    s->prefill_chunk = chunk;
    s->max_rows = chunk > KRN_MAX_ROWS ? chunk : KRN_MAX_ROWS;
    s->backend = eng__backend_create(m, opt, capacity, chunk, err);
    if (!s->backend) goto fail;
    s->kv_slots = krn_kv_slots(eng_model_desc(m), capacity,
                               chunk > KRN_MAX_ROWS ? chunk : 0);
    s->logits = krn_host_alloc(s->backend, (size_t)KRN_MAX_ROWS *
                                               (size_t)s->n_vocab * sizeof(float));
    if (!s->logits) goto oom;
    s->held = malloc((size_t)capacity * sizeof *s->held);
    if (!s->held) goto oom;
    return s;
oom:
    sb_err_set(err, __func__, "out of memory for the session's logits "
               "(%d rows x %d vocab floats)", KRN_MAX_ROWS, (int)eng_n_vocab(m));
fail:
    eng_session_destroy(s);
    return NULL;
}

void eng_session_destroy(eng_session *s) {
    if (!s) return;
    if (s->backend) {
        krn_host_free(s->backend, s->logits);
        krn_destroy(s->backend);
    }
    free(s->held);
    free(s);
}

int32_t eng_session_length(const eng_session *s) { return s->length; }
int32_t eng_session_capacity(const eng_session *s) { return s->capacity; }
float *eng_session_logits(eng_session *s) { return s->logits; }
int eng_session_prefill_chunk(const eng_session *s) { return s->prefill_chunk; }

void eng_session_device_memory(const eng_session *s, int64_t *session_bytes,
                               int64_t *device_used_bytes) {
    krn_device_memory(s->backend, session_bytes, device_used_bytes);
}
int64_t eng_session_bytes(const eng_session *s) {
    int64_t device = 0, used = 0;
    krn_device_memory(s->backend, &device, &used);
    const krn_model *d = eng_model_desc(s->model);
    /* fp16 keys and values (docs/determinism.md) of every layer and slot */
    const int64_t kv = device > 0 ? 0
                                  : (int64_t)d->n_layer * s->kv_slots *
                                        d->n_head_kv * d->head_dim * 2 * 2;
    return device + kv + (int64_t)KRN_MAX_ROWS * s->n_vocab * (int64_t)sizeof(float) +
           (int64_t)s->capacity * (int64_t)sizeof *s->held;
}

const char *eng_session_device_name(const eng_session *s) {
    return krn_device_name(s->backend);
}
const eng_model *eng_session_model(const eng_session *s) { return s->model; }
const char *eng_session_backend(const eng_session *s) {
    return krn_backend_name(s->backend);
}
int eng_session_choices(const eng_session *s, const krn_choice **out) {
    return krn_choices(s->backend, out);
}
int eng_session_measurements(const eng_session *s) {
    return krn_measurements(s->backend);
}

void eng_session_truncate(eng_session *s, int32_t n) {
    if (n < 0) n = 0;
    if (n < s->length) s->length = n;
    if (s->length == 0) s->written = 0;
}

/* Whether a step at position `length` can run: with a sliding window its
 * first row reads positions from length - window + 1 on, and the ring must
 * still hold them (it holds the last kv_slots positions written). */
static bool eng__ring_holds(const eng_session *s, int32_t length) {
    const int32_t window = eng_model_desc(s->model)->window;
    if (window <= 0) return true;
    const int32_t need = length - window + 1 > 0 ? length - window + 1 : 0;
    const int32_t held = s->written - s->kv_slots > 0 ? s->written - s->kv_slots : 0;
    return need >= held;
}

static int eng__window_check(const eng_session *s, sb_err *err) {
    if (eng__ring_holds(s, s->length)) return 0;
    const int32_t window = eng_model_desc(s->model)->window;
    const int32_t need = s->length - window + 1 > 0 ? s->length - window + 1 : 0;
    const int32_t held = s->written - s->kv_slots;
    return sb_err_set(err, "eng_session_step", "the sliding-window cache no "
                      "longer holds positions %d..%d (the session was cut "
                      "back to %d after reaching %d); prefill again from 0",
                      (int)need, (int)held - 1, (int)s->length, (int)s->written);
}

/* eng_session_step, with the logits of rows logits_from..n_rows-1 only
 * (krn_batch.logits_from: the rows before may or may not be written; above
 * 64 rows, batch row r's logits are at row r - krn_logits_row0(n_rows) of
 * `logits`). n_rows may go up to the session's prefill chunk. Its messages
 * name eng_session_step, the call a user knows. */
static int eng__step(eng_session *s, const int32_t *ids, int n_rows,
                     float *logits, int logits_from, sb_err *err) {
    if (n_rows < 1 || n_rows > s->max_rows)
        return sb_err_set(err, "eng_session_step", "step of %d rows; expected "
                          "1..%d", n_rows, (int)s->max_rows);
    if (n_rows > s->capacity - s->length)
        return sb_err_set(err, "eng_session_step", "context full: %d tokens "
                          "held, %d more asked, capacity %d (raise --ctx)",
                          (int)s->length, n_rows, (int)s->capacity);
    if (eng__window_check(s, err)) return -1;
    int32_t pos[KRN_MAX_BATCH_ROWS];
    for (int r = 0; r < n_rows; r++) pos[r] = s->length + r;
    krn_batch b = {.n_rows = n_rows, .tokens = ids, .pos = pos, .logits = logits,
                   .logits_from = logits_from};
    if (krn_forward(s->backend, &b, err)) return -1;
    memcpy(s->held + s->length, ids, (size_t)n_rows * sizeof *ids);
    s->length += n_rows;
    if (s->length > s->written) s->written = s->length;
    return 0;
}

int32_t eng_session_reuse(eng_session *s, const int32_t *ids, int32_t n) {
    int32_t keep = 0;
    const int32_t most = n - 1 < s->length ? n - 1 : s->length;
    while (keep < most && s->held[keep] == ids[keep]) keep++;
    /* A ring that no longer holds the window behind `keep` cannot continue
     * from there; a shorter prefix needs even older positions, so start
     * again from 0. */
    if (keep > 0 && !eng__ring_holds(s, keep)) keep = 0;
    eng_session_truncate(s, keep);
    return keep;
}

/* Every row's logits: a verify step samples them all (engine/spec.c). */
int eng_session_step(eng_session *s, const int32_t *ids, int n_rows,
                     float *logits, sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_ROWS)
        return sb_err_set(err, "eng_session_step", "step of %d rows; expected "
                          "1..%d", n_rows, KRN_MAX_ROWS);
    return eng__step(s, ids, n_rows, logits, 0, err);
}

int eng_session_prefill(eng_session *s, const int32_t *ids, int32_t n,
                        int chunk, float *last_logits, sb_err *err) {
    if (chunk < 1 || chunk > s->max_rows)
        return sb_err_set(err, __func__, "prefill chunk of %d rows; expected "
                          "1..%d (64, or the session's eng_options.prefill_chunk "
                          "when larger)", chunk, (int)s->max_rows);
    if (n > s->capacity - s->length)
        return sb_err_set(err, __func__, "prompt of %d tokens does not fit: %d "
                          "held, capacity %d (raise --ctx)", (int)n,
                          (int)s->length, (int)s->capacity);
    for (int32_t done = 0; done < n;) {
        int rows = n - done < chunk ? (int)(n - done) : chunk;
        const bool last = done + rows == n;
        /* Only the prompt's last row is ever read: every other row skips
         * the LM head (krn_batch.logits_from), which changes no bit of the
         * last row's logits (docs/determinism.md). */
        const int from = last && last_logits ? rows - 1 : rows;
        if (eng__step(s, ids + done, rows, s->logits, from, err)) return -1;
        done += rows;
        /* The last row's logits row: rows - 1, or 63 in a batch of more
         * than 64 rows (kernels.h, krn_logits_row0). */
        const size_t at = (size_t)(rows - 1 - krn_logits_row0(rows));
        if (last && last_logits) /* may be s->logits itself */
            memmove(last_logits, s->logits + at * (size_t)s->n_vocab,
                   (size_t)s->n_vocab * sizeof(float));
    }
    return 0;
}
