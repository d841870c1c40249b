#include "ref_logits.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../gguf/gguf.h"

static void test__read_exact(FILE *f, void *p, size_t n) {
    assert_int_equal(fread(p, 1, n, f), n);
}

test_ref_file *test_ref_load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (run from the repository root)", path);
    test_ref_file *r = calloc(1, sizeof *r);
    assert_non_null(r);
    char magic[8];
    test__read_exact(f, magic, 8);
    assert_memory_equal(magic, "SBREF002", 8);
    test__read_exact(f, r->sha, 64);
    test__read_exact(f, &r->n_prompts, 4);
    assert_true(r->n_prompts > 0 && r->n_prompts < 100);
    r->prompts = calloc(r->n_prompts, sizeof *r->prompts);
    assert_non_null(r->prompts);
    for (uint32_t i = 0; i < r->n_prompts; i++) {
        test_ref_prompt *p = &r->prompts[i];
        test__read_exact(f, &p->n_tokens, 4);
        assert_true(p->n_tokens > 0 && p->n_tokens <= 256);
        p->ids = malloc(p->n_tokens * sizeof *p->ids);
        assert_non_null(p->ids);
        test__read_exact(f, p->ids, p->n_tokens * sizeof *p->ids);
        test__read_exact(f, &p->n_vocab, 4);
        assert_true(p->n_vocab > 0 && p->n_vocab <= 1u << 20);
        size_t n = (size_t)p->n_tokens * p->n_vocab;
        p->logits = malloc(n * sizeof *p->logits);
        assert_non_null(p->logits);
        test__read_exact(f, p->logits, n * sizeof *p->logits);
    }
    fclose(f);
    return r;
}

void test_ref_free(test_ref_file *r) {
    for (uint32_t i = 0; r && i < r->n_prompts; i++) {
        free(r->prompts[i].ids);
        free(r->prompts[i].logits);
    }
    if (r) free(r->prompts);
    free(r);
}

void test_weights_sha256(const char *path, char hex[65]) {
    sb_err err = {0};
    gguf_file *f = gguf_open(path, &err);
    if (!f) fail_msg("%s", err.msg);
    assert_true(gguf_tensor_count(f) > 0);
    /* Every tensor's data pointer minus its offset is the data section. */
    const gguf_tensor *t = gguf_tensor_at(f, 0);
    const unsigned char *start = (const unsigned char *)t->data - t->offset;
    const unsigned char *end =
        (const unsigned char *)gguf_file_bytes(f) + gguf_file_size(f);
    sb_sha256_hex(start, (size_t)(end - start), hex);
    gguf_close(f);
}

float *test_all_logits(eng_session *s, const int32_t *ids, int64_t n) {
    const size_t n_vocab = (size_t)eng_n_vocab(eng_session_model(s));
    float *got = malloc((size_t)n * n_vocab * sizeof *got);
    assert_non_null(got);
    sb_err err = {0};
    eng_session_truncate(s, 0);
    for (int64_t done = 0; done < n; done += KRN_MAX_ROWS) {
        int rows = n - done < KRN_MAX_ROWS ? (int)(n - done) : KRN_MAX_ROWS;
        if (eng_session_step(s, ids + done, rows, got + (size_t)done * n_vocab,
                             &err))
            fail_msg("%s", err.msg);
    }
    return got;
}

int32_t test_argmax(const float *v, int64_t n) {
    int64_t best = 0;
    for (int64_t i = 1; i < n; i++)
        if (v[i] > v[best]) best = i;
    return (int32_t)best;
}

double test_scaled_error(const float *got, const float *want, int64_t n) {
    double scale = 0, err = 0;
    for (int64_t i = 0; i < n; i++) {
        scale = fmax(scale, fabs(want[i]));
        err = fmax(err, fabs((double)got[i] - want[i]));
    }
    return err / scale;
}

static int test__cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void test_median_worst(double *v, int n, double *median, double *worst) {
    assert_true(n >= 1);
    qsort(v, (size_t)n, sizeof *v, test__cmp_double);
    *median = v[n / 2];
    *worst = v[n - 1];
}
