/*
 * The CUDA quantized matmul (kernels/cuda/matmul.cu) against two oracles
 * that share none of its code: a float64 sum on the host, and cuBLAS SGEMM
 * on the dequantized weights and activations. test_cuda_backend.c proves
 * the GPU gives the CPU's bits; this proves those bits are the right
 * numbers, within bounds that follow from the arithmetic:
 *
 * Both the kernel and the oracles compute E = Σ_i w_i · x_i, the exact
 * dot of the dequantized weights w_i = d_j · mul_i · q_i − m_j (the real
 * numbers a wblock denotes) and activations x_i = dx_j · qx_i. The kernel
 * forms each block's integer exactly, then 4 rounded operations a block
 * and nb − 1 rounded additions, so |y − E| <= γ(nb + 4) · B with
 * B = Σ_i |d_j · mul_i · q_i| · |x_i| + |m_j| · |x_i| and γ(k) = k u /
 * (1 − k u), u = 2^-24 (Higham's bound for any summation order). cuBLAS
 * gets w_i and x_i rounded once each to float and sums n products in an
 * order of its own: |y_cublas − E| <= γ(n + 3) · B. So
 *     |y − E_float64| <= γ(nb + 4) · B + 1e-12 · B          (the host sum)
 *     |y − y_cublas| <= (γ(nb + 4) + γ(n + 3)) · B.
 * Every weight type the engine reads through the integer path, as two
 * matrices of a test model (tests/support/mem_model.h): its LM head (517
 * outputs of 1,280 inputs: a partial tile of outputs, lanes of 1 or 2
 * blocks) and an FFN down matrix (1,280 of 2,304), at 1, 3, 8, 17 and 64
 * rows, with each kernel choice: the automatic one (GEMV below 8 rows, the
 * int8 tensor-core kernel from 8), GEMV at every row count, and the first
 * reference kernel.
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
extern "C" {
#include "../support/mem_model.h"
}

// Matrices at most MAX_IN x MAX_OUT; the backend's weight padding.
enum { MAX_IN = 2304, MAX_OUT = 1280, MAX_ROWS = 64, WEIGHT_PAD = 64 };

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

// Element i of a block as the real number it denotes (has_min: minus m).
static double w_value(const krn_wblock *b, int i, bool has_min) {
    const double mul = i < 16 ? b->mul_lo : b->mul_hi;
    return (double)b->d * mul * b->q[i] - (has_min ? (double)b->m : 0.0);
}

static double w_bound(const krn_wblock *b, int i, bool has_min) {
    const double mul = i < 16 ? b->mul_lo : b->mul_hi;
    return fabs((double)b->d * mul * b->q[i]) + (has_min ? fabs((double)b->m) : 0.0);
}

static double gamma_u(int k) {
    const double u = ldexp(1.0, -24);
    return k * u / (1.0 - k * u);
}

// The device's operands: weights (padded, as the backend allocates them),
// quantized activations in krn_cuda_act's layout, the output, and cuBLAS's
// float copies of both operands.
typedef struct device_case {
    uint8_t *w;
    int8_t *xq;
    float2 *xc;
    float *y, *wf, *xf, *yb;
} device_case;

// Activation blocks of n_rows rows of x (row stride ne0) and their upload:
// krn_cuda_act's codes and {dx, (float)s}, and for cuBLAS x_i as floats.
static krn_act_block *upload_activations(const weights *w, int n_rows, const float *x,
                                         device_case *dc) {
    const int64_t ne0 = w->ne0, nb = ne0 / KRN_QBLOCK, c_stride = (nb + 1) & ~1;
    krn_act_block *act = (krn_act_block *)malloc(sizeof(krn_act_block) * n_rows * nb);
    int8_t *q = (int8_t *)malloc((size_t)n_rows * ne0);
    float2 *c = (float2 *)malloc(sizeof(float2) * n_rows * c_stride);
    float *xf = (float *)malloc(sizeof(float) * n_rows * ne0);
    assert_true(act && q && c && xf);
    for (int r = 0; r < n_rows; r++) {
        krn_quantize_act(x + r * ne0, act + r * nb, ne0);
        for (int64_t j = 0; j < nb; j++) {
            const krn_act_block *a = &act[r * nb + j];
            memcpy(q + r * ne0 + 32 * j, a->q, 32);
            c[r * c_stride + j] = make_float2(a->d, (float)a->sum);
            for (int i = 0; i < 32; i++) xf[r * ne0 + 32 * j + i] = (float)((double)a->d * a->q[i]);
        }
    }
    CHECK_CUDA(cudaMemcpy(dc->xq, q, (size_t)n_rows * ne0, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->xc, c, sizeof(float2) * n_rows * c_stride, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->xf, xf, sizeof(float) * n_rows * ne0, cudaMemcpyHostToDevice));
    free(q), free(c), free(xf);
    return act;
}

// The weights as the file has them, and for cuBLAS w_i as floats.
static void upload_weights(const weights *w, device_case *dc) {
    const bool has_min = krn_type_has_min(w->type);
    const int64_t ne0 = w->ne0, nb = ne0 / KRN_QBLOCK;
    float *wf = (float *)malloc(sizeof(float) * w->ne1 * ne0);
    assert_non_null(wf);
    for (int64_t o = 0; o < w->ne1; o++)
        for (int64_t j = 0; j < nb; j++)
            for (int i = 0; i < 32; i++)
                wf[o * ne0 + 32 * j + i] = (float)w_value(&w->blocks[o * nb + j], i, has_min);
    CHECK_CUDA(cudaMemcpy(dc->w, w->bytes, w->ne1 * w->row_bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc->wf, wf, sizeof(float) * w->ne1 * ne0, cudaMemcpyHostToDevice));
    free(wf);
}

// E (float64) and B of the header for every (row, output), row-major.
static void reference(const weights *w, const krn_act_block *act, int n_rows, double *e,
                      double *bnd) {
    const bool has_min = krn_type_has_min(w->type);
    const int64_t nb = w->ne0 / KRN_QBLOCK;
    for (int r = 0; r < n_rows; r++)
        for (int64_t o = 0; o < w->ne1; o++) {
            double sum = 0, b = 0;
            for (int64_t j = 0; j < nb; j++) {
                const krn_wblock *wb = &w->blocks[o * nb + j];
                const krn_act_block *a = &act[r * nb + j];
                for (int i = 0; i < 32; i++) {
                    const double x = (double)a->d * a->q[i];
                    sum += w_value(wb, i, has_min) * x;
                    b += w_bound(wb, i, has_min) * fabs(x);
                }
            }
            e[r * w->ne1 + o] = sum, bnd[r * w->ne1 + o] = b;
        }
}

// y (host, n_rows x ne1) from the matmul with kernel choice mm (cfg.mm),
// the output poisoned with NaN first so that an unwritten one fails.
static void run_kernel(const weights *w, int n_rows, int mm, device_case *dc, float *y,
                       const char *what) {
    const int64_t nb = w->ne0 / KRN_QBLOCK;
    krn_cuda_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    sb_err err = {0};
    assert_int_equal(krn_cuda_matmul_setup(&cfg, 0, &err), 0);
    cfg.mm = mm;
    const krn_cuda_mat mat = {w->type, w->ne0, w->ne1, w->row_bytes, dc->w};
    const krn_cuda_act xa = {dc->xq, dc->xc, w->ne0, (nb + 1) & ~1};
    const krn_cuda_mm one = {&mat, NULL, &xa, NULL, false, dc->y, w->ne1, n_rows};
    CHECK_CUDA(cudaMemset(dc->y, 0xFF, sizeof(float) * n_rows * w->ne1));
    if (krn_cuda_matmul(&one, 1, &cfg, 0, &err)) fail_msg("%s: %s", what, err.msg);
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
    static const char *const kernel[] = {"auto", "gemv", "ref"}; // cfg.mm 0, 1, 2
    const int64_t n_out = n_rows * w->ne1;
    const int nb = (int)(w->ne0 / KRN_QBLOCK);
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
        snprintf(what, sizeof what, "%s, %d rows, %s", name, n_rows, kernel[k]);
        run_kernel(w, n_rows, k, dc, y, what);
        double worst_host = 0, worst_cublas = 0; // error / bound
        for (int64_t i = 0; i < n_out; i++) {
            const double tol_host = gamma_u(nb + 4) * bnd[i] + 1e-12 * bnd[i] + 1e-30;
            const double tol_cublas = (gamma_u(nb + 4) + gamma_u((int)w->ne0 + 3)) * bnd[i] + 1e-30;
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
    const int64_t c_stride = (MAX_IN / KRN_QBLOCK + 1) & ~1;
    CHECK_CUDA(cudaMalloc((void **)&dc.w, w_bytes));
    CHECK_CUDA(cudaMalloc((void **)&dc.xq, (size_t)MAX_ROWS * MAX_IN));
    CHECK_CUDA(cudaMalloc((void **)&dc.xc, sizeof(float2) * MAX_ROWS * c_stride));
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
    cudaFree(dc.w), cudaFree(dc.xq), cudaFree(dc.xc), cudaFree(dc.y);
    cudaFree(dc.wf), cudaFree(dc.xf), cudaFree(dc.yb);
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
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_matmul_oracles)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
