// embed.cu — the token embedding: row tokens[r] of tok_embd, dequantized.
//
// CPU reference: forward.c's krn_cpu__embed_row (krn_dequantize_row). Each
// element is one independent expression (unpack.cuh's dequant_elem, the
// same as formats.c's), so there is no reduction and no order to pin.
#include "cuda_backend.h"
#include "unpack.cuh"

// Grid (n_rows, ceil(n / 256)), 256 threads: one element per thread.
__global__ void krn_cuda_embed_kernel(const uint8_t *tok, int type,
                                      uint64_t row_bytes, int64_t n,
                                      const int32_t *tokens, float *x) {
    grid_dep_sync(); // common.cuh: before any global access
    const int r = blockIdx.x;
    const int64_t e = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
    if (e >= n) return;
    const uint8_t *row = tok + (uint64_t)tokens[r] * row_bytes;
    x[(int64_t)r * n + e] = dequant_elem(type, row, e);
}

int krn_cuda_embed(const krn_cuda_mat *tok, const int32_t *tokens, int n_rows,
                   float *x, krn_cuda_exec ex, sb_err *err) {
    if (n_rows < 1 || n_rows > KRN_MAX_BATCH_ROWS || tok->ne0 < 1)
        return sb_err_set(err, __func__, "n_rows %d, n_embd %lld: expected "
                          "1..%d rows of >= 1", n_rows, (long long)tok->ne0,
                          KRN_MAX_BATCH_ROWS);
    const dim3 grid((unsigned)n_rows, (unsigned)((tok->ne0 + 255) / 256));
    krn_cuda_launch(krn_cuda_embed_kernel, KRN_CUDA_PDL_OTHER, grid, 256, 0, ex, tok->data,
                    (int)tok->type, tok->row_bytes, tok->ne0, tokens, x);
    return KRN_CUDA_LAUNCHED("krn_cuda_embed_kernel", err);
}
