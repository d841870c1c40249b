/*
 * tokenizer.c — the vocabulary as raw bytes, and the encoder's driver:
 * repair the text's UTF-8, split off special tokens, then per segment NFC,
 * pre-token pieces and BPE (tokenizer_internal.h has the stages). Token
 * strings are decoded from GPT-2's byte-to-unicode form (gguf_vocab.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tokenizer_internal.h"

/* Checks the optional token_type array and copies it into v->type (all
 * NORMAL when the key is absent). */
static int tok__load_types(eng_vocab *v, const gguf_file *f, sb_err *err) {
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
static int tok__total_len(const gguf_file *f, int64_t kv, int32_t n,
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
static int tok__load_strings(eng_vocab *v, const gguf_file *f, int64_t kv,
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
static int tok__byte_table(eng_vocab *v, sb_err *err) {
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
static int tok__check_model(const gguf_file *f, sb_err *err) {
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
static int tok__check_pre(const gguf_file *f, sb_err *err) {
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
static int tok__load_tables(eng_vocab *v, const gguf_file *f, sb_err *err) {
    v->bpe = eng__bpe_load(v, f, err);
    if (!v->bpe) return -1;
    v->specials = eng__specials_build(v, err);
    return v->specials ? 0 : -1;
}

int eng__vocab_load(eng_vocab *v, const gguf_file *f, int32_t n_vocab,
                    sb_err *err) {
    static const char key[] = "tokenizer.ggml.tokens";
    memset(v, 0, sizeof *v);
    v->n = n_vocab;
    if (tok__check_model(f, err) || tok__check_pre(f, err)) return -1;
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
    if (tok__total_len(f, kv, n_vocab, &total, err)) goto fail;
    v->type = malloc((size_t)n_vocab);
    v->off = malloc(((size_t)n_vocab + 1) * sizeof *v->off);
    v->bytes = malloc((size_t)total + 1);
    if (!v->type || !v->off || !v->bytes) {
        sb_err_set(err, __func__, "out of memory for %d tokens (%llu bytes)",
                   (int)n_vocab, (unsigned long long)total);
        goto fail;
    }
    if (tok__load_types(v, f, err) || tok__load_strings(v, f, kv, err) ||
        tok__byte_table(v, err) || tok__load_tables(v, f, err))
        goto fail;
    return 0;
fail:
    eng__vocab_free(v);
    return -1;
}

void eng__vocab_free(eng_vocab *v) {
    eng__bpe_free(v->bpe);
    eng__specials_free(v->specials);
    free(v->bytes);
    free(v->off);
    free(v->type);
    memset(v, 0, sizeof *v);
}

int32_t eng__vocab_find(const eng_vocab *v, const char *text, uint64_t len) {
    for (int32_t i = 0; i < v->n; i++)
        if (v->off[i + 1] - v->off[i] == len &&
            (len == 0 || !memcmp(v->bytes + v->off[i], text, len)))
            return i;
    return -1;
}

/* ---- engine.h: Tokens ---- */

/* One encoding call's state. Ids go to ids[0..cap) and are all counted. */
typedef struct tok__job {
    const eng_vocab *v;
    int32_t *ids;
    int64_t cap;
    int64_t n;          /* ids produced so far (may exceed cap) */
    int32_t *piece;     /* one piece's ids; piece_cap entries; owned */
    int64_t piece_cap;
    eng_bpe_work work;  /* owned */
    /* eng_tokenize_cuts: n_cuts byte offsets (borrowed) and their answers,
     * TOK_UNDECIDED until the encoder passes the offset. */
    const int64_t *cuts;
    int64_t *cut_at;
    int n_cuts;
} tok__job;

enum { TOK_UNDECIDED = -2 };

/* The encoder is at byte `pos` of the text, where nothing it has emitted
 * spans `pos`: answers every undecided cut there with the ids so far, or
 * -1 when the split there is not clean. */
static void tok__cut(tok__job *j, int64_t pos, bool clean) {
    for (int k = 0; k < j->n_cuts; k++)
        if (j->cuts[k] == pos && j->cut_at[k] == TOK_UNDECIDED)
            j->cut_at[k] = clean ? j->n : -1;
}

/* Answers -1 for every undecided cut in [from, to]: Unicode normalisation
 * moved the bytes of that stretch. */
static void tok__cut_none(tok__job *j, int64_t from, int64_t to) {
    for (int k = 0; k < j->n_cuts; k++)
        if (j->cuts[k] >= from && j->cuts[k] <= to &&
            j->cut_at[k] == TOK_UNDECIDED)
            j->cut_at[k] = -1;
}

static void tok__emit(tok__job *j, const int32_t *ids, int64_t k) {
    for (int64_t i = 0; i < k; i++, j->n++)
        if (j->n < j->cap) j->ids[j->n] = ids[i];
}

/* Encodes one piece: at most one id per byte. */
static int tok__piece(tok__job *j, const char *p, int64_t len) {
    if (len > j->piece_cap) {
        int64_t cap = len > 2 * j->piece_cap ? len : 2 * j->piece_cap;
        int32_t *grown = realloc(j->piece, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        j->piece = grown;
        j->piece_cap = cap;
    }
    int64_t k = eng__bpe_encode(j->v->bpe, j->v, &j->work, p, len, j->piece);
    if (k < 0) return -1;
    tok__emit(j, j->piece, k);
    return 0;
}

/* Encodes well-formed UTF-8 that holds no special token (or in which they
 * are not to be matched), which starts at byte `base` of the whole text:
 * NFC, then piece by piece. A segment ends at a special token or at the end
 * of the text, so its own start and end are clean cuts. */
static int tok__segment(tok__job *j, const char *text, int64_t n,
                        int64_t base) {
    char *norm = NULL;
    int64_t len = n;
    if (eng__nfc(text, n, &norm, &len)) return -1;
    if (norm) tok__cut_none(j, base, base + n);
    const char *t = norm ? norm : text;
    int rc = 0;
    for (int64_t at = 0; at < len && rc == 0;) {
        if (j->n_cuts && !norm)
            tok__cut(j, base + at, eng__pretok_ends_alike(t, len, at));
        int64_t end = eng__pretok_next(t, len, at);
        rc = tok__piece(j, t + at, end - at);
        at = end;
    }
    if (!norm) tok__cut(j, base + len, true);
    free(norm);
    return rc;
}

/* Splits well-formed text at special tokens (when asked) and encodes the
 * segments between them. */
static int tok__text(tok__job *j, const char *t, int64_t len, bool specials) {
    for (int64_t at = 0; at < len;) {
        int64_t slen = 0;
        int32_t sid = -1;
        int64_t p = specials ? eng__specials_next(j->v->specials, t, len, at,
                                                  &slen, &sid)
                             : len;
        if (p > at && tok__segment(j, t + at, p - at, at)) return -1;
        if (p == len) break;
        tok__cut(j, p, true);
        tok__emit(j, &sid, 1);
        at = p + slen;
        tok__cut(j, at, true);
    }
    return 0;
}

int64_t eng_tokenize_cuts(const eng_model *m, const char *text, int64_t n,
                          int32_t *ids, int64_t cap, unsigned flags,
                          const int64_t *cuts, int n_cuts, int64_t *cut_at) {
    if (!m || n < 0 || (n > 0 && !text) || cap < 0 || (cap > 0 && !ids) ||
        (flags & ~(unsigned)ENG_TOK_SPECIAL) || n_cuts < 0 ||
        (n_cuts > 0 && (!cuts || !cut_at)))
        return -1;
    char *fixed = NULL;
    int64_t len = n;
    if (eng__utf8_repair(text, n, &fixed, &len)) return -1;
    /* A repaired text's bytes are not the caller's: no cut maps. */
    tok__job j = {.v = &m->vocab, .ids = ids, .cap = cap, .cuts = cuts,
                  .cut_at = cut_at, .n_cuts = fixed ? 0 : n_cuts};
    for (int k = 0; k < n_cuts; k++) cut_at[k] = fixed ? -1 : TOK_UNDECIDED;
    tok__cut(&j, 0, true); /* also covers the empty text */
    int rc = tok__text(&j, fixed ? fixed : text, len,
                       (flags & ENG_TOK_SPECIAL) != 0);
    /* Offsets never passed lie inside a piece or special token, or
     * outside 0..n. */
    for (int k = 0; k < n_cuts; k++)
        if (cut_at[k] == TOK_UNDECIDED) cut_at[k] = -1;
    free(fixed);
    free(j.piece);
    eng__bpe_work_free(&j.work);
    return rc ? -1 : j.n;
}

int64_t eng_tokenize_ex(const eng_model *m, const char *text, int64_t n,
                        int32_t *ids, int64_t cap, unsigned flags) {
    return eng_tokenize_cuts(m, text, n, ids, cap, flags, NULL, 0, NULL);
}

int64_t eng_tokenize(const eng_model *m, const char *text, int64_t n,
                     int32_t *ids, int64_t cap) {
    return eng_tokenize_ex(m, text, n, ids, cap, ENG_TOK_SPECIAL);
}

int32_t eng_special_id(const eng_model *m, const char *text) {
    if (!m || !text) return -1;
    return eng__specials_find(m->vocab.specials, text, (int64_t)strlen(text));
}

const char *eng_token_bytes(const eng_model *m, int32_t id, int64_t *len) {
    if (id < 0 || id >= m->vocab.n) {
        if (len) *len = 0;
        return NULL;
    }
    if (len) *len = (int64_t)(m->vocab.off[id + 1] - m->vocab.off[id]);
    return m->vocab.bytes + m->vocab.off[id];
}

int32_t eng_n_vocab(const eng_model *m) { return m->vocab.n; }
