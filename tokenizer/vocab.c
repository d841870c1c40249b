/*
 * vocab.c — the vocabulary as raw bytes (tokenizer.h, tok_vocab), read
 * from a GGUF file's tokenizer.ggml.* keys: token strings decoded from
 * GPT-2's byte-to-unicode form (gguf/gguf_vocab.c), then the encoder's
 * tables built (bpe.c, specials.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tokenizer_internal.h"

/* Checks the optional token_type array and copies it into v->type (all
 * NORMAL when the key is absent). */
static int vocab__load_types(tok_vocab *v, const gguf_file *f, sb_err *err) {
    static const char key[] = "tokenizer.ggml.token_type";
    memset(v->type, GGUF_TOKEN_NORMAL, (size_t)v->n);
    int64_t kv = gguf_find_key(f, key);
    if (kv < 0) return 0;
    gguf_vtype et;
    uint64_t n;
    if (gguf_get_arr(f, key, &et, &n, err)) return -1;
    if (et != GGUF_I32)
        return sb_err_set(err, __func__, "'%s' holds elements of type %d, "
                          "expected i32 (%d)", key, (int)et, (int)GGUF_I32);
    if (n != (uint64_t)v->n)
        return sb_err_set(err, __func__, "'%s' has %llu entries, expected %d "
                          "(the vocabulary size of token_embd.weight)", key,
                          (unsigned long long)n, (int)v->n);
    const unsigned char *raw = gguf_arr_data(f, kv);
    for (int32_t i = 0; i < v->n; i++) {
        /* little-endian i32, read bytewise: the mapping may be unaligned */
        const unsigned char *e = raw + 4 * (size_t)i;
        uint32_t u = (uint32_t)e[0] | (uint32_t)e[1] << 8 |
                     (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24;
        if (u < GGUF_TOKEN_NORMAL || u > GGUF_TOKEN_BYTE)
            return sb_err_set(err, __func__, "'%s'[%d] is %d, expected a token "
                              "type 1..6", key, (int)i, (int)(int32_t)u);
        v->type[i] = (uint8_t)u;
    }
    return 0;
}

/* Sums the stored lengths of all token strings (an upper bound on their
 * decoded bytes), refusing a total that would not fit in memory. */
static int vocab__total_len(const gguf_file *f, int64_t kv, int32_t n,
                          uint64_t *total, sb_err *err) {
    uint64_t sum = 0;
    for (int32_t i = 0; i < n; i++)
        if (!sb_add_u64(sum, gguf_arr_str(f, kv, (uint64_t)i).len, &sum))
            return sb_err_set(err, __func__, "token strings' total length "
                              "overflows");
    if (sum > SIZE_MAX - 1)
        return sb_err_set(err, __func__, "token strings total %llu bytes, more "
                          "than this machine can hold", (unsigned long long)sum);
    *total = sum;
    return 0;
}

/* Decodes every token string into v->bytes / v->off. Special tokens
 * (control, user-defined) and undecodable non-normal tokens keep their
 * literal text; a normal token that does not decode is an error. */
static int vocab__load_strings(tok_vocab *v, const gguf_file *f, int64_t kv,
                             sb_err *err) {
    uint64_t at = 0;
    for (int32_t i = 0; i < v->n; i++) {
        gguf_str s = gguf_arr_str(f, kv, (uint64_t)i);
        char *dst = v->bytes + at;
        bool literal = v->type[i] == GGUF_TOKEN_CONTROL ||
                       v->type[i] == GGUF_TOKEN_USER_DEFINED;
        int64_t n = literal ? -1 : gguf_gpt2_decode(s, dst);
        if (n < 0 && v->type[i] == GGUF_TOKEN_NORMAL)
            return sb_err_set(err, __func__, "token %d ('%.*s') is not in GPT-2 "
                              "byte-to-unicode form", (int)i,
                              (int)(s.len < 40 ? s.len : 40), s.ptr);
        if (n < 0) {
            if (s.len) memcpy(dst, s.ptr, s.len);
            n = (int64_t)s.len;
        }
        v->off[i] = at;
        at += (uint64_t)n;
    }
    v->off[v->n] = at;
    return 0;
}

/* Fills byte_id: the lowest non-special token that is exactly one byte. */
static int vocab__byte_table(tok_vocab *v, sb_err *err) {
    for (int b = 0; b < 256; b++) v->byte_id[b] = -1;
    for (int32_t i = 0; i < v->n; i++) {
        if (v->type[i] == GGUF_TOKEN_CONTROL ||
            v->type[i] == GGUF_TOKEN_USER_DEFINED || v->off[i + 1] - v->off[i] != 1)
            continue;
        unsigned char b = (unsigned char)v->bytes[v->off[i]];
        if (v->byte_id[b] < 0) v->byte_id[b] = i;
    }
    for (int b = 0; b < 256; b++)
        if (v->byte_id[b] < 0)
            return sb_err_set(err, __func__, "the vocabulary has no token for "
                              "byte 0x%02x (every byte needs one)", b);
    return 0;
}

/* The byte-to-unicode decoding is gpt2's: refuse any other tokenizer model
 * rather than decode its strings into wrong bytes. Absent means gpt2. */
static int vocab__check_model(const gguf_file *f, sb_err *err) {
    static const char key[] = "tokenizer.ggml.model";
    gguf_str s;
    if (gguf_find_key(f, key) < 0) return 0;
    if (gguf_get_str(f, key, &s, err)) return -1;
    if (s.len != 4 || memcmp(s.ptr, "gpt2", 4))
        return sb_err_set(err, __func__, "'%s' is '%.*s', expected 'gpt2' "
                          "(byte-level BPE)", key, (int)(s.len < 40 ? s.len : 40),
                          s.ptr);
    return 0;
}

/* The pre-tokenizer is the qwen2 split (pretok.c): refuse a file that
 * declares another one rather than tokenize its text wrongly. Absent means
 * qwen2 (our own older files). */
static int vocab__check_pre(const gguf_file *f, sb_err *err) {
    static const char key[] = "tokenizer.ggml.pre";
    gguf_str s;
    if (gguf_find_key(f, key) < 0) return 0;
    if (gguf_get_str(f, key, &s, err)) return -1;
    if (s.len != 5 || memcmp(s.ptr, "qwen2", 5))
        return sb_err_set(err, __func__, "'%s' is '%.*s', expected 'qwen2' "
                          "(the only pre-tokenizer implemented)", key,
                          (int)(s.len < 40 ? s.len : 40), s.ptr);
    return 0;
}

/* Builds the encoder's tables from the decoded vocabulary. */
static int vocab__load_tables(tok_vocab *v, const gguf_file *f, sb_err *err) {
    v->bpe = tok__bpe_load(v, f, err);
    if (!v->bpe) return -1;
    v->specials = tok__specials_build(v, err);
    return v->specials ? 0 : -1;
}

int tok_vocab_load(tok_vocab *v, const gguf_file *f, int32_t n_vocab,
                   sb_err *err) {
    static const char key[] = "tokenizer.ggml.tokens";
    memset(v, 0, sizeof *v);
    v->n = n_vocab;
    if (vocab__check_model(f, err) || vocab__check_pre(f, err)) return -1;
    gguf_vtype et;
    uint64_t n = 0, total = 0;
    int64_t kv = gguf_find_key(f, key);
    if (kv < 0) {
        sb_err_set(err, __func__, "missing required key '%s'", key);
        goto fail;
    }
    if (gguf_get_arr(f, key, &et, &n, err)) goto fail;
    if (et != GGUF_STRING) {
        sb_err_set(err, __func__, "'%s' holds elements of type %d, expected "
                   "strings (%d)", key, (int)et, (int)GGUF_STRING);
        goto fail;
    }
    if (n != (uint64_t)n_vocab) {
        sb_err_set(err, __func__, "'%s' has %llu entries, expected %d (the "
                   "vocabulary size of token_embd.weight)", key,
                   (unsigned long long)n, (int)n_vocab);
        goto fail;
    }
    if (vocab__total_len(f, kv, n_vocab, &total, err)) goto fail;
    v->type = malloc((size_t)n_vocab);
    v->off = malloc(((size_t)n_vocab + 1) * sizeof *v->off);
    v->bytes = malloc((size_t)total + 1);
    if (!v->type || !v->off || !v->bytes) {
        sb_err_set(err, __func__, "out of memory for %d tokens (%llu bytes)",
                   (int)n_vocab, (unsigned long long)total);
        goto fail;
    }
    if (vocab__load_types(v, f, err) || vocab__load_strings(v, f, kv, err) ||
        vocab__byte_table(v, err) || vocab__load_tables(v, f, err))
        goto fail;
    return 0;
fail:
    tok_vocab_free(v);
    return -1;
}

void tok_vocab_free(tok_vocab *v) {
    tok__bpe_free(v->bpe);
    tok__specials_free(v->specials);
    free(v->bytes);
    free(v->off);
    free(v->type);
    memset(v, 0, sizeof *v);
}

int32_t tok_vocab_find(const tok_vocab *v, const char *text, uint64_t len) {
    for (int32_t i = 0; i < v->n; i++)
        if (v->off[i + 1] - v->off[i] == len &&
            (len == 0 || !memcmp(v->bytes + v->off[i], text, len)))
            return i;
    return -1;
}
