/*
 * diff.c — the smallest set of replacements that turns one text into
 * another, so that an editor applying them keeps marks, folds and the
 * cursor everywhere outside the changed lines.
 *
 * Three passes: (1) set aside the lines both texts start and end with;
 * (2) Myers' O(ND) shortest edit script over the remaining lines ("An O(ND)
 * Difference Algorithm and Its Variations", 1986) finds the lines kept in
 * between; (3) each block of changed lines is trimmed of the bytes its two
 * sides share at either end, backing off so that a cut never falls inside a
 * UTF-8 character or between the CR and LF of a line ending (an LSP
 * position cannot point there).
 *
 * Lines here end at "\n" (a CRLF line ends at its LF; a lone CR does not end
 * a diff line, which only makes such a line a coarser unit, never wrong).
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* Past this many differing lines in the middle, Myers' trace (about D^2
 * int32s) is not kept: the middle becomes one hunk. 16 MiB of trace. */
enum { LSP__MAX_D = 2048 };

typedef struct lsp__lines {
    const char *text;
    int64_t len;
    int64_t *start;  /* owned; n + 1 entries, start[n] == len */
    uint64_t *hash;  /* owned; n entries */
    int32_t n;
} lsp__lines;

static uint64_t lsp__hash(const char *p, int64_t n) {
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int64_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 0x100000001B3ull;
    return h;
}

static int lsp__split(const char *text, int64_t len, lsp__lines *l, sb_err *err) {
    int64_t n = 0;
    for (int64_t i = 0; i < len; i++) n += text[i] == '\n';
    if (len > 0 && text[len - 1] != '\n') n++;
    if (n >= INT32_MAX / 4)
        return sb_err_set(err, "lsp_diff", "text of %lld lines is too long to "
                          "diff", (long long)n);
    l->text = text;
    l->len = len;
    l->n = (int32_t)n;
    l->start = malloc(((size_t)n + 1) * sizeof *l->start);
    l->hash = malloc(((size_t)n + 1) * sizeof *l->hash);
    if (!l->start || !l->hash) return sb_err_set(err, "lsp_diff", "out of memory");
    int32_t k = 0;
    l->start[0] = 0;
    for (int64_t i = 0; i < len; i++)
        if (text[i] == '\n') l->start[++k] = i + 1;
    l->start[n] = len;
    for (int32_t i = 0; i < l->n; i++)
        l->hash[i] = lsp__hash(text + l->start[i], l->start[i + 1] - l->start[i]);
    return 0;
}

static bool lsp__eq(const lsp__lines *a, int32_t i, const lsp__lines *b,
                    int32_t j) {
    int64_t na = a->start[i + 1] - a->start[i];
    return a->hash[i] == b->hash[j] && na == b->start[j + 1] - b->start[j] &&
           !memcmp(a->text + a->start[i], b->text + b->start[j], (size_t)na);
}

/* A kept line: old line a is new line b. */
typedef struct lsp__match {
    int32_t a, b;
} lsp__match;

typedef struct lsp__out {
    lsp_hunk *v;
    int n, cap;
    bool oom;
} lsp__out;

/* True when a cut at byte i of t would split a UTF-8 character or a CRLF. */
static bool lsp__inside(const char *t, int64_t len, int64_t i) {
    if (i <= 0 || i >= len) return false;
    return ((unsigned char)t[i] & 0xC0) == 0x80 || (t[i - 1] == '\r' && t[i] == '\n');
}

/* Appends the block old lines [a0, a1) -> new lines [b0, b1), trimmed. */
static void lsp__emit(lsp__out *o, const lsp__lines *A, int32_t a0, int32_t a1,
                      const lsp__lines *B, int32_t b0, int32_t b1) {
    int64_t os = A->start[a0], oe = A->start[a1];
    int64_t ns = B->start[b0], ne = B->start[b1];
    const char *x = A->text, *y = B->text;
    while (os < oe && ns < ne && x[os] == y[ns]) os++, ns++;
    while (oe > os && ne > ns && x[oe - 1] == y[ne - 1]) oe--, ne--;
    /* Back off to whole characters and whole CRLF pairs: the shared bytes
     * are equal on both sides, so moving both cuts together stays exact. */
    while (os > A->start[a0] && (lsp__inside(x, A->len, os) ||
                                 lsp__inside(y, B->len, ns)))
        os--, ns--;
    while (oe < A->start[a1] && (lsp__inside(x, A->len, oe) ||
                                 lsp__inside(y, B->len, ne)))
        oe++, ne++;
    if (os == oe && ns == ne) return;
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        lsp_hunk *g = o->cap < (1 << 28) ? realloc(o->v, (size_t)cap * sizeof *g)
                                         : NULL;
        if (!g) {
            o->oom = true;
            return;
        }
        o->v = g;
        o->cap = cap;
    }
    o->v[o->n++] = (lsp_hunk){os, oe, ns, ne};
}

