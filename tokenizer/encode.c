/*
 * encode.c — the encoder's driver (tokenizer.h, tok_encode): repair the
 * text's UTF-8, split off special tokens, then per segment NFC, pre-token
 * pieces and BPE (tokenizer_internal.h has the stages); and where the
 * encoding splits cleanly, for the callers that cut a prompt.
 */
#include <stdlib.h>
#include <string.h>

#include "tokenizer_internal.h"

/* One encoding call's state. Ids go to ids[0..cap) and are all counted. */
typedef struct encode__job {
    const tok_vocab *v;
    int32_t *ids;
    int64_t cap;
    int64_t n;          /* ids produced so far (may exceed cap) */
    int32_t *piece;     /* one piece's ids; piece_cap entries; owned */
    int64_t piece_cap;
    tok__bpe_work work;  /* owned */
    /* tok_encode's cuts: n_cuts byte offsets (borrowed) and their answers,
     * ENCODE__UNDECIDED until the encoder passes the offset. */
    const int64_t *cuts;
    int64_t *cut_at;
    int n_cuts;
} encode__job;

enum { ENCODE__UNDECIDED = -2 };

/* The encoder is at byte `pos` of the text, where nothing it has emitted
 * spans `pos`: answers every undecided cut there with the ids so far, or
 * -1 when the split there is not clean. */
static void encode__cut(encode__job *j, int64_t pos, bool clean) {
    for (int k = 0; k < j->n_cuts; k++)
        if (j->cuts[k] == pos && j->cut_at[k] == ENCODE__UNDECIDED)
            j->cut_at[k] = clean ? j->n : -1;
}

/* Answers -1 for every undecided cut in [from, to]: Unicode normalisation
 * moved the bytes of that stretch. */
static void encode__cut_none(encode__job *j, int64_t from, int64_t to) {
    for (int k = 0; k < j->n_cuts; k++)
        if (j->cuts[k] >= from && j->cuts[k] <= to &&
            j->cut_at[k] == ENCODE__UNDECIDED)
            j->cut_at[k] = -1;
}

static void encode__emit(encode__job *j, const int32_t *ids, int64_t k) {
    for (int64_t i = 0; i < k; i++, j->n++)
        if (j->n < j->cap) j->ids[j->n] = ids[i];
}

/* Encodes one piece: at most one id per byte. */
static int encode__piece(encode__job *j, const char *p, int64_t len) {
    if (len > j->piece_cap) {
        int64_t cap = len > 2 * j->piece_cap ? len : 2 * j->piece_cap;
        int32_t *grown = realloc(j->piece, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        j->piece = grown;
        j->piece_cap = cap;
    }
    int64_t k = tok__bpe_encode(j->v->bpe, j->v, &j->work, p, len, j->piece);
    if (k < 0) return -1;
    encode__emit(j, j->piece, k);
    return 0;
}

/* Encodes well-formed UTF-8 that holds no special token (or in which they
 * are not to be matched), which starts at byte `base` of the whole text:
 * NFC, then piece by piece. A segment ends at a special token or at the end
 * of the text, so its own start and end are clean cuts. */
static int encode__segment(encode__job *j, const char *text, int64_t n,
                        int64_t base) {
    char *norm = NULL;
    int64_t len = n;
    if (tok__nfc(text, n, &norm, &len)) return -1;
    if (norm) encode__cut_none(j, base, base + n);
    const char *t = norm ? norm : text;
    int rc = 0;
    for (int64_t at = 0; at < len && rc == 0;) {
        if (j->n_cuts && !norm)
            encode__cut(j, base + at, tok__pretok_ends_alike(t, len, at));
        int64_t end = tok__pretok_next(t, len, at);
        rc = encode__piece(j, t + at, end - at);
        at = end;
    }
    if (!norm) encode__cut(j, base + len, true);
    free(norm);
    return rc;
}

/* Splits well-formed text at special tokens (when asked) and encodes the
 * segments between them. */
static int encode__text(encode__job *j, const char *t, int64_t len, bool specials) {
    for (int64_t at = 0; at < len;) {
        int64_t slen = 0;
        int32_t sid = -1;
        int64_t p = specials ? tok__specials_next(j->v->specials, t, len, at,
                                                  &slen, &sid)
                             : len;
        if (p > at && encode__segment(j, t + at, p - at, at)) return -1;
        if (p == len) break;
        encode__cut(j, p, true);
        encode__emit(j, &sid, 1);
        at = p + slen;
        encode__cut(j, at, true);
    }
    return 0;
}

int64_t tok_encode(const tok_vocab *v, const char *text, int64_t n,
                   int32_t *ids, int64_t cap, bool specials,
                   const int64_t *cuts, int n_cuts, int64_t *cut_at) {
    if (!v || n < 0 || (n > 0 && !text) || cap < 0 || (cap > 0 && !ids) ||
        n_cuts < 0 || (n_cuts > 0 && (!cuts || !cut_at)))
        return -1;
    char *fixed = NULL;
    int64_t len = n;
    if (tok__utf8_repair(text, n, &fixed, &len)) return -1;
    /* A repaired text's bytes are not the caller's: no cut maps. */
    encode__job j = {.v = v, .ids = ids, .cap = cap, .cuts = cuts,
                  .cut_at = cut_at, .n_cuts = fixed ? 0 : n_cuts};
    for (int k = 0; k < n_cuts; k++) cut_at[k] = fixed ? -1 : ENCODE__UNDECIDED;
    encode__cut(&j, 0, true); /* also covers the empty text */
    int rc = encode__text(&j, fixed ? fixed : text, len, specials);
    /* Offsets never passed lie inside a piece or special token, or
     * outside 0..n. */
    for (int k = 0; k < n_cuts; k++)
        if (cut_at[k] == ENCODE__UNDECIDED) cut_at[k] = -1;
    free(fixed);
    free(j.piece);
    tok__bpe_work_free(&j.work);
    return rc ? -1 : j.n;
}

int32_t tok_special_id(const tok_vocab *v, const char *text) {
    if (!v || !text) return -1;
    return tok__specials_find(v->specials, text, (int64_t)strlen(text));
}

const char *tok_token_bytes(const tok_vocab *v, int32_t id, int64_t *len) {
    if (id < 0 || id >= v->n) {
        if (len) *len = 0;
        return NULL;
    }
    if (len) *len = (int64_t)(v->off[id + 1] - v->off[id]);
    return v->bytes + v->off[id];
}
