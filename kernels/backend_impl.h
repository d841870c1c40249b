/*
 * backend_impl.h — private to kernels/: the table every backend fills.
 * A backend's struct begins with a krn_backend, so a pointer to it is a
 * pointer to its base.
 */
#ifndef SB_KERNELS_BACKEND_IMPL_H
#define SB_KERNELS_BACKEND_IMPL_H

#include "kernels.h"

/* Keys per attention chunk (kernels/cpu/attention.c states the order): a
 * constant of the contract every backend keeps, not a tuning knob —
 * changing it changes the bits of every attention output. */
enum { KRN_ATTN_CHUNK = 64 };

/* A model's activation widths, the one computation of them every backend
 * sizes its buffers by (backend.c): the residual (n_embd), the FFN's
 * (n_ff), the query and key/value rows (n_head or n_head_kv x head_dim),
 * and the widest input any matmul reads. */
typedef struct krn_dims {
    int64_t n_embd, n_ff, q_dim, kv_dim, max_in;
} krn_dims;
krn_dims krn_model_dims(const krn_model *m);

/* The RoPE table (rope_table.c): cos/sin of pos·θ_i for every position <
 * n_pos and pair i < head_dim/2, the floats every backend rotates by. */
typedef struct krn_rope_table {
    int32_t n_pos;
    int32_t half;     /* head_dim / 2 */
    float *cos;       /* (n_pos, half), owned */
    float *sin;       /* (n_pos, half), owned */
} krn_rope_table;

/* Fills t (n_pos >= 1, head_dim even and >= 2, base > 0). Returns -1 and
 * fills err when memory cannot be had; free with krn_rope_table_free. */
int krn_rope_table_init(krn_rope_table *t, int32_t n_pos, int32_t head_dim,
                        float base, sb_err *err);
void krn_rope_table_free(krn_rope_table *t);

typedef struct krn_backend_ops {
    const char *name;
    /* Called with a batch krn_forward has already checked. */
    int (*forward)(krn_backend *b, const krn_batch *batch, sb_err *err);
    void (*destroy)(krn_backend *b);
    /* Optional (NULL: malloc and free): krn_host_alloc's memory. */
    void *(*host_alloc)(krn_backend *b, size_t bytes);
    void (*host_free)(krn_backend *b, void *p);
    /* Optional (NULL: 0 and 0): krn_device_memory. */
    void (*device_memory)(const krn_backend *b, int64_t *mine, int64_t *used);
    /* Optional (NULL: the host CPU's model): krn_device_name, in static
     * storage. */
    const char *(*device_name)(const krn_backend *b);
    /* Optional (NULL: none): krn_choices. */
    int (*choices)(const krn_backend *b, const krn_choice **out);
} krn_backend_ops;

struct krn_backend {
    const krn_backend_ops *ops;
    const krn_model *model; /* borrowed */
    int32_t kv_capacity;    /* positions */
    int32_t kv_slots;       /* KV-cache slots: position p in slot p % kv_slots */
    int32_t max_batch_rows; /* the most rows of a batch (krn_options's, at
                               least KRN_MAX_ROWS): the scratch's size */
    int measurements;       /* krn_measurements */
};

/* Applies opt's imported choices to a backend's list `have` (n entries,
 * each value checked against lo[i]..hi[i]); -1 with err naming the first
 * unknown name or bad value. */
int krn_choices_import(krn_choice *have, const int32_t *lo, const int32_t *hi, int n,
                       const krn_options *opt, sb_err *err);

/* The checked batch maximum of opt (KRN_MAX_ROWS when 64 or less); -1
 * with err filled when it is out of range. */
int32_t krn_options_batch_rows(const krn_options *opt, sb_err *err);

/* The checked slot count of opt for model (krn_kv_slots when 0); -1 with
 * err filled when it is out of range. */
int32_t krn_options_slots(const krn_model *m, const krn_options *opt, sb_err *err);

/* Checks the shapes a backend relies on (head_dim even, dimensions
 * multiples of 32, tensor shapes consistent). */
int krn_model_check(const krn_model *m, sb_err *err);

#endif /* SB_KERNELS_BACKEND_IMPL_H */
