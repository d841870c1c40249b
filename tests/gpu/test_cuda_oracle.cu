/*
 * The CUDA quantized matmuls (kernels/cuda/mmq.cu, mmvq.cu, mm_block32.cu) against two oracles
 * that share none of its code: a float64 sum on the host, and cuBLAS SGEMM
 * on the dequantized weights and activations. test_cuda_backend.c proves
 * the GPU gives the CPU's bits; this proves those bits are the right
 * numbers, within bounds that follow from the arithmetic:
 *
 * Both the kernel and the oracles compute E = Σ_i w_i · x_i, the exact
 * dot of the dequantized weights (the real numbers an unpacked block
 * denotes: d · mul_i · q_i − dmin · m_j for Q4_K/Q5_K, d · mul_i · q_i for
 * Q6_K, d_b · q_i (+ m_b) for the 32-element types) and activations
 * x_i = dx · qx_i. The kernels form every integer exactly; along any path
 * from a term to the result there are at most 6 rounded operations inside
 * a group and the chunk's and the dot's additions (kernels.h §2),
 * k = 14 + len + nchunks in all (a margin of 8), so
 * |y − E| <= γ(k) · B with B = Σ_i |w_i| · |x_i| (the min terms counted
 * apart from the scale terms) and γ(k) = k u / (1 − k u), u = 2^-24
 * (Higham's bound for any summation order). cuBLAS gets w_i and x_i
 * rounded once each to float and sums n products in an order of its own:
 * |y_cublas − E| <= γ(n + 3) · B. So
 *     |y − E_float64| <= γ(k) · B + 1e-12 · B          (the host sum)
 *     |y − y_cublas| <= (γ(k) + γ(n + 3)) · B.
 * Every weight type the engine reads through the integer path, as two
 * matrices of a test model (tests/support/mem_model.h): its LM head (517
 * outputs of 1,280 inputs: a partial tile of outputs) and an FFN down
 * matrix (1,280 of 2,304), at 1, 3, 8, 17 and 64 rows, with K split across
 * blocks allowed (these small grids split) and not, and with the K-quants'
 * decode kernel (mmvq.cu) taking every step of up to 16 rows. And the
 * activation quantizer (act_quantize.cu) against krn_quantize_act on rows
 * holding a NaN, an infinity, -0 and a zero group: every code, sum, scale.
 *
 * Built and run only by `make test-gpu`; without a usable GPU it prints
 * "SKIPPED: ..." and exits 0.
 */
#include <cublas_v2.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include <cmocka.h>
}

#include "../../kernels/cuda/cuda_backend.h"
#include "../../kernels/cuda/mmq.cuh"
extern "C" {
#include "../support/mem_model.h"
}

// Matrices at most MAX_IN x MAX_OUT; the backend's weight padding; the
// split scratch (cuda_backend.h's krn_cuda_cfg).
enum { MAX_IN = 2304, MAX_OUT = 1280, MAX_ROWS = 64, WEIGHT_PAD = 64 };
enum { PART_FLOATS = 4 << 20, COUNTS = 1 << 16 };

#define CHECK_CUDA(call) assert_int_equal((int)(call), (int)cudaSuccess)
#define CHECK_CUBLAS(call) assert_int_equal((int)(call), (int)CUBLAS_STATUS_SUCCESS)

