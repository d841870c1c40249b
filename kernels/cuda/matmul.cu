// matmul.cu — y = W·x for a batch of rows, W of any krn_type: picks the
// kernel for the weight type and fills its launch parameters.
//
//   K-quants (Q4_K, Q5_K, Q6_K)   mmvq.cu for steps of up to cfg->mmvq_rows
//                                 rows, mmq.cu for more: int8 tensor cores on
//                                 the weights repacked at load (repack.cu)
//   Q4_0, Q4_1, Q5_0, Q5_1, Q8_0  mm_block32.cu: a warp per output
//   F32, F16, BF16                mm_float.cu: a warp per output
// Each kernel's header states the order it keeps; all of them keep
// kernels.h §2's, so the choice never changes a bit. CPU reference:
// kernels/cpu/matmul.c.
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"
#include "kquant.cuh"
#include "mmq.cuh"

static int krn_cuda__mm_check(const krn_cuda_mm *mm, sb_err *err) {
    const krn_cuda_mat *w = mm->w;
    const bool quantized = krn_type_is_quantized(w->type);
    if (mm->n_rows < 1 || mm->n_rows > KRN_MAX_BATCH_ROWS)
        return sb_err_set(err, "krn_cuda_matmul", "n_rows is %d; expected 1..%d",
                          mm->n_rows, KRN_MAX_BATCH_ROWS);
    if (w->ne0 < KRN_QBLOCK || w->ne0 % KRN_QBLOCK || w->ne1 < 1 ||
        w->ne0 / KRN_QBLOCK > INT32_MAX / 64 || mm->ldy < w->ne1)
        return sb_err_set(err, "krn_cuda_matmul", "shape [%lld, %lld], ldy "
                          "%lld: expected a positive multiple of %d inputs and "
                          "ldy >= outputs", (long long)w->ne0,
                          (long long)w->ne1, (long long)mm->ldy, KRN_QBLOCK);
    const bool kquant = krn_type_is_kquant(w->type);
    if ((quantized && (!mm->xq || mm->xq->q_stride < w->ne0)) || (!quantized && !mm->x) ||
        !mm->y || (kquant ? !w->packed : !w->data))
        return sb_err_set(err, "krn_cuda_matmul", "a %s input, the output or "
                          "the weights are NULL", quantized ? "quantized" : "float");
    if (mm->bias && mm->accumulate)
        return sb_err_set(err, "krn_cuda_matmul", "bias and accumulate are "
                          "both set; expected at most one");
    return 0;
}

// The quantized matmuls mm[0..n-1] (one type and input) as one launch.
static int krn_cuda__matmul_q(const krn_cuda_mm *mm, int n, const krn_cuda_cfg *cfg,
                              krn_cuda_exec ex, sb_err *err) {
    const krn_type type = mm[0].w->type;
    const bool kquant = krn_type_is_kquant(type);
    krn_cuda_mmq_params p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < n; i++) {
        krn_cuda_mmq_out *o = &p.out[i];
        o->w = kquant ? mm[i].w->packed : mm[i].w->data;
        o->row_bytes = mm[i].w->row_bytes;
        o->ne1 = mm[i].w->ne1;
        o->tiles = (o->ne1 + KRN_CUDA_KQ_TILE - 1) / KRN_CUDA_KQ_TILE;
        o->bias = mm[i].bias;
        o->y = mm[i].y;
        o->ldy = mm[i].ldy;
        o->accumulate = mm[i].accumulate;
    }
    const int64_t ne0 = mm[0].w->ne0, group = krn_act_group(type);
    p.n_out = n;
    p.nsb = (int)(ne0 / group);
    p.group_blocks = (int)(group / KRN_QBLOCK);
    p.len = (int)krn_chunk_len(p.nsb);
    p.nchunks = (p.nsb + p.len - 1) / p.len;
    const krn_cuda_act *xq = mm[0].xq;
    p.xq = xq->q, p.xd = xq->d, p.xs = xq->s;
    p.q_stride = xq->q_stride, p.d_stride = xq->d_stride, p.s_stride = xq->s_stride;
    p.n_rows = mm[0].n_rows;
    p.allow_split = cfg->mm_split;
    p.part = cfg->mm_part, p.part_cap = cfg->mm_part_cap;
    p.count = cfg->mm_count, p.count_cap = cfg->mm_count_cap;
    if (kquant && p.n_rows <= cfg->mmvq_rows)
        return krn_cuda_mmvq(&p, type, cfg->sms, cfg->mmvq_warps, ex, err);
    if (kquant) return krn_cuda_mmq(&p, type, cfg->sms, cfg->mmq_stages, ex, err);
    return krn_cuda_mm_block32(&p, type, ex, err);
}

int krn_cuda_matmul(const krn_cuda_mm *mm, int n, const krn_cuda_cfg *cfg,
                    krn_cuda_exec ex, sb_err *err) {
    if (n < 1 || n > KRN_CUDA_MMQ_MAX_OUT)
        return sb_err_set(err, __func__, "%d matrices; expected 1..%d", n,
                          KRN_CUDA_MMQ_MAX_OUT);
    for (int i = 0; i < n; i++)
        if (krn_cuda__mm_check(&mm[i], err)) return -1;
    for (int i = 0; i < n;) {
        const krn_cuda_mat *w = mm[i].w;
        if (!krn_type_is_quantized(w->type)) {
            if (krn_cuda_matmul_f(&mm[i], ex, err)) return -1;
            i++;
            continue;
        }
        int k = i + 1; // the run of matrices that share a launch
        while (k < n && mm[k].w->type == w->type && mm[k].w->ne0 == w->ne0 &&
               mm[k].xq == mm[i].xq && mm[k].n_rows == mm[i].n_rows)
            k++;
        if (krn_cuda__matmul_q(&mm[i], k - i, cfg, ex, err)) return -1;
        i = k;
    }
    return 0;
}

// ---- setup ---------------------------------------------------------------------

int krn_cuda_matmul_setup(krn_cuda_cfg *cfg, const krn_tuning *t, int device, sb_err *err) {
    static_assert((int)KRN_MMVQ_MAX_ROWS == (int)KRN_CUDA_MMVQ_MAX_ROWS, "kernels.h's bound is mmvq's");
    cfg->mm_split = !t->no_matmul_split;
    enum { MMVQ_DEFAULT_ROWS = 8 }; // 16 was slower on an H100 (bench/RESULTS.md, ninth pass)
    cfg->mmvq_rows = t->mmvq_rows == KRN_TUNE_NONE ? 0
                     : t->mmvq_rows == 0          ? MMVQ_DEFAULT_ROWS
                                                  : t->mmvq_rows;
    cfg->mmvq_warps = t->mmvq_warps;
    int major = 0;
    if (KRN_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                              device), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&cfg->sms, cudaDevAttrMultiProcessorCount,
                                              device), err))
        return -1;
    if (major < 8)
        return sb_err_set(err, __func__, "compute capability %d.x: the matmuls need "
                          "int8 tensor cores (8.0 or newer)", major);
    return krn_cuda_mmq_setup(device, &cfg->mmq_stages, err);
}
