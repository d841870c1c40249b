// cases.cu — kernel_lab's cases from the model alone: what each one runs
// and the least it must move (all that --plan needs, no GPU), --all's list
// of a decode step's launches, and the report: the table, the step's sums,
// the JSON.
#include <stdlib.h>
#include <string.h>

#include "lab.h"

const char *const lab_kind_names[LAB_N_KINDS] = {
    "matmul", "mmvq", "mmq", "rmsnorm", "quantize", "swiglu", "rope", "attention"};
const char *const lab_matrix_names[LAB_N_MATRICES] = {
    "q", "k", "v", "o", "gate", "up", "down", "head", "qkv", "gateup"};

// The model's matrices of `matrix` in layer il, in the order of the call
// (kernels.h's krn_model: types and shapes).
int lab_host_tensors(const krn_model *m, int il, lab_matrix matrix, const krn_tensor *t[3]) {
    const krn_layer *h = &m->layers[il];
    int n = 0;
    if (matrix == LAB_Q || matrix == LAB_QKV) t[n++] = &h->wq;
    if (matrix == LAB_K || matrix == LAB_QKV) t[n++] = &h->wk;
    if (matrix == LAB_V || matrix == LAB_QKV) t[n++] = &h->wv;
    if (matrix == LAB_O) t[n++] = &h->wo;
    if (matrix == LAB_GATE || matrix == LAB_GATEUP) t[n++] = &h->w_gate;
    if (matrix == LAB_UP || matrix == LAB_GATEUP) t[n++] = &h->w_up;
    if (matrix == LAB_DOWN) t[n++] = &h->w_down;
    if (matrix == LAB_HEAD) t[n++] = &m->output;
    return n;
}

// ---- a case's shape, types and traffic -------------------------------------------

static void lab_types(char *out, size_t cap, const krn_tensor *const *t, int n) {
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i ? "," : "", krn_type_name(t[i]->type));
    }
}