// Seeded values in [-1, 1) with a few larger ones, as activations have.
static float rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    const float v = (float)((*s >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
    return ((*s >> 20) & 63) == 0 ? 8.0f * v : v;
}

// One weight matrix: its file bytes (borrowed from the test model) and its
// unpacked blocks.
typedef struct weights {
    krn_type type;
    int64_t ne0, ne1;
    const uint8_t *bytes;
    uint64_t row_bytes;
    krn_wblock *blocks; // ne1 rows of ne0 / 32
} weights;

static weights unpack_matrix(const krn_tensor *t) {
    weights w = {t->type, t->ne0, t->ne1, (const uint8_t *)t->data, 0, NULL};
    assert_true(krn_row_bytes(t->type, t->ne0, &w.row_bytes));
    w.blocks = (krn_wblock *)malloc(sizeof(krn_wblock) * w.ne1 * (w.ne0 / KRN_QBLOCK));
    assert_non_null(w.blocks);
    for (int64_t o = 0; o < w.ne1; o++)
        krn_unpack_row(t->type, w.bytes + (uint64_t)o * w.row_bytes,
                       w.blocks + o * (w.ne0 / KRN_QBLOCK), w.ne0);
    return w;
}

// Element i of a block as the real number it denotes, and the size of its
// terms before cancellation.
static double w_min(const krn_wblock *b, krn_type t) {
    if (!krn_type_has_min(t)) return 0.0;
    return krn_type_is_kquant(t) ? -(double)b->m * b->mn : (double)b->m;
}

static double w_value(const krn_wblock *b, int i, krn_type t) {
    const double mul = i < 16 ? b->mul_lo : b->mul_hi;
    return (double)b->d * mul * b->q[i] + w_min(b, t);
}

static double w_bound(const krn_wblock *b, int i, krn_type t) {
    const double mul = i < 16 ? b->mul_lo : b->mul_hi;
    return fabs((double)b->d * mul * b->q[i]) + fabs(w_min(b, t));
}

static double gamma_u(int k) {
    const double u = ldexp(1.0, -24);
    return k * u / (1.0 - k * u);
}

// The device's operands: weights (padded, as the backend allocates them),
// quantized activations in krn_cuda_act's layout, the output, and cuBLAS's
// float copies of both operands.
typedef struct device_case {
    uint8_t *w, *packed;
    int8_t *xq;
    float *xd;
    int16_t *xs;
    float *y, *wf, *xf, *yb;
    float *part;
    int *count;
} device_case;

// act.cuh's layout: word w of block b within a row's codes.
static int64_t act_offset(int64_t b, int w) {
    return 64 * (b >> 1) + 16 * (w & 3) + 8 * (b & 1) + 4 * (w >> 2);
}

// The activation strides of the device copy (cuda_backend.h's krn_cuda_act).
static krn_cuda_act act_of(const device_case *dc) {
    const krn_cuda_act a = {dc->xq, dc->xd, dc->xs, (MAX_IN + 63) & ~63, MAX_IN / KRN_QBLOCK,
                            (MAX_IN / KRN_QBLOCK + 7) & ~7};
    return a;
}

// Activation blocks of n_rows rows of x (row stride ne0) and their upload in
// act.cuh's layout (codes rearranged, a dx per group, a sum per block), and
// for cuBLAS x_i as floats.
static krn_act_block *upload_activations(const weights *w, int n_rows, const float *x,
                                         device_case *dc) {
    const krn_cuda_act a = act_of(dc);
    const int64_t ne0 = w->ne0, nb = ne0 / KRN_QBLOCK, group = krn_act_group(w->type),
                  per = group / KRN_QBLOCK;
    krn_act_block *act = (krn_act_block *)malloc(sizeof(krn_act_block) * n_rows * nb);
    int8_t *q = (int8_t *)calloc((size_t)n_rows * a.q_stride, 1);
    float *d = (float *)calloc((size_t)n_rows * a.d_stride, sizeof(float));
    int16_t *s = (int16_t *)calloc((size_t)n_rows * a.s_stride, sizeof(int16_t));
    float *xf = (float *)malloc(sizeof(float) * n_rows * ne0);
    assert_true(act && q && d && s && xf);
    for (int r = 0; r < n_rows; r++) {
        krn_quantize_act(x + r * ne0, act + r * nb, ne0, group);
        for (int64_t j = 0; j < nb; j++) {
            const krn_act_block *b = &act[r * nb + j];
            for (int wd = 0; wd < 8; wd++)
                memcpy(q + r * a.q_stride + act_offset(j, wd), b->q + 4 * wd, 4);
            s[r * a.s_stride + j] = (int16_t)b->sum;
            if (j % per == 0) d[r * a.d_stride + j / per] = b->d;
            for (int i = 0; i < 32; i++) xf[r * ne0 + 32 * j + i] = (float)((double)b->d * b->q[i]);
        }
    }
    CHECK_CUDA(cudaMemcpy(dc->xq, q, (size_t)n_rows * a.q_stride, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->xd, d, sizeof(float) * n_rows * a.d_stride, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->xs, s, sizeof(int16_t) * n_rows * a.s_stride, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->xf, xf, sizeof(float) * n_rows * ne0, cudaMemcpyHostToDevice));
    free(q), free(d), free(s), free(xf);
    return act;
}

// The weights as the file has them (and, for a K-quant, its tensor-core
// records, repack.cu), and for cuBLAS w_i as floats.
static void upload_weights(const weights *w, device_case *dc) {
    const int64_t ne0 = w->ne0, nb = ne0 / KRN_QBLOCK;
    float *wf = (float *)malloc(sizeof(float) * w->ne1 * ne0);
    assert_non_null(wf);
    for (int64_t o = 0; o < w->ne1; o++)
        for (int64_t j = 0; j < nb; j++)
            for (int i = 0; i < 32; i++)
                wf[o * ne0 + 32 * j + i] = (float)w_value(&w->blocks[o * nb + j], i, w->type);
    CHECK_CUDA(cudaMemcpy(dc->w, w->bytes, w->ne1 * w->row_bytes, cudaMemcpyHostToDevice));
    if (krn_type_is_kquant(w->type)) {
        const krn_cuda_mat mat = {w->type, w->ne0, w->ne1, w->row_bytes, dc->w, NULL};
        sb_err err = {0};
        CHECK_CUDA(cudaMemset(dc->packed, 0x5A, krn_cuda_kq_bytes(w->type, w->ne0, w->ne1)));
        if (krn_cuda_repack(&mat, dc->w, 0, w->ne1, dc->packed, 0, &err))
            fail_msg("repack: %s", err.msg);
        CHECK_CUDA(cudaDeviceSynchronize());
    }
    CHECK_CUDA(cudaMemcpy(dc->wf, wf, sizeof(float) * w->ne1 * ne0, cudaMemcpyHostToDevice));
    free(wf);
}

// E (float64) and B of the header for every (row, output), row-major.
static void reference(const weights *w, const krn_act_block *act, int n_rows, double *e,
                      double *bnd) {
    const int64_t nb = w->ne0 / KRN_QBLOCK;
    for (int r = 0; r < n_rows; r++)
        for (int64_t o = 0; o < w->ne1; o++) {
            double sum = 0, b = 0;
            for (int64_t j = 0; j < nb; j++) {
                const krn_wblock *wb = &w->blocks[o * nb + j];
                const krn_act_block *a = &act[r * nb + j];
                for (int i = 0; i < 32; i++) {
                    const double x = (double)a->d * a->q[i];
                    sum += w_value(wb, i, w->type) * x;
                    b += w_bound(wb, i, w->type) * fabs(x);
                }
            }
            e[r * w->ne1 + o] = sum, bnd[r * w->ne1 + o] = b;
        }
}

// y (host, n_rows x ne1) from the matmul with K split across blocks
// allowed or not, the output poisoned with NaN first so that an unwritten
// one fails.
static void run_kernel(const weights *w, int n_rows, int split, int mmvq_rows, device_case *dc,
                       float *y, const char *what) {
    krn_cuda_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    sb_err err = {0};
    const krn_tuning defaults = {};
    assert_int_equal(krn_cuda_matmul_setup(&cfg, &defaults, 0, &err), 0);
    cfg.mm_split = split;
    cfg.mmvq_rows = mmvq_rows;
    cfg.mm_part = dc->part, cfg.mm_part_cap = PART_FLOATS;
    cfg.mm_count = dc->count, cfg.mm_count_cap = COUNTS;
    const krn_cuda_mat mat = {w->type, w->ne0, w->ne1, w->row_bytes, dc->w, dc->packed};
    const krn_cuda_act xa = act_of(dc);
    const krn_cuda_mm one = {&mat, NULL, &xa, NULL, false, dc->y, w->ne1, n_rows};
    CHECK_CUDA(cudaMemset(dc->y, 0xFF, sizeof(float) * n_rows * w->ne1));
    const krn_cuda_exec ex = {0, 0}; // the legacy stream; no kernel starts early
    if (krn_cuda_matmul(&one, 1, &cfg, ex, &err)) fail_msg("%s: %s", what, err.msg);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(y, dc->y, sizeof(float) * n_rows * w->ne1, cudaMemcpyDeviceToHost));
}

