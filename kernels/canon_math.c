/*
 * canon_math.c — the engine's own exp and log (kernels.h section 2).
 *
 * libm's expf/logf differ between C libraries and GPUs, so the canonical
 * arithmetic uses these: fp32 +, -, *, / and rintf only, each rounded as
 * written, plus exact exponent-field manipulation on the bit pattern (an
 * integer operation every backend can do). A CUDA port must write the same
 * sequence with __fadd_rn/__fmul_rn/__fdiv_rn and rintf.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

/* ln 2 split so that k*KRN__LN2_HI is exact for |k| < 2^15: the high part
 * has 9 significant bits (0.693359375 = 355/512). hi + lo = ln 2 to about
 * 2^-36 relative. */
static const float KRN__LN2_HI = 0.693359375f;
static const float KRN__LN2_LO = -2.12194440e-4f;
static const float KRN__LOG2E = 1.44269504f;

/* Above this exp overflows (ln FLT_MAX = 88.7228...): the scaled result
 * comes out +inf by itself; this bound only keeps k within 128. */
static const float KRN__EXP_HI = 89.0f;
/* Below ln(2^-150) = -103.972... the result rounds to zero; the same holds
 * naturally down to here, and this bound keeps k >= -150. */
static const float KRN__EXP_LO = -104.0f;

static float krn__bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t krn__f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* 2^k as a float for -126 <= k <= 127 (a normal power of two). */
static float krn__pow2(int k) {
    return krn__bits_f32((uint32_t)(k + 127) << 23);
}

/* exp(r) for |r| <= ~0.35: 1 + (r + r^2*P(r)) with P the Taylor series
 * 1/2! .. 1/7! (truncation < r^8/8! = 6e-9 relative). Adding the small
 * part r + r^2 P before the 1 keeps the rounding error near 0.5 ulp. */
static float krn__exp_poly(float r) {
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    return 1.0f + (r + (r * r) * p);
}

float krn_exp(float x) {
    if (!(x == x))
        return x + x; /* NaN */
    if (x > KRN__EXP_HI)
        return INFINITY;
    if (x < KRN__EXP_LO)
        return 0.0f;
    /* x = k ln2 + r, |r| <= ln2/2 (plus a hair when x*log2e rounds across
     * a half). For k != 0, x and k*LN2_HI are within a factor of 2, so the
     * first subtraction is exact (Sterbenz). */
    const float kf = rintf(x * KRN__LOG2E);
    const float r = (x - kf * KRN__LN2_HI) - kf * KRN__LN2_LO;
    const float y = krn__exp_poly(r);
    const int k = (int)kf; /* -150 .. 128 by the bounds above */
    if (k >= -126 && k <= 127)
        return y * krn__pow2(k);
    /* Out of range of one normal power of two: scale in two steps. The
     * first (by 2^(k/2), |k/2| <= 75) is exact since y*2^(k/2) stays
     * normal; the second rounds once, into a subnormal or to infinity. */
    const int k1 = k / 2;
    return (y * krn__pow2(k1)) * krn__pow2(k - k1);
}

/* log(1+f) for m = 1+f in [sqrt(2)/2, sqrt(2)], via s = f/(2+f):
 * log(1+f) = f - (h - s*(h + R)), h = f*f/2, R = Σ_{k>=1} 2 s^(2k)/(2k+1)
 * (|s| <= 0.1716: stopping at s^8, s*R is short by < 1e-9, 0.03 ulp of
 * the result). The identity follows
 * from 2s = f - s*f. Returns the term s*(h + R). */
static float krn__log1p_tail(float s, float h) {
    const float z = s * s;
    float R = 2.0f / 9.0f;
    R = R * z + 2.0f / 7.0f;
    R = R * z + 2.0f / 5.0f;
    R = R * z + 2.0f / 3.0f;
    R = R * z;
    return s * (h + R);
}

float krn_log(float x) {
    uint32_t u = krn__f32_bits(x);
    if (!(x == x) || x < 0.0f)
        return NAN;
    if (x == 0.0f)
        return -INFINITY;
    if (u == 0x7F800000)
        return x; /* +inf */
    int e = 0;
    if (u < 0x00800000) { /* subnormal: scale up by 2^25, exactly */
        u = krn__f32_bits(x * 33554432.0f);
        e = -25;
    }
    e += (int)(u >> 23) - 127;
    /* m in [1, 2); fold the top part down to [sqrt2/2, sqrt2). 0x3FB504F3
     * is sqrt(2) rounded to float. */
    uint32_t mb = (u & 0x007FFFFF) | 0x3F800000;
    if (mb > 0x3FB504F3) {
        mb -= 0x00800000;
        e += 1;
    }
    const float f = krn__bits_f32(mb) - 1.0f; /* exact: m within [0.5, 2] */
    const float s = f / (2.0f + f);
    const float h = 0.5f * (f * f);
    const float t = krn__log1p_tail(s, h);
    const float ef = (float)e; /* |e| <= 150: e*LN2_HI is exact */
    /* e ln2 + log(m), adding the small pieces first. */
    return ef * KRN__LN2_HI - ((h - (t + ef * KRN__LN2_LO)) - f);
}
