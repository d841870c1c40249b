// attention.cu — each query head against the fp16 KV cache, in fixed chunks.
//
// CPU reference: kernels/cpu/attention.c, whose header states the contract
// these kernels perform step by step (fp32, each operation rounded as
// written; fp16 keys and values widened exactly; krn_exp is the port in
// canon_math.cuh):
//   1. score_t = lane_sum_d(q_d * k_t[d]) * (1 / sqrt(hd))
//   2. chunks of KRN_ATTN_CHUNK = 64 slots by absolute index; per chunk
//      m = running strict maximum from the first slot, p_t = exp(score_t - m),
//      l = Σ p_t and acc[d] = Σ p_t * v_t[d], each added in slot order from 0
//   3. merge left to right: M' = max, a = exp(M - M'), b = exp(m_b - M'),
//      L = L*a + l_b*b, ACC[d] = ACC[d]*a + acc_b[d]*b
//   4. out[d] = ACC[d] / L
//
// The kernels, one file per family (attn.cuh holds what they share):
//   attn_split.cu  split-KV: krn_cuda_attn_chunk_kernel computes steps 1 and
//                  2 for every (row, chunk, head) in parallel and stores
//                  each chunk's (m, l, acc); krn_cuda_attn_merge_kernel
//                  performs steps 3 and 4 per (row, head), chunk by chunk in
//                  order
//   attn_rows.cu   rows (head_dim 64 or 128): krn_cuda_attn_rows_kernel
//                  writes the same chunk states as the chunk kernel, one
//                  block per (chunk, KV head, tile of rows) instead of per
//                  (chunk, heads, row), so a chunk's keys and values are
//                  staged once for many rows; the same merge follows
//   attn_ref.cu    the first kernel: one block per (row, head) walking
//                  every chunk, no merge
// This file picks one and plans its launches (grids, batches of chunk
// states, the merge after each batch).
//
// Which one runs (krn_cuda_attention, a->mode = krn_cuda_cfg.attn, from
// krn_tuning.attention, which programs read from SB_CUDA_ATTN):
//   auto (the default): the first kernel for a step of at most
//     16 rows whose keys all lie in one chunk (no merge to do; its one
//     launch per (row, head) beats split-KV's phases there); else rows
//     when it applies (head_dim 64 or 128, the group fits a block), the
//     step has at least 4 rows and the launch's grid (chunks of the first
//     launch, i.e. of a merge batch, x KV heads x row tiles) has at least
//     one block per multiprocessor of the GPU; else split-KV;
//   rows: rows wherever it applies, else split-KV;
//   split: split-KV; ref: the first kernel, one
//     block per (row, head) walking every chunk (no merge).
// The choice depends only on the row bucket, the chunk span and the GPU —
// all fixed when a step's graph is captured (forward.cu re-captures when
// the span changes) — and can change no bit: both kernels perform the
// contract's sequence.
// Why (7B shape, 28 layers, 4 KV heads of 7 query heads, head_dim 128;
// H200, 132 SMs, 2026-12-02; ms per step, split / rows):
//   rows            1     2     4     8    16    24    32    48    64
//   depth 0      3.13  3.75  4.86  6.52  7.63  8.88 10.19 17.39 19.09
//                3.86  4.36  5.51  7.17  8.19  9.45 10.69 17.79 19.28
//   depth 4096   3.92  4.64  6.63  9.86 14.21 18.56 23.00 36.54 44.26
//                4.02  4.48  5.63  8.13 11.54 14.52 17.62 28.45 33.51
// Deep, rows wins by 1.18-1.32x from 4 rows on; at depth 0 (one chunk:
// the rows kernel has 4 blocks for a row, 64 for 64 rows, on 132 SMs) the
// GPU is mostly idle and split-KV's many small blocks win by 0.2-0.7 ms.
// On this table the rule picks split-KV at depth 0 and for 1 and 2 rows,
// rows for every other entry (at 2 rows deep rows is 0.16 ms faster: the
// floor of 4 rows gives that up). Then (2026-12-03, same card, ms per step
// at depth 0, split / the first kernel): 1 row 2.80 / 2.67, 2 rows 3.51 /
// 3.39, 4 rows 4.74 / 4.61, 8 rows 6.06 / 5.97, 16 rows 7.16 / 7.19, 24
// rows 8.41 / 8.54 — so the first kernel takes single-chunk steps of up to
// 16 rows. (Deep, it walks every chunk alone: 108 ms at 4096.)
#include "attn.cuh"

// The auto rule's thresholds (above).
enum {
    KRN_CUDA__REF_MAX_ROWS = 16, // single-chunk steps up to this many rows: the first kernel
    KRN_CUDA__ROWS_MIN_ROWS = 4, // fewer rows go to split-KV
};

// ---- setup ------------------------------------------------------------------------

