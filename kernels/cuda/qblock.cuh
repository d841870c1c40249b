// qblock.cuh — private to kernels/cuda/: one 32-element block of a ggml
// quantized row read word by word, for the matmul kernels (matmul.cu).
//
// The values are krn_unpack_row's (kernels/canon.c), bit for bit: the int8
// codes (signed c-8, c-16, c-32 for the types without a min, unsigned with
// one), packed four to a 32-bit word (word w = elements 4w..4w+3, element
// 4w in the low byte), and the coefficients d_j, m_j, mul_lo, mul_hi formed
// with the same float products. Only integer work differs from canon.c:
// nibbles and high bits are gathered four at a time with masks and shifts.
//
// Blocks are read from wherever the kernel staged them (shared memory or
// global memory) through a byte pointer `p` to the start of the ggml block
// (for the K-quants the 256-element super-block, with `sub` = 0..7 picking
// the 32-element block inside it; for the legacy types sub is 0). Every
// field of every type sits at an even address when the row does (every
// block size is even); qt<T>::align is the alignment the kernels can rely
// on for p itself, given a 16-byte aligned matrix and the staging of
// matmul.cu, which keeps each address's residue modulo 16.
#ifndef SB_KERNELS_CUDA_QBLOCK_CUH
#define SB_KERNELS_CUDA_QBLOCK_CUH

#include "common.cuh"

// Per type: bytes of a ggml block, 32-element blocks per ggml block, the
// alignment of every ggml block start (row_bytes is a multiple of it), whether
// the block value has a min term, and whether the two 16-element halves have
// their own multipliers (Q6_K's int8 scales).
template <int T> struct qt;
template <> struct qt<KRN_Q4_0> { enum { bb = 18, bpg = 1, align = 2, has_min = 0, dual = 0 }; };
template <> struct qt<KRN_Q4_1> { enum { bb = 20, bpg = 1, align = 4, has_min = 1, dual = 0 }; };
template <> struct qt<KRN_Q5_0> { enum { bb = 22, bpg = 1, align = 2, has_min = 0, dual = 0 }; };
template <> struct qt<KRN_Q5_1> { enum { bb = 24, bpg = 1, align = 8, has_min = 1, dual = 0 }; };
template <> struct qt<KRN_Q8_0> { enum { bb = 34, bpg = 1, align = 2, has_min = 0, dual = 0 }; };
template <> struct qt<KRN_Q4_K> { enum { bb = 144, bpg = 8, align = 16, has_min = 1, dual = 0 }; };
template <> struct qt<KRN_Q5_K> { enum { bb = 176, bpg = 8, align = 16, has_min = 1, dual = 0 }; };
template <> struct qt<KRN_Q6_K> { enum { bb = 210, bpg = 8, align = 2, has_min = 0, dual = 1 }; };

// Bytes of one "group" of 32 consecutive 32-element blocks (the unit a warp
// or a block of matmul.cu stages at once).
template <int T> struct qgroup {
    enum { bytes = (32 / qt<T>::bpg) * qt<T>::bb };
};

// The little-endian 32-bit word at p (p even). With AL >= 4 p is 4-byte
// aligned and one load does; otherwise the two aligned words around it are
// loaded and funnel-shifted (a shift of 0 when p happens to be aligned).
// Reads at most 4 bytes past p + 3 (inside the kernels' padded staging).
template <int AL>
static __device__ __forceinline__ uint32_t rdw(const uint8_t *p) {
    if (AL >= 4) return *(const uint32_t *)p;
    const uintptr_t a = (uintptr_t)p;
    const uint32_t *w = (const uint32_t *)(a & ~(uintptr_t)3);
    return __funnelshift_r(w[0], w[1], (unsigned)(a & 3) * 8u);
}

// The half-precision value at p (p even), exactly (common.cuh).
static __device__ __forceinline__ float half_at2(const uint8_t *p) {
    return half_to_float_fast(*(const uint16_t *)p);
}

// Per-byte (x - k) mod 256 for bytes x, k in 0..127: setting bit 7 first
// means no byte borrows from its neighbour, and clearing it again gives
// x - k, or x - k + 256 when x < k — the int8 code c - k.
static __device__ __forceinline__ uint32_t sub_bytes(uint32_t x, uint32_t k) {
    return ((x | 0x80808080u) - k) ^ 0x80808080u;
}

// Bits 0..3 of b moved to bit 4 of bytes 0..3 (b * 0x204081 places bit i at
// bit 8i + (i - m) * 7 ... for i = m exactly bit 8i; the other products land
// on bits outside 0, 8, 16, 24, and no two overlap, so nothing carries).
static __device__ __forceinline__ uint32_t spread4_bit4(uint32_t b) {
    return (((b & 0xFu) * 0x00204081u) & 0x01010101u) << 4;
}

