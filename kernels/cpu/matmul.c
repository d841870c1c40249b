/*
 * matmul.c — y = W·x for a batch of rows, W of any krn_type.
 *
 * Float order: one output is exactly the canonical dot of kernels.h §2 —
 * krn_dot_q(unpacked weight row, quantized x row) for quantized types,
 * krn_dot_f(dequantized weight row, x row) for F32/F16/BF16 — then the
 * epilogue, one rounded add: y = dot + bias[o], or y = y_old + dot.
 *
 * Quantized rows run the fused kernel of the backend's instruction set
 * (qdot.h: AVX2, AVX-VNNI or AVX-512 on x86-64) when the type has one: it
 * reads the weight row's blocks once for all batch rows and gives the
 * reference's bits.
 * Otherwise (the scalar fallback, Q4_1, Q5_1) a thread unpacks each weight
 * row of its range once per step into its own buffer and runs every batch
 * row against it while it is hot in cache.
 *
 * Parallelism: the outputs of the group (its matrices' rows, concatenated)
 * are claimed by the threads in runs of whole tiles, and each output is
 * computed wholly by one thread, so neither the thread count nor which
 * thread took a run ever changes a bit.
 */
#include <string.h>

#include "qdot.h"

/* The epilogue of outputs o..o+n-1 of batch row r from their dots d (one
 * rounded add each, or none): y = dot + bias, y = y_old + dot, or both,
 * y = y_old + (dot + bias). The only place the rule is written; the
 * branches are per span, not per output. */
static inline void krn_cpu__mm_store(const krn_cpu_mm_out *out, int r, int64_t o,
                                     const float *d, int n) {
    float *y = out->y + (int64_t)r * out->ldy + o;
    const float *b = out->bias ? out->bias + o : NULL;
    if (b && out->accumulate)
        for (int i = 0; i < n; i++) y[i] = y[i] + (d[i] + b[i]);
    else if (b)
        for (int i = 0; i < n; i++) y[i] = d[i] + b[i];
    else if (out->accumulate)
        for (int i = 0; i < n; i++) y[i] = y[i] + d[i];
    else if (n == KRN_CPU_TILE_MAX) /* a whole wide tile: a fixed-size copy
                                     * the compiler inlines, not a call */
        memcpy(y, d, sizeof *y * KRN_CPU_TILE_MAX);
    else
        memcpy(y, d, sizeof *y * (size_t)n);
}

/* Outputs [o0, o1) of out by the fused kernel f, tw (its tile width) at a
 * time. The kernels take at most KRN_MAX_ROWS rows (qdot.h), so a larger
 * batch (a long prefill chunk) runs each tile over slabs of 64 rows while
 * the tile's weights are still in cache; every output is still one whole
 * canonical dot, so the slabs change no bit. */
static void krn_cpu__mm_fused(const krn_cpu_mm *mm, const krn_cpu_mm_out *out,
                              int64_t o0, int64_t o1, krn_cpu_qdot_fn f, int tw,
                              uint64_t row_bytes) {
    const int64_t nb = mm->n_in / KRN_QBLOCK;
    const krn_act_block *xq = krn_type_is_kquant(out->w->type) ? mm->xq : mm->xq32;
    float dots[KRN_MAX_ROWS * KRN_CPU_TILE_MAX];
    for (int64_t o = o0; o < o1; o += tw) {
        const int n_out = o1 - o < tw ? (int)(o1 - o) : tw;
        for (int r0 = 0; r0 < mm->n_rows; r0 += KRN_MAX_ROWS) {
            const int rows = mm->n_rows - r0 < KRN_MAX_ROWS ? mm->n_rows - r0
                                                            : KRN_MAX_ROWS;
            f((const uint8_t *)out->w->data + (uint64_t)o * row_bytes, row_bytes,
              n_out, xq + (int64_t)r0 * nb, nb, rows, nb, dots);
            for (int r = 0; r < rows; r++)
                krn_cpu__mm_store(out, r0 + r, o, dots + r * tw, n_out);
        }
    }
}

/* One thread's slice [o0, o1) of out's rows. */
static void krn_cpu__mm_rows(const krn_cpu_mm *mm, const krn_cpu_mm_out *out,
                             int64_t o0, int64_t o1, krn_wblock *wb, float *fb) {
    const krn_tensor *w = out->w;
    const int64_t n = mm->n_in, nb = n / KRN_QBLOCK;
    uint64_t row_bytes = 0;
    /* Checked by krn_model_check; cannot fail here. */
    (void)krn_row_bytes(w->type, n, &row_bytes);
    const krn_cpu_qdot_fn fused = krn_cpu_qdot(w->type, (krn_cpu_isa)mm->isa);
    if (fused) {
        krn_cpu__mm_fused(mm, out, o0, o1, fused,
                          krn_cpu_qdot_width((krn_cpu_isa)mm->isa), row_bytes);
        return;
    }
    const bool quantized = krn_type_is_quantized(w->type);
    const krn_act_block *xq = krn_type_is_kquant(w->type) ? mm->xq : mm->xq32;
    for (int64_t o = o0; o < o1; o++) {
        const void *row = (const unsigned char *)w->data + (uint64_t)o * row_bytes;
        if (quantized)
            krn_unpack_row(w->type, row, wb, n);
        else
            krn_dequantize_row(w->type, row, fb, n);
        for (int r = 0; r < mm->n_rows; r++) {
            float v = quantized ? krn_dot_q(wb, xq + (int64_t)r * nb, nb, w->type)
                                : krn_dot_f(fb, mm->x + (int64_t)r * mm->ldx, n);
            krn_cpu__mm_store(out, r, o, &v, 1);
        }
    }
}

/* Outputs [lo, hi) of the group's concatenated matrices. */
static void krn_cpu__mm_range(const krn_cpu_mm *mm, int64_t lo, int64_t hi,
                              krn_wblock *wb, float *fb) {
    int64_t base = 0;
    for (int j = 0; j < mm->n_out && base < hi; j++) {
        const int64_t ne1 = mm->out[j].w->ne1;
        const int64_t o0 = lo > base ? lo - base : 0;
        const int64_t o1 = hi - base < ne1 ? hi - base : ne1;
        if (o0 < o1) krn_cpu__mm_rows(mm, &mm->out[j], o0, o1, wb, fb);
        base += ne1;
    }
}

void krn_cpu_matmul_task(void *ctx, int tid, int n_threads) {
    krn_cpu_mm *mm = ctx;
    int64_t total = 0;
    for (int j = 0; j < mm->n_out; j++) total += mm->out[j].w->ne1;
    /* Whole tiles (a fused kernel computes tw outputs at once), claimed
     * in runs of consecutive tiles: about 4 a thread, so a thread that
     * starts late still finds some, and the next-tile prefetch mostly
     * fetches what its own thread reads next. */
    const int64_t tw = krn_cpu_qdot_width((krn_cpu_isa)mm->isa);
    const int64_t tiles = (total + tw - 1) / tw;
    int64_t chunk = tiles / (4 * (int64_t)n_threads);
    if (chunk < 1) chunk = 1;
    krn_wblock *wb = mm->wbuf + (int64_t)tid * mm->wbuf_stride;
    float *fb = mm->fbuf + (int64_t)tid * mm->fbuf_stride;
    int64_t lo, hi;
    while (krn_cpu_claim(&mm->next, tiles, chunk, &lo, &hi))
        krn_cpu__mm_range(mm, lo * tw, hi * tw < total ? hi * tw : total, wb, fb);
}
