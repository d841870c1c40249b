// kq_math.cuh — private to kernels/cuda/: the stages of one K-quant
// super-block (Q4_K, Q5_K, Q6_K) on the int8 tensor cores, shared by the
// tiled matmul (mmq.cu) and the matrix-vector kernel (mmvq.cu), so both
// keep kernels.h §2's order by running the same code:
//
//   kq_head_read   the record's header (kquant.cuh) for the two outputs
//                  g and g + 8 a lane serves: scales, mins, d, dmin
//   kq_integers    A = Σ_j sc_j · I_j for 16 outputs x 8 NT rows: one
//                  m16n8k32 MMA per sub-block and n-tile (Q6_K: two
//                  m16n8k16, one per scale), zero accumulators, then
//                  sc · C added into the lane's int32 A (exact)
//   kq_value       v = dx · ((d · (float)A) − (dmin · (float)B)) of one
//                  (output, row) pair (Q6_K: dx · (d · (float)A)), B formed
//                  from the mins and the row's block sums with __dp2a;
//                  each float operation rounded as written
//
// The caller sums v into its chunk partials and the partials into the dot
// (kernels.h §2); where the record's bytes come from (shared memory or
// registers loaded from global memory) is the caller's: kq_integers reads
// plane k of the record through planes(k) and the B fragment of n-tile n
// and block pair `pair` through bfrag(n, pair) (act.cuh's layout).
#ifndef SB_KERNELS_CUDA_KQ_MATH_CUH
#define SB_KERNELS_CUDA_KQ_MATH_CUH

#include "common.cuh"
#include "kquant.cuh"
#include "ptx.cuh"

// Planes of 512 bytes before a record's header (kquant.cuh).
template <int T> struct kq_planes;
template <> struct kq_planes<KRN_Q4_K> { enum { n = 4 }; };
template <> struct kq_planes<KRN_Q5_K> { enum { n = 5 }; };
template <> struct kq_planes<KRN_Q6_K> { enum { n = 6 }; };

// A header decoded for outputs g (lo) and g + 8 (hi).
struct kq_head {
    uint32_t sc[4], sc8[4]; // Q4_K/Q5_K: sc[0..1] the 8 6-bit scales a byte each;
                            // Q6_K: the 16 int8 scales
    uint32_t mn[2], mn8[2]; // Q4_K/Q5_K: the 8 6-bit mins a byte each
    float d, d8, m, m8;     // d and dmin (Q6_K: d only)
};

// The two halves of w as floats, exactly (common.cuh's half_to_float): the
// hardware's conversion when neither is an Inf or NaN, whose payloads it is
// not specified to keep.
static __device__ __forceinline__ float2 kq_halves(uint32_t w) {
    if ((w & 0x7C00u) != 0x7C00u && (w & 0x7C000000u) != 0x7C000000u)
        return make_float2(__half2float(__ushort_as_half((unsigned short)(w & 0xFFFFu))),
                           __half2float(__ushort_as_half((unsigned short)(w >> 16))));
    return make_float2(half_to_float(w & 0xFFFFu), half_to_float(w >> 16));
}

// Byte k (0..3) of w, zero- or sign-extended.
static __device__ __forceinline__ int kq_byte_u(uint32_t w, int k) {
    return (int)((w >> (8 * k)) & 0xFFu);
}
static __device__ __forceinline__ int kq_byte_s(uint32_t w, int k) {
    return (int)(int8_t)(uint8_t)(w >> (8 * k));
}

// The 6-bit scales and mins of the 8 sub-blocks of a Q4_K/Q5_K header
// (words h.y..h.w: bytes 4..15), packed a byte each: sc[0] = sc_0..sc_3,
// sc[1] = sc_4..sc_7; the same for mn. (kernels/quant_layout.h's
// krn__k_scale_min: j < 4: byte j & 63 and byte j+4 & 63; j >= 4: the low
// nibble of byte j+4 with the top 2 bits of byte j-4 above it, and the high
// nibble of byte j+4 with the top 2 bits of byte j.)
static __device__ __forceinline__ void kq_k_scales(uint4 h, uint32_t sc[2], uint32_t mn[2]) {
    const uint32_t b0 = h.y, b4 = h.z, b8 = h.w;
    sc[0] = b0 & 0x3F3F3F3Fu;
    mn[0] = b4 & 0x3F3F3F3Fu;
    sc[1] = (b8 & 0x0F0F0F0Fu) | ((b0 >> 2) & 0x30303030u);
    mn[1] = ((b8 >> 4) & 0x0F0F0F0Fu) | ((b4 >> 2) & 0x30303030u);
}

