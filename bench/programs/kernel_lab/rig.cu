// rig.cu — kernel_lab's rig: the backend made as sb makes it, the lab's copy
// kernel (the floor), the CUDA-graph timing loop, the scratch filled before
// each case, and one case run on the device (its rotation's copies, its
// launches, then the floor's). Reaches the backend through launchers.cu.
#include <stdlib.h>
#include <string.h>

#include "lab.h"

static const uint64_t LAB_ROTATE_MIN = 128ull << 20; // a rotation reads at least 128 MiB too

// ---- the floor: the lab's copy kernel -----------------------------------------

// dst[i] = src[i] for n 16-byte words, a grid-stride loop. Starts as early
// as the backend's kernels may (the programmatic launch of common.cuh, when
// the device has it): the floor gets every advantage a kernel could.
__global__ void lab_copy_kernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
                                uint64_t n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = __ldcs(src + i);
}

// Values for the scratch: a hash of the index, floats in (-1, 1), halves in
// (-1, 1) (any values do; these keep every kernel off its NaN paths).
__global__ void lab_fill_f32(float *p, uint64_t n, uint32_t seed) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u ^ seed;
        h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
        p[i] = (float)(int32_t)h * 0x1p-31f;
    }
}

__global__ void lab_fill_f16(uint16_t *p, uint64_t n, uint32_t seed) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u ^ seed;
        h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
        p[i] = (uint16_t)((h & 0x8000u) | 0x3800u | (h & 0x3FFu)); // ±[0.5, 1)
    }
}

// The floor of a case: copy_bytes (16-byte words) per launch, launch i at
// its own place in floor_src/floor_dst so the launches together read as
// many bytes as the case's launches do.
typedef struct lab_floor {
    const lab_rig *r;
    uint64_t words;         // 16-byte words a launch copies
    uint64_t places;        // distinct offsets the launches cycle through
} lab_floor;

static int lab_floor_launch(const lab_floor *f, int i, sb_err *err) {
    const lab_rig *r = f->r;
    const uint64_t off = (uint64_t)(i % (int64_t)f->places) * f->words;
    const unsigned threads = 256;
    uint64_t blocks = (f->words + threads - 1) / threads;
    if (blocks > (uint64_t)r->sms * 16) blocks = (uint64_t)r->sms * 16;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(threads);
    cfg.stream = lab_stream(r->c);
    cfg.attrs = &attr;
    cfg.numAttrs = r->cc_major >= 9 ? 1 : 0;
    const uint4 *src = (const uint4 *)r->floor_src + off;
    uint4 *dst = (uint4 *)r->floor_dst + off;
    return KRN_CUDA_CHECK(cudaLaunchKernelEx(&cfg, lab_copy_kernel, src, dst, f->words), err);
}

