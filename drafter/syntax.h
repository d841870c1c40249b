/*
 * syntax.h — private to drafter/ (and its tests): what tree-sitter tells
 * the copy drafter about a tokenized source, and the copy drafter's
 * constructor over ids plus text.
 *
 * A unit is the largest syntax node (named, not the root, not inside an
 * ERROR node) that begins a line: a statement, a declaration, a field, a
 * comment. Its boundary token is the token that starts its line (the
 * indentation's, when there is some), and it spans the tokens up to its
 * end. Edits insert, change and delete lines, so units are where an output
 * leaves the source and where it comes back.
 */
#ifndef SB_DRAFTER_SYNTAX_H
#define SB_DRAFTER_SYNTAX_H

#include <stdbool.h>
#include <stdint.h>

#include "drafter.h"

/* Longest text parsed, in bytes: past it, plain token copying. */
enum { DRF__MAX_PARSE = 1 << 26 };

typedef struct drf__syntax drf__syntax;

/* Parses len bytes of text with the grammar of `language` (a name
 * drf_language_for_id accepts) and maps its units onto n tokens, token i
 * covering bytes off[i]..off[i+1]-1 (off has n + 1 entries, ascending,
 * off[n] == len). NULL — plain copying — for an unknown language, text
 * over DRF__MAX_PARSE, a parse that fails or is mostly errors, a tree
 * without units, or no memory. Never an error. */
drf__syntax *drf__syntax_build(const char *language, const char *text,
                               int64_t len, const int64_t *off, int32_t n);
void drf__syntax_free(drf__syntax *s);

/* The grammar name in use (static). */
const char *drf__syntax_language(const drf__syntax *s);
/* Token i (0..n-1) is a unit's boundary token. */
bool drf__syntax_is_boundary(const drf__syntax *s, int32_t i);
/* The first boundary token at or after i (0..n), or n when there is none. */
int32_t drf__syntax_next_boundary(const drf__syntax *s, int32_t i);
/* The boundary token of the innermost unit that holds token i (0..n-1), or
 * -1 when no unit does. */
int32_t drf__syntax_unit_of(const drf__syntax *s, int32_t i);
/* Token i (0..n-1) lies in its unit's indentation or is the unit's first
 * token after it: nothing of the unit's own text comes before it. */
bool drf__syntax_at_unit_head(const drf__syntax *s, int32_t i);

/* ==== the copy drafter over ids and text (copy.c) ========================== */

typedef struct drf__copy_text {
    const char *text;        /* len bytes: the source's ids, concatenated */
    int64_t len;
    const int64_t *off;      /* n + 1 byte offsets of the ids */
    const char *language;    /* for drf__syntax_build; NULL: none */
    const uint8_t *ends_line; /* ends_line[id] != 0: the bytes of token id
                                 end with '\n' (for ids 0..n_vocab-1) */
    int32_t n_vocab;
} drf__copy_text;

/* drf_copy_create over n ids of source and, when t is not NULL, their
 * text: everything t points to is copied or parsed now and borrowed for
 * the call only. */
drf_copy *drf__copy_create_ex(const int32_t *source, int32_t n,
                              const drf__copy_text *t,
                              const drf_copy_opts *opts, sb_err *err);

#endif /* SB_DRAFTER_SYNTAX_H */