// Code word w (0..7: elements 4w..4w+3) of 32-element block `sub` of the
// ggml block at p. Element i of the block is byte i % 4 of word i / 4.
template <int T>
static __device__ __forceinline__ uint32_t code_word(const uint8_t *p, int sub, int w) {
    constexpr int AL = qt<T>::align;
    if constexpr (T == KRN_Q4_0 || T == KRN_Q4_1) {
        // element i < 16: low nibble of qs[i]; i >= 16: high nibble of qs[i-16]
        const uint32_t n = rdw<AL>(p + (T == KRN_Q4_0 ? 2 : 4) + 4 * (w & 3));
        const uint32_t c = (w < 4 ? n : n >> 4) & 0x0F0F0F0Fu;
        return T == KRN_Q4_0 ? sub_bytes(c, 0x08080808u) : c;
    } else if constexpr (T == KRN_Q5_0 || T == KRN_Q5_1) {
        // as Q4, plus 16 when bit i of the 32-bit qh is set
        const uint32_t qh = rdw<AL>(p + (T == KRN_Q5_0 ? 2 : 4));
        const uint32_t n = rdw<AL>(p + (T == KRN_Q5_0 ? 6 : 8) + 4 * (w & 3));
        const uint32_t c = ((w < 4 ? n : n >> 4) & 0x0F0F0F0Fu) | spread4_bit4(qh >> (4 * w));
        return T == KRN_Q5_0 ? sub_bytes(c, 0x10101010u) : c;
    } else if constexpr (T == KRN_Q8_0) {
        return rdw<AL>(p + 2 + 4 * w);
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        // blocks 2q, 2q+1: low / high nibbles of qs[32q .. 32q+31]; Q5_K's
        // fifth bit of element l of block j is bit j of qh[l]
        const uint8_t *qs = p + (T == KRN_Q4_K ? 16 : 48) + 32 * (sub >> 1);
        uint32_t c = (rdw<AL>(qs + 4 * w) >> (4 * (sub & 1))) & 0x0F0F0F0Fu;
        if constexpr (T == KRN_Q5_K)
            c |= ((rdw<AL>(p + 16 + 4 * w) >> sub) & 0x01010101u) << 4;
        return c;
    } else { // KRN_Q6_K: block 4h + k; low 4 bits in ql[64h + 32(k&1) + l]
             // (low nibble for k < 2), top 2 bits at bits 2k of qh[32h + l]
        const int h = sub >> 2, k = sub & 3;
        const uint32_t lo = (rdw<AL>(p + 64 * h + 32 * (k & 1) + 4 * w) >> (4 * (k >> 1))) &
                            0x0F0F0F0Fu;
        const uint32_t hi = (rdw<AL>(p + 128 + 32 * h + 4 * w) >> (2 * k)) & 0x03030303u;
        return sub_bytes(lo | (hi << 4), 0x20202020u);
    }
}

// N consecutive little-endian words at p (p even): wide loads when the
// alignment allows (AL >= 16: 16-byte loads, N a multiple of 4), else N + 1
// aligned words funnel-shifted by p's misalignment (one shift amount for
// all). Reads at most 4 bytes past p + 4N - 1.
template <int AL, int N>
static __device__ __forceinline__ void rd_words(const uint8_t *p, uint32_t *out) {
    if constexpr (AL >= 16 && N % 4 == 0) {
#pragma unroll
        for (int i = 0; i < N / 4; i++) {
            const uint4 v = ((const uint4 *)p)[i];
            out[4 * i] = v.x;
            out[4 * i + 1] = v.y;
            out[4 * i + 2] = v.z;
            out[4 * i + 3] = v.w;
        }
    } else if constexpr (AL >= 4) {
#pragma unroll
        for (int i = 0; i < N; i++) out[i] = ((const uint32_t *)p)[i];
    } else {
        const uintptr_t a = (uintptr_t)p;
        const uint32_t *w = (const uint32_t *)(a & ~(uintptr_t)3);
        const unsigned sh = (unsigned)(a & 3) * 8u;
        uint32_t v[N + 1];
#pragma unroll
        for (int i = 0; i <= N; i++) v[i] = w[i];
#pragma unroll
        for (int i = 0; i < N; i++) out[i] = __funnelshift_r(v[i], v[i + 1], sh);
    }
}