// Grows the floor's buffers to bytes each (freed by lab_rig_free).
static int lab_floor_reserve(lab_rig *r, uint64_t bytes, sb_err *err) {
    if (bytes <= r->floor_cap) return 0;
    cudaFree(r->floor_src);
    cudaFree(r->floor_dst);
    r->floor_src = r->floor_dst = NULL;
    r->floor_cap = 0;
    if (KRN_CUDA_CHECK(cudaMalloc(&r->floor_src, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaMalloc(&r->floor_dst, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaMemset(r->floor_src, 0x3c, (size_t)bytes), err) ||
        KRN_CUDA_CHECK(cudaDeviceSynchronize(), err)) // legacy stream: see lab_matmul_copies
        return -1;
    r->floor_cap = bytes;
    return 0;
}

// ---- timing ----------------------------------------------------------------------

typedef int (*lab_launch_fn)(const void *ctx, int i, sb_err *err);

typedef struct lab_kernel_ctx {
    const lab_rig *r;
    const lab_case *k;
} lab_kernel_ctx;

static int lab_kernel_launch(const void *ctx, int i, sb_err *err) {
    const lab_kernel_ctx *x = (const lab_kernel_ctx *)ctx;
    return lab_launch(x->r, x->k, i, err);
}

static int lab_floor_launch_fn(const void *ctx, int i, sb_err *err) {
    return lab_floor_launch((const lab_floor *)ctx, i, err);
}

static int lab_cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// `launches` launches back to back, as one CUDA graph replayed `reps`
// times (or enqueued directly each time), after one untimed pass; the
// median microseconds of a launch into *us.
static int lab_time(const lab_rig *r, lab_launch_fn fn, const void *ctx, int launches, int reps,
                    bool direct, double *us, sb_err *err) {
    const cudaStream_t s = lab_stream(r->c);
    cudaGraphExec_t exec = NULL;
    double *ms = (double *)calloc((size_t)reps, sizeof *ms);
    int rc = ms ? 0 : sb_err_set(err, __func__, "out of memory for %d timings", reps);
    if (rc == 0 && !direct) {
        cudaGraph_t g = NULL;
        rc = KRN_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), err);
        for (int i = 0; rc == 0 && i < launches; i++) rc = fn(ctx, i, err);
        const cudaError_t end = cudaStreamEndCapture(s, &g);
        if (rc == 0) rc = KRN_CUDA_CHECK(end, err);
        if (rc == 0) rc = KRN_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0), err);
        if (g) cudaGraphDestroy(g);
    }
    for (int rep = -1; rc == 0 && rep < reps; rep++) { // rep -1: the untimed pass
        float t = 0.0f;
        rc = KRN_CUDA_CHECK(cudaEventRecord(r->ev0, s), err);
        if (rc == 0 && direct)
            for (int i = 0; rc == 0 && i < launches; i++) rc = fn(ctx, i, err);
        else if (rc == 0)
            rc = KRN_CUDA_CHECK(cudaGraphLaunch(exec, s), err);
        if (rc == 0)
            rc = KRN_CUDA_CHECK(cudaEventRecord(r->ev1, s), err) ||
                 KRN_CUDA_CHECK(cudaEventSynchronize(r->ev1), err) ||
                 KRN_CUDA_CHECK(cudaEventElapsedTime(&t, r->ev0, r->ev1), err);
        if (rc == 0 && rep >= 0) ms[rep] = t;
    }
    if (rc == 0) {
        qsort(ms, (size_t)reps, sizeof *ms, lab_cmp_double);
        *us = ms[reps / 2] * 1e3 / launches;
    }
    if (exec) cudaGraphExecDestroy(exec);
    cudaGetLastError(); // a failed capture leaves its error behind
    free(ms);
    return rc;
}

// ---- a case on the device -------------------------------------------------------

// Copies of the group's matrices until the rotation reads rotate_bytes
// (at most LAB_MAX_COPIES; fewer when the GPU's memory runs out: the
// line then says how many).
static int lab_matmul_copies(const lab_rig *r, const lab_group *g, lab_case *k, sb_err *err) {
    uint64_t one = 0;
    for (int j = 0; j < g->n; j++) {
        uint64_t b = 0;
        lab_mat_bytes(g->mat[j], &b);
        one += b;
    }
    uint64_t want = (r->rotate_bytes + one - 1) / one;
    if (want > LAB_MAX_COPIES) want = LAB_MAX_COPIES;
    k->mats = (krn_cuda_mat *)calloc((size_t)want * (size_t)g->n, sizeof *k->mats);
    k->allocs = (void **)calloc((size_t)want * (size_t)g->n, sizeof *k->allocs);
    if (!k->mats || !k->allocs)
        return sb_err_set(err, __func__, "out of host memory for %llu copies",
                          (unsigned long long)want);
    for (int j = 0; j < g->n; j++) k->mats[j] = *g->mat[j];
    k->copies = 1;
    for (uint64_t cp = 1; cp < want; cp++) {
        bool ok = true;
        for (int j = 0; ok && j < g->n; j++) {
            uint64_t b = 0;
            const uint8_t *src = lab_mat_bytes(g->mat[j], &b);
            void *p = NULL;
            if (cudaMalloc(&p, (size_t)b) != cudaSuccess) {
                cudaGetLastError(); // out of memory: rotate over the copies made
                ok = false;
                break;
            }
            k->allocs[k->n_allocs++] = p;
            if (KRN_CUDA_CHECK(cudaMemcpy(p, src, (size_t)b, cudaMemcpyDeviceToDevice), err))
                return -1;
            k->mats[cp * g->n + j] = lab_mat_at(g->mat[j], (const uint8_t *)p);
        }
        if (!ok) break;
        k->copies++;
    }
    k->set_bytes = one * (uint64_t)k->copies;
    // the copies ran on the legacy stream, which the backend's
    // non-blocking stream does not wait for
    return KRN_CUDA_CHECK(cudaDeviceSynchronize(), err);
}

