/*
 * specials.c — special and added tokens (<|im_start|>, <|fim_prefix|>,
 * <think>, ...): found in the text before anything else, so they never
 * split and never merge with their neighbours.
 *
 * The reference (transformers.js) splits the text with a trie of the added
 * tokens' contents: scanning left to right, at each position it takes the
 * longest token that starts there, else moves on by one. This file does the
 * same over bytes. Matching bytes instead of UTF-16 units gives the same
 * split because every token text is well-formed UTF-8 and the text it is
 * matched against has been repaired to well-formed UTF-8 first.
 *
 * Which tokens: every CONTROL and USER_DEFINED token of the GGUF
 * vocabulary, which is how llama.cpp's converter stores a tokenizer.json's
 * added_tokens (special ones as CONTROL, the others as USER_DEFINED).
 */
#include <stdlib.h>
#include <string.h>

#include "tokenizer_internal.h"

/* One trie node: the bytes on the path from the root spell a prefix of at
 * least one special token. Children form a singly linked sibling list. */
typedef struct specials__node {
    int32_t child;   /* first child, or -1 */
    int32_t sibling; /* next child of the same parent, or -1 */
    int32_t id;      /* the token whose text ends here, or -1 */
    uint8_t byte;    /* the byte on the edge into this node */
} specials__node;

struct tok__specials {
    specials__node *node;     /* n_node nodes; node 0 is the root (unused fields) */
    int32_t n_node;
    int32_t first[256]; /* the root's child for each first byte, or -1 */
};

static bool specials__is_special(uint8_t type) {
    return type == GGUF_TOKEN_CONTROL || type == GGUF_TOKEN_USER_DEFINED;
}

/* The child of node `at` along byte b, or -1. The root's children are
 * indexed by `first` so the common first step costs one load. */
static int32_t specials__child(const struct tok__specials *s, int32_t at, uint8_t b) {
    if (at == 0) return s->first[b];
    for (int32_t c = s->node[at].child; c >= 0; c = s->node[c].sibling)
        if (s->node[c].byte == b) return c;
    return -1;
}

/* Appends a child of `at` along b; the node array has room (sized by the
 * caller from the total special bytes). */
static int32_t specials__add_child(struct tok__specials *s, int32_t at, uint8_t b) {
    int32_t c = s->n_node++;
    s->node[c] = (specials__node){.child = -1, .sibling = -1, .id = -1, .byte = b};
    if (at == 0) {
        s->first[b] = c;
    } else {
        s->node[c].sibling = s->node[at].child;
        s->node[at].child = c;
    }
    return c;
}

/* Inserts token id's text; a text already present keeps its lower id. */
static void specials__insert(struct tok__specials *s, const char *text, uint64_t len,
                       int32_t id) {
    int32_t at = 0;
    for (uint64_t i = 0; i < len; i++) {
        int32_t c = specials__child(s, at, (uint8_t)text[i]);
        at = c >= 0 ? c : specials__add_child(s, at, (uint8_t)text[i]);
    }
    if (s->node[at].id < 0) s->node[at].id = id;
}

struct tok__specials *tok__specials_build(const tok_vocab *v, sb_err *err) {
    uint64_t total = 1; /* the root */
    for (int32_t i = 0; i < v->n; i++)
        if (specials__is_special(v->type[i])) total += v->off[i + 1] - v->off[i];
    /* a node per byte at most; total is bounded by the file's size, but an
     * int32 trie needs it below 2^31 */
    if (total > INT32_MAX) {
        sb_err_set(err, __func__, "special tokens total %llu bytes, expected "
                   "fewer than 2^31", (unsigned long long)total);
        return NULL;
    }
    struct tok__specials *s = calloc(1, sizeof *s);
    if (s) s->node = malloc((size_t)total * sizeof *s->node);
    if (!s || !s->node) {
        tok__specials_free(s);
        sb_err_set(err, __func__, "out of memory for the special-token trie "
                   "(%llu nodes)", (unsigned long long)total);
        return NULL;
    }
    s->node[0] = (specials__node){.child = -1, .sibling = -1, .id = -1};
    s->n_node = 1;
    for (int b = 0; b < 256; b++) s->first[b] = -1;
    for (int32_t i = 0; i < v->n; i++) {
        uint64_t len = v->off[i + 1] - v->off[i];
        if (specials__is_special(v->type[i]) && len > 0)
            specials__insert(s, v->bytes + v->off[i], len, i);
    }
    return s;
}

void tok__specials_free(struct tok__specials *s) {
    if (!s) return;
    free(s->node);
    free(s);
}

/* The longest token starting at text[0] (n > 0 bytes available): its length,
 * or 0 when none starts there. */
static int64_t specials__longest(const struct tok__specials *s, const char *text,
                           int64_t n, int32_t *id) {
    int64_t best = 0;
    int32_t at = 0;
    for (int64_t j = 0; j < n; j++) {
        at = specials__child(s, at, (uint8_t)text[j]);
        if (at < 0) break;
        if (s->node[at].id >= 0) {
            best = j + 1;
            *id = s->node[at].id;
        }
    }
    return best;
}

int64_t tok__specials_next(const struct tok__specials *s, const char *text,
                           int64_t n, int64_t from, int64_t *len, int32_t *id) {
    for (int64_t p = from; p < n; p++) {
        if (s->first[(uint8_t)text[p]] < 0) continue;
        int32_t got = -1;
        int64_t l = specials__longest(s, text + p, n - p, &got);
        if (l > 0) {
            *len = l;
            *id = got;
            return p;
        }
    }
    return n;
}

int32_t tok__specials_find(const struct tok__specials *s, const char *text,
                           int64_t len) {
    int32_t at = 0;
    for (int64_t j = 0; j < len && at >= 0; j++)
        at = specials__child(s, at, (uint8_t)text[j]);
    return len > 0 && at > 0 ? s->node[at].id : -1;
}
