/*
 * pretok.c — from raw bytes to pre-token pieces, exactly as the reference
 * (transformers.js running Qwen's tokenizer.json under node) sees them:
 *
 *  1. UTF-8 repair. The reference decodes bytes with the WHATWG decoder, so
 *     each maximal subpart of an ill-formed sequence is one U+FFFD. Invalid
 *     input is never rejected.
 *  2. NFC (tokenizer.json's normalizer), with utf8proc.
 *  3. The qwen2 split. tokenizer.json's pattern is
 *       (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}
 *       | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 *     and the reference runs it as a JavaScript RegExp with flags "gu"
 *     after rewriting the first group to (?:'([sS]|[tT]|[rR][eE]|[vV][eE]|
 *     [mM]|[lL][lL]|[dD])) — JavaScript has no (?i:...). So contractions
 *     match ASCII letters of either case only: "'ſ" (U+017F, which /iu
 *     would fold to "s") is NOT a contraction. \s is JavaScript's: the
 *     ECMAScript WhiteSpace and LineTerminator sets (including U+FEFF, not
 *     including U+0085). \p{L} and \p{N} come from utf8proc's categories.
 *
 * tok__pretok_next is a hand-written matcher for that pattern: at each
 * position the first alternative that matches wins (JavaScript alternation
 * is ordered, not longest), and every alternative matches at least one code
 * point, so the pieces tile the text. Each alternative's backtracking is
 * worked out in its helper below.
 */
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "tokenizer_internal.h"

/* ==== 1. UTF-8 repair ======================================================= */

/* The length of the well-formed sequence at s[0..n) (n >= 1), or 0 when it
 * is ill-formed; then *bad receives the length of its maximal subpart: the
 * lead byte and the continuation bytes that were still acceptable (WHATWG:
 * the byte that breaks the sequence is not consumed). Bounds per lead byte
 * from the Unicode table of well-formed UTF-8 (no overlongs, surrogates, or
 * values above U+10FFFF). */
static int pretok__seq_len(const unsigned char *s, int64_t n, int *bad) {
    unsigned b = s[0], lo = 0x80, hi = 0xBF;
    int need;
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        *bad = 1;
        return 0;
    }
    for (int k = 1; k <= need; k++) {
        if (k >= n || s[k] < lo || s[k] > hi) {
            *bad = k;
            return 0;
        }
        lo = 0x80;
        hi = 0xBF;
    }
    return need + 1;
}

/* One pass of the repair: returns the repaired length, writing the bytes to
 * out when it is not NULL. */
static int64_t pretok__repair_pass(const unsigned char *s, int64_t n, char *out) {
    static const char fffd[3] = {(char)0xEF, (char)0xBF, (char)0xBD};
    int64_t w = 0;
    for (int64_t i = 0; i < n;) {
        int bad = 0;
        int len = pretok__seq_len(s + i, n - i, &bad);
        if (len) {
            if (out) memcpy(out + w, s + i, (size_t)len);
            w += len;
            i += len;
        } else {
            if (out) memcpy(out + w, fffd, 3);
            w += 3;
            i += bad;
        }
    }
    return w;
}

int tok__utf8_repair(const char *text, int64_t n, char **out, int64_t *out_n) {
    const unsigned char *s = (const unsigned char *)text;
    *out = NULL;
    *out_n = n;
    int64_t i = 0;
    while (i < n) {
        int bad = 0;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        int len = pretok__seq_len(s + i, n - i, &bad);
        if (!len) break;
        i += len;
    }
    if (i == n) return 0;
    if (n > INT64_MAX / 3) return -1; /* 3 bytes out per byte in, at most */
    int64_t total = pretok__repair_pass(s, n, NULL);
    char *buf = malloc((size_t)total + 1);
    if (!buf) return -1;
    pretok__repair_pass(s, n, buf);
    *out = buf;
    *out_n = total;
    return 0;
}

/* ==== 2. NFC ================================================================ */

/* Every code point below U+0300 (lead byte below 0xCC) is NFC as it stands
 * and never combines with what precedes it, so the text may be cut before
 * any of them and each part normalised on its own (ICU relies on the same
 * property). Only windows holding code points >= U+0300 go to utf8proc:
 * such a run plus the one code point before it, which a combining mark
 * may compose with. */