// A case's shape, types and least traffic, from the model alone (what
// --plan prints before any GPU is asked for), and what the rotation of
// the kernels that are not matmuls reads.
int lab_case_describe(const krn_model *m, lab_case *k, sb_err *err) {
    const int64_t q_dim = (int64_t)m->n_head * m->head_dim;
    const uint64_t kv_row = (uint64_t)m->n_head_kv * (uint64_t)m->head_dim * sizeof(uint16_t);
    const lab_matrix x = k->matrix;
    snprintf(k->types, sizeof k->types, "f32");
    snprintf(k->path, sizeof k->path, "-");
    k->copies = 1;
    switch (k->kind) {
    case LAB_MATMUL:
    case LAB_MMVQ:
    case LAB_MMQ: { // biases and accumulation as forward.cu's calls have them
        const krn_tensor *t[3];
        const int n = lab_host_tensors(m, k->layer, x, t);
        const bool bias = x == LAB_Q || x == LAB_K || x == LAB_V || x == LAB_QKV;
        if (bench_matmul_traffic(t, n, k->rows, bias, x == LAB_O || x == LAB_DOWN,
                                 &k->traffic, err))
            return -1;
        lab_types(k->types, sizeof k->types, t, n);
        int64_t outs = 0;
        for (int j = 0; j < n; j++) outs += t[j]->ne1;
        snprintf(k->shape, sizeof k->shape, "%lldx%lld", (long long)t[0]->ne0, (long long)outs);
        break;
    }
    case LAB_RMSNORM:
        k->traffic = bench_rmsnorm_traffic(m->n_embd, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %d", (int)m->n_embd);
        k->copies = m->n_layer; // each layer's norm weights
        k->set_bytes = (uint64_t)m->n_layer * (uint64_t)m->n_embd * sizeof(float);
        break;
    case LAB_QUANTIZE:
        k->traffic = bench_quantize_traffic(q_dim, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %lld", (long long)q_dim);
        break;
    case LAB_SWIGLU:
        k->traffic = bench_swiglu_traffic(m->n_ff, k->rows);
        snprintf(k->shape, sizeof k->shape, "rows of %d", (int)m->n_ff);
        break;
    case LAB_ROPE:
        k->traffic = bench_rope_traffic(m, k->rows);
        snprintf(k->shape, sizeof k->shape, "%d+%d heads of %d", (int)m->n_head,
                 (int)m->n_head_kv, (int)m->head_dim);
        snprintf(k->types, sizeof k->types, "f32>f16");
        k->copies = m->n_layer; // each layer's KV slab
        k->set_bytes = (uint64_t)m->n_layer * (uint64_t)k->rows * 2 * kv_row;
        break;
    case LAB_ATTENTION: {
        k->traffic = bench_attention_traffic(m, k->depth, k->rows);
        snprintf(k->shape, sizeof k->shape, "%d/%d heads of %d", (int)m->n_head,
                 (int)m->n_head_kv, (int)m->head_dim);
        snprintf(k->types, sizeof k->types, "f16 kv");
        k->copies = m->n_layer; // each layer's KV slab
        const uint64_t kv_read = k->traffic.read - (uint64_t)k->rows *
                                 ((uint64_t)q_dim * sizeof(float) + sizeof(int32_t));
        k->set_bytes = (uint64_t)m->n_layer * kv_read;
        break;
    }
    default:
        return sb_err_set(err, __func__, "no kernel %d", (int)k->kind);
    }
    return 0;
}

// ---- --all: a decode step's launches ----------------------------------------------

// The layers whose `matrix` group has the types of layer il, and whether
// il is the first of them.
static int lab_same_types(const krn_model *m, lab_matrix matrix, int il, bool *first) {
    const krn_tensor *a[3], *b[3];
    int n = 0;
    *first = true;
    const int na = lab_host_tensors(m, il, matrix, a);
    for (int l = 0; l < m->n_layer; l++) {
        lab_host_tensors(m, l, matrix, b);
        bool same = true;
        for (int j = 0; j < na; j++) same = same && a[j]->type == b[j]->type;
        if (!same) continue;
        n++;
        if (l < il) *first = false;
    }
    return n;
}

lab_case lab_case_make(lab_kind kind, lab_matrix matrix, int layer, int per_step,
                       const lab_opts *o) {
    lab_case k;
    memset(&k, 0, sizeof k);
    k.kind = kind, k.matrix = matrix, k.layer = layer, k.per_step = per_step;
    k.rows = o->rows, k.depth = o->depth;
    return k;
}

// Appends a case while the list has room (a model whose every layer had
// its own types would fill it; the lines past it are left out).
static void lab_push(lab_case *cases, int *n, lab_case k) {
    if (*n < LAB_MAX_CASES) cases[(*n)++] = k;
}

// A matmul group's lines: one per set of types among the layers.
static void lab_add_groups(const krn_model *m, const lab_opts *o, lab_matrix matrix, bool alone,
                           lab_case *cases, int *n) {
    for (int il = 0; il < m->n_layer; il++) {
        bool first = false;
        const int layers = lab_same_types(m, matrix, il, &first);
        if (first) lab_push(cases, n, lab_case_make(LAB_MATMUL, matrix, il, alone ? 0 : layers, o));
    }
}

// The launches of a decode step in its order (forward.cu), then the
// matrices of the grouped calls alone.
int lab_step_cases(const krn_model *m, const lab_opts *o, lab_case *cases) {
    const int L = m->n_layer;
    int n = 0;
    lab_push(cases, &n, lab_case_make(LAB_RMSNORM, LAB_NO_MATRIX, 0, 2 * L + 1, o));
    lab_add_groups(m, o, LAB_QKV, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_ROPE, LAB_NO_MATRIX, 0, L, o));
    lab_push(cases, &n, lab_case_make(LAB_ATTENTION, LAB_NO_MATRIX, 0, L, o));
    lab_push(cases, &n, lab_case_make(LAB_QUANTIZE, LAB_NO_MATRIX, 0, L, o));
    lab_add_groups(m, o, LAB_O, false, cases, &n);
    lab_add_groups(m, o, LAB_GATEUP, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_SWIGLU, LAB_NO_MATRIX, 0, L, o));
    lab_add_groups(m, o, LAB_DOWN, false, cases, &n);
    lab_push(cases, &n, lab_case_make(LAB_MATMUL, LAB_HEAD, 0, 1, o));
    const lab_matrix alone[] = {LAB_Q, LAB_K, LAB_V, LAB_GATE, LAB_UP};
    for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
        lab_add_groups(m, o, alone[i], true, cases, &n);
    return n;
}

