/*
 * vocab.c — the vocabularies sb mkmodel writes: the built-in
 * byte-level one, or a Hugging Face tokenizer.json (the real Qwen vocabulary
 * for the tokenizer's reference test).
 *
 * A tokenizer.json is read whole with jansson (Qwen's is 11 MB). Its ids
 * must be dense from 0; the slots above the last id are padded with
 * [PAD<i>] unused tokens up to the vocabulary size, as llama.cpp's
 * converter pads Qwen's 151,665 tokens to 151,936 embedding rows.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gguf/gguf.h"
#include "mkmodel_internal.h"

static int mk__vocab_alloc(mk_vocab *v, int32_t n, sb_err *err) {
    memset(v, 0, sizeof *v);
    v->eos = v->pad = -1;
    v->tokens = calloc((size_t)n, sizeof *v->tokens);
    v->types = calloc((size_t)n, sizeof *v->types);
    if (!v->tokens || !v->types) {
        mk_vocab_free(v);
        return sb_err_set(err, __func__, "out of memory for %d tokens", (int)n);
    }
    v->n = n;
    return 0;
}

/* Fills every still-empty slot from `from` on with "[PAD<i>]" typed UNUSED,
 * as llama.cpp's converter does: not CONTROL, or the tokenizer would match
 * the text "[PAD151700]" as a special token where the reference does not. */
static int mk__vocab_pad(mk_vocab *v, int64_t from, sb_err *err) {
    for (int64_t i = from; i < v->n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "[PAD%lld]", (long long)i);
        if (!(v->tokens[i] = strdup(buf)))
            return sb_err_set(err, __func__, "out of memory");
        v->types[i] = GGUF_TOKEN_UNUSED;
    }
    return 0;
}

static int32_t mk__vocab_find(const mk_vocab *v, const char *s) {
    for (int64_t i = 0; i < v->n; i++)
        if (v->tokens[i] && !strcmp(v->tokens[i], s)) return (int32_t)i;
    return -1;
}

int mk_vocab_builtin(int32_t n_vocab, mk_vocab *out, sb_err *err) {
    static const char *const special[] = {"<|endoftext|>", "<|im_start|>",
                                          "<|im_end|>"};
    enum { N_FIXED = 256 + 3 };
    if (n_vocab < N_FIXED)
        return sb_err_set(err, __func__, "vocabulary of %d tokens, expected at "
                          "least %d", (int)n_vocab, N_FIXED);
    if (mk__vocab_alloc(out, n_vocab, err)) return -1;
    for (int b = 0; b < 256; b++) {
        /* the byte's code point, UTF-8 encoded (1 or 2 bytes, < U+0800) */
        uint32_t cp = gguf_gpt2_byte_to_cp((uint8_t)b);
        char s[3] = {0};
        if (cp < 0x80) {
            s[0] = (char)cp;
        } else {
            s[0] = (char)(0xC0 | (cp >> 6));
            s[1] = (char)(0x80 | (cp & 0x3F));
        }
        out->tokens[b] = strdup(s);
        out->types[b] = GGUF_TOKEN_NORMAL;
    }
    for (int i = 0; i < 3; i++) {
        out->tokens[256 + i] = strdup(special[i]);
        out->types[256 + i] = GGUF_TOKEN_CONTROL;
    }
    for (int i = 0; i < N_FIXED; i++)
        if (!out->tokens[i]) {
            sb_err_set(err, __func__, "out of memory");
            goto fail;
        }
    if (mk__vocab_pad(out, N_FIXED, err)) goto fail;
    out->pad = 256; /* <|endoftext|>, as Qwen2.5-Instruct files have it */
    out->eos = 258; /* <|im_end|>: the end of an assistant turn */
    return 0;
fail:
    mk_vocab_free(out);
    return -1;
}

void mk_vocab_free(mk_vocab *v) {
    for (int64_t i = 0; v->tokens && i < v->n; i++) free(v->tokens[i]);
    for (int64_t i = 0; v->merges && i < v->n_merges; i++) free(v->merges[i]);
    free(v->tokens);
    free(v->types);
    free(v->merges);
    memset(v, 0, sizeof *v);
    v->eos = v->pad = -1;
}

