/*
 * document.c — open documents and LSP positions.
 *
 * Text is kept as the client's bytes (UTF-8). A Position's column counts
 * UTF-16 code units or UTF-8 bytes, as negotiated at initialize; it is
 * turned into a byte offset at the edge and never stored. Lines end at
 * "\n", "\r\n" or a lone "\r" (the specification's three terminators), so a
 * CRLF file's positions never point between the two bytes. Changes are
 * applied in change.c.
 */
#include <stdlib.h>
#include <string.h>

#include "document_internal.h"


/* Length of the UTF-8 character at p (n >= 1 bytes available): 2..4 for a
 * well-formed multi-byte sequence (no overlong forms, no surrogates, at
 * most U+10FFFF), else 1. */
int lsp__char_len(const unsigned char *p, int64_t n) {
    unsigned char c = p[0];
    int k;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) k = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) k = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) k = 4, cp = c & 0x07;
    else return 1;
    if (n < k) return 1;
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80) return 1;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 1;
    return k;
}

/* Units a character of `bytes` UTF-8 bytes takes in the encoding: UTF-16
 * needs a surrogate pair (2 units) exactly for the 4-byte characters. */
int64_t lsp__units(int bytes, lsp_encoding enc) {
    if (enc == LSP_UTF8) return bytes;
    return bytes == 4 ? 2 : 1;
}

/* Offset of the first byte of line `line`, or len when there is no such
 * line. */
static int64_t lsp__line_start(const char *text, int64_t len, int64_t line) {
    int64_t i = 0;
    for (int64_t l = 0; l < line; l++) {
        while (i < len && text[i] != '\n' && text[i] != '\r') i++;
        if (i >= len) return len;
        if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') i++;
        i++;
    }
    return i;
}

int64_t lsp_offset_at(const char *text, int64_t len, lsp_pos pos,
                      lsp_encoding enc) {
    if (pos.line < 0 || pos.character < 0) return 0;
    int64_t i = lsp__line_start(text, len, pos.line);
    int64_t units = 0;
    const unsigned char *u = (const unsigned char *)text;
    while (i < len && text[i] != '\n' && text[i] != '\r') {
        int k = lsp__char_len(u + i, len - i);
        int64_t w = lsp__units(k, enc);
        if (units + w > pos.character) break; /* inside: round down */
        units += w;
        i += k;
    }
    return i;
}

lsp_pos lsp_pos_at(const char *text, int64_t len, int64_t off,
                   lsp_encoding enc) {
    if (off < 0) off = 0;
    if (off > len) off = len;
    lsp_pos p = {0, 0};
    int64_t line_start = 0;
    for (int64_t i = 0; i < off; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len ||
                                                   text[i + 1] != '\n'))) {
            p.line++;
            line_start = i + 1;
        } else if (text[i] == '\r' && i + 1 == off) {
            off = i; /* between CR and LF: the end of this line */
        }
    }
    const unsigned char *u = (const unsigned char *)text;
    for (int64_t i = line_start; i < off;) {
        int k = lsp__char_len(u + i, len - i);
        if (i + k > off) break; /* off inside a character: round down */
        p.character += lsp__units(k, enc);
        i += k;
    }
    return p;
}

/* ==== the open documents ==================================================== */


lsp_docs *lsp_docs_create(void) {
    return calloc(1, sizeof(lsp_docs));
}

static void lsp__doc_free(lsp_doc *d) {
    free(d->uri);
    free(d->language);
    free(d->text);
}

void lsp_docs_destroy(lsp_docs *d) {
    if (!d) return;
    for (int i = 0; i < d->n; i++) lsp__doc_free(&d->v[i]);
    free(d->v);
    free(d);
}

int64_t lsp__docs_bytes(const lsp_docs *d, const lsp_doc *except) {
    int64_t n = 0;
    for (int i = 0; i < d->n; i++)
        if (&d->v[i] != except) n += d->v[i].len;
    return n;
}

lsp_doc *lsp_docs_find(lsp_docs *d, const char *uri) {
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].uri, uri)) return &d->v[i];
    return NULL;
}

static char *lsp__dup(const char *s, int64_t n) {
    char *p = malloc((size_t)n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, (size_t)n);
    p[n] = '\0';
    return p;
}

int lsp_docs_open(lsp_docs *d, const char *uri, const char *language,
                  const char *text, int64_t len, int64_t version, sb_err *err) {
    if (len < 0 || len > LSP_MAX_DOCUMENT)
        return sb_err_set(err, __func__, "document '%.200s' of %lld bytes: "
                          "at most %d bytes", uri, (long long)len, LSP_MAX_DOCUMENT);
    lsp_doc *was = lsp_docs_find(d, uri);
    int64_t others = lsp__docs_bytes(d, was);
    if (others + len > LSP_MAX_OPEN_BYTES)
        return sb_err_set(err, __func__, "document '%.200s' of %lld bytes: the "
                          "open documents would hold %lld bytes, at most %d "
                          "together (docs/lsp.md, \"Limits\"); close some first",
                          uri, (long long)len, (long long)(others + len),
                          LSP_MAX_OPEN_BYTES);
    lsp_doc nd = {.uri = lsp__dup(uri, (int64_t)strlen(uri)),
                  .language = lsp__dup(language ? language : "",
                                       language ? (int64_t)strlen(language) : 0),
                  .text = lsp__dup(text, len), .len = len, .version = version,
                  .generation = ++d->opens};
    if (!nd.uri || !nd.language || !nd.text) goto oom;
    lsp_doc *old = lsp_docs_find(d, uri);
    if (old) {
        lsp__doc_free(old);
        *old = nd;
        return 0;
    }
    if (d->n >= LSP_MAX_DOCUMENTS) {
        sb_err_set(err, __func__, "'%.200s' would be document %d: at most %d "
                   "open at once (docs/lsp.md, \"Limits\"); close one first",
                   uri, d->n + 1, LSP_MAX_DOCUMENTS);
        lsp__doc_free(&nd);
        return -1;
    }
    if (d->n == d->cap) {
        int cap = d->cap ? 2 * d->cap : 8;
        lsp_doc *g = realloc(d->v, (size_t)cap * sizeof *g);
        if (!g) goto oom;
        d->v = g;
        d->cap = cap;
    }
    d->v[d->n++] = nd;
    return 0;
oom:
    lsp__doc_free(&nd);
    return sb_err_set(err, __func__, "out of memory for '%.200s'", uri);
}

int lsp_docs_close(lsp_docs *d, const char *uri, sb_err *err) {
    for (int i = 0; i < d->n; i++) {
        if (strcmp(d->v[i].uri, uri)) continue;
        lsp__doc_free(&d->v[i]);
        d->v[i] = d->v[--d->n];
        return 0;
    }
    return sb_err_set(err, __func__, "document '%.200s' is not open", uri);
}
