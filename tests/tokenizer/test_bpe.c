/*
 * tokenizer/bpe.c and the encoder around it, on a small hand-built vocabulary:
 * the tiny model's byte tokens plus a few merged tokens and their merges,
 * written into a real GGUF. Every expected id sequence is derived by hand
 * in the comment above it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/engine.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../support/tiny_model.h"
#include "../../engine/model_internal.h" /* a loaded model's vocabulary */
#include "../../tokenizer/tokenizer_internal.h"

static char dir[64];
static char path[128];

/* Ids 0..255 are the bytes, 256..258 <|endoftext|> <|im_start|> <|im_end|>
 * (the tiny model's built-in vocabulary); these replace [PAD] slots.
 * "\xc4\xa0" is "Ġ", the byte-to-unicode form of a space. */
enum { HE = 300, LL, HELL, HELLO, G_W, OR, G_WOR, LD, G_WORLD, AB, BC,
       TAG, TAGX, LBRK2, LBRKX };
static const struct { int id; const char *text; int32_t type; } toks[] = {
    {HE, "he", GGUF_TOKEN_NORMAL},         {LL, "ll", GGUF_TOKEN_NORMAL},
    {HELL, "hell", GGUF_TOKEN_NORMAL},     {HELLO, "hello", GGUF_TOKEN_NORMAL},
    {G_W, "\xc4\xa0w", GGUF_TOKEN_NORMAL}, {OR, "or", GGUF_TOKEN_NORMAL},
    {G_WOR, "\xc4\xa0wor", GGUF_TOKEN_NORMAL}, {LD, "ld", GGUF_TOKEN_NORMAL},
    {G_WORLD, "\xc4\xa0world", GGUF_TOKEN_NORMAL},
    {AB, "ab", GGUF_TOKEN_NORMAL},         {BC, "bc", GGUF_TOKEN_NORMAL},
    {TAG, "<tag>", GGUF_TOKEN_USER_DEFINED},
    {TAGX, "<tag>x", GGUF_TOKEN_USER_DEFINED},
    {LBRK2, "[[", GGUF_TOKEN_CONTROL},     {LBRKX, "[x", GGUF_TOKEN_CONTROL},
};
/* Rank = position. "b c" outranks "a b". */
static const char *const merges[] = {
    "h e", "l l", "he ll", "hell o", "\xc4\xa0 w", "o r", "\xc4\xa0w or",
    "l d", "\xc4\xa0wor ld", "b c", "a b",
};
enum { N_TOKS = sizeof toks / sizeof toks[0],
       N_MERGES = sizeof merges / sizeof merges[0] };

static eng_model *model; /* the good model, loaded once */

static void set_merges(mk_job *job, const char *const *m, int64_t n) {
    for (int64_t i = 0; i < job->vocab.n_merges; i++) free(job->vocab.merges[i]);
    free(job->vocab.merges);
    job->vocab.merges = calloc((size_t)n + 1, sizeof *job->vocab.merges);
    assert_non_null(job->vocab.merges);
    for (int64_t i = 0; i < n; i++) {
        job->vocab.merges[i] = strdup(m[i]);
        assert_non_null(job->vocab.merges[i]);
    }
    job->vocab.n_merges = n;
}

/* The good vocabulary: toks and merges on top of the built-in one. */
static void job_good(mk_job *job) {
    test_job_init(job);
    for (int i = 0; i < N_TOKS; i++)
        test_job_set_token(job, toks[i].id, toks[i].text, toks[i].type);
    set_merges(job, merges, N_MERGES);
}


static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-bpe-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/v.gguf", dir);
    mk_job job;
    job_good(&job);
    model = test_job_write_and_load(&job, path, NULL);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    eng_model_free(model);
    unlink(path);
    return rmdir(dir);
}