// cuBLAS's Y (n_rows x ne1, row-major) = X (n_rows x ne0) · Wᵀ, as the
// column-major Yᵀ = (Wᵀ)ᵀ · Xᵀ of the row-major buffers.
static void run_cublas(const weights *w, int n_rows, device_case *dc, cublasHandle_t h,
                       float *yb) {
    const float one = 1.0f, zero = 0.0f;
    CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)w->ne1, n_rows, (int)w->ne0, &one,
                             dc->wf, (int)w->ne0, dc->xf, (int)w->ne0, &zero, dc->yb,
                             (int)w->ne1));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(yb, dc->yb, sizeof(float) * n_rows * w->ne1, cudaMemcpyDeviceToHost));
}

// One matrix at n_rows rows: the oracles once, then each kernel choice
// checked against both within the header's bounds.
static void run_case(const weights *w, int n_rows, const float *x, device_case *dc,
                     cublasHandle_t h, const char *name) {
    // cfg.mm_split, cfg.mmvq_rows: mmq.cu whole and split, then mmvq.cu
    // (K-quants of up to 16 rows; the rest run mmq.cu split again)
    static const struct { const char *name; int split, mmvq_rows; } kernel[] = {
        {"unsplit", 0, 0}, {"split allowed", 1, 0}, {"mmvq to 16 rows", 1, KRN_CUDA_MMVQ_MAX_ROWS}};
    const int64_t n_out = n_rows * w->ne1;
    const int64_t groups = w->ne0 / krn_act_group(w->type), len = krn_chunk_len(groups);
    const int k_ops = (int)(14 + len + (groups + len - 1) / len);
    double *e = (double *)malloc(sizeof(double) * n_out);
    double *bnd = (double *)malloc(sizeof(double) * n_out);
    float *y = (float *)malloc(sizeof(float) * n_out), *yb = (float *)malloc(sizeof(float) * n_out);
    assert_true(e && bnd && y && yb);
    upload_weights(w, dc);
    krn_act_block *act = upload_activations(w, n_rows, x, dc);
    reference(w, act, n_rows, e, bnd);
    run_cublas(w, n_rows, dc, h, yb);
    for (int k = 0; k < 3; k++) {
        char what[96];
        snprintf(what, sizeof what, "%s, %d rows, %s", name, n_rows, kernel[k].name);
        run_kernel(w, n_rows, kernel[k].split, kernel[k].mmvq_rows, dc, y, what);
        double worst_host = 0, worst_cublas = 0; // error / bound
        for (int64_t i = 0; i < n_out; i++) {
            const double tol_host = gamma_u(k_ops) * bnd[i] + 1e-12 * bnd[i] + 1e-30;
            const double tol_cublas = (gamma_u(k_ops) + gamma_u((int)w->ne0 + 3)) * bnd[i] + 1e-30;
            const double dh = fabs(y[i] - e[i]), db = fabs((double)y[i] - yb[i]);
            if (!(dh <= tol_host) || !(db <= tol_cublas))
                fail_msg("%s: row %lld output %lld: kernel %.9g, float64 %.9g (bound %.3g), "
                         "cuBLAS %.9g (bound %.3g)", what, (long long)(i / w->ne1),
                         (long long)(i % w->ne1), y[i], e[i], tol_host, yb[i], tol_cublas);
            worst_host = fmax(worst_host, dh / tol_host);
            worst_cublas = fmax(worst_cublas, db / tol_cublas);
        }
        printf("  %-32s worst error / bound: float64 %.3f, cuBLAS %.3f\n", what, worst_host,
               worst_cublas);
    }
    free(e), free(bnd), free(y), free(yb), free(act);
}

