/*
 * source.c — a copy drafter made from a file's text and its ids: find
 * each token's bytes, hand ids, text and syntax to copy.c.
 */
#include <stdlib.h>
#include <string.h>

#include "syntax.h"

/* Byte offsets of the ids (n + 1 of them, malloc'd into *off); false when
 * their bytes do not spell the text back exactly (the tokenizer repaired
 * invalid UTF-8 or normalised it): then no syntax can be mapped. */
static bool source__offsets(const eng_model *m, const int32_t *ids, int64_t n,
                            const char *text, int64_t len, int64_t **off) {
    *off = malloc(((size_t)n + 1) * sizeof **off);
    if (!*off) return false;
    int64_t at = 0;
    (*off)[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t l = 0;
        const char *b = eng_token_bytes(m, ids[i], &l);
        if (!b || l > len - at || memcmp(b, text + at, (size_t)l)) return false;
        at += l;
        (*off)[i + 1] = at;
    }
    return at == len;
}

/* ends_line[id] for every id of m's vocabulary (malloc'd). */
static uint8_t *source__ends_line(const eng_model *m, int32_t n_vocab) {
    uint8_t *e = malloc((size_t)n_vocab);
    if (!e) return NULL;
    for (int32_t id = 0; id < n_vocab; id++) {
        int64_t l = 0;
        const char *b = eng_token_bytes(m, id, &l);
        e[id] = b && l > 0 && b[l - 1] == '\n';
    }
    return e;
}

drf_copy *drf_copy_create_text(const eng_model *m, const char *text,
                               int64_t len, const int32_t *ids, int32_t n_ids,
                               const char *language,
                               const drf_copy_opts *opts, sb_err *err) {
    if (!m || len < 0 || (len && !text) || n_ids < 0 || (n_ids && !ids)) {
        sb_err_set(err, __func__, "needs a model, the text and its ids "
                   "(%s, %lld bytes, %d ids)", m ? "model" : "no model",
                   (long long)len, (int)n_ids);
        return NULL;
    }
    if (n_ids > DRF_MAX_SOURCE) {
        sb_err_set(err, __func__, "text of %lld tokens; expected at most %d",
                   (long long)n_ids, DRF_MAX_SOURCE);
        return NULL;
    }
    int64_t *off = NULL;
    drf_copy *c = NULL;
    int32_t n_vocab = eng_n_vocab(m);
    uint8_t *ends = source__ends_line(m, n_vocab);
    if (!ends) {
        sb_err_set(err, __func__, "out of memory for a vocabulary of %d",
                   (int)n_vocab);
        goto done;
    }
    bool aligned = source__offsets(m, ids, n_ids, text, len, &off);
    drf__copy_text t = {.text = text, .len = len, .off = off,
                        .language = aligned ? drf_language_for_id(language) : NULL,
                        .ends_line = ends, .n_vocab = n_vocab};
    c = drf__copy_create_ex(ids, n_ids, &t, opts, err);
done:
    free(off);
    free(ends);
    return c;
}
