/*
 * change.c — textDocument/didChange's changes applied to an open document
 * (lsp_docs_change), and the checks that refuse them: versions, limits,
 * documents out of sync (docs/lsp.md, "Changes", "Versions").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "document_internal.h"

/* ==== applying changes: a gap buffer ========================================
 *
 * One didChange may carry many changes (a replace-all sends one per hit).
 * Copying the document once per change made N changes cost N times its
 * size (40,000 changes to a 32 MB document never finished), and so did
 * finding each position from the document's start. Instead the document is
 * copied once into a gap buffer whose gap sits at a cursor: a position
 * known both as a byte offset (gs) and as a line and column. A change moves
 * the cursor to its start (forward, or back within a line, or back to an
 * earlier line's start and forward again), on to its end, drops the bytes
 * between and puts its text after the gap. Changes in document order, or
 * in reverse order as VS Code sends them, so cost O(document + changes) in
 * all (docs/lsp.md, "Changes"). Scattered changes cost more and are capped
 * by a work budget. */

typedef struct lsp__gap {
    char *b;            /* owned: text b[0, gs) then b[ge, cap); b[cap] spare */
    int64_t cap, gs, ge;
    int64_t line, col;  /* the cursor (at gs): line, column in enc's units */
    lsp_encoding enc;
    int64_t work;       /* bytes moved across the gap, copied or stepped */
} lsp__gap;

static int64_t lsp__gap_len(const lsp__gap *g) {
    return g->gs + (g->cap - g->ge);
}

/* Moves k bytes from after the gap to before it (the cursor goes forward). */
static void lsp__gap_fwd(lsp__gap *g, int64_t k) {
    memmove(g->b + g->gs, g->b + g->ge, (size_t)k);
    g->gs += k;
    g->ge += k;
    g->work += k;
}

/* Moves k bytes from before the gap to after it (the cursor goes back). */
static void lsp__gap_back(lsp__gap *g, int64_t k) {
    g->gs -= k;
    g->ge -= k;
    memmove(g->b + g->ge, g->b + g->gs, (size_t)k);
    g->work += k;
}

static bool lsp__eol(char c) {
    return c == '\n' || c == '\r';
}

/* Moves the cursor back to the start of line `line` (at most the cursor's).
 * The cursor is never between a CR and its LF, so the first terminator
 * met going back ends the line before. */
static void lsp__gap_line_start(lsp__gap *g, int64_t line) {
    for (;;) {
        int64_t k = 0;
        while (g->gs - k > 0 && !lsp__eol(g->b[g->gs - k - 1])) k++;
        lsp__gap_back(g, k);
        g->col = 0;
        if (g->line <= line || g->gs == 0) return;
        /* step over the previous line's terminator, a CRLF as one */
        int64_t t = g->b[g->gs - 1] == '\n' && g->gs >= 2 &&
                    g->b[g->gs - 2] == '\r' ? 2 : 1;
        lsp__gap_back(g, t);
        g->line--;
    }
}

/* Moves the cursor forward to pos, with lsp_offset_at's leniency (a column
 * past its line's end stops before the terminator; a line past the last is
 * the end of the text; a column inside a character rounds down). The
 * cursor must not be after pos. */
static void lsp__gap_forward(lsp__gap *g, lsp_pos pos) {
    const unsigned char *u = (const unsigned char *)g->b;
    while (g->ge < g->cap) {
        char c = g->b[g->ge];
        if (lsp__eol(c)) {
            if (g->line == pos.line) return;
            lsp__gap_fwd(g, c == '\r' && g->ge + 1 < g->cap &&
                                    g->b[g->ge + 1] == '\n' ? 2 : 1);
            g->line++;
            g->col = 0;
            continue;
        }
        int k = lsp__char_len(u + g->ge, g->cap - g->ge);
        int64_t w = lsp__units(k, g->enc);
        if (g->line == pos.line && g->col + w > pos.character) return;
        lsp__gap_fwd(g, k);
        g->col += w;
    }
}

/* Moves the cursor back one character within its line (col > 0). The
 * character before a boundary is the one valid UTF-8 sequence that ends
 * there, else one byte: a sequence's lead byte can never sit inside
 * another character, so this agrees with reading the line forward. */