// The plan reads cfg->attn_optin (set here) and cfg->sms (the device's
// multiprocessors, set by krn_cuda_matmul_setup) for auto's block count.
int krn_cuda_attention_setup(krn_cuda_cfg *cfg, int32_t head_dim, int32_t group, sb_err *err) {
    int dev = 0, optin = 0;
    if (KRN_CUDA_CHECK(cudaGetDevice(&dev), err) ||
        KRN_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                              dev), err))
        return -1;
    cfg->attn_optin = optin;
    size_t need = krn_cuda__chunk_smem(head_dim, group);
    if (need > (size_t)optin) need = (size_t)optin;
    return krn_cuda__attn_chunk_setup(need, err);
}

// ---- the plan ---------------------------------------------------------------------

// Rows a block of the rows kernel takes for a step of n_rows rows: at most
// 32 pairs (32 / group rows) and KRN_CUDA__ROWS_SMEM bytes, evened out over
// the step's tiles (5 rows of at most 4 a tile: 3 + 2, not 4 + 1). The tile
// changes no bits: every pair runs its own sequence. 0 where the kernel does
// not apply: head_dim other than 64 or 128, or a group too wide for a block.
static int krn_cuda__rows_tile(int32_t hd, int32_t group, int n_rows) {
    if ((hd != 64 && hd != 128) || group > KRN_CUDA__ROWS_PAIRS * KRN_CUDA__ROWS_WARPS)
        return 0;
    int tile = KRN_CUDA__ROWS_PAIRS * KRN_CUDA__ROWS_WARPS / group;
    while (tile > 0 && krn_cuda__rows_smem(hd, tile, group) > KRN_CUDA__ROWS_SMEM) tile--;
    if (tile < 1) return 0;
    const int tiles = (n_rows + tile - 1) / tile;
    return (n_rows + tiles - 1) / tiles;
}

// A step's chunk kernel with everything but the batch: the rows kernel
// (tile > 0) or the split-KV chunk kernel.
struct krn_cuda__chunker {
    int tile;                 // rows a block of the rows kernel; 0: split-KV
    int32_t hd;
    krn_cuda__chunk_p cp;     // split-KV
    krn_cuda__rows_p rp;      // rows
    unsigned gy, gz, threads; // grid y and z, block size
    size_t smem;
};

// The fields the split-KV and rows kernels' parameters share, from a.
template <class P> static void krn_cuda__shared_params(P *p, const krn_cuda_attn *a) {
    p->q = a->q;
    p->k = a->k_cache;
    p->v = a->v_cache;
    p->pos = a->pos;
    p->out = a->out;
    p->part = a->part;
    p->n_head = a->n_head;
    p->n_head_kv = a->n_head_kv;
    p->window = a->window;
    p->kv_slots = a->kv_slots;
    p->cbase = a->span.c_lo;
}

// The split-KV kernel's plan. Heads per block: all of a KV head's group when
// that already makes enough blocks; fewer (more blocks) for a few short
// rows. Never more than the shared memory allows (optin bytes).
static int krn_cuda__plan_split(const krn_cuda_attn *a, int optin, krn_cuda__chunker *k,
                                sb_err *err) {
    const int32_t hd = a->head_dim, group = a->n_head / a->n_head_kv;
    int32_t hpc = group;
    const int64_t blocks = (int64_t)a->n_rows * a->n_head_kv * a->span.nc;
    while (hpc > 1 && blocks * ((group + hpc - 1) / hpc) < 256) hpc = (hpc + 1) / 2;
    while (hpc > 1 && krn_cuda__chunk_smem(hd, hpc) > (size_t)optin) hpc = (hpc + 1) / 2;
    const size_t smem = krn_cuda__chunk_smem(hd, hpc);
    if (smem > (size_t)optin || hd > 1024)
        return sb_err_set(err, __func__, "head_dim %d needs %zu bytes of shared "
                          "memory; the GPU allows %d", (int)hd, smem, optin);
    const int32_t hsplit = (group + hpc - 1) / hpc;
    krn_cuda__chunk_p *cp = &k->cp;
    krn_cuda__shared_params(cp, a);
    cp->hd = hd;
    cp->group = group;
    cp->hpc = hpc;
    cp->hsplit = hsplit;
    k->tile = 0;
    k->gy = (unsigned)(a->n_head_kv * hsplit);
    k->gz = (unsigned)a->n_rows;
    k->threads = KRN_CUDA__CHUNK_THREADS;
    k->smem = smem;
    return 0;
}

// The rows kernel's plan, when it applies and a->mode picks it (the file
// header's rule): forced (2), or auto (0) for a step of at least
// KRN_CUDA__ROWS_MIN_ROWS rows whose launches of gx chunks have at least a
// block per multiprocessor (sms of them). The split-KV kernel (3) never
// takes it.
static bool krn_cuda__plan_rows(const krn_cuda_attn *a, int32_t gx, int sms,
                                krn_cuda__chunker *k) {
    const int32_t hd = a->head_dim, group = a->n_head / a->n_head_kv;
    if (a->mode != 0 && a->mode != 2) return false;
    const int tile = krn_cuda__rows_tile(hd, group, a->n_rows);
    if (tile < 1) return false;
    const int64_t blocks = (int64_t)gx * a->n_head_kv * ((a->n_rows + tile - 1) / tile);
    if (a->mode == 0 && (a->n_rows < KRN_CUDA__ROWS_MIN_ROWS || blocks < sms))
        return false;
    krn_cuda__rows_p *rp = &k->rp;
    krn_cuda__shared_params(rp, a);
    rp->group = group;
    rp->tile = tile;
    rp->n_rows = a->n_rows;
    k->tile = tile;
    k->gy = (unsigned)a->n_head_kv;
    k->gz = (unsigned)((a->n_rows + tile - 1) / tile);
    k->threads = (unsigned)(32 * krn_cuda__rows_pairs(tile, group) / KRN_CUDA__ROWS_PAIRS);
    k->smem = krn_cuda__rows_smem(hd, tile, group);
    return true;
}