/* Myers over old lines [lo_a, hi_a) and new lines [lo_b, hi_b); writes the
 * kept pairs, in order, to *m (malloc'd) and their count to *nm. Returns
 * 1 when the edit distance passes LSP__MAX_D (nothing written), -1 when out
 * of memory. */
static int lsp__myers(const lsp__lines *A, int32_t lo_a, int32_t hi_a,
                      const lsp__lines *B, int32_t lo_b, int32_t hi_b,
                      lsp__match **m, int32_t *nm) {
    int32_t N = hi_a - lo_a, M = hi_b - lo_b, max = N + M;
    int32_t dmax = max < LSP__MAX_D ? max : LSP__MAX_D;
    /* trace[d*d + k + d] = furthest x on diagonal k after round d. */
    int32_t *trace = malloc(((size_t)dmax + 1) * ((size_t)dmax + 1) * sizeof *trace);
    if (!trace) return -1;
    int32_t D = -1;
    for (int32_t d = 0; d <= dmax && D < 0; d++) {
        int32_t *V = trace + (size_t)d * d + d;
        const int32_t *P = d > 0 ? trace + (size_t)(d - 1) * (d - 1) + (d - 1) : NULL;
        for (int32_t k = -d; k <= d; k += 2) {
            int32_t x;
            if (d == 0) x = 0;
            else if (k == -d || (k != d && P[k - 1] < P[k + 1])) x = P[k + 1];
            else x = P[k - 1] + 1;
            int32_t y = x - k;
            while (x < N && y < M && lsp__eq(A, lo_a + x, B, lo_b + y)) x++, y++;
            V[k] = x;
            if (x >= N && y >= M) {
                D = d;
                break;
            }
        }
    }
    if (D < 0) {
        free(trace);
        return 1;
    }
    int32_t cap = N < M ? N : M;
    lsp__match *out = malloc(((size_t)cap + 1) * sizeof *out);
    if (!out) {
        free(trace);
        return -1;
    }
    /* Walk back from (N, M): round d ended on diagonal k after one edit
     * from round d-1's endpoint on diagonal pk (down: an inserted line,
     * right: a deleted one) and then a snake of kept lines. */
    int32_t n = 0, x = N, y = M;
    for (int32_t d = D; d >= 0; d--) {
        int32_t k = x - y, px = 0, py = 0, sx = 0;
        if (d > 0) {
            const int32_t *P = trace + (size_t)(d - 1) * (d - 1) + (d - 1);
            int32_t pk = (k == -d || (k != d && P[k - 1] < P[k + 1])) ? k + 1 : k - 1;
            px = P[pk];
            py = px - pk;
            sx = pk == k + 1 ? px : px + 1;
        }
        for (; x > sx; x--, y--) out[n++] = (lsp__match){lo_a + x - 1, lo_b + y - 1};
        x = px;
        y = py;
    }
    free(trace);
    for (int32_t i = 0; i < n / 2; i++) {
        lsp__match t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    *m = out;
    *nm = n;
    return 0;
}

int lsp_diff(const char *old, int64_t old_len, const char *new_text,
             int64_t new_len, lsp_hunk **hunks, int *n, sb_err *err) {
    *hunks = NULL;
    *n = 0;
    lsp__lines A = {0}, B = {0};
    lsp__out o = {0};
    lsp__match *m = NULL;
    int32_t nm = 0;
    int rc = -1;
    if (lsp__split(old, old_len, &A, err) || lsp__split(new_text, new_len, &B, err))
        goto done;
    int32_t lo = 0, hi_a = A.n, hi_b = B.n;
    while (lo < hi_a && lo < hi_b && lsp__eq(&A, lo, &B, lo)) lo++;
    while (hi_a > lo && hi_b > lo && lsp__eq(&A, hi_a - 1, &B, hi_b - 1))
        hi_a--, hi_b--;
    int mr = lsp__myers(&A, lo, hi_a, &B, lo, hi_b, &m, &nm);
    if (mr < 0) {
        sb_err_set(err, __func__, "out of memory");
        goto done;
    }
    if (mr > 0) nm = 0; /* too far apart: the whole middle is one block */
    int32_t pa = lo, pb = lo;
    for (int32_t i = 0; i <= nm; i++) {
        int32_t ma = i < nm ? m[i].a : hi_a, mb = i < nm ? m[i].b : hi_b;
        if (ma > pa || mb > pb) lsp__emit(&o, &A, pa, ma, &B, pb, mb);
        pa = ma + 1;
        pb = mb + 1;
    }
    if (o.oom) {
        sb_err_set(err, __func__, "out of memory");
        goto done;
    }
    *hunks = o.v;
    *n = o.n;
    o.v = NULL;
    rc = 0;
done:
    free(o.v);
    free(m);
    free(A.start);
    free(A.hash);
    free(B.start);
    free(B.hash);
    return rc;
}
