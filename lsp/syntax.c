/*
 * syntax.c — the enclosing syntax node of sb-lsp's code action (lsp.h,
 * lsp_enclosing_region): tree-sitter's runtime and the grammars of
 * grammars/, by the names edit/language.c gives. Nothing else parses (the
 * copy drafter does not: drafter.h says why).
 */
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "../edit/edit.h"
#include "lsp.h"

/* Most bytes parsed for one region: a text longer than this is parsed
 * only in a window of whole lines around the range, SYNTAX__WINDOW bytes
 * on each side of it. An editor asks on every cursor move, on the server's
 * message thread, and a whole parse cost ~0.45 s and ~55 bytes of memory
 * per byte of text (16 MB: 7 s; 60 MB: 31 s and 3.4 GB). */
enum { SYNTAX__MAX_PARSE = 256 << 10, SYNTAX__WINDOW = 128 << 10 };
/* A window widened past this (lines megabytes long, a huge range) is not
 * parsed at all. */
enum { SYNTAX__MAX_WINDOW = 1 << 20 };

/* ==== languages ============================================================ */

/* The grammars compiled in (grammars/grammars.mk). */
const TSLanguage *tree_sitter_bash(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_json(void);
const TSLanguage *tree_sitter_lua(void);
const TSLanguage *tree_sitter_markdown(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_rust(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_yaml(void);

/* Each grammar by its name (edit/language.c's names). */
typedef struct syntax__lang {
    const char *name;
    const TSLanguage *(*grammar)(void);
} syntax__lang;

static const syntax__lang syntax__langs[] = {
    {"c", tree_sitter_c},           {"cpp", tree_sitter_cpp},
    {"python", tree_sitter_python}, {"javascript", tree_sitter_javascript},
    {"typescript", tree_sitter_typescript}, {"tsx", tree_sitter_tsx},
    {"rust", tree_sitter_rust},     {"go", tree_sitter_go},
    {"java", tree_sitter_java},     {"json", tree_sitter_json},
    {"bash", tree_sitter_bash},     {"lua", tree_sitter_lua},
    {"yaml", tree_sitter_yaml},     {"markdown", tree_sitter_markdown},
};
enum { SYNTAX__N_LANGS = sizeof syntax__langs / sizeof *syntax__langs };

/* The grammar for an LSP languageId or a grammar name, or NULL. */
static const syntax__lang *syntax__find(const char *id) {
    const char *name = edit_language_for_id(id);
    if (!name) return NULL;
    for (int i = 0; i < SYNTAX__N_LANGS; i++)
        if (!strcmp(name, syntax__langs[i].name)) return &syntax__langs[i];
    return NULL;
}

/* ==== the enclosing region ================================================= */

/* The start of the line holding byte b when only blanks precede b on it,
 * else -1. */
static int64_t syntax__line_start(const char *text, int64_t b) {
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) b--;
    return b == 0 || text[b - 1] == '\n' ? b : -1;
}

/* Only blanks between the start of b's line and b. */
static bool syntax__starts_line(const char *text, int64_t b) {
    return syntax__line_start(text, b) >= 0;
}

/* Past the "\n" that ends the line holding byte e - 1 when only blanks
 * (or "\r") follow e on it, else -1; len when the text ends first. */
static int64_t syntax__line_end(const char *text, int64_t len, int64_t e) {
    while (e < len && (text[e] == ' ' || text[e] == '\t' || text[e] == '\r'))
        e++;
    if (e == len) return len;
    return text[e] == '\n' ? e + 1 : -1;
}

/* Whether [b, e) holds a "\n" before its last byte: two lines or more. */
static bool syntax__multiline(const char *text, int64_t b, int64_t e) {
    return e - b > 1 && memchr(text + b, '\n', (size_t)(e - b - 1)) != NULL;
}

/* The node's whole-line region into *start, *end, when it qualifies. */
static bool syntax__region_of(TSNode n, const char *text, int64_t len,
                              int64_t *start, int64_t *end) {
    if (!ts_node_is_named(n) || !strcmp(ts_node_type(n), "ERROR")) return false;
    int64_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (!syntax__multiline(text, b, e) || !syntax__starts_line(text, b))
        return false;
    int64_t le = syntax__line_end(text, len, e);
    if (le < 0) return false;
    *start = syntax__line_start(text, b);
    *end = le;
    return true;
}

/* The whole lines [*ws, *we) of text that are parsed for [from, to]: all
 * of it up to SYNTAX__MAX_PARSE bytes, else SYNTAX__WINDOW bytes each side
 * of the range, widened to whole lines. */
static void syntax__window(const char *text, int64_t len, int64_t from,
                           int64_t to, int64_t *ws, int64_t *we) {
    *ws = 0;
    *we = len;
    if (len <= SYNTAX__MAX_PARSE) return;
    int64_t a = from > SYNTAX__WINDOW ? from - SYNTAX__WINDOW : 0;
    int64_t b = len - to > SYNTAX__WINDOW ? to + SYNTAX__WINDOW : len;
    while (a > 0 && text[a - 1] != '\n') a--;
    while (b < len && text[b - 1] != '\n') b++;
    *ws = a;
    *we = b;
}

/* The region in text[0, len) (a window of the caller's text). */
static bool syntax__region(const syntax__lang *l, const char *text,
                           int64_t len, int64_t from, int64_t to,
                           int64_t *start, int64_t *end) {
    TSParser *p = ts_parser_new();
    TSTree *tree = NULL;
    bool found = false;
    if (!p || !ts_parser_set_language(p, l->grammar())) goto done;
    tree = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
    if (!tree) goto done;
    TSNode root = ts_tree_root_node(tree);
    /* The smallest node holding the range, then outwards; the root (the
     * whole file) is the fallback, not an answer. */
    TSNode n = ts_node_descendant_for_byte_range(root, (uint32_t)from,
                                                 (uint32_t)to);
    for (; !ts_node_is_null(n) && !ts_node_eq(n, root); n = ts_node_parent(n))
        if (syntax__region_of(n, text, len, start, end)) {
            found = true;
            break;
        }
done:
    if (tree) ts_tree_delete(tree);
    if (p) ts_parser_delete(p);
    return found;
}

bool lsp_enclosing_region(const char *text, int64_t len, const char *language,
                          int64_t from, int64_t to, int64_t *start,
                          int64_t *end) {
    *start = 0;
    *end = len > 0 ? len : 0;
    const syntax__lang *l = syntax__find(language);
    if (!l || !text || len <= 0 || len > UINT32_MAX) return false;
    from = from < 0 ? 0 : from > len ? len : from;
    to = to < 0 ? 0 : to > len ? len : to;
    if (to < from) {
        int64_t t = from;
        from = to;
        to = t;
    }
    int64_t ws, we, s, e;
    syntax__window(text, len, from, to, &ws, &we);
    if ((ws > 0 || we < len) && we - ws > SYNTAX__MAX_WINDOW) return false;
    if (we - ws > UINT32_MAX ||
        !syntax__region(l, text + ws, we - ws, from - ws, to - ws, &s, &e))
        return false;
    /* A node that reaches a window edge inside the text may be cut there
     * (the parser saw half of it): no answer rather than a wrong one. */
    if ((s == 0 && ws > 0) || (e == we - ws && we < len)) return false;
    *start = ws + s;
    *end = ws + e;
    return true;
}
