// cuda_runtime.h (emulated) — a development aid, not part of the build:
// just enough of the CUDA runtime to run kernels/cuda/ on a machine without
// a GPU (`make test-gpu-emu`), so a kernel's float order and indexing can be
// checked against the CPU backend before device time is spent.
//
// How: transform.py rewrites each `kernel<<<grid, block, smem, s>>>(args)`
// into emu_launch(...), and this header is found first on the include path.
// Blocks run one after another; a block's threads are coroutines (started
// with ucontext, switched with _setjmp/_longjmp) that run until they reach
// a barrier — __syncthreads, or the warp barrier inside a shuffle — round
// robin, so every barrier and shuffle has its CUDA meaning. Device float
// operations are the host's IEEE ones (the build uses -ffp-contract=off).
//
// What it cannot show: anything the hardware or nvcc does differently
// (NaN payloads, a real race, a wrong launch bound), performance, graphs.
// Device memory is host memory filled with garbage, as cudaMalloc's is;
// allocations beyond EMU_MEM fail with cudaErrorMemoryAllocation.
#pragma once
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <functional>
#include <vector>

#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __shared__

struct uint3 { unsigned x, y, z; };
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
} cudaError_t;
typedef void *cudaStream_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
};
#define cudaStreamNonBlocking 1

// ---- the coroutine scheduler -------------------------------------------------

enum { EMU_MAX_THREADS = 1024, EMU_STACK = 128 * 1024 };

struct emu_thread {
    uint3 tid;
    int lin;           // linear thread index in the block
    int done, started;
    int shfl_parity;   // which of the two shuffle buffers the next shuffle uses
    jmp_buf jb;        // where to resume it
    ucontext_t uc;     // its first start
    char *stack;
};

struct emu_barrier { int arrived = 0, gen = 0; };

struct emu_state {
    std::vector<emu_thread> th;       // EMU_MAX_THREADS, reused by every launch
    std::vector<emu_barrier> warp_bar;
    emu_barrier block_bar;
    std::vector<uint32_t> shfl;       // 2 x EMU_MAX_THREADS lane values
    std::vector<unsigned char> smem;  // the block's dynamic shared memory
    std::function<void()> body;       // the kernel call of this launch
    uint3 bid;
    dim3 bdim, gdim;
    int live = 0;                     // threads of the block not yet returned
    long progress = 0;                // barriers passed + threads returned
    emu_thread *cur = nullptr;
    jmp_buf sched;
};

inline emu_state &emu() {
    static emu_state s;
    return s;
}

#define threadIdx (emu().cur->tid)
#define blockIdx (emu().bid)
#define blockDim (emu().bdim)
#define gridDim (emu().gdim)

inline void emu_yield() {
    emu_state &s = emu();
    if (!_setjmp(s.cur->jb)) _longjmp(s.sched, 1);
}

inline void emu_wait(emu_barrier &b, int expected) {
    const int gen = b.gen;
    if (++b.arrived == expected) {
        b.arrived = 0;
        b.gen++;
        emu().progress++;
        return;
    }
    while (b.gen == gen) emu_yield();
}

inline void __syncthreads() { emu_wait(emu().block_bar, emu().live); }

// A warp shuffle: every lane of the warp must take part (as the full masks
// of kernels/cuda/ promise). Double-buffered by call parity: a lane writes
// the same buffer again only after the next barrier, which every lane
// reaches only after it has read this one.
inline uint32_t emu_shfl(uint32_t v, int src_lane) {
    emu_state &s = emu();
    const int lin = s.cur->lin, w = lin / 32;
    const size_t base = (size_t)s.cur->shfl_parity * EMU_MAX_THREADS;
    s.cur->shfl_parity ^= 1;
    s.shfl[base + lin] = v;
    emu_wait(s.warp_bar[w], 32);
    return s.shfl[base + w * 32 + (src_lane & 31)];
}