// ---- report ---------------------------------------------------------------------

void lab_print_header(void) {
    printf("%-9s %-6s %-6s %-5s %-17s %-15s %4s %5s %4s %6s %9s %9s %7s %11s %6s %6s %6s\n",
           "kernel", "path", "matrix", "layer", "shape", "types", "rows", "depth", "step",
           "launch", "us", "floor_us", "%floor", "bytes", "GB/s", "TOP/s", "set_MB");
}

// One line; the timing columns are "-" for a case not run (--plan).
void lab_print_case(const lab_case *k) {
    const uint64_t bytes = bench_traffic_bytes(&k->traffic);
    const bool ran = k->us > 0;
    char us[16] = "-", floor_us[16] = "-", pct[16] = "-", gbs[16] = "-", tops[16] = "-";
    if (ran) {
        snprintf(us, sizeof us, "%.2f", k->us);
        snprintf(floor_us, sizeof floor_us, "%.2f", k->floor_us);
        snprintf(pct, sizeof pct, "%.1f%%", 100.0 * k->floor_us / k->us);
        snprintf(gbs, sizeof gbs, "%.0f", (double)bytes / (k->us * 1e3));
        if (k->traffic.ops > 0) snprintf(tops, sizeof tops, "%.2f", k->traffic.ops / (k->us * 1e6));
    }
    printf("%-9s %-6s %-6s %-5d %-17s %-15s %4d %5d %4d %6d %9s %9s %7s %11llu %6s %6s %6.0f\n",
           lab_kind_names[k->kind], k->path,
           k->matrix == LAB_NO_MATRIX ? "-" : lab_matrix_names[k->matrix], k->layer, k->shape,
           k->types, k->rows, (int)k->depth, k->per_step, k->launches, us, floor_us, pct,
           (unsigned long long)bytes, gbs, tops, (double)k->set_bytes / 1e6);
    fflush(stdout);
}

// --all's sums over the step's launches: their bytes, and the weights
// among them beside bench_streamed_bytes (the two agree when the lines
// cover every matrix of the step: the norms and biases are the difference);
// once timed, the kernels' time, their copy floors, and the floor of their
// bytes at the copy bandwidth (copy_gbs; 0: unmeasured).
void lab_print_step(const krn_model *m, const lab_case *cases, int n, double copy_gbs) {
    double us = 0, floor_us = 0, bytes = 0, weights = 0;
    int launches = 0;
    for (int i = 0; i < n; i++) {
        const lab_case *k = &cases[i];
        us += k->per_step * k->us;
        floor_us += k->per_step * k->floor_us;
        bytes += (double)k->per_step * (double)bench_traffic_bytes(&k->traffic);
        weights += (double)k->per_step * (double)k->traffic.weights;
        launches += k->per_step;
    }
    printf("step (rows %d, depth %d): %d launches (the embedding's not counted), %.1f MB, "
           "weights %.1f MB (bench_streamed_bytes: %.1f MB)\n", cases[0].rows,
           (int)cases[0].depth, launches, bytes / 1e6, weights / 1e6,
           (double)bench_streamed_bytes(m) / 1e6);
    if (us <= 0) return;
    printf("step's kernels alone: %.1f us; their copy floors %.1f us (%.0f%%)", us, floor_us,
           100.0 * floor_us / us);
    if (copy_gbs > 0)
        printf("; its bytes at %.0f GB/s: %.1f us (%.0f%%)", copy_gbs, bytes / (copy_gbs * 1e3),
               100.0 * bytes / (copy_gbs * 1e3) / us);
    printf("\n");
}