// Relative chunks c0 .. c0 + nb - 1 (chunk states nbatch apart; final_: the
// outputs instead).
static int krn_cuda__chunks(krn_cuda__chunker *k, int32_t c0, int32_t nb, int32_t nbatch,
                            int final_, krn_cuda_exec ex, sb_err *err) {
    const dim3 grid((unsigned)nb, k->gy, k->gz);
    auto batch = [&](auto *p) { // this launch's part of either kernel's parameters
        p->c0 = c0;
        p->nbatch = nbatch;
        p->final_ = final_;
    };
    if (k->tile > 0) {
        batch(&k->rp);
        return krn_cuda__attn_rows_launch(&k->rp, k->hd, grid, k->threads, k->smem, ex, err);
    }
    batch(&k->cp);
    return krn_cuda__attn_chunk_launch(&k->cp, grid, k->threads, k->smem, ex, err);
}

// ---- the step ---------------------------------------------------------------------

int krn_cuda_attention(const krn_cuda_attn *a, const krn_cuda_cfg *cfg, krn_cuda_exec ex,
                       sb_err *err) {
    if (a->n_rows < 1 || a->n_rows > KRN_MAX_BATCH_ROWS || a->head_dim < 2 ||
        a->n_head < 1 || a->n_head_kv < 1 || a->n_head % a->n_head_kv ||
        a->span.nc < 1 || a->span.c_lo < 0 || a->kv_slots < 1)
        return sb_err_set(err, __func__, "n_rows %d, head_dim %d, heads %d/%d: "
                          "expected 1..%d rows, head_dim >= 2, n_head_kv "
                          "dividing n_head", a->n_rows, (int)a->head_dim,
                          (int)a->n_head, (int)a->n_head_kv, KRN_MAX_BATCH_ROWS);
    const int32_t hd = a->head_dim, nc = a->span.nc;
    if (a->mode == 1 || (a->mode == 0 && nc == 1 && a->n_rows <= KRN_CUDA__REF_MAX_ROWS &&
                         krn_cuda__ref_smem(hd) <= (size_t)KRN_CUDA__REF_SMEM_MAX))
        return krn_cuda__attention_ref(a, ex, err);
    // Chunks a launch takes: every row's keys in one chunk (nc == 1) need
    // no merge; else batches of nbatch chunk states a (row, head), as many
    // as the scratch holds (at most 2048: the merge stages 4 floats per
    // chunk). The scratch holds 16 chunks of 64 rows (backend.cu), so a
    // batch of up to KRN_MAX_BATCH_ROWS rows gets at least 1.
    int32_t nbatch = 1;
    if (nc > 1) {
        const int64_t per_batch = a->slots / ((int64_t)a->n_rows * a->n_head);
        if (per_batch < 1)
            return sb_err_set(err, __func__, "attention scratch of %lld chunk states "
                              "is too small", (long long)a->slots);
        nbatch = per_batch < nc ? (int32_t)per_batch : nc;
        if (nbatch > 2048) nbatch = 2048;
    }
    krn_cuda__chunker ck = {};
    ck.hd = hd;
    if (!krn_cuda__plan_rows(a, nbatch, cfg->sms, &ck) &&
        krn_cuda__plan_split(a, cfg->attn_optin, &ck, err))
        return -1;
    if (nc == 1) // every row's keys are one chunk: no merge
        return krn_cuda__chunks(&ck, 0, 1, 1, 1, ex, err);
    krn_cuda__merge_p mp;
    mp.pos = a->pos;
    mp.part = a->part;
    mp.run = a->run;
    mp.out = a->out;
    mp.n_head = a->n_head;
    mp.hd = hd;
    mp.nbatch = nbatch;
    mp.window = a->window;
    mp.cbase = a->span.c_lo;
    const unsigned mthreads = (unsigned)((hd + 31) / 32 * 32);
    for (int32_t c0 = 0; c0 < nc; c0 += nbatch) {
        mp.c0 = c0;
        const int32_t nb_here = nc - c0 < nbatch ? nc - c0 : nbatch;
        if (krn_cuda__chunks(&ck, c0, nb_here, nbatch, 0, ex, err)) return -1;
        if (krn_cuda__attn_merge_launch(&mp, dim3((unsigned)a->n_head, (unsigned)a->n_rows),
                                        mthreads, 4 * sizeof(float) * (size_t)nbatch, ex, err))
            return -1;
    }
    return 0;
}
