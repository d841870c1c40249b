// repack.cu — K-quant weight matrices rearranged at load into the records
// of kquant.cuh, on the device: the file's bytes are uploaded into a
// staging buffer and each thread writes one lane's 16-byte slices of one
// record (and, for lanes 0..15, one row's header). No value changes.
#include "cuda_backend.h"
#include "kquant.cuh"

// The 4 bytes at offset o of row r's block kb (zeros past the matrix).
static __device__ __forceinline__ uint32_t rp_word(const uint8_t *src, uint64_t row_bytes,
                                                   int64_t ne1, int64_t r, int kb, int bb, int o) {
    if (r >= ne1) return 0;
    const uint8_t *p = src + (uint64_t)r * row_bytes + (uint64_t)kb * bb + o;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

// Grid (nsb, tiles of the slice), 32 threads: thread L writes its slices of
// record (tile0 + blockIdx.y, blockIdx.x); src holds the slice's ne1 rows.
template <int T>
__global__ void krn_cuda_repack_kernel(const uint8_t *src, uint64_t row_bytes, int64_t ne1,
                                       int nsb, int64_t tile0, uint8_t *dst) {
    constexpr int BB = kq<T>::bb;
    const int kb = blockIdx.x, L = threadIdx.x, g = L >> 2, t = L & 3;
    const int64_t tile = blockIdx.y, r0 = tile * KRN_CUDA_KQ_TILE;
    uint8_t *rec = dst + ((uint64_t)(tile0 + tile) * nsb + kb) * kq<T>::rec;
    auto put = [&](int plane, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
        *(uint4 *)(rec + 512 * plane + 16 * L) = make_uint4(a, b, c, d);
    };
    auto w = [&](int64_t r, int o) { return rp_word(src, row_bytes, ne1, r, kb, BB, o); };
    const int64_t rg = r0 + g, rg8 = r0 + g + 8;
    if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        constexpr int QS = T == KRN_Q4_K ? 16 : 48;
        for (int p = 0; p < 4; p++)
            put(p, w(rg, QS + 32 * p + 4 * t), w(rg, QS + 32 * p + 16 + 4 * t),
                w(rg8, QS + 32 * p + 4 * t), w(rg8, QS + 32 * p + 16 + 4 * t));
        if constexpr (T == KRN_Q5_K)
            put(4, w(rg, 16 + 4 * t), w(rg, 32 + 4 * t), w(rg8, 16 + 4 * t), w(rg8, 32 + 4 * t));
        if (L < KRN_CUDA_KQ_TILE)
            for (int k = 0; k < 4; k++)
                *(uint32_t *)(rec + kq<T>::hdr + 16 * L + 4 * k) = w(r0 + L, 4 * k);
    } else { // Q6_K: ql at 0, qh at 128, scales at 192, d at 208
        for (int h = 0; h < 2; h++)
            for (int s = 0; s < 2; s++) {
                const int64_t r = s ? rg8 : rg;
                put(2 * h + s, w(r, 64 * h + 4 * t), w(r, 64 * h + 16 + 4 * t),
                    w(r, 64 * h + 32 + 4 * t), w(r, 64 * h + 48 + 4 * t));
            }
        for (int s = 0; s < 2; s++) {
            const int64_t r = s ? rg8 : rg;
            put(4 + s, w(r, 128 + 4 * t), w(r, 128 + 16 + 4 * t), w(r, 128 + 32 + 4 * t),
                w(r, 128 + 48 + 4 * t));
        }
        if (L < KRN_CUDA_KQ_TILE) {
            for (int k = 0; k < 4; k++)
                *(uint32_t *)(rec + kq<T>::sc + 16 * L + 4 * k) = w(r0 + L, 192 + 4 * k);
            // d: the 2 bytes at 208 (the word read stays inside the block:
            // 208 + 4 > 210 would not, so read the word at 206 and shift)
            *(uint16_t *)(rec + kq<T>::d + 2 * L) = (uint16_t)(w(r0 + L, 206) >> 16);
        }
    }
}

uint64_t krn_cuda_kq_bytes(krn_type type, int64_t ne0, int64_t ne1) {
    const int64_t tiles = (ne1 + KRN_CUDA_KQ_TILE - 1) / KRN_CUDA_KQ_TILE;
    const uint64_t rec = type == KRN_Q4_K   ? (uint64_t)kq<KRN_Q4_K>::rec
                         : type == KRN_Q5_K ? (uint64_t)kq<KRN_Q5_K>::rec
                                            : (uint64_t)kq<KRN_Q6_K>::rec;
    return (uint64_t)tiles * (uint64_t)(ne0 / KRN_SUPER) * rec;
}

int krn_cuda_repack(const krn_cuda_mat *m, const uint8_t *staged, int64_t row0, int64_t n_rows,
                    uint8_t *dst, cudaStream_t s, sb_err *err) {
    if (row0 % KRN_CUDA_KQ_TILE || m->ne0 % KRN_SUPER)
        return sb_err_set(err, __func__, "rows from %lld of a [%lld, %lld] matrix: expected "
                          "whole tiles and super-blocks", (long long)row0, (long long)m->ne0,
                          (long long)m->ne1);
    const int nsb = (int)(m->ne0 / KRN_SUPER);
    const int64_t tile0 = row0 / KRN_CUDA_KQ_TILE;
    const dim3 grid((unsigned)nsb, (unsigned)((n_rows + KRN_CUDA_KQ_TILE - 1) / KRN_CUDA_KQ_TILE));
    switch (m->type) {
    case KRN_Q4_K:
        krn_cuda_repack_kernel<KRN_Q4_K><<<grid, 32, 0, s>>>(staged, m->row_bytes, n_rows, nsb, tile0, dst);
        break;
    case KRN_Q5_K:
        krn_cuda_repack_kernel<KRN_Q5_K><<<grid, 32, 0, s>>>(staged, m->row_bytes, n_rows, nsb, tile0, dst);
        break;
    case KRN_Q6_K:
        krn_cuda_repack_kernel<KRN_Q6_K><<<grid, 32, 0, s>>>(staged, m->row_bytes, n_rows, nsb, tile0, dst);
        break;
    default:
        return sb_err_set(err, __func__, "type %s is not a K-quant", krn_type_name(m->type));
    }
    return KRN_CUDA_LAUNCHED("krn_cuda_repack_kernel", err);
}
