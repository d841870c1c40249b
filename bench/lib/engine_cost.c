/*
 * engine_cost.c — what a forward step costs (bench.h): the median time of
 * a step per row bucket at a KV depth, and the memory floor it is held
 * against (every decode step streams the weights once, so no step can be
 * faster than weight bytes / memory bandwidth).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "devcopy.h"

const int bench_bucket_rows[BENCH_N_BUCKETS] = {1, 2, 4, 8, 16, 24, 32, 48, 64};

/* Token ids for timed steps: any ids the vocabulary has (costs do not
 * depend on which). */
static void engine_cost__ids(int32_t ids[KRN_MAX_ROWS]) {
    for (int i = 0; i < KRN_MAX_ROWS; i++) ids[i] = (int32_t)(' ' + i);
}

int bench_kv_fill(eng_session *s, int32_t d, sb_err *err) {
    if (d < 0 || (int64_t)d + KRN_MAX_ROWS > eng_session_capacity(s))
        return sb_err_set(err, "bench_kv_fill", "KV depth %d: the session "
                          "holds %d positions, %d rows past it are needed",
                          (int)d, (int)eng_session_capacity(s), KRN_MAX_ROWS);
    int32_t ids[KRN_MAX_ROWS];
    engine_cost__ids(ids);
    float *logits = eng_session_logits(s);
    eng_session_truncate(s, 0);
    while (eng_session_length(s) < d) {
        int32_t left = d - eng_session_length(s);
        int n = left < KRN_MAX_ROWS ? (int)left : KRN_MAX_ROWS;
        if (eng_session_step(s, ids, n, logits, err)) return -1;
    }
    return 0;
}

static int engine_cost__cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_step_ms(eng_session *s, int32_t d, int rows, int reps, double *ms,
                  sb_err *err) {
    enum { MAX_REPS = 256, WARM = 2 };
    if (rows < 1 || rows > KRN_MAX_ROWS || reps < 1 || reps > MAX_REPS ||
        eng_session_length(s) < d)
        return sb_err_set(err, "bench_step_ms", "%d rows, %d reps at depth "
                          "%d (cache holds %d): expected 1..%d rows, 1..%d "
                          "reps, a filled cache", rows, reps, (int)d,
                          (int)eng_session_length(s), KRN_MAX_ROWS, MAX_REPS);
    int32_t ids[KRN_MAX_ROWS];
    engine_cost__ids(ids);
    float *logits = eng_session_logits(s);
    double t[MAX_REPS];
    for (int i = -WARM; i < reps; i++) {
        eng_session_truncate(s, d);
        double t0 = sb_now();
        if (eng_session_step(s, ids, rows, logits, err)) return -1;
        if (i >= 0) t[i] = (sb_now() - t0) * 1e3;
    }
    eng_session_truncate(s, d);
    qsort(t, (size_t)reps, sizeof *t, engine_cost__cmp);
    *ms = t[reps / 2];
    return 0;
}

int bench_prefill_ms(eng_session *s, int32_t n, int chunk, int reps, double *ms,
                     sb_err *err) {
    enum { MAX_REPS = 256 };
    const int32_t n_vocab = eng_n_vocab(eng_session_model(s));
    if (n < 1 || n > eng_session_capacity(s) || reps < 1 || reps > MAX_REPS)
        return sb_err_set(err, "bench_prefill_ms", "%d tokens, %d reps: expected "
                          "1..%d tokens (the capacity), 1..%d reps", (int)n, reps,
                          (int)eng_session_capacity(s), MAX_REPS);
    int32_t *ids = malloc((size_t)n * sizeof *ids);
    if (!ids) return sb_err_set(err, "bench_prefill_ms", "out of memory for %d ids", (int)n);
    for (int32_t i = 0; i < n; i++) ids[i] = (int32_t)(((int64_t)i * 7919 + 13) % n_vocab);
    double t[MAX_REPS];
    int rc = 0;
    for (int i = -1; rc == 0 && i < reps; i++) {
        eng_session_truncate(s, 0);
        double t0 = sb_now();
        rc = eng_session_prefill(s, ids, n, chunk, eng_session_logits(s), err);
        if (i >= 0) t[i] = (sb_now() - t0) * 1e3;
    }
    eng_session_truncate(s, 0);
    free(ids);
    if (rc) return -1;
    qsort(t, (size_t)reps, sizeof *t, engine_cost__cmp);
    *ms = t[reps / 2];
    return 0;
}

static uint64_t engine_cost__tensor_bytes(const krn_tensor *t) {
    uint64_t row = 0;
    if (!t->data || !krn_row_bytes(t->type, t->ne0, &row)) return 0;
    return row * (uint64_t)t->ne1;
}

uint64_t bench_streamed_bytes(const krn_model *m) {
    uint64_t n = engine_cost__tensor_bytes(&m->output_norm) +
                 engine_cost__tensor_bytes(&m->output);
    for (int32_t l = 0; l < m->n_layer; l++) {
        const krn_layer *y = &m->layers[l];
        const krn_tensor *all[] = {&y->attn_norm, &y->wq, &y->wk, &y->wv,
                                   &y->wo, &y->bq, &y->bk, &y->bv,
                                   &y->ffn_norm, &y->w_gate, &y->w_up,
                                   &y->w_down};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            n += engine_cost__tensor_bytes(all[i]);
    }
    return n;
}

/* ---- host read bandwidth ------------------------------------------------- */

typedef struct engine_cost__part {
    const uint64_t *p;
    size_t n;
    uint64_t sum;
} engine_cost__part;

static void *engine_cost__read_part(void *arg) {
    engine_cost__part *w = arg;
    /* Four independent sums let the loads overlap; XOR keeps it cheap. */
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i + 4 <= w->n; i += 4) {
        a ^= w->p[i];
        b ^= w->p[i + 1];
        c ^= w->p[i + 2];
        d ^= w->p[i + 3];
    }
    w->sum = a ^ b ^ c ^ d;
    return NULL;
}

