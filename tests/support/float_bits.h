/*
 * float_bits.h — test support: float <-> bit pattern, for assertions of
 * bit-for-bit equality (which also tell -0 from +0 and compare NaNs).
 */
#ifndef SB_TESTS_FLOAT_BITS_H
#define SB_TESTS_FLOAT_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Bit-exact float equality; use after including cmocka.h. */
#define assert_same_float(a, b) assert_int_equal(f32_bits(a), f32_bits(b))

#endif
