// qblock.cuh — private to kernels/cuda/: one 32-element block of a ggml
// quantized row read word by word, for the 32-element types' matmul
// (mm_block32.cu).
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
// on for p itself, given a 16-byte aligned matrix.
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

// The little-endian 32-bit word at p (p even). With AL >= 4 p is 4-byte
// aligned and one load does; otherwise the two aligned words around it are
// loaded and funnel-shifted (a shift of 0 when p happens to be aligned).
// Reads at most 4 bytes past p + 3 (inside the matrix's padding: backend.cu
// allocates KRN_CUDA__WEIGHT_PAD bytes after every matrix).
template <int AL>
static __device__ __forceinline__ uint32_t load_word(const uint8_t *p) {
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
static __device__ __forceinline__ uint32_t bytes_minus(uint32_t x, uint32_t k) {
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
        const uint32_t n = load_word<AL>(p + (T == KRN_Q4_0 ? 2 : 4) + 4 * (w & 3));
        const uint32_t c = (w < 4 ? n : n >> 4) & 0x0F0F0F0Fu;
        return T == KRN_Q4_0 ? bytes_minus(c, 0x08080808u) : c;
    } else if constexpr (T == KRN_Q5_0 || T == KRN_Q5_1) {
        // as Q4, plus 16 when bit i of the 32-bit qh is set
        const uint32_t qh = load_word<AL>(p + (T == KRN_Q5_0 ? 2 : 4));
        const uint32_t n = load_word<AL>(p + (T == KRN_Q5_0 ? 6 : 8) + 4 * (w & 3));
        const uint32_t c = ((w < 4 ? n : n >> 4) & 0x0F0F0F0Fu) | spread4_bit4(qh >> (4 * w));
        return T == KRN_Q5_0 ? bytes_minus(c, 0x10101010u) : c;
    } else if constexpr (T == KRN_Q8_0) {
        return load_word<AL>(p + 2 + 4 * w);
    } else if constexpr (T == KRN_Q4_K || T == KRN_Q5_K) {
        // blocks 2q, 2q+1: low / high nibbles of qs[32q .. 32q+31]; Q5_K's
        // fifth bit of element l of block j is bit j of qh[l]
        const uint8_t *qs = p + (T == KRN_Q4_K ? 16 : 48) + 32 * (sub >> 1);
        uint32_t c = (load_word<AL>(qs + 4 * w) >> (4 * (sub & 1))) & 0x0F0F0F0Fu;
        if constexpr (T == KRN_Q5_K)
            c |= ((load_word<AL>(p + 16 + 4 * w) >> sub) & 0x01010101u) << 4;
        return c;
    } else { // KRN_Q6_K: block 4h + k; low 4 bits in ql[64h + 32(k&1) + l]
             // (low nibble for k < 2), top 2 bits at bits 2k of qh[32h + l]
        const int h = sub >> 2, k = sub & 3;
        const uint32_t lo = (load_word<AL>(p + 64 * h + 32 * (k & 1) + 4 * w) >> (4 * (k >> 1))) &
                            0x0F0F0F0Fu;
        const uint32_t hi = (load_word<AL>(p + 128 + 32 * h + 4 * w) >> (2 * k)) & 0x03030303u;
        return bytes_minus(lo | (hi << 4), 0x20202020u);
    }
}

#endif // SB_KERNELS_CUDA_QBLOCK_CUH