/* One timed pass of nt threads over buf; seconds, or -1 when a thread
 * could not be started. */
static double engine_cost__pass(const uint64_t *buf, size_t words, int nt,
                         uint64_t *sink) {
    pthread_t th[256];
    engine_cost__part parts[256];
    int started = 0;
    double t0 = sb_now();
    for (; started < nt; started++) {
        size_t lo = words * (size_t)started / (size_t)nt;
        size_t hi = words * (size_t)(started + 1) / (size_t)nt;
        parts[started] = (engine_cost__part){buf + lo, hi - lo, 0};
        if (pthread_create(&th[started], NULL, engine_cost__read_part,
                           &parts[started]))
            break;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        *sink ^= parts[i].sum;
    }
    return started == nt ? sb_now() - t0 : -1;
}

int bench_device_copy_gbs(size_t bytes, int passes, double *gbs, sb_err *err) {
    char why[256] = "";
    if (bench__cuda_copy_gbs(bytes, passes, gbs, why, sizeof why))
        return sb_err_set(err, "device bandwidth", "%s", why);
    return 0;
}

int bench_host_read_gbs(int threads, size_t bytes, int passes, double *gbs,
                        sb_err *err) {
    long nt = threads > 0 ? threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
    if (nt > 256) nt = 256;
    size_t words = bytes / 8;
    uint64_t *buf = words >= 1024 ? malloc(words * 8) : NULL;
    if (!buf)
        return sb_err_set(err, "bench_host_read_gbs", "cannot allocate %zu "
                          "bytes to time reads over", bytes);
    memset(buf, 1, words * 8); /* touch every page before timing */
    double best = 0;
    uint64_t sink = 0;
    for (int i = 0; i < (passes > 0 ? passes : 1); i++) {
        double s = engine_cost__pass(buf, words, (int)nt, &sink);
        if (s > 0 && (double)(words * 8) / s / 1e9 > best)
            best = (double)(words * 8) / s / 1e9;
    }
    free(buf);
    volatile uint64_t keep = sink; /* the reads' result is used */
    (void)keep;
    if (best <= 0)
        return sb_err_set(err, "bench_host_read_gbs", "could not start %ld "
                          "reader threads", nt);
    *gbs = best;
    return 0;
}

/* ---- all engine figures ---------------------------------------------------- */

/* Bandwidth, its kind and the floor; a note instead when unmeasurable. */
static void engine_cost__floor(const bench_engine_opts *o, bench_engine *e) {
    sb_err why = {0};
    int rc;
    if (o->device == ENG_DEVICE_CUDA) {
        rc = bench_device_copy_gbs((size_t)1 << 30, 10, &e->bandwidth_gbs, &why);
        snprintf(e->bandwidth_kind, sizeof e->bandwidth_kind,
                 "device-to-device copy (read + write)");
    } else {
        rc = bench_host_read_gbs(o->threads, (size_t)256 << 20, 5,
                                 &e->bandwidth_gbs, &why);
        snprintf(e->bandwidth_kind, sizeof e->bandwidth_kind,
                 "host read, %d threads", o->threads > 0 ? o->threads
                 : (int)sysconf(_SC_NPROCESSORS_ONLN));
    }
    if (rc) {
        e->bandwidth_gbs = 0;
        memcpy(e->bandwidth_note, why.msg, sizeof why.msg);
        return;
    }
    e->floor_ms = (double)e->streamed_bytes / (e->bandwidth_gbs * 1e9) * 1e3;
}

int bench_engine_measure(eng_session *s, const bench_engine_opts *o,
                         bool progress, bench_engine *e, sb_err *err) {
    memset(e, 0, sizeof *e);
    if (o->n_depths < 1 || o->n_depths > BENCH_MAX_DEPTHS ||
        o->cost_depth < 0 || o->cost_depth >= o->n_depths)
        return sb_err_set(err, "bench_engine_measure", "%d depths, pricing "
                          "at #%d: expected 1..%d depths", o->n_depths,
                          o->cost_depth, BENCH_MAX_DEPTHS);
    e->n_depths = o->n_depths;
    e->cost_depth = o->cost_depth;
    e->reps = o->reps;
    snprintf(e->device_name, sizeof e->device_name, "%s",
             eng_session_device_name(s));
    e->streamed_bytes =
        bench_streamed_bytes(eng_model_desc(eng_session_model(s)));
    engine_cost__floor(o, e);
    for (int i = 0; i < o->n_depths; i++) {
        e->depths[i] = o->depths[i];
        if (progress)
            fprintf(stderr, "sb bench: engine: step cost per row bucket at "
                    "KV depth %d\n", (int)o->depths[i]);
        if (bench_kv_fill(s, o->depths[i], err)) return -1;
        for (int j = 0; j < BENCH_N_BUCKETS; j++)
            if (bench_step_ms(s, o->depths[i], bench_bucket_rows[j], o->reps,
                              &e->step_ms[i][j], err))
                return -1;
    }
    eng_session_truncate(s, 0);
    return bench_engine_price(e, err);
}

int bench_engine_price(bench_engine *e, sb_err *err) {
    char source[sizeof e->costs.source];
    snprintf(source, sizeof source, "measured: %.100s, KV depth %d",
             e->device_name, (int)e->depths[e->cost_depth]);
    stepcost_table_empty(&e->costs, source);
    for (int j = 0; j < BENCH_N_BUCKETS; j++)
        if (stepcost_table_set(&e->costs, bench_bucket_rows[j],
                               e->step_ms[e->cost_depth][j], err))
            return -1;
    return 0;
}