/* The byte length of the code point whose lead byte is b (well-formed). */
static int pretok__lead_len(unsigned char b) {
    return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/* Output of tok__nfc: NULL until some window changes, then a copy of
 * everything so far. */
typedef struct pretok__out {
    char *p;
    int64_t n, cap;
} pretok__out;

static int pretok__out_put(pretok__out *o, const char *s, int64_t n) {
    if (n + o->n > o->cap) {
        int64_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n) cap *= 2;
        char *g = realloc(o->p, (size_t)cap + 1);
        if (!g) return -1;
        o->p = g;
        o->cap = cap;
    }
    if (n) memcpy(o->p + o->n, s, (size_t)n);
    o->n += n;
    return 0;
}

/* Normalises window text[ws..we); copies into o what has not been copied
 * yet (*done marks it) once the output has to differ from the input. */
static int pretok__nfc_window(const char *text, int64_t ws, int64_t we,
                          int64_t *done, pretok__out *o) {
    utf8proc_uint8_t *dst = NULL;
    utf8proc_ssize_t got = utf8proc_map((const utf8proc_uint8_t *)text + ws,
                                        (utf8proc_ssize_t)(we - ws), &dst,
                                        UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    if (got < 0) return -1; /* out of memory: the input is well-formed */
    bool same = got == we - ws && !memcmp(dst, text + ws, (size_t)got);
    int rc = 0;
    if (!same || o->p) {
        if (pretok__out_put(o, text + *done, ws - *done) ||
            pretok__out_put(o, (const char *)dst, got))
            rc = -1;
        *done = we;
    }
    free(dst);
    return rc;
}

int tok__nfc(const char *text, int64_t n, char **out, int64_t *out_n) {
    const unsigned char *s = (const unsigned char *)text;
    pretok__out o = {0};
    int64_t done = 0, prev = -1; /* prev: start of the last code point */
    *out = NULL;
    *out_n = n;
    for (int64_t i = 0; i < n;) {
        if (s[i] < 0xCC) {
            prev = i;
            i += pretok__lead_len(s[i]);
            continue;
        }
        int64_t ws = prev >= 0 ? prev : i, we = i;
        while (we < n && s[we] >= 0xCC) we += pretok__lead_len(s[we]);
        if (pretok__nfc_window(text, ws, we, &done, &o)) goto oom;
        prev = -1;
        i = we;
    }
    if (!o.p) return 0;
    if (pretok__out_put(&o, text + done, n - done)) goto oom;
    o.p[o.n] = '\0';
    *out = o.p;
    *out_n = o.n;
    return 0;
oom:
    free(o.p);
    return -1;
}

/* ==== 3. classes and the split ============================================== */

/* Classes of the ASCII range, written out so the hot path needs no call
 * into utf8proc: \t \v \f and space are S, \n \r are S|NL, digits N,
 * letters L (tok__pretok_class answers from here too, so test_pretok's
 * checks of it cover this table). */
static const unsigned char pretok__ascii[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 12, 4, 4, 12, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* 0x10 */
    4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* 0x20 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,   /* 0x30 */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,   /* 0x50 */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,   /* 0x70 */
};

static bool pretok__js_space(uint32_t cp) {
    switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
    case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
    case 0x205F: case 0x3000: case 0xFEFF:
        return true;
    default:
        return cp >= 0x2000 && cp <= 0x200A;
    }
}

unsigned tok__pretok_class(uint32_t cp) {
    if (cp < 128) return pretok__ascii[cp];
    if (pretok__js_space(cp))
        return TOK_PT_S | (cp == '\r' || cp == '\n' ? TOK_PT_NL : 0);
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
        return TOK_PT_L;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
        return TOK_PT_N;
    default:
        return 0;
    }
}

/* One code point of well-formed UTF-8: value, byte length and class. */
typedef struct pretok__ch {
    uint32_t cp;
    int len;
    unsigned cls;
} pretok__ch;

