/*
 * syntax.c — languages, parsing and units (drafter/syntax.h says what a
 * unit is): tree-sitter's runtime and the grammars of grammars/.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <tree_sitter/api.h>

#include "syntax.h"

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

/* One row per grammar: its name, the LSP languageIds it parses besides
 * its name, and file extensions (lowercase, without the dot). Lists end
 * with NULL. */
typedef struct syntax__lang {
    const char *name;
    const TSLanguage *(*grammar)(void);
    const char *ids[4];
    const char *exts[10];
} syntax__lang;

static const syntax__lang syntax__langs[] = {
    {"c", tree_sitter_c, {NULL}, {"c", "h", NULL}},
    {"cpp", tree_sitter_cpp, {"c++", "cuda-cpp", NULL},
     {"cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "cu"}},
    {"python", tree_sitter_python, {NULL}, {"py", "pyi", "pyw", NULL}},
    {"javascript", tree_sitter_javascript, {"javascriptreact", NULL},
     {"js", "mjs", "cjs", "jsx", NULL}},
    {"typescript", tree_sitter_typescript, {NULL}, {"ts", "mts", "cts", NULL}},
    {"tsx", tree_sitter_tsx, {"typescriptreact", NULL}, {"tsx", NULL}},
    {"rust", tree_sitter_rust, {NULL}, {"rs", NULL}},
    {"go", tree_sitter_go, {NULL}, {"go", NULL}},
    {"java", tree_sitter_java, {NULL}, {"java", NULL}},
    {"json", tree_sitter_json, {"jsonc", NULL}, {"json", NULL}},
    {"bash", tree_sitter_bash, {"shellscript", "sh", NULL},
     {"sh", "bash", NULL}},
    {"lua", tree_sitter_lua, {NULL}, {"lua", NULL}},
    {"yaml", tree_sitter_yaml, {NULL}, {"yaml", "yml", NULL}},
    {"markdown", tree_sitter_markdown, {NULL}, {"md", "markdown", NULL}},
};
enum { SYNTAX__N_LANGS = sizeof syntax__langs / sizeof *syntax__langs };

static const syntax__lang *syntax__find(const char *id) {
    if (!id) return NULL;
    for (int i = 0; i < SYNTAX__N_LANGS; i++) {
        const syntax__lang *l = &syntax__langs[i];
        if (!strcasecmp(id, l->name)) return l;
        for (int k = 0; k < 4 && l->ids[k]; k++)
            if (!strcasecmp(id, l->ids[k])) return l;
    }
    return NULL;
}

const char *drf_language_for_id(const char *language_id) {
    const syntax__lang *l = syntax__find(language_id);
    return l ? l->name : NULL;
}

const char *drf_language_for_path(const char *path) {
    if (!path) return NULL;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) return NULL; /* no extension, or a dotfile */
    for (int i = 0; i < SYNTAX__N_LANGS; i++)
        for (int k = 0; k < 10 && syntax__langs[i].exts[k]; k++)
            if (!strcasecmp(dot + 1, syntax__langs[i].exts[k]))
                return syntax__langs[i].name;
    return NULL;
}

/* ==== units ================================================================ */

struct drf__syntax {
    const char *language;  /* static */
    int32_t n;             /* tokens */
    uint8_t *boundary;     /* n flags; owned */
    int32_t *next;         /* n + 1: first boundary at or after i; owned */
    int32_t *unit;         /* n: innermost unit's boundary token, or -1;
                              owned */
    int32_t *head;         /* n: for a boundary token, the token holding its
                              unit's first byte; owned */
};

void drf__syntax_free(drf__syntax *s) {
    if (!s) return;
    free(s->boundary);
    free(s->next);
    free(s->unit);
    free(s->head);
    free(s);
}

const char *drf__syntax_language(const drf__syntax *s) { return s->language; }

bool drf__syntax_is_boundary(const drf__syntax *s, int32_t i) {
    return s->boundary[i] != 0;
}

int32_t drf__syntax_next_boundary(const drf__syntax *s, int32_t i) {
    return s->next[i];
}

int32_t drf__syntax_unit_of(const drf__syntax *s, int32_t i) {
    return s->unit[i];
}

bool drf__syntax_at_unit_head(const drf__syntax *s, int32_t i) {
    int32_t u = s->unit[i];
    return u >= 0 && i <= s->head[u];
}

/* The first token whose offset is >= byte (n when none). */
static int32_t syntax__token_at(const int64_t *off, int32_t n, int64_t byte) {
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (off[mid] < byte) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The start of the line holding byte b when only blanks precede b on it,
 * else -1. */
static int64_t syntax__line_start(const char *text, int64_t b) {
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) b--;
    return b == 0 || text[b - 1] == '\n' ? b : -1;
}

typedef struct syntax__walk {
    drf__syntax *s;
    const char *text;
    const int64_t *off;
    int64_t error_bytes;   /* bytes inside ERROR nodes */
    int32_t units;
} syntax__walk;

/* Visits one node in preorder: ancestors come first, so the first named
 * node seen at a line's start is the largest one there, and an inner
 * unit's fill overwrites its outer unit's. Returns whether to descend. */
static bool syntax__visit(syntax__walk *w, TSNode node) {
    uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
    if (!strcmp(ts_node_type(node), "ERROR")) {
        w->error_bytes += e - b;
        return false; /* no units from a part the grammar could not read */
    }
    if (!ts_node_is_named(node) || e <= b) return true;
    int64_t ls = syntax__line_start(w->text, b);
    if (ls < 0) return true;
    drf__syntax *s = w->s;
    int32_t t = syntax__token_at(w->off, s->n, ls);
    /* A token that straddles the line start gives no clean place to copy
     * from; a boundary already there belongs to a larger node. */
    if (t >= s->n || w->off[t] != ls || s->boundary[t]) return true;
    s->boundary[t] = 1;
    /* the token holding byte b: the last one starting at or before it */
    int32_t h = syntax__token_at(w->off, s->n, b);
    s->head[t] = h < s->n && w->off[h] == b ? h : h - 1;
    w->units++;
    int32_t end = syntax__token_at(w->off, s->n, e);
    for (int32_t i = t; i < end; i++) s->unit[i] = t;
    return true;
}

/* Preorder over every node below the root (the root spans the file: it is
 * never a unit). */
static void syntax__walk_tree(syntax__walk *w, TSNode root) {
    TSTreeCursor cur = ts_tree_cursor_new(root);
    if (ts_tree_cursor_goto_first_child(&cur)) {
        for (;;) {
            bool down = syntax__visit(w, ts_tree_cursor_current_node(&cur));
            if (down && ts_tree_cursor_goto_first_child(&cur)) continue;
            while (!ts_tree_cursor_goto_next_sibling(&cur))
                if (!ts_tree_cursor_goto_parent(&cur)) goto done;
        }
    }
done:
    ts_tree_cursor_delete(&cur);
}

/* Units of the parsed tree; false when the text is mostly not the
 * language (more than half its bytes in ERROR nodes) or has no unit. */
static bool syntax__units(drf__syntax *s, TSTree *tree, const char *text,
                          int64_t len, const int64_t *off) {
    TSNode root = ts_tree_root_node(tree);
    if (ts_node_is_null(root) || !strcmp(ts_node_type(root), "ERROR"))
        return false;
    syntax__walk w = {.s = s, .text = text, .off = off};
    syntax__walk_tree(&w, root);
    if (w.units == 0 || 2 * w.error_bytes > len) return false;
    s->next[s->n] = s->n;
    for (int32_t i = s->n - 1; i >= 0; i--)
        s->next[i] = s->boundary[i] ? i : s->next[i + 1];
    return true;
}

drf__syntax *drf__syntax_build(const char *language, const char *text,
                               int64_t len, const int64_t *off, int32_t n) {
    const syntax__lang *l = syntax__find(language);
    if (!l || len <= 0 || len > DRF__MAX_PARSE || n <= 0 || off[n] != len)
        return NULL;
    drf__syntax *s = calloc(1, sizeof *s);
    TSParser *p = ts_parser_new();
    TSTree *tree = NULL;
    if (!s || !p) goto fail;
    s->language = l->name;
    s->n = n;
    s->boundary = calloc((size_t)n, 1);
    s->next = malloc(((size_t)n + 1) * sizeof *s->next);
    s->unit = malloc((size_t)n * sizeof *s->unit);
    s->head = malloc((size_t)n * sizeof *s->head);
    if (!s->boundary || !s->next || !s->unit || !s->head) goto fail;
    memset(s->unit, 0xff, (size_t)n * sizeof *s->unit); /* every unit -1 */
    /* A grammar of an ABI the runtime refuses is a fallback too. */
    if (!ts_parser_set_language(p, l->grammar())) goto fail;
    tree = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
    if (!tree || !syntax__units(s, tree, text, len, off)) goto fail;
    ts_tree_delete(tree);
    ts_parser_delete(p);
    return s;
fail:
    if (tree) ts_tree_delete(tree);
    if (p) ts_parser_delete(p);
    drf__syntax_free(s);
    return NULL;
}

/* ==== the enclosing region (drafter.h) ===================================== */

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

bool drf_enclosing_region(const char *text, int64_t len, const char *language,
                          int64_t from, int64_t to, int64_t *start,
                          int64_t *end) {
    *start = 0;
    *end = len > 0 ? len : 0;
    const syntax__lang *l = syntax__find(language);
    if (!l || !text || len <= 0 || len > DRF__MAX_PARSE) return false;
    from = from < 0 ? 0 : from > len ? len : from;
    to = to < 0 ? 0 : to > len ? len : to;
    if (to < from) {
        int64_t t = from;
        from = to;
        to = t;
    }
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
    if (!found) {
        *start = 0;
        *end = len;
    }
    return found;
}
