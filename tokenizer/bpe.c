/*
 * bpe.c — byte-level BPE: the token map, the merge table and the encoder.
 *
 * Merges. tokenizer.ggml.merges lists "A B" strings in GPT-2 byte-to-
 * unicode form, highest priority first; merge i has rank i. Both halves and
 * their concatenation must be normal tokens of the vocabulary, so merges
 * work on ids: the table maps the pair (id A, id B) to (rank, id AB). A file
 * whose merges break that (or repeat a pair, whose rank would then depend on
 * which copy a reader keeps) is refused with the merge's index and text.
 *
 * Encoding one piece (the reference's algorithm, done on ids): start from
 * one symbol per byte; repeatedly merge the adjacent pair with the lowest
 * rank, the leftmost one on a tie; stop when no adjacent pair has a merge.
 * Symbols form a doubly linked list indexed by their first byte (a symbol
 * keeps the index of its left part when it absorbs its right neighbour) and
 * candidate pairs sit in a binary min-heap keyed by (rank, left index), so
 * the whole piece costs O(n log n) instead of a rescan per merge.
 */
#include <stdlib.h>
#include <string.h>

#include "tokenizer_internal.h"

/* Caps on what a file may declare, before any allocation: real byte-level
 * vocabularies have a few hundred thousand merges. */
enum { BP_MAX_MERGES = 1 << 22 };

/* The memo (tok__bpe_work): direct-mapped, pieces of 2..BP_MEMO_LEN bytes
 * that encode to at most BP_MEMO_IDS ids. */
enum { BP_MEMO_SLOTS = 4096, BP_MEMO_LEN = 16, BP_MEMO_IDS = 8 };

struct tok__bpe_memo {
    uint8_t len;   /* 0: empty */
    uint8_t n_ids;
    char bytes[BP_MEMO_LEN];
    int32_t ids[BP_MEMO_IDS];
};

typedef struct bpe__tok_slot {
    uint64_t hash; /* of the token's bytes; meaningless when id < 0 */
    int32_t id;    /* -1: empty slot */
} bpe__tok_slot;

typedef struct bpe__merge_slot {
    uint64_t pair;  /* (uint64)A << 32 | B */
    int32_t rank;   /* -1: empty slot */
    int32_t result; /* id of AB */
} bpe__merge_slot;

struct tok__bpe {
    bpe__tok_slot *tok;     /* open addressing, linear probing; owned */
    uint64_t tok_mask;     /* slots - 1 (a power of two minus one) */
    bpe__merge_slot *merge; /* same scheme; owned */
    uint64_t merge_mask;
    int64_t n_merges;
};

/* A candidate merge of the symbols starting at (key & 0xffffffff) and at
 * `right`. It is stale unless that left symbol's next is still `right` and
 * the right symbol's id is still right_id: a symbol's id changes only when
 * it absorbs its right neighbour, which also changes its next. */
struct tok__bpe_cand {
    uint64_t key;     /* rank << 32 | left index: lower pops first */
    int32_t right;
    int32_t right_id;
};

/* ==== tables ================================================================ */

/* FNV-1a, finished with splitmix so low bits are usable as an index. */
static uint64_t bpe__hash_bytes(const char *p, int64_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int64_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ull;
    }
    return sb_mix64(h);
}

/* Slots for n entries at load factor <= 1/2, as a mask; 0 on overflow. */
static uint64_t bpe__mask_for(uint64_t n) {
    uint64_t cap = 16;
    while (cap < 2 * n) {
        if (cap > (UINT64_MAX >> 2)) return 0;
        cap *= 2;
    }
    return cap - 1;
}

static bool bpe__is_special(uint8_t type) {
    return type == GGUF_TOKEN_CONTROL || type == GGUF_TOKEN_USER_DEFINED;
}

int32_t tok__bpe_token(const struct tok__bpe *b, const tok_vocab *v,
                       const char *bytes, int64_t len) {
    uint64_t h = bpe__hash_bytes(bytes, len);
    for (uint64_t s = h & b->tok_mask;; s = (s + 1) & b->tok_mask) {
        const bpe__tok_slot *t = &b->tok[s];
        if (t->id < 0) return -1;
        if (t->hash != h) continue;
        uint64_t o = v->off[t->id];
        if (v->off[t->id + 1] - o == (uint64_t)len &&
            !memcmp(v->bytes + o, bytes, (size_t)len))
            return t->id;
    }
}