static void test_matmul_oracles(void **state) {
    (void)state;
    static const krn_type types[] = {KRN_Q4_0, KRN_Q4_1, KRN_Q5_0, KRN_Q5_1, KRN_Q8_0,
                                     KRN_Q4_K, KRN_Q5_K, KRN_Q6_K};
    static const int rows[] = {1, 3, 8, 17, 64};
    static const tm_shape shape = {1, 1280, 2304, 4, 1, 128, 517};
    uint64_t seed = 7;
    float *x = (float *)malloc(sizeof(float) * MAX_ROWS * MAX_IN);
    assert_non_null(x);
    for (int i = 0; i < MAX_ROWS * MAX_IN; i++) x[i] = rnd(&seed);
    device_case dc;
    const size_t w_bytes = 2 * (size_t)MAX_OUT * MAX_IN + WEIGHT_PAD; // Q8_0 < 2 bytes a weight
    CHECK_CUDA(cudaMalloc((void **)&dc.w, w_bytes));
    CHECK_CUDA(cudaMalloc((void **)&dc.packed, w_bytes));
    CHECK_CUDA(cudaMalloc((void **)&dc.xq, (size_t)MAX_ROWS * MAX_IN));
    CHECK_CUDA(cudaMalloc((void **)&dc.xd, sizeof(float) * MAX_ROWS * MAX_IN / KRN_QBLOCK));
    CHECK_CUDA(cudaMalloc((void **)&dc.xs, sizeof(int16_t) * MAX_ROWS * MAX_IN / KRN_QBLOCK));
    CHECK_CUDA(cudaMalloc((void **)&dc.part, sizeof(float) * PART_FLOATS));
    CHECK_CUDA(cudaMalloc((void **)&dc.count, sizeof(int) * COUNTS));
    CHECK_CUDA(cudaMemset(dc.count, 0, sizeof(int) * COUNTS));
    CHECK_CUDA(cudaMalloc((void **)&dc.y, sizeof(float) * MAX_ROWS * MAX_OUT));
    CHECK_CUDA(cudaMalloc((void **)&dc.wf, sizeof(float) * MAX_OUT * MAX_IN));
    CHECK_CUDA(cudaMalloc((void **)&dc.xf, sizeof(float) * MAX_ROWS * MAX_IN));
    CHECK_CUDA(cudaMalloc((void **)&dc.yb, sizeof(float) * MAX_ROWS * MAX_OUT));
    CHECK_CUDA(cudaMemset(dc.w, 0, w_bytes));
    cublasHandle_t h;
    CHECK_CUBLAS(cublasCreate(&h));
    CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH)); // plain fp32, no TF32
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const tm_types ty = tm_uniform_types(types[t], false);
        tmodel *tm = tm_create(&shape, &ty, 100 + t);
        const krn_tensor *mats[2] = {&tm->m.output, &tm->m.layers[0].w_down};
        for (int mi = 0; mi < 2; mi++) {
            const weights w = unpack_matrix(mats[mi]);
            char name[48];
            snprintf(name, sizeof name, "%s %s", krn_type_name(types[t]), mi ? "down" : "head");
            for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
                run_case(&w, rows[r], x, &dc, h, name);
            free(w.blocks);
        }
        tm_free(tm);
    }
    cublasDestroy(h);
    cudaFree(dc.w), cudaFree(dc.packed), cudaFree(dc.xq), cudaFree(dc.xd), cudaFree(dc.xs);
    cudaFree(dc.y), cudaFree(dc.part), cudaFree(dc.count);
    cudaFree(dc.wf), cudaFree(dc.xf), cudaFree(dc.yb);
    free(x);
}