// The header words a lane reads (16 bytes each): Q4_K/Q5_K: rows g and
// g + 8's headers; Q6_K: their 16 scales, and dd = d of row g | d of g + 8
// << 16. rec may point to shared or global memory.
struct kq_head_raw {
    uint4 lo, hi;
    uint32_t dd;
};

template <int T>
static __device__ __forceinline__ kq_head_raw kq_head_load(const uint8_t *rec, int g) {
    kq_head_raw r;
    if constexpr (T == KRN_Q6_K) {
        r.lo = *(const uint4 *)(rec + kq<T>::sc + 16 * g);
        r.hi = *(const uint4 *)(rec + kq<T>::sc + 16 * (g + 8));
        r.dd = (uint32_t)*(const uint16_t *)(rec + kq<T>::d + 2 * g) |
               ((uint32_t)*(const uint16_t *)(rec + kq<T>::d + 2 * (g + 8)) << 16);
    } else {
        r.lo = *(const uint4 *)(rec + kq<T>::hdr + 16 * g);
        r.hi = *(const uint4 *)(rec + kq<T>::hdr + 16 * (g + 8));
        r.dd = 0;
    }
    return r;
}

template <int T>
static __device__ __forceinline__ kq_head kq_head_read(const kq_head_raw &r) {
    kq_head h;
    h.mn[0] = h.mn[1] = h.mn8[0] = h.mn8[1] = 0;
    h.m = h.m8 = 0.0f;
    if constexpr (T == KRN_Q6_K) {
        h.sc[0] = r.lo.x, h.sc[1] = r.lo.y, h.sc[2] = r.lo.z, h.sc[3] = r.lo.w;
        h.sc8[0] = r.hi.x, h.sc8[1] = r.hi.y, h.sc8[2] = r.hi.z, h.sc8[3] = r.hi.w;
        const float2 dd = kq_halves(r.dd);
        h.d = dd.x, h.d8 = dd.y;
    } else {
        kq_k_scales(r.lo, h.sc, h.mn);
        kq_k_scales(r.hi, h.sc8, h.mn8);
        h.sc[2] = h.sc[3] = h.sc8[2] = h.sc8[3] = 0;
        const float2 a = kq_halves(r.lo.x), b = kq_halves(r.hi.x);
        h.d = a.x, h.m = a.y, h.d8 = b.x, h.m8 = b.y;
    }
    return h;
}

