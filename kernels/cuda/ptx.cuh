// ptx.cuh — private to kernels/cuda/: every inline-PTX instruction the
// kernels use, each behind one small function (so the list is short and
// auditable). None of them is a float operation: integer tensor-core
// products (exact) and asynchronous copies.
#ifndef SB_KERNELS_CUDA_PTX_CUH
#define SB_KERNELS_CUDA_PTX_CUH

#include <cuda_runtime.h>
#include <stdint.h>

// ---- int8 tensor-core products (sm_80+) ------------------------------------
//
// Fragment layouts (PTX ISA, mma.m16n8k32 / m16n8k16 with .s8), with
// g = lane / 4 and t = lane % 4:
//   A (16 x K, row-major): a[0] = A[g][4t..4t+3], a[1] = A[g+8][4t..4t+3],
//                          and for K = 32 also a[2] = A[g][16+4t..],
//                          a[3] = A[g+8][16+4t..]
//   B (K x 8, column-major): b[0] = B[4t..4t+3][g], and for K = 32
//                          b[1] = B[16+4t..16+4t+3][g]
//   C, D (16 x 8, s32):    c[0] = C[g][2t], c[1] = C[g][2t+1],
//                          c[2] = C[g+8][2t], c[3] = C[g+8][2t+1]
// Four int8 values per register, the lowest k in the low byte. D = C + A*B
// in 32-bit integers (no saturation): exact for our sums, which stay far
// below 2^31.

// D = C + A * B over k = 32.
static __device__ __forceinline__ void mma_s8_k32(int d[4], const int c[4],
                                                  const uint32_t a[4],
                                                  const uint32_t b[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#else
    (void)d; (void)c; (void)a; (void)b;
    __trap(); // never launched below sm_80 (krn_cuda_matmul checks)
#endif
}

// D = C + A * B over k = 16 (A: a0 = rows g, a1 = rows g + 8).
static __device__ __forceinline__ void mma_s8_k16(int d[4], const int c[4],
                                                  uint32_t a0, uint32_t a1,
                                                  uint32_t b0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0), "r"(c[0]), "r"(c[1]), "r"(c[2]),
                   "r"(c[3]));
#else
    (void)d; (void)c; (void)a0; (void)a1; (void)b0;
    __trap();
#endif
}

// ---- asynchronous global -> shared copies (sm_80+) ---------------------------
// Both addresses 16-byte (cp16), 8-byte (cp8) or 4-byte (cp4) aligned. The data is visible
// to the copying thread after cp_async_wait_all(), and to the whole block
// after a __syncthreads() that follows it in every thread.

static __device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem)
                 : "memory");
#else
    *(uint4 *)smem = *(const uint4 *)gmem;
#endif
}

static __device__ __forceinline__ void cp_async8(void *smem, const void *gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(s), "l"(gmem)
                 : "memory");
#else
    *(uint2 *)smem = *(const uint2 *)gmem;
#endif
}

static __device__ __forceinline__ void cp_async4(void *smem, const void *gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem)
                 : "memory");
#else
    *(uint32_t *)smem = *(const uint32_t *)gmem;
#endif
}

static __device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits for every copy this thread has issued.
static __device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

// Waits until at most N of this thread's most recent committed groups are
// still in flight.
template <int N>
static __device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

#endif // SB_KERNELS_CUDA_PTX_CUH
