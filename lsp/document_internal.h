/*
 * document_internal.h — private to lsp/: what document.c (positions, the
 * open documents) and change.c (applying didChange) share.
 */
#ifndef SB_LSP_DOCUMENT_INTERNAL_H
#define SB_LSP_DOCUMENT_INTERNAL_H

#include "lsp.h"

struct lsp_docs {
    lsp_doc *v;        /* owned, n of cap */
    int n, cap;
    int64_t last_work; /* lsp_docs_last_work */
    int64_t opens;     /* didOpens so far: the next document's generation */
};

/* Bytes of every open document together, the one at `except` left out
 * (NULL: none): what LSP_MAX_OPEN_BYTES caps. */
int64_t lsp__docs_bytes(const lsp_docs *d, const lsp_doc *except);

/* Length of the UTF-8 character at p (n >= 1 bytes available): 2..4 for a
 * well-formed multi-byte sequence, else 1 (a broken byte counts alone). */
int lsp__char_len(const unsigned char *p, int64_t n);
/* Units a character of `bytes` UTF-8 bytes takes in the encoding. */
int64_t lsp__units(int bytes, lsp_encoding enc);

#endif /* SB_LSP_DOCUMENT_INTERNAL_H */