/* ---- tokenizer.json ---- */

/* Puts token `text` at id. A second token for the same id is an error,
 * except an added token repeating the vocabulary entry it overrides. */
static int mk__json_put(mk_vocab *v, json_int_t id, const char *text,
                        int32_t type, bool added, int64_t *max_id, sb_err *err) {
    if (id < 0 || id >= v->n)
        return sb_err_set(err, __func__, "tokenizer.json: token '%.60s' has id "
                          "%lld, expected 0..%lld (the vocabulary's size)",
                          text, (long long)id, (long long)v->n - 1);
    if (v->tokens[id]) {
        if (!added || strcmp(v->tokens[id], text))
            return sb_err_set(err, __func__, "tokenizer.json: duplicate id %lld "
                              "(tokens '%.60s' and '%.60s')", (long long)id,
                              v->tokens[id], text);
        v->types[id] = type;
        return 0;
    }
    if (!(v->tokens[id] = strdup(text)))
        return sb_err_set(err, __func__, "out of memory");
    v->types[id] = type;
    if (id > *max_id) *max_id = id;
    return 0;
}

static int mk__json_vocab(mk_vocab *v, json_t *vocab, int64_t *max_id,
                          sb_err *err) {
    const char *key;
    json_t *val;
    if (!json_is_object(vocab))
        return sb_err_set(err, __func__, "tokenizer.json: 'model.vocab' is "
                          "missing or not an object (token -> id)");
    json_object_foreach(vocab, key, val) {
        if (!json_is_integer(val))
            return sb_err_set(err, __func__, "tokenizer.json: 'model.vocab' "
                              "entry '%.60s' is not an integer id", key);
        if (mk__json_put(v, json_integer_value(val), key, GGUF_TOKEN_NORMAL,
                         false, max_id, err))
            return -1;
    }
    return 0;
}

static int mk__json_added(mk_vocab *v, json_t *added, int64_t *max_id,
                          sb_err *err) {
    size_t i;
    json_t *a;
    if (!added) return 0;
    if (!json_is_array(added))
        return sb_err_set(err, __func__, "tokenizer.json: 'added_tokens' is "
                          "not an array");
    json_array_foreach(added, i, a) {
        json_t *id = json_object_get(a, "id");
        json_t *content = json_object_get(a, "content");
        json_t *special = json_object_get(a, "special");
        if (!json_is_integer(id) || !json_is_string(content))
            return sb_err_set(err, __func__, "tokenizer.json: 'added_tokens'[%zu] "
                              "needs an integer 'id' and a string 'content'", i);
        int32_t type = json_is_true(special) ? GGUF_TOKEN_CONTROL
                                             : GGUF_TOKEN_USER_DEFINED;
        if (mk__json_put(v, json_integer_value(id), json_string_value(content),
                         type, true, max_id, err))
            return -1;
    }
    return 0;
}

/* One merge as "a b": from a string (kept as is) or an [a, b] pair. */
static char *mk__json_merge(json_t *m) {
    if (json_is_string(m)) {
        const char *s = json_string_value(m);
        const char *sp = strchr(s, ' ');
        return sp && sp != s && sp[1] ? strdup(s) : NULL;
    }
    if (!json_is_array(m) || json_array_size(m) != 2 ||
        !json_is_string(json_array_get(m, 0)) ||
        !json_is_string(json_array_get(m, 1)))
        return NULL;
    const char *a = json_string_value(json_array_get(m, 0));
    const char *b = json_string_value(json_array_get(m, 1));
    size_t la = strlen(a), lb = strlen(b);
    if (!la || !lb) return NULL;
    char *s = malloc(la + lb + 2);
    if (s) snprintf(s, la + lb + 2, "%s %s", a, b);
    return s;
}

