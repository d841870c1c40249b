// canon_math.cuh — private to kernels/cuda/: the engine's own exp and log
// (kernels/canon_math.c) on the device, the same operation sequence with the
// same constants, each fp32 operation rounded as written.
//
// The constants are written as hexadecimal literals equal to the C
// constant expressions of canon_math.c (1.0f / 5040.0f and so on, each
// rounded once in fp32); the static_asserts below prove the equality at
// compile time, so no compiler's constant folding is trusted blindly.
#ifndef SB_KERNELS_CUDA_CANON_MATH_CUH
#define SB_KERNELS_CUDA_CANON_MATH_CUH

#include "common.cuh"

#define KRN_CUDA__LN2_HI 0x1.63p-1f          // 0.693359375f
#define KRN_CUDA__LN2_LO (-0x1.bd0106p-13f)  // -2.12194440e-4f
#define KRN_CUDA__LOG2E 0x1.715476p+0f       // 1.44269504f
#define KRN_CUDA__E7 0x1.a01a02p-13f         // 1.0f / 5040.0f
#define KRN_CUDA__E6 0x1.6c16c2p-10f         // 1.0f / 720.0f
#define KRN_CUDA__E5 0x1.111112p-7f          // 1.0f / 120.0f
#define KRN_CUDA__E4 0x1.555556p-5f          // 1.0f / 24.0f
#define KRN_CUDA__E3 0x1.555556p-3f          // 1.0f / 6.0f
#define KRN_CUDA__L9 0x1.c71c72p-3f          // 2.0f / 9.0f
#define KRN_CUDA__L7 0x1.24924ap-2f          // 2.0f / 7.0f
#define KRN_CUDA__L5 0x1.99999ap-2f          // 2.0f / 5.0f
#define KRN_CUDA__L3 0x1.555556p-1f          // 2.0f / 3.0f

static_assert(KRN_CUDA__LN2_HI == 0.693359375f, "LN2_HI");
static_assert(KRN_CUDA__LN2_LO == -2.12194440e-4f, "LN2_LO");
static_assert(KRN_CUDA__LOG2E == 1.44269504f, "LOG2E");
static_assert(KRN_CUDA__E7 == 1.0f / 5040.0f, "1/7!");
static_assert(KRN_CUDA__E6 == 1.0f / 720.0f, "1/6!");
static_assert(KRN_CUDA__E5 == 1.0f / 120.0f, "1/5!");
static_assert(KRN_CUDA__E4 == 1.0f / 24.0f, "1/4!");
static_assert(KRN_CUDA__E3 == 1.0f / 6.0f, "1/3!");
static_assert(KRN_CUDA__L9 == 2.0f / 9.0f, "2/9");
static_assert(KRN_CUDA__L7 == 2.0f / 7.0f, "2/7");
static_assert(KRN_CUDA__L5 == 2.0f / 5.0f, "2/5");
static_assert(KRN_CUDA__L3 == 2.0f / 3.0f, "2/3");

// 2^k for -126 <= k <= 127, from its exponent field (exact).
static __device__ __forceinline__ float krn_cuda_pow2(int k) {
    return __uint_as_float((uint32_t)(k + 127) << 23);
}

// krn__exp_poly: 1 + (r + r^2 * P(r)), P by Horner from 1/7! down to 1/2.
static __device__ __forceinline__ float krn_cuda_exp_poly(float r) {
    float p = KRN_CUDA__E7;
    p = fadd(fmul(p, r), KRN_CUDA__E6);
    p = fadd(fmul(p, r), KRN_CUDA__E5);
    p = fadd(fmul(p, r), KRN_CUDA__E4);
    p = fadd(fmul(p, r), KRN_CUDA__E3);
    p = fadd(fmul(p, r), 0.5f);
    return fadd(1.0f, fadd(r, fmul(fmul(r, r), p)));
}

// krn_exp: the same bounds, range reduction (kf = rint(x*log2e), r = (x -
// kf*LN2_HI) - kf*LN2_LO), polynomial and one- or two-step scaling.
static __device__ __forceinline__ float krn_cuda_exp(float x) {
    if (!(x == x)) return fadd(x, x); // NaN (payload: see the report's risks)
    if (x > 89.0f) return __uint_as_float(0x7F800000u);
    if (x < -104.0f) return 0.0f;
    const float kf = rintf(fmul(x, KRN_CUDA__LOG2E));
    const float r = fsub(fsub(x, fmul(kf, KRN_CUDA__LN2_HI)),
                         fmul(kf, KRN_CUDA__LN2_LO));
    const float y = krn_cuda_exp_poly(r);
    const int k = (int)kf; // -150 .. 128 by the bounds above
    if (k >= -126 && k <= 127) return fmul(y, krn_cuda_pow2(k));
    const int k1 = k / 2; // C and C++ both truncate toward zero
    return fmul(fmul(y, krn_cuda_pow2(k1)), krn_cuda_pow2(k - k1));
}

// krn__log1p_tail: s * (h + R), R = z*(2/3 + z*(2/5 + z*(2/7 + z*2/9))).
static __device__ __forceinline__ float krn_cuda_log1p_tail(float s, float h) {
    const float z = fmul(s, s);
    float R = KRN_CUDA__L9;
    R = fadd(fmul(R, z), KRN_CUDA__L7);
    R = fadd(fmul(R, z), KRN_CUDA__L5);
    R = fadd(fmul(R, z), KRN_CUDA__L3);
    R = fmul(R, z);
    return fmul(s, fadd(h, R));
}

// krn_log (x > 0 for a finite result), the same special cases and order.
static __device__ __forceinline__ float krn_cuda_log(float x) {
    uint32_t u = __float_as_uint(x);
    if (!(x == x) || x < 0.0f) return __uint_as_float(0x7FC00000u);
    if (x == 0.0f) return __uint_as_float(0xFF800000u);
    if (u == 0x7F800000u) return x;
    int e = 0;
    if (u < 0x00800000u) { // subnormal: scale up by 2^25, exactly
        u = __float_as_uint(fmul(x, 33554432.0f));
        e = -25;
    }
    e += (int)(u >> 23) - 127;
    uint32_t mb = (u & 0x007FFFFFu) | 0x3F800000u;
    if (mb > 0x3FB504F3u) {
        mb -= 0x00800000u;
        e += 1;
    }
    const float f = fsub(__uint_as_float(mb), 1.0f);
    const float s = fdiv(f, fadd(2.0f, f));
    const float h = fmul(0.5f, fmul(f, f));
    const float t = krn_cuda_log1p_tail(s, h);
    const float ef = int_to_float(e);
    return fsub(fmul(ef, KRN_CUDA__LN2_HI),
                fsub(fsub(h, fadd(t, fmul(ef, KRN_CUDA__LN2_LO))), f));
}

#endif // SB_KERNELS_CUDA_CANON_MATH_CUH