inline float __uint_as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
inline uint32_t __float_as_uint(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

inline float __shfl_xor_sync(unsigned, float v, int off) {
    return __uint_as_float(emu_shfl(__float_as_uint(v), (emu().cur->lin & 31) ^ off));
}
inline int __shfl_xor_sync(unsigned, int v, int off) {
    return (int)emu_shfl((uint32_t)v, (emu().cur->lin & 31) ^ off);
}
inline float __shfl_sync(unsigned, float v, int src) {
    return __uint_as_float(emu_shfl(__float_as_uint(v), src));
}

// A coroutine's life: run the kernel once per block it is given.
inline void emu_trampoline() {
    for (;;) {
        emu_state &s = emu();
        s.body();
        s.cur->done = 1;
        s.live--;
        s.progress++;
        // A __syncthreads waiting only for this thread is now complete.
        if (s.block_bar.arrived > 0 && s.block_bar.arrived == s.live) {
            s.block_bar.arrived = 0;
            s.block_bar.gen++;
        }
        if (!_setjmp(s.cur->jb)) _longjmp(s.sched, 1);
    }
}

inline void emu_start_block(emu_state &s, int n, dim3 block, size_t smem) {
    s.smem.assign(smem + 16, 0xA5); // garbage, like real shared memory
    s.block_bar = emu_barrier();
    s.warp_bar.assign((size_t)n / 32, emu_barrier());
    s.live = n;
    for (int i = 0; i < n; i++) {
        emu_thread &t = s.th[(size_t)i];
        t.lin = i;
        t.tid = {(unsigned)i % block.x, (unsigned)i / block.x % block.y,
                 (unsigned)i / (block.x * block.y)};
        t.done = t.shfl_parity = 0;
        if (!t.stack) {
            t.stack = (char *)malloc(EMU_STACK);
            getcontext(&t.uc);
            t.uc.uc_stack.ss_sp = t.stack;
            t.uc.uc_stack.ss_size = EMU_STACK;
            t.uc.uc_link = nullptr;
            makecontext(&t.uc, emu_trampoline, 0);
        }
    }
}

// Runs one block's threads round robin until all have returned; a round
// in which no barrier opened and no thread returned is a deadlock.
inline void emu_run_block(emu_state &s, int n) {
    for (;;) {
        volatile int any = 0;
        const long before = s.progress;
        for (volatile int i = 0; i < n; i++) {
            emu_thread &t = s.th[(size_t)i];
            if (t.done) continue;
            any = 1;
            s.cur = &t;
            if (!_setjmp(s.sched)) {
                if (!t.started) {
                    ucontext_t here;
                    t.started = 1;
                    swapcontext(&here, &t.uc);
                } else {
                    _longjmp(t.jb, 1);
                }
            }
        }
        if (!any) return;
        if (s.progress == before) {
            fprintf(stderr, "emu: deadlock in block (%u, %u, %u)\n", s.bid.x,
                    s.bid.y, s.bid.z);
            abort();
        }
    }
}

inline void emu_launch(dim3 grid, dim3 block, size_t smem, std::function<void()> body) {
    emu_state &s = emu();
    const int n = (int)(block.x * block.y * block.z);
    if (n < 1 || n > EMU_MAX_THREADS || n % 32) {
        fprintf(stderr, "emu: a block of %d threads (expected whole warps, "
                "at most %d)\n", n, (int)EMU_MAX_THREADS);
        abort();
    }
    if (s.th.empty()) s.th.resize(EMU_MAX_THREADS);
    s.shfl.assign(2 * (size_t)EMU_MAX_THREADS, 0);
    s.body = std::move(body);
    s.bdim = block;
    s.gdim = grid;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                s.bid = {bx, by, bz};
                emu_start_block(s, n, block, smem);
                emu_run_block(s, n);
            }
}

inline void *emu_dyn_smem() { return emu().smem.data(); }

// ---- device arithmetic (host IEEE fp32, no contraction) -----------------------

inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fsqrt_rn(float a) { return sqrtf(a); }
inline float __int2float_rn(int v) { return (float)v; }
inline float __ll2float_rn(long long v) { return (float)v; }
inline int __dp4a(int a, int b, int c) {
    for (int k = 0; k < 4; k++)
        c += (int)(int8_t)(a >> (8 * k)) * (int)(int8_t)(b >> (8 * k));
    return c;
}

// ---- host API ------------------------------------------------------------------

static const size_t EMU_MEM = (size_t)8 << 30; // the emulated GPU's memory

inline size_t &emu_used() {
    static size_t used = 0;
    return used;
}

inline cudaError_t cudaMalloc(void **p, size_t n) {
    *p = nullptr;
    if (n > EMU_MEM - emu_used()) return cudaErrorMemoryAllocation;
    char *raw = (char *)malloc(n + 64);
    if (!raw) return cudaErrorMemoryAllocation;
    memcpy(raw, &n, sizeof n);
    *p = raw + 64;
    memset(*p, 0x5A, n); // garbage, like cudaMalloc's
    emu_used() += n;
    return cudaSuccess;
}

inline cudaError_t cudaFree(void *p) {
    if (!p) return cudaSuccess;
    char *raw = (char *)p - 64;
    size_t n;
    memcpy(&n, raw, sizeof n);
    emu_used() -= n;
    free(raw);
    return cudaSuccess;
}

inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
    memcpy(d, s, n);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind,
                                   cudaStream_t) {
    memcpy(d, s, n);
    return cudaSuccess;
}
inline cudaError_t cudaMemset(void *d, int v, size_t n) {
    memset(d, v, n);
    return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
    *s = (void *)1;
    return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
// EMU_NO_GPU=1 emulates a machine without a GPU (the test's skip path).
inline cudaError_t cudaGetDeviceCount(int *n) {
    *n = getenv("EMU_NO_GPU") ? 0 : 1;
    return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b) {
    *total_b = EMU_MEM;
    *free_b = EMU_MEM - emu_used();
    return cudaSuccess;
}
inline const char *cudaGetErrorString(cudaError_t e) {
    return e == cudaErrorMemoryAllocation ? "out of memory" : "emulated error";
}
inline const char *cudaGetErrorName(cudaError_t e) {
    return e == cudaErrorMemoryAllocation ? "cudaErrorMemoryAllocation" : "cudaErrorEmulated";
}