// ---- activation quantization ----------------------------------------------

// Rows of the quantizer's edge cases, one each: ordinary values, a NaN, an
// infinity, -0 beside a group of halves, an all-zero group.
enum { EDGE_N = 512, EDGE_ROWS = 5 };
static void edge_rows(float *x) {
    uint64_t seed = 3;
    for (int i = 0; i < EDGE_ROWS * EDGE_N; i++) x[i] = rnd(&seed);
    x[1 * EDGE_N + 37] = NAN;               // group 1 of 32, group 0 of 256
    x[2 * EDGE_N + 300] = INFINITY;         // every code of its groups 0 or NaN
    x[3 * EDGE_N + 5] = -0.0f;
    for (int i = 0; i < 32; i++) x[3 * EDGE_N + 64 + i] = (i - 16) * 0.5f; // halves, amax 8
    for (int i = 0; i < 32; i++) x[4 * EDGE_N + 256 + i] = 0.0f;
}

// Scales equal bit for bit, or both NaN (canon.c: a group holding a NaN has
// the scale NaN; its payload is not part of the contract).
static void expect_same_scale(float want, float got, const char *what, int r, int64_t j) {
    uint32_t a, b;
    memcpy(&a, &want, 4), memcpy(&b, &got, 4);
    if (a == b || (isnan(want) && isnan(got))) return;
    fail_msg("%s: row %d group %lld: dx %a on the CPU, %a on the GPU", what, r, (long long)j,
             (double)want, (double)got);
}