static void lsp__gap_back_char(lsp__gap *g) {
    const unsigned char *u = (const unsigned char *)g->b;
    int k = 1;
    for (int j = 2; j <= 4 && j <= g->gs; j++)
        if (lsp__char_len(u + g->gs - j, j) == j) {
            k = j;
            break;
        }
    lsp__gap_back(g, k);
    g->col -= lsp__units(k, g->enc);
}

/* Moves the cursor to pos (lsp_offset_at's answer for the current text). */
static void lsp__gap_seek(lsp__gap *g, lsp_pos pos) {
    if (pos.line < g->line) lsp__gap_line_start(g, pos.line);
    else if (pos.line == g->line)
        while (g->col > pos.character) lsp__gap_back_char(g);
    lsp__gap_forward(g, pos);
}

/* After a change at the cursor, the bytes before it may read differently:
 * a CR now followed by an LF joins it (the cursor, a line start, would be
 * between them), and a UTF-8 lead byte cut short before may now be whole.
 * The cursor goes back to a line start those bytes cannot move. Neither
 * happens in well-formed text unless a change splits a CRLF. */
static void lsp__gap_settle(lsp__gap *g) {
    if (g->gs > 0 && g->b[g->gs - 1] == '\r') {
        lsp__gap_line_start(g, g->line - 1);
        return;
    }
    for (int64_t j = g->gs > 3 ? g->gs - 3 : 0; j < g->gs; j++) {
        unsigned char c = (unsigned char)g->b[j];
        int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c >= 0xC2 && c <= 0xF4 && j + need > g->gs) {
            lsp__gap_line_start(g, g->line);
            return;
        }
    }
}

/* Makes room for n bytes in the gap, doubling the buffer. */
static int lsp__gap_reserve(lsp__gap *g, int64_t n, sb_err *err) {
    if (g->ge - g->gs >= n) return 0;
    int64_t after = g->cap - g->ge;
    int64_t cap = g->cap * 2 > lsp__gap_len(g) + n ? g->cap * 2
                                                    : lsp__gap_len(g) + n;
    char *b = realloc(g->b, (size_t)cap + 1);
    if (!b) return sb_err_set(err, "lsp_docs_change", "out of memory");
    memmove(b + cap - after, b + g->ge, (size_t)after);
    g->work += after;
    g->b = b;
    g->ge = cap - after;
    g->cap = cap;
    return 0;
}

/* Checks change i before it touches anything. */
static int lsp__change_check(const lsp_change *c, int i, sb_err *err) {
    if (c->len < 0 || c->len > LSP_MAX_DOCUMENT)
        return sb_err_set(err, "lsp_docs_change", "change %d: text of %lld "
                          "bytes", i, (long long)c->len);
    if (!c->has_range) return 0;
    if (c->start.line < 0 || c->start.character < 0 || c->end.line < 0 ||
        c->end.character < 0)
        return sb_err_set(err, "lsp_docs_change", "change %d: negative "
                          "position", i);
    if (c->start.line > c->end.line ||
        (c->start.line == c->end.line && c->start.character > c->end.character))
        return sb_err_set(err, "lsp_docs_change", "change %d: range start "
                          "%lld:%lld is after its end %lld:%lld", i,
                          (long long)c->start.line, (long long)c->start.character,
                          (long long)c->end.line, (long long)c->end.character);
    return 0;
}

/* Applies change i at the cursor's document. */
static int lsp__gap_apply(lsp__gap *g, const lsp_change *c, int i,
                          sb_err *err) {
    int64_t s = 0, e = lsp__gap_len(g);
    lsp__gap head = *g;
    if (c->has_range) {
        lsp__gap_seek(g, c->start);
        head = *g;
        lsp__gap_forward(g, c->end); /* the end is never before the start */
        s = head.gs;
        e = g->gs;
    }
    int64_t n = lsp__gap_len(g) - (e - s) + c->len;
    if (n > LSP_MAX_DOCUMENT)
        return sb_err_set(err, "lsp_docs_change", "change %d would make the "
                          "document %lld bytes: at most %d", i, (long long)n,
                          LSP_MAX_DOCUMENT);
    if (c->has_range) {
        g->gs = s; /* [s, e) now lies in the gap */
        g->line = head.line;
        g->col = head.col;
    } else {
        g->gs = 0;
        g->ge = g->cap;
        g->line = g->col = 0;
    }
    if (lsp__gap_reserve(g, c->len, err)) return -1;
    g->ge -= c->len;
    if (c->len) memcpy(g->b + g->ge, c->text, (size_t)c->len);
    g->work += c->len;
    lsp__gap_settle(g);
    return 0;
}