/* Every non-empty non-special token, lowest id first so a repeated text
 * keeps its lowest id. */
static int bpe__build_tokens(struct tok__bpe *b, const tok_vocab *v, sb_err *err) {
    b->tok_mask = bpe__mask_for((uint64_t)v->n);
    b->tok = b->tok_mask ? malloc((b->tok_mask + 1) * sizeof *b->tok) : NULL;
    if (!b->tok)
        return sb_err_set(err, __func__, "out of memory for the token map of "
                          "%d tokens", (int)v->n);
    for (uint64_t s = 0; s <= b->tok_mask; s++) b->tok[s].id = -1;
    for (int32_t i = 0; i < v->n; i++) {
        int64_t len = (int64_t)(v->off[i + 1] - v->off[i]);
        const char *p = v->bytes + v->off[i];
        if (bpe__is_special(v->type[i]) || len == 0 ||
            tok__bpe_token(b, v, p, len) >= 0)
            continue;
        uint64_t h = bpe__hash_bytes(p, len), s = h & b->tok_mask;
        while (b->tok[s].id >= 0) s = (s + 1) & b->tok_mask;
        b->tok[s] = (bpe__tok_slot){h, i};
    }
    return 0;
}

/* The slot of pair (a, b): where it is, or the empty slot it would take. */
static bpe__merge_slot *bpe__merge_slot_of(const struct tok__bpe *b, int32_t a,
                                         int32_t c) {
    uint64_t pair = (uint64_t)(uint32_t)a << 32 | (uint32_t)c;
    for (uint64_t s = sb_mix64(pair) & b->merge_mask;;
         s = (s + 1) & b->merge_mask)
        if (b->merge[s].rank < 0 || b->merge[s].pair == pair)
            return &b->merge[s];
}

/* ==== loading merges ======================================================== */

/* Reads merge i ("A B") into ids; -1 with err naming the merge. `buf` has
 * room for the string's length. */
static int bpe__parse_merge(const struct tok__bpe *b, const tok_vocab *v,
                           gguf_str s, uint64_t i, char *buf, int32_t ids[3],
                           sb_err *err) {
    static const char key[] = "tokenizer.ggml.merges";
    int show = (int)(s.len < 40 ? s.len : 40);
    const char *sp = s.len ? memchr(s.ptr, ' ', s.len) : NULL;
    uint64_t la = sp ? (uint64_t)(sp - s.ptr) : 0, lb = sp ? s.len - la - 1 : 0;
    if (!sp || la == 0 || lb == 0 || memchr(sp + 1, ' ', lb))
        return sb_err_set(err, __func__, "%s[%llu] ('%.*s') is not two tokens "
                          "separated by one space", key, (unsigned long long)i,
                          show, s.ptr);
    int64_t na = gguf_gpt2_decode((gguf_str){s.ptr, la}, buf);
    int64_t nb = na < 0 ? -1 : gguf_gpt2_decode((gguf_str){sp + 1, lb}, buf + na);
    if (na < 0 || nb < 0)
        return sb_err_set(err, __func__, "%s[%llu] ('%.*s') is not in GPT-2 "
                          "byte-to-unicode form", key, (unsigned long long)i,
                          show, s.ptr);
    ids[0] = tok__bpe_token(b, v, buf, na);
    ids[1] = tok__bpe_token(b, v, buf + na, nb);
    ids[2] = tok__bpe_token(b, v, buf, na + nb);
    const char *what = ids[0] < 0 ? "its left part" : ids[1] < 0 ? "its right part"
                     : ids[2] < 0 ? "the merged token" : NULL;
    if (what)
        return sb_err_set(err, __func__, "%s[%llu] ('%.*s'): %s is not a normal "
                          "token of the vocabulary", key, (unsigned long long)i,
                          show, s.ptr, what);
    return 0;
}

