/*
 * quant_layout.h — private to kernels/: byte offsets of ggml's block
 * layouts and the two small decoders every reader of them shares.
 *
 * Blocks are read as bytes at fixed offsets, never through a C struct, so
 * no padding or alignment assumption enters. All multi-byte fields are
 * little-endian (GGUF is little-endian).
 *
 *   Q4_0  (32 w, 18 B): d:f16 @0, qs[16] @2 (element i<16 in the low nibble
 *         of qs[i], element i+16 in its high nibble)
 *   Q4_1  (32 w, 20 B): d:f16 @0, m:f16 @2, qs[16] @4
 *   Q5_0  (32 w, 22 B): d:f16 @0, qh:u32 @2 (bit i = 5th bit of element i),
 *         qs[16] @6
 *   Q5_1  (32 w, 24 B): d:f16 @0, m:f16 @2, qh:u32 @4, qs[16] @8
 *   Q8_0  (32 w, 34 B): d:f16 @0, qs:int8[32] @2
 *   Q4_K (256 w, 144 B): d:f16 @0, dmin:f16 @2, scales[12] @4 (eight 6-bit
 *         scale/min pairs), qs[128] @16
 *   Q5_K (256 w, 176 B): d @0, dmin @2, scales[12] @4, qh[32] @16,
 *         qs[128] @48
 *   Q6_K (256 w, 210 B): ql[128] @0, qh[64] @128, scales:int8[16] @192,
 *         d:f16 @208
 */
#ifndef SB_KERNELS_QUANT_LAYOUT_H
#define SB_KERNELS_QUANT_LAYOUT_H

#include <stdint.h>
#include <string.h>

enum {
    KRN__Q4_0_QS = 2,
    KRN__Q4_1_M = 2, KRN__Q4_1_QS = 4,
    KRN__Q5_0_QH = 2, KRN__Q5_0_QS = 6,
    KRN__Q5_1_M = 2, KRN__Q5_1_QH = 4, KRN__Q5_1_QS = 8,
    KRN__Q8_0_QS = 2,
    KRN__QK_DMIN = 2, KRN__QK_SCALES = 4,
    KRN__Q4_K_QS = 16,
    KRN__Q5_K_QH = 16, KRN__Q5_K_QS = 48,
    KRN__Q6_K_QH = 128, KRN__Q6_K_SCALES = 192, KRN__Q6_K_D = 208,
};

static inline uint16_t krn__rd16(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t krn__rd32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline void krn__wr16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v & 0xFF);
    p[1] = (uint8_t)(v >> 8);
}

static inline void krn__wr32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline float krn__f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Half to float, exact (every half is a float); inline because the
 * unpackers read one or two per block. A NaN keeps its payload and comes
 * out quiet, as the F16C and ARM conversion instructions produce it. */
static inline float krn__half_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    const uint32_t exp = (h >> 10) & 0x1F;
    const uint32_t man = h & 0x3FF;
    if (exp != 0 && exp != 0x1F) /* normal: rebias 15 -> 127 */
        return krn__f32_from_bits(sign | ((exp + 112) << 23) | (man << 13));
    if (exp == 0x1F)
        return krn__f32_from_bits(sign | 0x7F800000 | (man << 13) |
                                  (man ? 0x00400000u : 0));
    /* Zero or subnormal: man * 2^-24, exact in float. */
    const float v = (float)man * (1.0f / 16777216.0f);
    return sign ? -v : v;
}

/* Scale and min (each 0..63) of sub-block j (0..7) of a Q4_K/Q5_K block,
 * from its 12 packed bytes: sub-blocks 0..3 keep their 6 bits in the low
 * bits of bytes j (scale) and j+4 (min); sub-blocks 4..7 keep their low 4
 * bits in the nibbles of byte j+4 and their top 2 bits in the spare top
 * bits of bytes j-4 (scale) and j (min). */
static inline void krn__k_scale_min(const uint8_t *s, int j, uint8_t *sc,
                                    uint8_t *mn) {
    if (j < 4) {
        *sc = s[j] & 63;
        *mn = s[j + 4] & 63;
    } else {
        *sc = (uint8_t)((s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4));
        *mn = (uint8_t)((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
    }
}

#endif /* SB_KERNELS_QUANT_LAYOUT_H */