// acc[n][e] += the super-block's A for the lane's pair e of n-tile n (C
// fragment order: outputs g, g, g + 8, g + 8 x rows 8n + 2t, 2t + 1, 2t,
// 2t + 1). An n-tile whose lowest row is at or past rows_left is skipped
// (warp-uniform).
template <int T, int NT, typename PL, typename BF>
static __device__ __forceinline__ void kq_integers(const PL &planes, const BF &bfrag,
                                                   const kq_head &h, int rows_left,
                                                   int acc[NT][4]) {
    const int zero[4] = {0, 0, 0, 0};
    if constexpr (T == KRN_Q6_K) {
        const uint4 qhg = planes(4), qhg8 = planes(5);
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const uint4 lg = planes(2 * hh), lg8 = planes(2 * hh + 1);
            const uint32_t hga = hh ? qhg.z : qhg.x, hgb = hh ? qhg.w : qhg.y;
            const uint32_t hg8a = hh ? qhg8.z : qhg8.x, hg8b = hh ? qhg8.w : qhg8.y;
#pragma unroll
            for (int pp = 0; pp < 2; pp++) { // block pair 2hh + pp: sub-blocks k = 2pp, 2pp + 1
                uint4 bq[NT];
#pragma unroll
                for (int n = 0; n < NT; n++)
                    bq[n] = 8 * n < rows_left ? bfrag(n, 2 * hh + pp) : make_uint4(0, 0, 0, 0);
#pragma unroll
                for (int kk = 0; kk < 2; kk++) {
                    const int k = 2 * pp + kk, j = 4 * hh + k, m = k & 1, nib = 4 * (k >> 1);
                    auto code = [&](uint32_t ql, uint32_t qh) {
                        const uint32_t c = ((ql >> nib) & 0x0F0F0F0Fu) |
                                           (((qh >> (2 * k)) & 0x03030303u) << 4);
                        return ((c | 0x80808080u) - 0x20202020u) ^ 0x80808080u; // c - 32 per byte
                    };
                    const uint32_t a0 = code(m ? lg.z : lg.x, hga), a2 = code(m ? lg.w : lg.y, hgb);
                    const uint32_t a1 = code(m ? lg8.z : lg8.x, hg8a), a3 = code(m ? lg8.w : lg8.y, hg8b);
                    const int slo = kq_byte_s(h.sc[j >> 1], 2 * (j & 1));
                    const int shi = kq_byte_s(h.sc[j >> 1], 2 * (j & 1) + 1);
                    const int slo8 = kq_byte_s(h.sc8[j >> 1], 2 * (j & 1));
                    const int shi8 = kq_byte_s(h.sc8[j >> 1], 2 * (j & 1) + 1);
#pragma unroll
                    for (int n = 0; n < NT; n++) {
                        if (8 * n >= rows_left) continue;
                        const uint32_t b0 = kk ? bq[n].z : bq[n].x, b1 = kk ? bq[n].w : bq[n].y;
                        int clo[4], chi[4];
                        mma_s8_k16(clo, zero, a0, a1, b0);
                        mma_s8_k16(chi, zero, a2, a3, b1);
                        acc[n][0] += slo * clo[0] + shi * chi[0];
                        acc[n][1] += slo * clo[1] + shi * chi[1];
                        acc[n][2] += slo8 * clo[2] + shi8 * chi[2];
                        acc[n][3] += slo8 * clo[3] + shi8 * chi[3];
                    }
                }
            }
        }
    } else {
        uint4 qh = make_uint4(0, 0, 0, 0);
        if constexpr (T == KRN_Q5_K) qh = planes(4);
#pragma unroll
        for (int pp = 0; pp < 4; pp++) {
            const uint4 wq = planes(pp);
            uint4 bq[NT];
#pragma unroll
            for (int n = 0; n < NT; n++)
                bq[n] = 8 * n < rows_left ? bfrag(n, pp) : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                const int j = 2 * pp + hh;
                uint32_t a[4] = {(wq.x >> (4 * hh)) & 0x0F0F0F0Fu, (wq.z >> (4 * hh)) & 0x0F0F0F0Fu,
                                 (wq.y >> (4 * hh)) & 0x0F0F0F0Fu, (wq.w >> (4 * hh)) & 0x0F0F0F0Fu};
                if constexpr (T == KRN_Q5_K) {
                    a[0] |= ((qh.x >> j) & 0x01010101u) << 4;
                    a[1] |= ((qh.z >> j) & 0x01010101u) << 4;
                    a[2] |= ((qh.y >> j) & 0x01010101u) << 4;
                    a[3] |= ((qh.w >> j) & 0x01010101u) << 4;
                }
                const int s0 = kq_byte_u(h.sc[j >> 2], j & 3), s8 = kq_byte_u(h.sc8[j >> 2], j & 3);
#pragma unroll
                for (int n = 0; n < NT; n++) {
                    if (8 * n >= rows_left) continue;
                    const uint32_t b[2] = {hh ? bq[n].z : bq[n].x, hh ? bq[n].w : bq[n].y};
                    int c[4];
                    mma_s8_k32(c, zero, a, b);
                    acc[n][0] += s0 * c[0];
                    acc[n][1] += s0 * c[1];
                    acc[n][2] += s8 * c[2];
                    acc[n][3] += s8 * c[3];
                }
            }
        }
    }
}

// v of one (output, row) pair: a its A, hi whether the output is g + 8,
// sums the row's 8 block sums of the super-block (int16 pairs), dx the
// row's group scale.
template <int T>
static __device__ __forceinline__ float kq_value(int a, const kq_head &h, bool hi, uint4 sums,
                                                 float dx) {
    float v = fmul(hi ? h.d8 : h.d, int_to_float(a));
    if constexpr (kq<T>::has_min) {
        const uint32_t m0 = hi ? h.mn8[0] : h.mn[0], m1 = hi ? h.mn8[1] : h.mn[1];
        int b = __dp2a_lo((int)sums.x, (int)m0, 0);
        b = __dp2a_hi((int)sums.y, (int)m0, b);
        b = __dp2a_lo((int)sums.z, (int)m1, b);
        b = __dp2a_hi((int)sums.w, (int)m1, b);
        v = fsub(v, fmul(hi ? h.m8 : h.m, int_to_float(b)));
    }
    return fmul(dx, v);
}

#endif // SB_KERNELS_CUDA_KQ_MATH_CUH