static int bpe__load_merges(struct tok__bpe *b, const tok_vocab *v,
                           const gguf_file *f, sb_err *err) {
    static const char key[] = "tokenizer.ggml.merges";
    gguf_vtype et;
    uint64_t n = 0, longest = 0;
    int64_t kv = gguf_find_key(f, key);
    if (kv < 0) return 0; /* byte-level: no merges */
    if (gguf_get_arr(f, key, &et, &n, err)) return -1;
    if (et != GGUF_STRING)
        return sb_err_set(err, __func__, "'%s' holds elements of type %d, "
                          "expected strings (%d)", key, (int)et, (int)GGUF_STRING);
    if (n > BP_MAX_MERGES)
        return sb_err_set(err, __func__, "'%s' has %llu entries, expected at "
                          "most %d", key, (unsigned long long)n, BP_MAX_MERGES);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len = gguf_arr_str(f, kv, i).len;
        if (len > longest) longest = len;
    }
    b->merge_mask = bpe__mask_for(n);
    b->merge = malloc((b->merge_mask + 1) * sizeof *b->merge);
    char *buf = malloc((size_t)longest + 1); /* decoding never lengthens */
    if (!b->merge || !buf) {
        free(buf);
        return sb_err_set(err, __func__, "out of memory for %llu merges",
                          (unsigned long long)n);
    }
    for (uint64_t s = 0; s <= b->merge_mask; s++) b->merge[s].rank = -1;
    for (uint64_t i = 0; i < n; i++) {
        int32_t ids[3] = {-1, -1, -1};
        if (bpe__parse_merge(b, v, gguf_arr_str(f, kv, i), i, buf, ids, err))
            goto fail;
        bpe__merge_slot *m = bpe__merge_slot_of(b, ids[0], ids[1]);
        if (m->rank >= 0) {
            gguf_str s = gguf_arr_str(f, kv, i);
            sb_err_set(err, __func__, "%s[%llu] ('%.*s') repeats %s[%d]", key,
                       (unsigned long long)i, (int)(s.len < 40 ? s.len : 40),
                       s.ptr, key, (int)m->rank);
            goto fail;
        }
        *m = (bpe__merge_slot){(uint64_t)(uint32_t)ids[0] << 32 | (uint32_t)ids[1],
                              (int32_t)i, ids[2]};
    }
    b->n_merges = (int64_t)n;
    free(buf);
    return 0;
fail:
    free(buf);
    return -1;
}

struct tok__bpe *tok__bpe_load(const tok_vocab *v, const gguf_file *f,
                               sb_err *err) {
    struct tok__bpe *b = calloc(1, sizeof *b);
    if (!b) {
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    if (bpe__build_tokens(b, v, err) || bpe__load_merges(b, v, f, err)) {
        tok__bpe_free(b);
        return NULL;
    }
    return b;
}

void tok__bpe_free(struct tok__bpe *b) {
    if (!b) return;
    free(b->tok);
    free(b->merge);
    free(b);
}

int64_t tok__bpe_n_merges(const struct tok__bpe *b) { return b->n_merges; }

/* ==== encoding ============================================================== */

void tok__bpe_work_free(tok__bpe_work *w) {
    free(w->memo);
    free(w->id);
    free(w->next);
    free(w->prev);
    free(w->heap);
    memset(w, 0, sizeof *w);
}

/* Makes room for n symbols (and 2n heap entries: n - 1 pairs at first, and
 * each merge pops one and pushes at most two). */
static int bpe__work_reserve(tok__bpe_work *w, int64_t n) {
    if (n <= w->cap) return 0;
    int64_t cap = w->cap * 2 > n ? w->cap * 2 : n;
    int32_t *id = realloc(w->id, (size_t)cap * sizeof *id);
    if (id) w->id = id;
    int32_t *next = realloc(w->next, (size_t)cap * sizeof *next);
    if (next) w->next = next;
    int32_t *prev = realloc(w->prev, (size_t)cap * sizeof *prev);
    if (prev) w->prev = prev;
    struct tok__bpe_cand *heap = realloc(w->heap, 2 * (size_t)cap * sizeof *heap);
    if (heap) w->heap = heap;
    if (!id || !next || !prev || !heap) return -1;
    w->cap = cap;
    return 0;
}

static void bpe__heap_push(tok__bpe_work *w, struct tok__bpe_cand c) {
    int64_t i = w->heap_n++;
    while (i > 0 && w->heap[(i - 1) / 2].key > c.key) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = c;
}

static struct tok__bpe_cand bpe__heap_pop(tok__bpe_work *w) {
    struct tok__bpe_cand top = w->heap[0], last = w->heap[--w->heap_n];
    int64_t i = 0, n = w->heap_n;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && w->heap[c + 1].key < w->heap[c].key) c++;
        if (w->heap[c].key >= last.key) break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (n > 0) w->heap[i] = last;
    return top;
}