/* Encodes text (with specials) and compares with want[0..n). */
static void expect_ids_ex(const char *text, int64_t len, unsigned flags,
                          const int32_t *want, int64_t n) {
    int32_t got[256];
    int64_t k = eng_tokenize_ex(model, text, len, got, 256, flags);
    if (k != n) {
        fprintf(stderr, "got:");
        for (int64_t i = 0; i < k && i < 256; i++) fprintf(stderr, " %d", got[i]);
        fprintf(stderr, "\n");
        fail_msg("'%.*s': %lld ids, expected %lld", (int)len, text,
                 (long long)k, (long long)n);
    }
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("'%.*s': id %lld is %d, expected %d", (int)len, text,
                     (long long)i, got[i], want[i]);
}

#define IDS(text, ...)                                                       \
    expect_ids_ex(text, sizeof text - 1, ENG_TOK_SPECIAL,                    \
                  (const int32_t[]){__VA_ARGS__},                             \
                  sizeof((const int32_t[]){__VA_ARGS__}) / sizeof(int32_t))

/* "hello": h e l l o; pairs h·e (0), l·l (1) → he, ll; he·ll (2) → hell;
 * hell·o (3) → hello.
 * " world": Ġ·w (4) → Ġw; o·r (5) → or; Ġw·or (6) → Ġwor; l·d (7) → ld;
 * Ġwor·ld (8) → Ġworld. */
static void test_merges_by_rank(void **state) {
    (void)state;
    assert_int_equal(tok__bpe_n_merges(model->vocab.bpe), N_MERGES);
    IDS("hello world", HELLO, G_WORLD);
    IDS("hello", HELLO);
    IDS("hel", HE, 'l');                     /* he·l has no merge */
    IDS("helloo", HELLO, 'o');
    /* "world" (no space): o·r → or, l·d → ld; w·or, or·ld have none */
    IDS("world", 'w', OR, LD);
    /* "abc": b·c (rank 9) beats a·b (rank 10), then a·bc has none */
    IDS("abc", 'a', BC);
    IDS("ab", AB);
}

/* Equal ranks: the leftmost pair merges first. */
static void test_ties_leftmost(void **state) {
    (void)state;
    IDS("lll", LL, 'l');       /* l·l at 0 before l·l at 1 */
    IDS("llll", LL, LL);
    IDS("lllll", LL, LL, 'l');
    /* a long piece: the heap over 10,001 symbols, pairs taken left first */
    static char text[10001];
    memset(text, 'l', sizeof text);
    int32_t *ids = malloc(sizeof(int32_t) * 10001);
    assert_non_null(ids);
    assert_int_equal(eng_tokenize(model, text, 10001, ids, 10001), 5001);
    for (int i = 0; i < 5000; i++) assert_int_equal(ids[i], LL);
    assert_int_equal(ids[5000], 'l');
    free(ids);
}

/* Special tokens are found first and never merge with their neighbours. */
static void test_specials_never_split(void **state) {
    (void)state;
    IDS("hello<|im_end|>world", HELLO, 258, 'w', OR, LD);
    IDS("he<|im_start|>llo", HE, 257, LL, 'o');
    /* longest at a position: <tag>x over <tag> */
    IDS("<tag>xy", TAGX, 'y');
    IDS("<tag>", TAG);
    IDS("<tag><tag>", TAG, TAG);
    /* leftmost first: "[[" at 0 wins over "[x" at 1 */
    IDS("[[x", LBRK2, 'x');
    IDS("a[x", 'a', LBRKX);
    IDS("<|im_end", '<', '|', 'i', 'm', '_', 'e', 'n', 'd');
    /* without ENG_TOK_SPECIAL the text is plain text: "<tag" ">" */
    expect_ids_ex("<tag>", 5, 0, (const int32_t[]){'<', 't', 'a', 'g', '>'}, 5);
    expect_ids_ex("<|im_end|>he", 12, 0,
                  (const int32_t[]){'<', '|', 'i', 'm', '_', 'e', 'n', 'd', '|',
                                    '>', HE}, 11);
    assert_int_equal(eng_special_id(model, "<tag>x"), TAGX);
    assert_int_equal(eng_special_id(model, "<|im_start|>"), 257);
    assert_int_equal(eng_special_id(model, "hello"), -1);
    assert_int_equal(eng_special_id(model, ""), -1);
}