// The device side of a matmul case: the kernel its types take, the
// rotation's copies, its input rows quantized as the step leaves them.
static int lab_case_matmul(const lab_rig *r, lab_case *k, sb_err *err) {
    lab_group g;
    lab_group_fill(r->c, r->m, k->layer, k->matrix, k->rows, &g);
    snprintf(k->path, sizeof k->path, "%s",
             lab_matmul_path(r->c, k->kind, g.host[0]->type, k->rows));
    for (int j = 1; j < g.n; j++) // a group of types takes a launch a type
        if (strcmp(lab_matmul_path(r->c, k->kind, g.host[j]->type, k->rows), k->path))
            snprintf(k->path, sizeof k->path, "mixed");
    if (lab_matmul_copies(r, &g, k, err)) return -1;
    return lab_quantize_input(r, &g, k->rows, err);
}

// Fresh values in the scratch rows and the KV cache before each case: the
// kernels before it changed them in place (swiglu's g shrinks towards 0
// launch after launch; o and down add into x).
static int lab_fill(const lab_rig *r, sb_err *err) {
    const lab_scratch s = lab_scratch_of(r->c, r->m);
    const cudaStream_t st = lab_stream(r->c);
    const unsigned blocks = (unsigned)r->sms * 4, threads = 256;
    for (int i = 0; i < s.n; i++) lab_fill_f32<<<blocks, threads, 0, st>>>(s.f[i], s.nf[i], 7u * i + 1);
    lab_fill_f16<<<blocks, threads, 0, st>>>(s.kv[0], s.nkv, 101u);
    lab_fill_f16<<<blocks, threads, 0, st>>>(s.kv[1], s.nkv, 103u);
    return KRN_CUDA_CHECK(cudaGetLastError(), err) ||
                   KRN_CUDA_CHECK(cudaStreamSynchronize(st), err)
               ? -1
               : 0;
}

// The launches a replay needs: at least --launches, and one per copy of
// the rotation.
static int lab_launches(const lab_opts *o, const lab_case *k) {
    int n = o->launches > 0 ? o->launches : LAB_MIN_LAUNCHES;
    if (o->launches == 0 && k->copies > n) n = k->copies;
    return n;
}