/* Queues the pair (left, right) when the merge table has it. */
static void bpe__offer(const struct tok__bpe *b, tok__bpe_work *w, int32_t left,
                      int32_t right) {
    const bpe__merge_slot *m = bpe__merge_slot_of(b, w->id[left], w->id[right]);
    if (m->rank < 0) return;
    bpe__heap_push(w, (struct tok__bpe_cand){(uint64_t)m->rank << 32 |
                                               (uint32_t)left,
                                           right, w->id[right]});
}

/* Runs the merges over the n symbols already in w. */
static void bpe__merge_all(const struct tok__bpe *b, tok__bpe_work *w, int32_t n) {
    w->heap_n = 0;
    for (int32_t i = 0; i + 1 < n; i++) bpe__offer(b, w, i, i + 1);
    while (w->heap_n > 0) {
        struct tok__bpe_cand c = bpe__heap_pop(w);
        int32_t left = (int32_t)(c.key & 0xffffffffu), right = c.right;
        if (w->next[left] != right || w->id[right] != c.right_id) continue;
        w->id[left] = bpe__merge_slot_of(b, w->id[left], w->id[right])->result;
        int32_t after = w->next[right];
        w->next[left] = after;
        if (after < n) w->prev[after] = left;
        w->next[right] = -1; /* absorbed: no candidate may name it again */
        if (w->prev[left] >= 0) bpe__offer(b, w, w->prev[left], left);
        if (after < n) bpe__offer(b, w, left, after);
    }
}

/* The memo slot for a short piece (2..BP_MEMO_LEN bytes), or NULL when the
 * memo cannot be had. */
static struct tok__bpe_memo *bpe__memo_slot(tok__bpe_work *w, const char *p,
                                          int64_t n) {
    if (n > BP_MEMO_LEN) return NULL;
    /* a short text is not worth the table: start it at the 64th piece */
    if (!w->memo && (++w->n_fresh < 64 ||
                     !(w->memo = calloc(BP_MEMO_SLOTS, sizeof *w->memo))))
        return NULL; /* (or no memory: encode without the memo) */
    uint64_t h = (uint64_t)n;
    for (int64_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
    return &w->memo[sb_mix64(h) & (BP_MEMO_SLOTS - 1)];
}

/* Runs BPE over the piece's bytes into out (no memo). */
static int64_t bpe__encode_fresh(const struct tok__bpe *b, const tok_vocab *v,
                                tok__bpe_work *w, const unsigned char *s,
                                int64_t n, int32_t *out) {
    if (bpe__work_reserve(w, n)) return -1;
    for (int32_t i = 0; i < (int32_t)n; i++) {
        w->id[i] = v->byte_id[s[i]];
        w->next[i] = i + 1;
        w->prev[i] = i - 1;
    }
    bpe__merge_all(b, w, (int32_t)n);
    int64_t k = 0;
    for (int32_t i = 0; i < (int32_t)n; i = w->next[i]) out[k++] = w->id[i];
    return k;
}

int64_t tok__bpe_encode(const struct tok__bpe *b, const tok_vocab *v,
                        tok__bpe_work *w, const char *piece, int64_t n,
                        int32_t *out) {
    const unsigned char *s = (const unsigned char *)piece;
    if (n <= 0 || n > INT32_MAX) return -1;
    if (n == 1 || b->n_merges == 0) {
        for (int64_t i = 0; i < n; i++) out[i] = v->byte_id[s[i]];
        return n;
    }
    struct tok__bpe_memo *e = bpe__memo_slot(w, piece, n);
    if (e && e->len == n && !memcmp(e->bytes, piece, (size_t)n)) {
        memcpy(out, e->ids, e->n_ids * sizeof *out);
        return e->n_ids;
    }
    int64_t k = bpe__encode_fresh(b, v, w, s, n, out);
    if (e && k > 0 && k <= BP_MEMO_IDS) {
        e->len = (uint8_t)n;
        e->n_ids = (uint8_t)k;
        memcpy(e->bytes, piece, (size_t)n);
        memcpy(e->ids, out, (size_t)k * sizeof *out);
    }
    return k;
}