static int mk__json_merges(mk_vocab *v, json_t *merges, sb_err *err) {
    size_t i;
    json_t *m;
    if (!json_is_array(merges))
        return sb_err_set(err, __func__, "tokenizer.json: 'model.merges' is "
                          "missing or not an array");
    v->merges = calloc(json_array_size(merges) + 1, sizeof *v->merges);
    if (!v->merges) return sb_err_set(err, __func__, "out of memory");
    json_array_foreach(merges, i, m) {
        if (!(v->merges[i] = mk__json_merge(m)))
            return sb_err_set(err, __func__, "tokenizer.json: 'model.merges'[%zu]"
                              " is not \"a b\" or [\"a\", \"b\"] (or no memory)",
                              i);
        v->n_merges = (int64_t)i + 1;
    }
    return 0;
}

/* Ids 0..max_id must all be taken; the rest become [PAD<i>]. */
static int mk__json_finish(mk_vocab *v, int64_t max_id, sb_err *err) {
    for (int64_t i = 0; i <= max_id; i++)
        if (!v->tokens[i])
            return sb_err_set(err, __func__, "tokenizer.json: no token has id "
                              "%lld (ids must be dense from 0 to %lld)",
                              (long long)i, (long long)max_id);
    if (mk__vocab_pad(v, max_id + 1, err)) return -1;
    v->eos = mk__vocab_find(v, "<|im_end|>");
    if (v->eos < 0) v->eos = mk__vocab_find(v, "<|endoftext|>");
    v->pad = mk__vocab_find(v, "<|endoftext|>");
    return 0;
}

/* The largest integer id among the vocabulary's values and the added
 * tokens' ids, or -1. Malformed entries are skipped here: the fill pass that
 * follows reports them with their names. */
static int64_t mk__json_max_id(json_t *vocab, json_t *added) {
    int64_t max_id = -1;
    const char *key;
    json_t *val;
    size_t i;
    json_object_foreach(vocab, key, val) {
        if (json_is_integer(val) && json_integer_value(val) > max_id)
            max_id = json_integer_value(val);
    }
    json_array_foreach(added, i, val) {
        json_t *id = json_object_get(val, "id");
        if (json_is_integer(id) && json_integer_value(id) > max_id)
            max_id = json_integer_value(id);
    }
    return max_id;
}

/* The fitted vocabulary size: every id, rounded up to a multiple of 64 rows
 * (what converters pad embeddings to), capped at MK_VOCAB_MAX so that a
 * hostile id cannot ask for gigabytes; ids beyond the cap are then refused
 * by mk__json_put, naming the token. */
static int32_t mk__json_fit(json_t *vocab, json_t *added) {
    int64_t need = mk__json_max_id(vocab, added) + 1;
    if (need < 1) need = 1;
    if (need > MK_VOCAB_MAX) need = MK_VOCAB_MAX;
    return (int32_t)((need + 63) / 64 * 64);
}

int mk_vocab_json(const char *path, int32_t n_vocab, mk_vocab *out,
                      sb_err *err) {
    json_error_t je;
    int64_t max_id = -1;
    memset(out, 0, sizeof *out);
    out->eos = out->pad = -1;
    if (n_vocab < 0 || n_vocab > MK_VOCAB_MAX)
        return sb_err_set(err, __func__, "vocabulary size %d, expected 0 (fit) "
                          "or 1..%d", (int)n_vocab, MK_VOCAB_MAX);
    FILE *f = sb_fopen_read(path, "tokenizer.json", err);
    if (!f) return -1;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!root)
        return sb_err_set(err, __func__, "cannot read tokenizer.json '%s': %s "
                          "(line %d)", path, je.text, je.line);
    json_t *model = json_object_get(root, "model");
    if (!json_is_object(model)) {
        sb_err_set(err, __func__, "tokenizer.json: 'model' is missing or not an "
                   "object");
        goto fail;
    }
    json_t *vocab = json_object_get(model, "vocab");
    json_t *added = json_object_get(root, "added_tokens");
    if (mk__vocab_alloc(out, n_vocab ? n_vocab : mk__json_fit(vocab, added),
                        err) ||
        mk__json_vocab(out, vocab, &max_id, err) ||
        mk__json_added(out, added, &max_id, err) ||
        mk__json_merges(out, json_object_get(model, "merges"), err) ||
        mk__json_finish(out, max_id, err))
        goto fail;
    json_decref(root);
    return 0;
fail:
    json_decref(root);
    mk_vocab_free(out);
    return -1;
}