/* Invalid bytes become U+FFFD (EF BF BD), which then pre-tokenizes like
 * any symbol: "\xff" "he" is one piece FFFD+he → EF BF BD he. */
static void test_invalid_utf8(void **state) {
    (void)state;
    IDS("\xff" "he", 0xEF, 0xBF, 0xBD, HE);
    IDS("\xe2\x82", 0xEF, 0xBF, 0xBD);
    IDS("he\xed\xa0\x80", HE, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF,
        0xBD);
    /* NFC: e + U+0301 is é (C3 A9) */
    IDS("e\xcc\x81", 0xC3, 0xA9);
}

/* decode(encode(x)) == x for well-formed, NFC-stable text. */
static void test_round_trip(void **state) {
    (void)state;
    static const char *const alphabet[] = {
        "h", "e", "l", "o", " ", "w", "r", "d", "a", "b", "c", "\n", "\t",
        "'s", "1", "{", "<tag>", "<|im_end|>", "[[", "\xc3\xa9", "\xe6\xbc\xa2",
        "\xf0\x9f\x99\x82", "\r\n", "  ", "\xc2\xa0"};
    enum { N_ALPHA = sizeof alphabet / sizeof alphabet[0] };
    uint64_t seed = 7;
    for (int round = 0; round < 500; round++) {
        char text[512];
        int64_t len = 0;
        int n = 1 + (int)(sb_mix64(seed++) % 40);
        for (int i = 0; i < n; i++) {
            const char *a = alphabet[sb_mix64(seed++) % N_ALPHA];
            memcpy(text + len, a, strlen(a));
            len += (int64_t)strlen(a);
        }
        int32_t ids[512];
        int64_t k = eng_tokenize(model, text, len, ids, 512);
        assert_true(k > 0 && k <= len);
        char back[512];
        int64_t at = 0;
        for (int64_t i = 0; i < k; i++) {
            int64_t bl = 0;
            const char *b = eng_token_bytes(model, ids[i], &bl);
            assert_non_null(b);
            assert_true(at + bl <= len);
            memcpy(back + at, b, (size_t)bl);
            at += bl;
        }
        assert_int_equal(at, len);
        assert_memory_equal(back, text, len);
    }
}

/* The encoder's own edges: empty and 1-byte pieces, and the memo (which
 * starts at the 64th short piece) giving the same ids as a fresh encode. */
static void test_encode_edges(void **state) {
    (void)state;
    tok__bpe_work w = {0};
    int32_t out[16];
    const tok_vocab *v = &model->vocab;
    assert_int_equal(tok__bpe_encode(v->bpe, v, &w, "x", 0, out), -1);
    assert_int_equal(tok__bpe_encode(v->bpe, v, &w, "x", 1, out), 1);
    assert_int_equal(out[0], 'x');
    for (int rep = 0; rep < 100; rep++) {
        assert_int_equal(tok__bpe_encode(v->bpe, v, &w, "hello", 5, out), 1);
        assert_int_equal(out[0], HELLO);
        assert_int_equal(tok__bpe_encode(v->bpe, v, &w, "hellx", 5, out), 2);
        assert_int_equal(out[0], HELL);
        assert_int_equal(out[1], 'x');
    }
    assert_non_null(w.memo);
    tok__bpe_work_free(&w);
    assert_int_equal(tok__bpe_token(v->bpe, v, "\xc4\xa0world", 6), -1);
    assert_int_equal(tok__bpe_token(v->bpe, v, " world", 6), G_WORLD);
    assert_int_equal(tok__bpe_token(v->bpe, v, "<tag>", 5), -1); /* special */
}

/* ---- merges that cannot load ---- */