static pretok__ch pretok__at(const unsigned char *s) {
    if (s[0] < 0x80) return (pretok__ch){s[0], 1, pretok__ascii[s[0]]};
    uint32_t cp;
    int len;
    if (s[0] < 0xE0) {
        cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
        len = 2;
    } else if (s[0] < 0xF0) {
        cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
             (s[2] & 0x3F);
        len = 3;
    } else {
        cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
             (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
        len = 4;
    }
    return (pretok__ch){cp, len, tok__pretok_class(cp)};
}

/* Whether a class meets `any` (when any != 0) or avoids `none`. */
static bool pretok__in(unsigned cls, unsigned any, unsigned none) {
    return any ? (cls & any) != 0 : (cls & none) == 0;
}

/* The end of the run from i of code points whose class meets `any`
 * (any != 0) or, with any == 0, avoids `none`. ASCII takes a short path:
 * this loop is most of the scanner's time on source code. */
static int64_t pretok__run(const unsigned char *s, int64_t n, int64_t i,
                       unsigned any, unsigned none) {
    while (i < n) {
        if (s[i] < 0x80) {
            if (!pretok__in(pretok__ascii[s[i]], any, none)) break;
            i++;
            continue;
        }
        pretok__ch c = pretok__at(s + i);
        if (!pretok__in(c.cls, any, none)) break;
        i += c.len;
    }
    return i;
}

/* (?:'([sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])) after the
 * apostrophe, at s[i..n): the suffix length, or 0. The letters are ASCII,
 * so comparing bytes is comparing code points. */
static int pretok__contraction(const unsigned char *s, int64_t n, int64_t i) {
    if (i >= n) return 0;
    unsigned a = s[i] | 0x20u; /* ASCII letters only: case-folds A-Z */
    bool letter = (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z');
    if (!letter) return 0;
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 1;
    if (i + 1 >= n) return 0;
    unsigned b = s[i + 1] | 0x20u;
    bool letter2 = (s[i + 1] >= 'A' && s[i + 1] <= 'Z') ||
                   (s[i + 1] >= 'a' && s[i + 1] <= 'z');
    if (letter2 && ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') ||
                    (a == 'l' && b == 'l')))
        return 2;
    return 0;
}

/* The whitespace alternatives, at a whitespace code point:
 *   \s*[\r\n]+  \s* grabs the whole run, then backtracks to the last CR/LF
 *               in it; [\r\n]+ takes that one (what follows is not CR/LF).
 *               So: up to and including the run's last CR/LF, if any.
 *   \s+(?!\S)   the whole run at the end of text; before a non-space,
 *               backtracking gives back one code point, leaving the last
 *               space to lead the next piece — if the run has two or more.
 *   \s+         otherwise: a single space before a non-space. */
static int64_t pretok__space(const unsigned char *s, int64_t n, int64_t at) {
    int64_t e = at, last = at, nl_end = -1, count = 0;
    while (e < n) {
        pretok__ch c = pretok__at(s + e);
        if (!(c.cls & TOK_PT_S)) break;
        if (c.cls & TOK_PT_NL) nl_end = e + c.len;
        last = e;
        e += c.len;
        count++;
    }
    if (nl_end >= 0) return nl_end;
    if (e == n || count == 1) return e;
    return last;
}

int64_t tok__pretok_next(const char *text, int64_t n, int64_t at) {
    const unsigned char *s = (const unsigned char *)text;
    pretok__ch c = pretok__at(s + at);
    int64_t i1 = at + c.len;
    /* 1: contractions */
    if (c.cp == '\'') {
        int k = pretok__contraction(s, n, i1);
        if (k) return i1 + k;
    }
    /* 2: [^\r\n\p{L}\p{N}]?\p{L}+ — greedy, nothing after it to backtrack
     * for: with the optional code point when it qualifies and a letter
     * follows, else a letter run from here. */
    if (c.cls & TOK_PT_L) return pretok__run(s, n, i1, TOK_PT_L, 0);
    pretok__ch d = {0, 0, 0};
    bool more = i1 < n;
    if (more) d = pretok__at(s + i1);
    if (!(c.cls & (TOK_PT_L | TOK_PT_N | TOK_PT_NL)) && more &&
        (d.cls & TOK_PT_L))
        return pretok__run(s, n, i1 + d.len, TOK_PT_L, 0);
    /* 3: \p{N} — one code point */
    if (c.cls & TOK_PT_N) return i1;
    /* 4: ' ?[^\s\p{L}\p{N}]+[\r\n]*' — the optional space is U+0020 only */
    const unsigned other = TOK_PT_L | TOK_PT_N | TOK_PT_S;
    int64_t p = -1;
    if (c.cp == ' ' && more && !(d.cls & other))
        p = i1 + d.len;
    else if (!(c.cls & other))
        p = i1;
    if (p >= 0) {
        int64_t e = pretok__run(s, n, p, 0, other);
        while (e < n && (s[e] == '\r' || s[e] == '\n')) e++;
        return e;
    }
    /* 5-7: c is whitespace (every other class matched above) */
    return pretok__space(s, n, at);
}

bool tok__pretok_ends_alike(const char *text, int64_t n, int64_t at) {
    if (at <= 0 || at >= n) return true;
    const unsigned char *s = (const unsigned char *)text;
    int64_t p = at - 1;
    while (p > 0 && (s[p] & 0xC0) == 0x80) p--; /* the code point before */
    pretok__ch before = pretok__at(s + p), after = pretok__at(s + at);
    return !(before.cls & TOK_PT_S) || (before.cls & TOK_PT_NL) ||
           (after.cls & TOK_PT_S);
}