// krn_cuda_quantize against krn_quantize_act in both groupings: every code,
// block sum and group scale.
static void test_quantize_edges(void **state) {
    (void)state;
    float *x = (float *)malloc(sizeof(float) * EDGE_ROWS * EDGE_N), *xd;
    assert_non_null(x);
    edge_rows(x);
    const int64_t nb = EDGE_N / KRN_QBLOCK;
    krn_cuda_acts acts;
    krn_cuda_act *both[2] = {&acts.g256, &acts.g32};
    for (int g = 0; g < 2; g++) {
        krn_cuda_act *a = both[g];
        a->q_stride = EDGE_N, a->d_stride = nb, a->s_stride = nb;
        CHECK_CUDA(cudaMalloc((void **)&a->q, (size_t)EDGE_ROWS * EDGE_N));
        CHECK_CUDA(cudaMalloc((void **)&a->d, sizeof(float) * EDGE_ROWS * nb));
        CHECK_CUDA(cudaMalloc((void **)&a->s, sizeof(int16_t) * EDGE_ROWS * nb));
    }
    CHECK_CUDA(cudaMalloc((void **)&xd, sizeof(float) * EDGE_ROWS * EDGE_N));
    CHECK_CUDA(cudaMemcpy(xd, x, sizeof(float) * EDGE_ROWS * EDGE_N, cudaMemcpyHostToDevice));
    sb_err err = {0};
    const krn_cuda_exec ex = {0, 0}; // the legacy stream; no kernel starts early
    assert_int_equal(krn_cuda_quantize(xd, EDGE_N, EDGE_ROWS, &acts, ex, &err), 0);
    CHECK_CUDA(cudaDeviceSynchronize());
    int8_t q[EDGE_ROWS * EDGE_N];
    float d[EDGE_ROWS * EDGE_N / KRN_QBLOCK];
    int16_t s[EDGE_ROWS * EDGE_N / KRN_QBLOCK];
    krn_act_block want[EDGE_N / KRN_QBLOCK];
    for (int g = 0; g < 2; g++) {
        const krn_cuda_act *a = both[g];
        const int64_t group = g == 0 ? KRN_SUPER : KRN_QBLOCK, per = group / KRN_QBLOCK;
        const char *what = g == 0 ? "groups of 256" : "groups of 32";
        CHECK_CUDA(cudaMemcpy(q, a->q, sizeof q, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(d, a->d, sizeof d, cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(s, a->s, sizeof s, cudaMemcpyDeviceToHost));
        for (int r = 0; r < EDGE_ROWS; r++) {
            krn_quantize_act(x + r * EDGE_N, want, EDGE_N, group);
            for (int64_t j = 0; j < nb; j++) {
                if (j % per == 0) expect_same_scale(want[j].d, d[r * nb + j / per], what, r, j / per);
                assert_int_equal(want[j].sum, s[r * nb + j]);
                for (int wd = 0; wd < 8; wd++)
                    assert_memory_equal(want[j].q + 4 * wd, q + r * EDGE_N + act_offset(j, wd), 4);
            }
        }
        assert_true(isnan(d[1 * nb + (g == 0 ? 0 : 1)])); // the NaN reaches the scale
    }
    for (int g = 0; g < 2; g++) cudaFree(both[g]->q), cudaFree(both[g]->d), cudaFree(both[g]->s);
    cudaFree(xd);
    free(x);
}

int main(void) {
    int n = 0;
    const cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess || n == 0) {
        printf("SKIPPED: no CUDA GPU (%s)\n",
               rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
        return 0;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_quantize_edges),
                                       cmocka_unit_test(test_matmul_oracles)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
