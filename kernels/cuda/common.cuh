// common.cuh — private to kernels/cuda/: the device side of the canonical
// arithmetic (kernels.h §2) that every kernel shares.
//
// Exactness: every float operation of the contract is written with an
// explicit round-to-nearest intrinsic (__fadd_rn, __fmul_rn, ...). The CUDA
// compiler never contracts those into an FMA, so the bits do not depend on
// --fmad (the Makefile sets --fmad=false as a second guard) nor on
// optimisation. Division and square root are __fdiv_rn/__fsqrt_rn: IEEE
// correctly rounded, like the CPU's '/' and sqrtf. Subnormals are kept
// (the build never passes --ftz=true or --use_fast_math).
#ifndef SB_KERNELS_CUDA_COMMON_CUH
#define SB_KERNELS_CUDA_COMMON_CUH

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "../kernels.h"
}

// ---- one rounded fp32 operation each -------------------------------------

static __device__ __forceinline__ float fadd(float a, float b) { return __fadd_rn(a, b); }
static __device__ __forceinline__ float fsub(float a, float b) { return __fsub_rn(a, b); }
static __device__ __forceinline__ float fmul(float a, float b) { return __fmul_rn(a, b); }
static __device__ __forceinline__ float fdiv(float a, float b) { return __fdiv_rn(a, b); }
static __device__ __forceinline__ float int_to_float(int v) { return __int2float_rn(v); }

// (float)v for |v| < 2^22, exactly, without a conversion instruction: the
// bit pattern 0x4B400000 + v is the float 1.5 * 2^23 + v (every integer in
// [2^23, 2^24) is a float, and v moves only the mantissa), and subtracting
// 1.5 * 2^23 is exact (Sterbenz). The same value as int_to_float(v).
static __device__ __forceinline__ float i2f_small(int v) {
    return __fsub_rn(__int_as_float(v + 0x4B400000), 12582912.0f);
}

// ---- the lane sum ----------------------------------------------------------

// The butterfly fold of kernels.h §2 over a warp: lane l holds its partial
// sum (elements l, l+32, ... added in order from 0.0f); for off = 16, 8, 4,
// 2, 1 every lane adds the partial of lane l ^ off. For l < off that partner
// is l + off, so lane 0 performs exactly the CPU fold's additions
// (lane[l] = lane[l] + lane[l + off]); the sum is then broadcast from lane 0
// so every lane returns the canonical bits. All 32 lanes must call it.
static __device__ __forceinline__ float warp_fold(float v) {
    for (int off = 16; off >= 1; off >>= 1)
        v = fadd(v, __shfl_xor_sync(0xffffffffu, v, off));
    return __shfl_sync(0xffffffffu, v, 0);
}