// All 8 code words of 32-element block `sub` of the ggml block at p: the
// same values as code_word<T>(p, sub, 0..7), with fewer loads.
template <int T>
static __device__ __forceinline__ void unpack8(const uint8_t *p, int sub, uint32_t q[8]) {
    constexpr int AL = qt<T>::align;
    if constexpr (T == KRN_Q4_0 || T == KRN_Q4_1) {
        uint32_t n[4];
        rd_words<AL, 4>(p + (T == KRN_Q4_0 ? 2 : 4), n);
#pragma unroll
        for (int w = 0; w < 4; w++) {
            const uint32_t lo = n[w] & 0x0F0F0F0Fu, hi = (n[w] >> 4) & 0x0F0F0F0Fu;
            q[w] = T == KRN_Q4_0 ? sub_bytes(lo, 0x08080808u) : lo;
            q[w + 4] = T == KRN_Q4_0 ? sub_bytes(hi, 0x08080808u) : hi;
        }
    } else if constexpr (T == KRN_Q5_0 || T == KRN_Q5_1) {
        uint32_t n[4], qh[1];
        rd_words<AL, 1>(p + (T == KRN_Q5_0 ? 2 : 4), qh);
        rd_words<AL, 4>(p + (T == KRN_Q5_0 ? 6 : 8), n);
#pragma unroll
        for (int w = 0; w < 8; w++) {
            const uint32_t c = ((w < 4 ? n[w & 3] : n[w & 3] >> 4) & 0x0F0F0F0Fu) |
                               spread4_bit4(qh[0] >> (4 * w));
            q[w] = T == KRN_Q5_0 ? sub_bytes(c, 0x10101010u) : c;
        }
    } else if constexpr (T == KRN_Q8_0) {
        rd_words<AL, 8>(p + 2, q);
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        uint32_t n[8];
        rd_words<AL, 8>(p + (T == KRN_Q4_K ? 16 : 48) + 32 * (sub >> 1), n);
        const unsigned sh = 4u * (unsigned)(sub & 1);
        if constexpr (T == KRN_Q5_K) {
            uint32_t h[8];
            rd_words<AL, 8>(p + 16, h);
#pragma unroll
            for (int w = 0; w < 8; w++)
                q[w] = ((n[w] >> sh) & 0x0F0F0F0Fu) | (((h[w] >> sub) & 0x01010101u) << 4);
        } else {
#pragma unroll
            for (int w = 0; w < 8; w++) q[w] = (n[w] >> sh) & 0x0F0F0F0Fu;
        }
    } else { // KRN_Q6_K
        const int h = sub >> 2, k = sub & 3;
        uint32_t lo[8], hi[8];
        rd_words<AL, 8>(p + 64 * h + 32 * (k & 1), lo);
        rd_words<AL, 8>(p + 128 + 32 * h, hi);
        const unsigned sl = 4u * (unsigned)(k >> 1), shh = 2u * (unsigned)k;
#pragma unroll
        for (int w = 0; w < 8; w++)
            q[w] = sub_bytes(((lo[w] >> sl) & 0x0F0F0F0Fu) | (((hi[w] >> shh) & 0x03030303u) << 4),
                             0x20202020u);
    }
}

// Scale and min of sub-block j of a Q4_K/Q5_K super-block from its 12
// scale bytes as three little-endian words s0, s1, s2 (bytes 0..3, 4..7,
// 8..11): krn__k_scale_min without a branch on j. For j < 4 the scale is
// byte j & 63 and the min byte j+4 & 63; for j >= 4 the scale is the low
// nibble of byte j+4 with the top 2 bits of byte j-4 above it, the min the
// high nibble of byte j+4 with the top 2 bits of byte j.
static __device__ __forceinline__ void k_scale_min_words(uint32_t s0, uint32_t s1, uint32_t s2,
                                                         int j, int *sc, int *mn) {
    const unsigned b = 8u * (unsigned)(j & 3);
    const int x0 = (int)((s0 >> b) & 0xFFu); // byte j & 3
    const int x1 = (int)((s1 >> b) & 0xFFu); // byte (j & 3) + 4
    const int x2 = (int)((s2 >> b) & 0xFFu); // byte (j & 3) + 8
    const int sc_lo = x0 & 63, mn_lo = x1 & 63;
    const int sc_hi = (x2 & 0x0F) | ((x0 >> 6) << 4);
    const int mn_hi = (x2 >> 4) | ((x1 >> 6) << 4);
    *sc = j < 4 ? sc_lo : sc_hi;
    *mn = j < 4 ? mn_lo : mn_hi;
}

// The block's coefficients, with krn_unpack_row's float products:
// Q8_0/Q4_0/Q5_0: d; Q4_1/Q5_1: d and m = -min; Q4_K/Q5_K: d*sc_j and
// dmin*min_j; Q6_K: d, and the int8 scales of the two halves as the
// multipliers mul_lo, mul_hi (1 and 1 for every other type).
template <int T>
static __device__ __forceinline__ void block_coef(const uint8_t *p, int sub, float *d,
                                                  float *m, int *mul_lo, int *mul_hi) {
    *mul_lo = *mul_hi = 1;
    *m = 0.0f;
    if constexpr (T == KRN_Q4_0 || T == KRN_Q5_0 || T == KRN_Q8_0) {
        *d = half_at2(p);
    } else if constexpr (T == KRN_Q4_1 || T == KRN_Q5_1) {
        *d = half_at2(p);
        *m = -half_at2(p + 2);
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        // the 16-byte header: d, dmin, scales[12] (p is 16-byte aligned)
        const uint4 hd = *(const uint4 *)p;
        int sc, mn;
        k_scale_min_words(hd.y, hd.z, hd.w, sub, &sc, &mn);
        *d = fmul(half_to_float_fast(hd.x & 0xFFFFu), i2f_small(sc)); // sc, mn < 64
        *m = fmul(half_to_float_fast(hd.x >> 16), i2f_small(mn));
    } else { // KRN_Q6_K
        *d = half_at2(p + 208);
        *mul_lo = (int)(int8_t)p[192 + 2 * sub];
        *mul_hi = (int)(int8_t)p[192 + 2 * sub + 1];
    }
}

#endif // SB_KERNELS_CUDA_QBLOCK_CUH