static void expect_merge_error(const char *const *m, int64_t n, const char *want) {
    mk_job job;
    job_good(&job);
    set_merges(&job, m, n);
    test_job_write_and_load(&job, path, want);
}

static void test_bad_merges(void **state) {
    (void)state;
    expect_merge_error((const char *const[]){"he"}, 1,
                       "merges[0] ('he') is not two tokens separated by one space");
    expect_merge_error((const char *const[]){"h e", "l  l"}, 2,
                       "merges[1] ('l  l') is not two tokens");
    expect_merge_error((const char *const[]){" e"}, 1, "merges[0]");
    expect_merge_error((const char *const[]){"q z"}, 1,
                       "merges[0] ('q z'): the merged token is not a normal token");
    expect_merge_error((const char *const[]){"h <tag>"}, 1,
                       "merges[0] ('h <tag>'): its right part is not a "
                       "normal token");
    expect_merge_error((const char *const[]){"h e", "l l", "h e"}, 3,
                       "merges[2] ('h e') repeats tokenizer.ggml.merges[0]");
    expect_merge_error((const char *const[]){"h\x01 e"}, 1,
                       "is not in GPT-2 byte-to-unicode form");
}

/* Finds key's value in the file and overwrites `old` there with `new`
 * (same length), skipping `skip` bytes after the key. */
static void patch_file(const char *key, long skip, const void *old,
                       const void *new, size_t n) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    static char head[1 << 16];
    size_t got = fread(head, 1, sizeof head, f);
    char *k = NULL;
    for (size_t i = 0; !k && i + strlen(key) <= got; i++)
        if (!memcmp(head + i, key, strlen(key))) k = head + i;
    assert_non_null(k);
    long at = (long)(k - head) + (long)strlen(key) + skip;
    assert_memory_equal(head + at, old, n);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    assert_int_equal(fwrite(new, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void write_builtin(void) {
    mk_job job;
    test_job_init(&job);
    sb_err err = {0};
    if (mk_job_write(&job, path, &err)) fail_msg("write: %s", err.msg);
    mk_job_free(&job);
}

static void expect_load_error(const char *want) {
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    unlink(path);
    assert_null(m);
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not contain '%s'", err.msg, want);
}

/* The built-in vocabulary writes an empty merges array: make its element
 * type i32 (key, u32 array type, then the u32 element type). And a
 * pre-tokenizer other than qwen2 is refused. */
static void test_bad_merge_key_and_pre(void **state) {
    (void)state;
    write_builtin();
    static const unsigned char str_t[4] = {8, 0, 0, 0}, i32_t[4] = {5, 0, 0, 0};
    patch_file("tokenizer.ggml.merges", 4, str_t, i32_t, 4);
    expect_load_error("'tokenizer.ggml.merges' holds elements of type 5");
    write_builtin();
    /* key, u32 type (string), u64 length 5, then "qwen2" */
    patch_file("tokenizer.ggml.pre", 4 + 8, "qwen2", "llama", 5);
    expect_load_error("'tokenizer.ggml.pre' is 'llama', expected 'qwen2'");
}

/* No merges key at all: byte-level, and loads. */
static void test_no_merges(void **state) {
    (void)state;
    mk_job job;
    job_good(&job);
    job.omit_key = "tokenizer.ggml.merges";
    eng_model *m = test_job_write_and_load(&job, path, NULL);
    int32_t ids[8];
    assert_int_equal(eng_tokenize(m, "hello", 5, ids, 8), 5);
    assert_int_equal(ids[0], 'h');
    assert_int_equal(tok__bpe_n_merges(m->vocab.bpe), 0);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merges_by_rank),
        cmocka_unit_test(test_ties_leftmost),
        cmocka_unit_test(test_specials_never_split),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_encode_edges),
        cmocka_unit_test(test_bad_merges),
        cmocka_unit_test(test_bad_merge_key_and_pre),
        cmocka_unit_test(test_no_merges),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
