/*
 * tokenize_speed — encode throughput of eng_tokenize on source code.
 *
 * usage: tokenize_speed MODEL FILE... [--mb N] [--passes P]
 *
 * Concatenates the files and repeats the whole to at least N MB (default 8;
 * 1 MB = 1e6 bytes), then encodes it P times (default 5) in one call each,
 * on one thread. Prints the best and the median pass in MB/s, the token
 * count and bytes per token. The text is one buffer, so the tokenizer sees
 * one long input, as it does for a whole file in an edit prompt.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/base.h"
#include "../../engine/engine.h"

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static int buf_append(buf *b, const char *s, size_t n) {
    if (b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 1 << 20;
        while (cap - b->n < n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

static int append_file(buf *b, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    char chunk[1 << 16];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = buf_append(b, chunk, n);
    fclose(f);
    return rc;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Repeats the text until it holds `want` bytes (at least one copy). The
 * buffer grows once, first: the copies read from the buffer itself. */
static int repeat_to(buf *b, size_t want) {
    if (!b->n) return -1;
    if (want <= b->n) return 0;
    char *p = realloc(b->p, want);
    if (!p) return -1;
    b->p = p;
    b->cap = want;
    for (size_t one = b->n; b->n < want;) {
        size_t k = one < want - b->n ? one : want - b->n;
        memcpy(b->p + b->n, b->p, k);
        b->n += k;
    }
    return 0;
}

static int run(const eng_model *m, const buf *text, int passes) {
    int64_t n_ids = eng_tokenize(m, text->p, (int64_t)text->n, NULL, 0);
    int32_t *ids = n_ids >= 0 ? malloc(((size_t)n_ids + 1) * sizeof *ids) : NULL;
    double t[64];
    if (!ids) {
        fprintf(stderr, "tokenize_speed: eng_tokenize failed or no memory\n");
        return 1;
    }
    for (int p = 0; p < passes; p++) {
        double t0 = sb_now();
        int64_t n = eng_tokenize(m, text->p, (int64_t)text->n, ids, n_ids);
        t[p] = sb_now() - t0;
        if (n != n_ids) {
            fprintf(stderr, "tokenize_speed: pass %d gave %lld ids, then %lld\n",
                    p, (long long)n_ids, (long long)n);
            free(ids);
            return 1;
        }
    }
    free(ids);
    qsort(t, (size_t)passes, sizeof t[0], cmp_double);
    double mb = (double)text->n / 1e6;
    printf("tokenize: %.2f MB, %lld tokens (%.2f bytes/token), %d passes\n", mb,
           (long long)n_ids, (double)text->n / (double)(n_ids ? n_ids : 1),
           passes);
    printf("tokenize: best %.2f MB/s, median %.2f MB/s (%.3f s per pass)\n",
           mb / t[0], mb / t[passes / 2], t[passes / 2]);
    return 0;
}

int main(int argc, char **argv) {
    const char *model = NULL;
    double mb = 8;
    int passes = 5, rc = 1;
    buf text = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc) passes = atoi(argv[++i]);
        else if (!model) model = argv[i];
        else if (append_file(&text, argv[i])) goto done;
    }
    if (!model || !text.n || mb <= 0 || mb > 4096 || passes < 1 || passes > 64) {
        fprintf(stderr, "usage: tokenize_speed MODEL FILE... [--mb 0..4096] "
                "[--passes 1..64]\n");
        rc = 2;
        goto done;
    }
    if (repeat_to(&text, (size_t)(mb * 1e6))) {
        fprintf(stderr, "tokenize_speed: out of memory\n");
        goto done;
    }
    sb_err err = {0};
    eng_model *m = eng_model_load(model, &err);
    if (!m) {
        fprintf(stderr, "tokenize_speed: %s\n", err.msg);
        goto done;
    }
    rc = run(m, &text, passes);
    eng_model_free(m);
done:
    free(text.p);
    return rc;
}