/* The most work one didChange may do: well above what changes in either
 * document order need (about twice the document plus their text), far
 * below what scattered changes to a large document would take. */
static int64_t lsp__work_budget(int64_t len, const lsp_change *changes,
                                int n) {
    int64_t text = 0;
    for (int i = 0; i < n; i++) text += changes[i].len > 0 ? changes[i].len : 0;
    return 16 * (len + text) + ((int64_t)64 << 20);
}

/* Marks doc out of sync, keeping the first reason. */
static void lsp__desync(lsp_doc *doc, const sb_err *err) {
    if (!doc->desync[0])
        snprintf(doc->desync, sizeof doc->desync, "%.199s", err->msg);
}

/* What refuses a didChange before any change is looked at. */
static int lsp__change_refused(const lsp_doc *doc, const lsp_change *changes,
                               int n, int64_t version, sb_err *err) {
    if (n < 0 || n > LSP_MAX_CHANGES)
        return sb_err_set(err, "lsp_docs_change", "%d changes in one "
                          "didChange: at most %d", n, LSP_MAX_CHANGES);
    /* A version at or below the last one is a change that was reordered,
     * replayed or lost its place: its positions may not fit our text. */
    if (version <= doc->version)
        return sb_err_set(err, "lsp_docs_change", "version %lld after %lld: "
                          "versions must increase", (long long)version,
                          (long long)doc->version);
    if (doc->desync[0] && (n == 0 || changes[0].has_range))
        return sb_err_set(err, "lsp_docs_change", "the document is out of sync "
                          "(%.120s); send its whole text or reopen it",
                          doc->desync);
    return 0;
}

int lsp_docs_change(lsp_docs *d, const char *uri, const lsp_change *changes,
                    int n, int64_t version, lsp_encoding enc, sb_err *err) {
    lsp_doc *doc = lsp_docs_find(d, uri);
    if (!doc)
        return sb_err_set(err, __func__, "document '%.200s' is not open", uri);
    if (lsp__change_refused(doc, changes, n, version, err)) {
        lsp__desync(doc, err);
        return -1;
    }
    /* Work on a copy so that a bad change leaves the document untouched; the
     * text starts after the gap, the cursor at 0:0. */
    lsp__gap g = {.cap = doc->len, .enc = enc};
    g.ge = g.cap - doc->len;
    g.b = malloc((size_t)g.cap + 1);
    if (!g.b) return sb_err_set(err, __func__, "out of memory");
    memcpy(g.b + g.ge, doc->text, (size_t)doc->len);
    g.work = doc->len;
    int64_t budget = lsp__work_budget(doc->len, changes, n);
    for (int i = 0; i < n; i++) {
        if (lsp__change_check(&changes[i], i, err) ||
            lsp__gap_apply(&g, &changes[i], i, err))
            goto fail;
        if (g.work > budget) {
            sb_err_set(err, __func__, "change %d: the changes jump about the "
                       "document (%lld bytes moved, budget %lld); send them in "
                       "document order, or the whole text", i,
                       (long long)g.work, (long long)budget);
            goto fail;
        }
    }
    /* close the gap: the text is b[0, len) */
    int64_t len = lsp__gap_len(&g);
    int64_t others = lsp__docs_bytes(d, doc);
    if (others + len > LSP_MAX_OPEN_BYTES) {
        sb_err_set(err, __func__, "the open documents would hold %lld bytes, "
                   "at most %d together (docs/lsp.md, \"Limits\")",
                   (long long)(others + len), LSP_MAX_OPEN_BYTES);
        goto fail;
    }
    memmove(g.b + g.gs, g.b + g.ge, (size_t)(g.cap - g.ge));
    g.work += g.cap - g.ge;
    g.b[len] = '\0';
    free(doc->text);
    doc->text = g.b;
    doc->len = len;
    doc->version = version;
    doc->desync[0] = '\0';
    d->last_work = g.work;
    return 0;
fail:
    lsp__desync(doc, err);
    d->last_work = g.work;
    free(g.b);
    return -1;
}

int64_t lsp_docs_last_work(const lsp_docs *d) {
    return d->last_work;
}