static json_t *lab_case_json(const lab_case *k) {
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(lab_kind_names[k->kind]));
    json_object_set_new(o, "path", json_string(k->path));
    json_object_set_new(o, "matrix", k->matrix == LAB_NO_MATRIX
                                          ? json_null()
                                          : json_string(lab_matrix_names[k->matrix]));
    json_object_set_new(o, "layer", json_integer(k->layer));
    json_object_set_new(o, "per_step", json_integer(k->per_step));
    json_object_set_new(o, "shape", json_string(k->shape));
    json_object_set_new(o, "types", json_string(k->types));
    json_object_set_new(o, "rows", json_integer(k->rows));
    json_object_set_new(o, "depth", json_integer(k->depth));
    json_object_set_new(o, "launches", json_integer(k->launches));
    json_object_set_new(o, "copies", json_integer(k->copies));
    json_object_set_new(o, "set_bytes", json_integer((json_int_t)k->set_bytes));
    json_object_set_new(o, "us", json_real(k->us));
    json_object_set_new(o, "floor_us", json_real(k->floor_us));
    json_object_set_new(o, "weight_bytes", json_integer((json_int_t)k->traffic.weights));
    json_object_set_new(o, "read_bytes", json_integer((json_int_t)k->traffic.read));
    json_object_set_new(o, "written_bytes", json_integer((json_int_t)k->traffic.written));
    const double bytes = (double)bench_traffic_bytes(&k->traffic);
    json_object_set_new(o, "gb_s", json_real(bytes / (k->us * 1e3)));
    json_object_set_new(o, "ops", json_real(k->traffic.ops));
    json_object_set_new(o, "tops", json_real(k->traffic.ops / (k->us * 1e6)));
    return o;
}

int lab_write_json(const char *path, const lab_rig *r, const lab_opts *o,
                   const lab_case *cases, int n, sb_err *err) {
    json_t *root = json_object(), *arr = json_array();
    json_object_set_new(root, "device", json_string(krn_device_name(r->b)));
    json_object_set_new(root, "commit", json_string(kernel_lab_commit));
    json_object_set_new(root, "model", json_string(o->model));
    json_object_set_new(root, "copy_gb_s", json_real(r->copy_gbs));
    json_object_set_new(root, "l2_bytes", json_integer((json_int_t)r->l2_bytes));
    json_object_set_new(root, "sms", json_integer(r->sms));
    json_object_set_new(root, "graph", json_boolean(!o->direct));
    json_object_set_new(root, "reps", json_integer(o->reps));
    for (int i = 0; i < n; i++) json_array_append_new(arr, lab_case_json(&cases[i]));
    json_object_set_new(root, "cases", arr);
    char *text = json_dumps(root, JSON_INDENT(1));
    json_decref(root);
    if (!text) return sb_err_set(err, __func__, "out of memory for the JSON");
    const int rc = sb_write_file(path, text, strlen(text), err);
    free(text);
    return rc;
}

// --all: the rule between the step's lines and the matrices alone.
void lab_print_alone_rule(const lab_opts *o, const lab_case *cases, int n, int i) {
    if (o->all && i + 1 < n && cases[i].per_step && !cases[i + 1].per_step)
        printf("-- alone (not launches of the step):\n");
}

// --plan: the cases, their shapes and bytes, with no GPU.
int lab_plan(const krn_model *m, const lab_opts *o, lab_case *cases, int n, sb_err *err) {
    lab_print_header();
    for (int i = 0; i < n; i++) {
        if (lab_case_describe(m, &cases[i], err)) return -1;
        lab_print_case(&cases[i]);
        lab_print_alone_rule(o, cases, n, i);
    }
    if (o->all) lab_print_step(m, cases, n, 0);
    return 0;
}