// Integer warp sum (exact in any order).
static __device__ __forceinline__ int warp_sum_int(int v) {
    for (int off = 16; off >= 1; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Maximum of non-negative, non-NaN floats (exact in any order).
static __device__ __forceinline__ float warp_max_nonneg(float v) {
    for (int off = 16; off >= 1; off >>= 1) {
        float o = __shfl_xor_sync(0xffffffffu, v, off);
        v = o > v ? o : v;
    }
    return v;
}

// ---- activation quantization ------------------------------------------------

// krn_quantize_act for one 32-element block held one element per lane
// (lane l holds element l), all 32 lanes calling: amax = max |x| (a maximum
// is exact in any order; a NaN never wins, as in the CPU's `a > amax` scan
// from 0), id = 127 / amax (0 when amax is 0), q = rint(x * id) clamped to
// [-127, 127] in float (NaN gives 0), d = amax / 127, sum = Σ q (exact).
// Writes the code to q[lane] and, from lane 0, {d, (float)sum} to *c
// (krn_cuda_act's layout; the conversion of |sum| <= 4064 is exact).
static __device__ __forceinline__ void quantize_act_lane(float v, int8_t *q,
                                                         float2 *c, int lane) {
    const float a = fabsf(v);
    const float amax = warp_max_nonneg(a > 0.0f ? a : 0.0f);
    const float id = amax != 0.0f ? fdiv(127.0f, amax) : 0.0f;
    const float r = rintf(fmul(v, id));
    const int qi = r > 127.0f ? 127 : r < -127.0f ? -127 : !(r == r) ? 0 : (int)r;
    q[lane] = (int8_t)qi;
    const int sum = warp_sum_int(qi);
    if (lane == 0) *c = make_float2(fdiv(amax, 127.0f), int_to_float(sum));
}

// ---- little-endian bytes -----------------------------------------------------

static __device__ __forceinline__ uint32_t rd16(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
}

static __device__ __forceinline__ uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

// ---- half and bfloat16 -------------------------------------------------------

// krn__half_to_float (quant_layout.h), bit for bit: exact for every half,
// and a NaN keeps its payload and comes out quiet. (The hardware conversion
// is exact too, but its NaN payloads are not specified to match.)
static __device__ __forceinline__ float half_to_float(uint32_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    const uint32_t man = h & 0x3FFu;
    if (exp != 0 && exp != 0x1F)
        return __uint_as_float(sign | ((exp + 112u) << 23) | (man << 13));
    if (exp == 0x1F)
        return __uint_as_float(sign | 0x7F800000u | (man << 13) |
                               (man ? 0x00400000u : 0u));
    const float v = fmul((float)man, 0x1p-24f); // exact: man < 2^10
    return sign ? -v : v;
}

// The same value with fewer instructions: the hardware's conversion, exact
// for every finite half, and half_to_float for Inf and NaN (whose payload
// the hardware's is not specified to keep).
static __device__ __forceinline__ float half_to_float_fast(uint32_t h) {
    return (h & 0x7C00u) == 0x7C00u ? half_to_float(h)
                                    : __half2float(__ushort_as_half((unsigned short)h));
}

static __device__ __forceinline__ float half_at(const uint8_t *p) {
    return half_to_float(rd16(p));
}

static __device__ __forceinline__ float bf16_to_float(uint32_t h) {
    return __uint_as_float(h << 16);
}

// Round to nearest even of man >> shift, shift in 1..31 (formats.c).
static __device__ __forceinline__ uint32_t shift_rne(uint32_t man, int shift) {
    uint32_t q = man >> shift;
    const uint32_t rem = man & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return q;
}

// krn_fp32_to_fp16, bit for bit, NaN payloads included (integer only).
static __device__ __forceinline__ uint16_t float_to_half(float f) {
    uint32_t x = __float_as_uint(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    x &= 0x7FFFFFFFu;
    if (x > 0x7F800000u)
        return (uint16_t)(sign | 0x7E00u | ((x >> 13) & 0x3FFu));
    if (x >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);
    if (x >= 0x38800000u) return (uint16_t)(sign | shift_rne(x - 0x38000000u, 13));
    if (x < 0x33000000u) return (uint16_t)sign;
    const uint32_t e = x >> 23;
    const uint32_t man = (x & 0x7FFFFFu) | 0x800000u;
    return (uint16_t)(sign | shift_rne(man, (int)(126u - e)));
}

// ---- programmatic dependent launch (sm_90 and later) -------------------------
//
// Kernels are launched with krn_cuda_launch, which on sm_90+ lets a kernel
// start while the kernel before it on the stream is still finishing (its
// last blocks retiring), so launch latency and the ramp of a new grid
// overlap the tail of the old one. Every kernel therefore calls
// grid_dep_sync() before it touches memory another kernel writes:
// griddepcontrol.wait returns once the previous grid has completed and its
// writes are visible (so, by induction, every earlier grid's too), and
// launch_dependents lets the next kernel be scheduled as this one's blocks
// retire. Only the order of launches is relaxed; each kernel still reads
// exactly what it read before, so no bit can change. Without the attribute
// (older GPUs, a zero mask) both instructions are no-ops.
static __device__ __forceinline__ void grid_dep_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// The kinds of kernel that may start early, as bits of krn_cuda_exec's
// pdl_mask (a backend's krn_cuda_cfg.pdl_mask, set at create by
// backend.cu's krn_cuda__apply_choices: 0 below compute capability 9, else
// krn_tuning.launch_overlap's mask (SB_CUDA_PDL), by default
// KRN_CUDA_PDL_DEFAULT, or a warm-up table's choice).
// The default is what measured fastest on the H200 (bench/RESULTS.md,
// eighth pass): early starts for the small kernels and the GEMV-like
// matmuls, whose first weight stages are copied before grid_dep_sync;
// attention and the tensor-core matmul ran slower starting early.
enum {
    KRN_CUDA_PDL_GEMV = 1,  // gemv, ref and float-weight matmuls (matmul.cu)
    KRN_CUDA_PDL_ATTN = 2,  // attention and its merge (attn_*.cu)
    KRN_CUDA_PDL_OTHER = 4, // norms, RoPE, quantization, SwiGLU, embedding
    KRN_CUDA_PDL_MMA = 8,   // the tensor-core matmul (matmul.cu)
    KRN_CUDA_PDL_ALL = 15,
    KRN_CUDA_PDL_DEFAULT = KRN_CUDA_PDL_GEMV | KRN_CUDA_PDL_OTHER,
};

// Where a launcher launches: the backend's stream, and which kinds of
// kernel may start early there. Each backend fills its own from its
// configuration (forward.cu), so two backends of one process with
// different settings never share one; every launcher takes it by value.
typedef struct krn_cuda_exec {
    cudaStream_t stream;
    int pdl_mask;           // KRN_CUDA_PDL_* bits; 0: every kernel waits
} krn_cuda_exec;

// kernel<<<grid, block, smem, ex.stream>>>(args...), with the overlap above
// when ex.pdl_mask has the kernel's kind. Check with KRN_CUDA_LAUNCHED.
template <typename... P, typename... A>
static void krn_cuda_launch(void (*kernel)(P...), int kind, dim3 grid, dim3 block, size_t smem,
                            krn_cuda_exec ex, A... args) {
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = ex.stream;
    cfg.attrs = &attr;
    cfg.numAttrs = (ex.pdl_mask & kind) ? 1 : 0;
    (void)cudaLaunchKernelEx(&cfg, kernel, args...);
}

// ---- host-side error checks ---------------------------------------------------

// Fills err with the failing call, its location and CUDA's message; returns
// -1 (0 when rc is cudaSuccess).
int krn_cuda_check(cudaError_t rc, const char *what, const char *where,
                   sb_err *err);

#define KRN_CUDA_CHECK(call, err) \
    krn_cuda_check((call), #call, __FILE__ ":" KRN_CUDA__STR(__LINE__), (err))
#define KRN_CUDA__STR(x) KRN_CUDA__STR2(x)
#define KRN_CUDA__STR2(x) #x

// After a kernel launch: a bad configuration is reported at once; faults
// inside the kernel surface at the next synchronising call.
#define KRN_CUDA_LAUNCHED(name, err) \
    krn_cuda_check(cudaGetLastError(), "launch of " name, \
                   __FILE__ ":" KRN_CUDA__STR(__LINE__), (err))

#endif // SB_KERNELS_CUDA_COMMON_CUH