// One case on the device: fresh scratch, the case described, a matmul's
// copies made, then its launches timed and the floor's (k->us, k->floor_us).
int lab_run_case(lab_rig *r, const lab_opts *o, lab_case *k, sb_err *err) {
    if (lab_fill(r, err) || lab_case_describe(r->m, k, err) ||
        (lab_is_matmul(k->kind) && lab_case_matmul(r, k, err)))
        return -1;
    k->launches = lab_launches(o, k);
    lab_kernel_ctx kx = {r, k};
    if (lab_time(r, lab_kernel_launch, &kx, k->launches, o->reps, o->direct, &k->us, err))
        return -1;
    // the floor: as many bytes, half read and half written, over as many
    // distinct bytes as the case's launches read (at most the rotation's)
    const uint64_t bytes = bench_traffic_bytes(&k->traffic);
    lab_floor f;
    f.r = r;
    f.words = (bytes / 2 + 15) / 16;
    if (f.words == 0) f.words = 1;
    const uint64_t per = f.words * 16;
    uint64_t span = per * (uint64_t)k->launches, cap = r->rotate_bytes;
    if (cap < 2 * per) cap = 2 * per;
    if (span > cap) span = cap;
    f.places = span / per;
    if (lab_floor_reserve(r, f.places * per, err)) return -1;
    return lab_time(r, lab_floor_launch_fn, &f, k->launches, o->reps, o->direct, &k->floor_us,
                    err);
}

// What lab_matmul_copies made for a case (its line keeps the figures).
void lab_case_free(lab_case *k) {
    for (int i = 0; i < k->n_allocs; i++) cudaFree(k->allocs[i]);
    free(k->allocs);
    free(k->mats);
    k->allocs = NULL, k->mats = NULL, k->n_allocs = 0;
}

// ---- the rig ---------------------------------------------------------------------

static uint64_t lab_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

// The rows' positions: depth .. depth + 63 (a step of R rows reads the first R).
static int lab_positions(const lab_rig *r, int32_t depth, sb_err *err) {
    int32_t pos[KRN_MAX_ROWS];
    for (int i = 0; i < KRN_MAX_ROWS; i++) pos[i] = depth + i;
    // a copy from pageable memory may return before it lands; the legacy
    // stream it ran on is not one the backend's stream waits for
    return KRN_CUDA_CHECK(cudaMemcpy(lab_positions_buffer(r->c), pos, sizeof pos,
                                     cudaMemcpyHostToDevice), err) ||
                   KRN_CUDA_CHECK(cudaDeviceSynchronize(), err)
               ? -1
               : 0;
}

int lab_rig_create(lab_rig *r, const eng_model *em, const lab_opts *o, sb_err *err) {
    memset(r, 0, sizeof *r);
    r->m = eng_model_desc(em);
    // graphs off: the backend then captures no step at create (the lab
    // captures its own); every other choice as sb makes it
    krn_choice no_graphs;
    memset(&no_graphs, 0, sizeof no_graphs);
    snprintf(no_graphs.name, sizeof no_graphs.name, "graphs");
    krn_options ko;
    memset(&ko, 0, sizeof ko);
    ko.n_threads = 1;
    ko.kv_capacity = o->depth + KRN_MAX_ROWS;
    ko.choices = &no_graphs;
    ko.n_choices = 1;
    ko.tuning = o->tuning;
    sb_err made = {0};
    r->b = krn_cuda_create(r->m, &ko, &made);
    if (!r->b)
        return sb_err_set(err, __func__, "%s (kernel_lab times the CUDA backend: run it "
                          "on a GPU machine)", made.msg);
    r->c = (krn_cuda *)r->b;
    if (lab_l2_and_sms(r->c, r, err) ||
        KRN_CUDA_CHECK(cudaEventCreate(&r->ev0), err) ||
        KRN_CUDA_CHECK(cudaEventCreate(&r->ev1), err))
        return -1;
    r->rotate_bytes = lab_max_u64(LAB_ROTATE_L2 * r->l2_bytes, LAB_ROTATE_MIN);
    sb_err bw = {0};
    if (bench_device_copy_gbs((size_t)1 << 30, 10, &r->copy_gbs, &bw)) r->copy_gbs = 0;
    return lab_positions(r, o->depth, err);
}

void lab_rig_free(lab_rig *r) {
    if (r->ev0) cudaEventDestroy(r->ev0);
    if (r->ev1) cudaEventDestroy(r->ev1);
    cudaFree(r->floor_src);
    cudaFree(r->floor_dst);
    if (r->b) krn_destroy(r->b);
}
