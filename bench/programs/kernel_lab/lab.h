// lab.h — private to bench/programs/: what kernel_lab's files share (the
// program is bench/programs/kernel_lab.cu, whose header says what it
// measures and how to run it; its parts are in this folder):
//   kernel_lab.cu  the options and main
//   cases.cu       what each case is and moves (--plan), --all's list, the
//                  table and the JSON
//   rig.cu         the backend, the copy floor, the timing loop, the scratch
//   launchers.cu   the only calls into kernels/cuda's internals
#ifndef SB_BENCH_KERNEL_LAB_H
#define SB_BENCH_KERNEL_LAB_H

#include <cuda_runtime.h>
#include <stdio.h>

extern "C" {
#include "../../lib/bench.h"
}
#include "../../../kernels/cuda/cuda_backend.h"

// The commit the build was made at (Makefile: a one-line object made with
// every link of kernel_lab).
extern "C" const char kernel_lab_commit[];

enum {
    LAB_MIN_LAUNCHES = 64,
    LAB_MAX_LAUNCHES = 4096,
    LAB_MAX_COPIES = 1024,
    LAB_MAX_REPS = 1000,
    LAB_ROTATE_L2 = 4,        // a rotation reads at least 4 x the L2 cache
    LAB_MAX_CASES = 128,
    LAB_MAX_DEPTH = 1 << 20,
};

typedef enum lab_kind {
    LAB_MATMUL, LAB_MMVQ, LAB_MMQ, LAB_RMSNORM, LAB_QUANTIZE, LAB_SWIGLU, LAB_ROPE,
    LAB_ATTENTION, LAB_N_KINDS
} lab_kind;
extern const char *const lab_kind_names[LAB_N_KINDS]; // cases.cu

typedef enum lab_matrix {
    LAB_Q, LAB_K, LAB_V, LAB_O, LAB_GATE, LAB_UP, LAB_DOWN, LAB_HEAD, LAB_QKV, LAB_GATEUP,
    LAB_N_MATRICES, LAB_NO_MATRIX = -1
} lab_matrix;
extern const char *const lab_matrix_names[LAB_N_MATRICES]; // cases.cu

static inline bool lab_is_matmul(lab_kind k) {
    return k == LAB_MATMUL || k == LAB_MMVQ || k == LAB_MMQ;
}

typedef struct lab_opts {
    const char *model, *json;
    int kind;       // lab_kind, or -1 with --all
    int matrix;     // lab_matrix, or LAB_NO_MATRIX
    int rows, layer, reps, launches;
    int32_t depth;
    bool all, direct, plan;
    krn_tuning tuning; // the kernel switches, read once in main (SB_CUDA_*)
} lab_opts;

// One timed launch kind: what it runs, what it must move, what it rotates
// over, and what it measured.
typedef struct lab_case {
    lab_kind kind;
    lab_matrix matrix;
    int layer;              // copy 0's weights are this layer's
    int per_step;           // launches like it in a decode step; 0: none (--all's "alone")
    int rows;
    int32_t depth;
    bench_traffic traffic;
    char types[40];         // "q4_K", "q4_K,q4_K,q6_K"; "f32" for activations
    char shape[48];         // "3584x4608" (inputs x outputs), "rows of 3584"
    char path[16];          // the matmul kernel the call takes
    int copies;             // the rotation's sets of inputs
    uint64_t set_bytes;     // what the rotation reads in all
    krn_cuda_mat *mats;     // matmuls: copies x n matrices, copy 0 the backend's (owned)
    void **allocs;          // the copies' device buffers (owned)
    int n_allocs;
    int launches;
    double us, floor_us;
} lab_case;

// The machine and the backend every case runs on.
typedef struct lab_rig {
    krn_backend *b;
    krn_cuda *c;            // b, as the CUDA backend
    const krn_model *m;
    int sms, cc_major;
    uint64_t l2_bytes, rotate_bytes;
    double copy_gbs;        // 0: unmeasured
    uint8_t *floor_src, *floor_dst; // the copy floor's buffers, floor_cap bytes each
    uint64_t floor_cap;
    cudaEvent_t ev0, ev1;
} lab_rig;

// A matmul call as forward.cu makes it: the matrices of `matrix` in layer
// il, their input rows, biases and outputs (filled by lab_group_fill).
typedef struct lab_group {
    int n;
    const krn_cuda_mat *mat[3];  // the backend's
    const krn_tensor *host[3];   // the model's: types and shapes
    krn_cuda_mm mm[3];
    const float *x;              // the input rows (floats), width mat[0]->ne0
} lab_group;

// The backend's scratch rows (floats) and KV cache (fp16), to be filled
// with values before timing; positions are written by lab_positions.
typedef struct lab_scratch {
    float *f[8];
    uint64_t nf[8];
    int n;
    uint16_t *kv[2];
    uint64_t nkv;
} lab_scratch;

// ---- cases.cu: the cases, from the model alone, and the report ----------------

int lab_host_tensors(const krn_model *m, int il, lab_matrix matrix, const krn_tensor *t[3]);
int lab_case_describe(const krn_model *m, lab_case *k, sb_err *err);
lab_case lab_case_make(lab_kind kind, lab_matrix matrix, int layer, int per_step,
                       const lab_opts *o);
int lab_step_cases(const krn_model *m, const lab_opts *o, lab_case *cases);
void lab_print_header(void);
void lab_print_case(const lab_case *k);
void lab_print_alone_rule(const lab_opts *o, const lab_case *cases, int n, int i);
void lab_print_step(const krn_model *m, const lab_case *cases, int n, double copy_gbs);
int lab_plan(const krn_model *m, const lab_opts *o, lab_case *cases, int n, sb_err *err);
int lab_write_json(const char *path, const lab_rig *r, const lab_opts *o,
                   const lab_case *cases, int n, sb_err *err);

// ---- rig.cu: the backend, the floor, timing -------------------------------------

// The backend on em (borrowed until lab_rig_free), the copy bandwidth, the
// rows' positions; lab_rig_free frees what was made, after a failed
// create too.
int lab_rig_create(lab_rig *r, const eng_model *em, const lab_opts *o, sb_err *err);
void lab_rig_free(lab_rig *r);
// Times case k and its floor into k->us and k->floor_us; the copies it
// makes are k's until lab_case_free.
int lab_run_case(lab_rig *r, const lab_opts *o, lab_case *k, sb_err *err);
void lab_case_free(lab_case *k);

// ---- launchers.cu: the backend's launchers --------------------------------------

cudaStream_t lab_stream(const krn_cuda *c);
void lab_group_fill(const krn_cuda *c, const krn_model *m, int il, lab_matrix matrix,
                    int rows, lab_group *g);
const uint8_t *lab_mat_bytes(const krn_cuda_mat *w, uint64_t *bytes);
krn_cuda_mat lab_mat_at(const krn_cuda_mat *w, const uint8_t *p);
const char *lab_matmul_path(const krn_cuda *c, lab_kind kind, krn_type type, int rows);
int lab_mmvq_max_rows(void);
int lab_launch(const lab_rig *r, const lab_case *k, int i, sb_err *err);
int lab_quantize_input(const lab_rig *r, const lab_group *g, int rows, sb_err *err);
lab_scratch lab_scratch_of(const krn_cuda *c, const krn_model *m);
int32_t *lab_positions_buffer(const krn_cuda *c);
int lab_l2_and_sms(const krn_cuda *c, lab_rig *r, sb_err *err);
void lab_print_choices(const krn_cuda *c, FILE *out);

#endif // SB_BENCH_KERNEL_LAB_H
