/*
 * kernel_lab — one kernel of the CUDA backend alone, against the memory
 * floor: how fast is kernel X at shape Y, and how far from a copy of the
 * same bytes. A device call changes one kernel and reads its line again.
 *
 * usage: kernel_lab MODEL.gguf --kernel KERNEL [--matrix M] [--rows R]
 *            [--depth D] [--layer L] [--reps N] [--launches N] [--direct]
 *            [--json FILE] [--plan]
 *        kernel_lab MODEL.gguf --all [--rows R] [--depth D] [--reps N]
 *            [--launches N] [--direct] [--json FILE] [--plan]
 *   KERNEL   matmul (the kernel the backend picks for R rows: mmvq, mmq,
 *            block32 or float), mmvq or mmq (forced; K-quant matrices,
 *            mmvq up to 16 rows), rmsnorm (krn_cuda_rmsnorm_quant),
 *            quantize, swiglu (swiglu_quant), rope (rope_kv_write),
 *            attention
 *   M        q k v o gate up down head (one matrix; required by the three
 *            matmul kernels), or qkv / gateup: the one call the step makes
 *            for those matrices together
 *   R        rows of the step, 1..64 (default 1); D the KV depth (default
 *            0): the rows sit at positions D .. D+R-1
 *   L        the layer whose weights are read first (default 0)
 *   --reps N     graph replays, the median kept (default 20)
 *   --launches N launches per replay (default 64; more when the rotation
 *                below needs more)
 *   --direct     launch without a CUDA graph (what Nsight Compute times)
 *   --all    a decode step's kernels in the step's order, one line each
 *            (the backend's own matmul choice), then q, k, v, gate and up
 *            alone; a matrix group whose types differ between layers
 *            (Q4_K_M's attn_v and ffn_down) gets a line per set of types;
 *            "step" is how many launches of the line a step makes, and the
 *            last lines sum them: bytes, kernel time, the floors
 *   --json FILE  the same figures as JSON
 *   --plan   the lines' shapes, types and bytes only, without a GPU (check
 *            a table before spending device time)
 * SB_CUDA_* (docs/environment.md) pass through to the backend as in sb.
 *
 * The model is loaded as the engine loads it and the backend made by
 * krn_cuda_create, so every layout (the K-quants' repacked records, the
 * quantized rows, the fp16 KV cache) is the backend's own; its per-layer
 * matrices and scratch are reached through cuda_backend.h's krn_cuda.
 *
 * A line: the kernel and the matmul path it took (mixed: a group whose
 * types take two), the matrix and shape (inputs x outputs), types, rows,
 * depth; us, the median time of one launch (a replay of N launches / N);
 * bytes, the least the launch must move (bench.h, bench_*_traffic:
 * weights, activations, KV cache); GB/s = bytes / time; floor_us, the
 * lab's copy kernel moving as many bytes (half read, half written) timed
 * the same way, launch costs and all; %floor = floor_us / us (above 100%
 * where a kernel starts its weight loads before the launch ahead of it ends,
 * as mmvq does and the copy does not); TOP/s for
 * matmuls (2 ops a weight a row); set_MB, what the rotation below reads.
 * Above the table, the device's copy bandwidth (bench_device_copy_gbs, 1
 * GiB): bytes / that is the floor of a large launch, floor_us also pays a
 * small one's launch.
 *
 * Cold weights: a step reads each weight once, from DRAM; N launches of one
 * matrix would read it from the L2 cache (50 MB on an H100) after the
 * first. Each launch therefore reads the next of a rotation of copies of
 * the matrix (byte copies of the backend's buffers), at least 4 x L2 in
 * all; attention and rope rotate over the layers' KV slabs, rmsnorm over
 * the layers' norm weights. Activations are not rotated: in a step the
 * kernel before writes them, so they sit in L2 there too. The copy floor
 * rotates over as many bytes as the launches move. The scratch is filled
 * with fresh values before each line.
 *
 * One device call (build here, where nvcc is; the device machine has no
 * build tools). Here:
 *   nice make BUILD=build-gpu CUDA_ARCHS=90 -j2 build-gpu/sb \
 *       build-gpu/engine_steps build-gpu/kernel_lab
 *   bench/programs/gpu_pack.sh build-gpu build-gpu/pack/lab.tar.xz
 * then the device tool's run, carry ["build-gpu/pack"], command:
 *   LAB="--all" LAB_ONLY=1 OUT=$OUT bash bench/programs/gpu_session.sh \
 *       new=build-gpu/pack/lab.tar.xz
 * (it unpacks, makes the 7b Q4_K_M model with sb mkmodel, ~10 s on 16
 * cores, and prints $OUT/lab-new.txt; name a second archive, old=..., to
 * get the same lines from another build). By hand, one kernel, and one
 * launch of it under Nsight Compute:
 *   mkdir -p /tmp/sb && tar -xJf build-gpu/pack/lab.tar.xz -C /tmp/sb &&
 *   /tmp/sb/sb mkmodel --shape 7b --quant q4_k_m --seed 1 --threads 16
 *       --quiet -o /tmp/m.gguf &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --all --json $OUT/lab.json &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --all --rows 8 --depth 4096 &&
 *   /tmp/sb/kernel_lab /tmp/m.gguf --kernel mmvq --matrix q --rows 1 &&
 *   ncu --clock-control none -k regex:mmvq --launch-skip 70 --launch-count 1
 *       --section SpeedOfLight --section MemoryWorkloadAnalysis
 *       /tmp/sb/kernel_lab /tmp/m.gguf --kernel mmvq --matrix q --direct
 *       --reps 1 > $OUT/ncu-mmvq-q.txt
 * (the backend's load takes ~15 s a run; --launch-skip 70 passes the
 * untimed first 64 launches). Changing a kernel: rebuild kernel_lab here
 * (it links libsb.a), pack, run its line again.
 *
 * This file is the options and main; the rest is in kernel_lab/ (lab.h
 * says which file does what). Calls into the backend's internals are all
 * in kernel_lab/launchers.cu, so a change of their signatures is one
 * place. The copy kernel (the floor, kernel_lab/rig.cu) lives only here:
 * the product never builds these files (Makefile: `make BUILD=build-gpu
 * kernel-lab`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_lab/lab.h"

// ---- options ---------------------------------------------------------------------

static int lab_name(const char *v, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i])) return i;
    return -1;
}

// A whole decimal integer in lo..hi, else -1 with err naming the option.
static int lab_int(const char *opt, const char *v, long lo, long hi, int *out, sb_err *err) {
    char *end = NULL;
    const long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi)
        return sb_err_set(err, __func__, "%s '%s': expected a whole number in %ld..%ld",
                          opt, v, lo, hi);
    *out = (int)x;
    return 0;
}

static int lab_parse(int argc, char **argv, lab_opts *o, sb_err *err) {
    memset(o, 0, sizeof *o);
    o->kind = -1, o->matrix = LAB_NO_MATRIX, o->rows = 1, o->reps = 20;
    if (argc < 2 || argv[1][0] == '-')
        return sb_err_set(err, __func__, "the first argument is the model file");
    o->model = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--all")) { o->all = true; continue; }
        if (!strcmp(a, "--direct")) { o->direct = true; continue; }
        if (!strcmp(a, "--plan")) { o->plan = true; continue; }
        if (i + 1 >= argc) return sb_err_set(err, __func__, "%s needs a value", a);
        const char *v = argv[++i];
        int d = 0, rc = 0;
        if (!strcmp(a, "--kernel")) {
            if ((o->kind = lab_name(v, lab_kind_names, LAB_N_KINDS)) < 0)
                return sb_err_set(err, __func__, "--kernel '%s': expected matmul, mmvq, "
                                  "mmq, rmsnorm, quantize, swiglu, rope or attention", v);
        } else if (!strcmp(a, "--matrix")) {
            if ((o->matrix = lab_name(v, lab_matrix_names, LAB_N_MATRICES)) < 0)
                return sb_err_set(err, __func__, "--matrix '%s': expected q, k, v, o, "
                                  "gate, up, down, head, qkv or gateup", v);
        } else if (!strcmp(a, "--rows")) rc = lab_int(a, v, 1, KRN_MAX_ROWS, &o->rows, err);
        else if (!strcmp(a, "--depth")) rc = lab_int(a, v, 0, LAB_MAX_DEPTH, &d, err), o->depth = d;
        else if (!strcmp(a, "--layer")) rc = lab_int(a, v, 0, 1 << 20, &o->layer, err);
        else if (!strcmp(a, "--reps")) rc = lab_int(a, v, 1, LAB_MAX_REPS, &o->reps, err);
        else if (!strcmp(a, "--launches"))
            rc = lab_int(a, v, 1, LAB_MAX_LAUNCHES, &o->launches, err);
        else if (!strcmp(a, "--json")) o->json = v;
        else return sb_err_set(err, __func__, "unknown option '%s'", a);
        if (rc) return -1;
    }
    if (o->all == (o->kind >= 0))
        return sb_err_set(err, __func__, "give either --kernel KERNEL or --all");
    if (o->all && (o->matrix != LAB_NO_MATRIX || o->layer))
        return sb_err_set(err, __func__, "--all takes no --matrix or --layer");
    if (o->kind >= 0 && lab_is_matmul((lab_kind)o->kind) && o->matrix == LAB_NO_MATRIX)
        return sb_err_set(err, __func__, "--kernel %s needs --matrix M",
                          lab_kind_names[o->kind]);
    if (o->kind >= 0 && !lab_is_matmul((lab_kind)o->kind) && o->matrix != LAB_NO_MATRIX)
        return sb_err_set(err, __func__, "--matrix goes with --kernel matmul, mmvq or mmq "
                          "only");
    if (o->kind == LAB_MMVQ && o->rows > lab_mmvq_max_rows())
        return sb_err_set(err, __func__, "--kernel mmvq takes 1..%d rows; got %d",
                          lab_mmvq_max_rows(), o->rows);
    return 0;
}

// What the options ask of the model, checked before the backend is made:
// the layer exists, and mmvq / mmq get K-quant matrices.
static int lab_check_model(const lab_opts *o, const krn_model *m, sb_err *err) {
    if (o->all) return 0;
    if (o->layer >= m->n_layer)
        return sb_err_set(err, __func__, "--layer %d: the model has layers 0..%d",
                          o->layer, (int)m->n_layer - 1);
    if (o->kind != LAB_MMVQ && o->kind != LAB_MMQ) return 0;
    const krn_tensor *t[3];
    const int n = lab_host_tensors(m, o->layer, (lab_matrix)o->matrix, t);
    for (int j = 0; j < n; j++)
        if (!krn_type_is_kquant(t[j]->type))
            return sb_err_set(err, __func__, "--kernel %s reads K-quant matrices; %s of "
                              "layer %d is %s (--kernel matmul takes any type)",
                              lab_kind_names[o->kind], lab_matrix_names[o->matrix], o->layer,
                              krn_type_name(t[j]->type));
    return 0;
}

static const char *const lab_usage =
    "usage: kernel_lab MODEL.gguf --kernel KERNEL [--matrix M] [--rows R] [--depth D]\n"
    "           [--layer L] [--reps N] [--launches N] [--direct] [--json FILE]\n"
    "       kernel_lab MODEL.gguf --all [--rows R] [--depth D] [--reps N] [--launches N]\n"
    "           [--direct] [--json FILE]\n"
    "  --plan (either form) prints the lines' shapes and bytes without a GPU\n"
    "  KERNEL: matmul mmvq mmq rmsnorm quantize swiglu rope attention\n"
    "  M: q k v o gate up down head qkv gateup (matmul kernels only)\n"
    "  (bench/programs/kernel_lab.cu's header says what each line means)\n";

// ---- main ------------------------------------------------------------------------

static int lab_main(const lab_opts *o, const eng_model *em, sb_err *err) {
    static lab_case cases[LAB_MAX_CASES];
    const krn_model *m = eng_model_desc(em);
    int n = 0, rc = 0;
    if (lab_check_model(o, m, err)) return -1;
    if (o->all) n = lab_step_cases(m, o, cases);
    else cases[n++] = lab_case_make((lab_kind)o->kind, (lab_matrix)o->matrix, o->layer, 0, o);
    if (o->plan) return lab_plan(m, o, cases, n, err);
    lab_rig r;
    if (lab_rig_create(&r, em, o, err)) {
        lab_rig_free(&r);
        return -1;
    }
    printf("kernel_lab %s: device %s (%d SMs, L2 %.0f MB), model %s (%d layers of %d, "
           "FFN %d, vocabulary %d)\n", kernel_lab_commit, krn_device_name(r.b), r.sms,
           (double)r.l2_bytes / 1e6, o->model, (int)m->n_layer, (int)m->n_embd,
           (int)m->n_ff, (int)m->n_vocab);
    lab_print_choices(r.c, stdout);
    if (r.copy_gbs > 0) printf("device copy bandwidth (read + write, 1 GiB): %.1f GB/s\n", r.copy_gbs);
    printf("each launch: median of %d %s of N launches; weights rotate over %.0f MB\n", o->reps,
           o->direct ? "direct runs" : "graph replays", (double)r.rotate_bytes / 1e6);
    lab_print_header();
    for (int i = 0; rc == 0 && i < n; i++) {
        rc = lab_run_case(&r, o, &cases[i], err);
        lab_case_free(&cases[i]);
        if (rc == 0) lab_print_case(&cases[i]);
        if (rc == 0) lab_print_alone_rule(o, cases, n, i);
    }
    if (rc == 0 && o->all) lab_print_step(m, cases, n, r.copy_gbs);
    if (rc == 0 && o->json) rc = lab_write_json(o->json, &r, o, cases, n, err);
    lab_rig_free(&r);
    return rc;
}

int main(int argc, char **argv) {
    lab_opts o;
    sb_err err;
    memset(&err, 0, sizeof err);
    if (lab_parse(argc, argv, &o, &err)) {
        fprintf(stderr, "kernel_lab: %s\n%s", err.msg, lab_usage);
        return 2;
    }
    if (krn_tuning_from_env(&o.tuning, getenv, &err)) {
        fprintf(stderr, "kernel_lab: %s\n", err.msg);
        return 2;
    }
    eng_model *m = eng_model_load(o.model, &err);
    if (!m) {
        fprintf(stderr, "kernel_lab: %s\n", err.msg);
        return 1;
    }
    const int rc = lab_main(&o, m, &err);
    if (rc) fprintf(stderr, "kernel_lab: %s\n", err.msg);
    eng_model_free(m);
    return rc ? 1 : 0;
}
