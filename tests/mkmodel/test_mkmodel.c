/*
 * sb mkmodel: tensor placement (checked on plans of the real shapes, which
 * are never written), determinism of the bytes (seed, thread count), the
 * tiny model loading back with the right shapes and types, and
 * tokenizer.json vocabularies.
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
#include "../../gguf/gguf.h"
#include "../../mkmodel/mkmodel_internal.h"
#include "../../engine/model_internal.h"

static char dir[64];

static int setup_dir(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-mkmodel-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state) {
    (void)state;
    return rmdir(dir);
}

static void path_in_dir(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* SHA-256 of a whole file. */
static void file_sha(const char *path, char hex[65]) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    sb_sha256 *s = sb_sha256_begin();
    assert_non_null(s);
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_sha256_update(s, buf, n);
    fclose(f);
    sb_sha256_final(s, hex);
}

static void make(mk_shape shape, mk_recipe recipe, uint64_t seed,
                 int threads, const char *vocab, const char *path) {
    mk_opts o = {.shape = shape, .recipe = recipe, .seed = seed,
                          .n_threads = threads, .vocab_json = vocab};
    sb_err err = {0};
    if (mk_model_write(&o, path, &err)) fail_msg("mk_model_write: %s", err.msg);
}

static const mk_tensor *plan_find(const mk_plan *p, const char *name) {
    for (int64_t i = 0; i < p->n; i++)
        if (!strcmp(p->t[i].name, name)) return &p->t[i];
    fail_msg("plan has no tensor '%s'", name);
    return NULL;
}

static krn_type plan_type(const mk_plan *p, const char *name) {
    return plan_find(p, name)->type;
}

static void count_types(const mk_plan *p, int64_t *q4k, int64_t *q6k,
                        int64_t *f32) {
    *q4k = *q6k = *f32 = 0;
    for (int64_t i = 0; i < p->n; i++) {
        *q4k += p->t[i].type == KRN_Q4_K;
        *q6k += p->t[i].type == KRN_Q6_K;
        *f32 += p->t[i].type == KRN_F32;
    }
}

/* ---- parsing ---- */

static void test_parse(void **state) {
    (void)state;
    mk_shape s;
    mk_recipe r;
    sb_err err = {0};
    assert_int_equal(mk_shape_parse("tiny", &s, &err), 0);
    assert_int_equal(s, MK_SHAPE_TINY);
    assert_int_equal(mk_shape_parse("0.5b", &s, &err), 0);
    assert_int_equal(s, MK_SHAPE_0_5B);
    assert_int_equal(mk_shape_parse("1.5B", &s, &err), 0);
    assert_int_equal(s, MK_SHAPE_1_5B);
    assert_int_equal(mk_shape_parse("7b", &s, &err), 0);
    assert_int_equal(s, MK_SHAPE_7B);
    assert_int_equal(mk_recipe_parse("f32", &r, &err), 0);
    assert_int_equal(r, MK_RECIPE_F32);
    assert_int_equal(mk_recipe_parse("q8_0", &r, &err), 0);
    assert_int_equal(r, MK_RECIPE_Q8_0);
    assert_int_equal(mk_recipe_parse("Q4_K_M", &r, &err), 0);
    assert_int_equal(r, MK_RECIPE_Q4_K_M);
    assert_string_equal(err.msg, "");
    assert_int_equal(mk_shape_parse("3b", &s, &err), -1);
    assert_non_null(strstr(err.msg, "'3b'"));
    err = (sb_err){0};
    assert_int_equal(mk_recipe_parse("q4_k_s", &r, &err), -1);
    assert_non_null(strstr(err.msg, "'q4_k_s'"));
}

/* ---- plans of the real shapes ---- */

/* llama.cpp's Q4_K_M on Qwen2.5-7B: 169 Q4_K (token_embd included) and 29
 * Q6_K (output, and attn_v/ffn_down in 14 of 28 layers each). */
static void test_plan_7b_q4_k_m(void **state) {
    (void)state;
    mk_plan p;
    sb_err err = {0};
    assert_int_equal(mk_plan_make(mk_shape_hparams(MK_SHAPE_7B),
                                      MK_RECIPE_Q4_K_M, &p, &err), 0);
    int64_t q4k, q6k, f32;
    count_types(&p, &q4k, &q6k, &f32);
    assert_int_equal(p.n, 3 + 12 * 28);
    assert_int_equal(q4k, 169);
    assert_int_equal(q6k, 29);
    assert_int_equal(f32, p.n - 169 - 29);
    assert_int_equal(p.total_bytes, 4677120000ull);
    assert_int_equal(plan_type(&p, "token_embd.weight"), KRN_Q4_K);
    assert_int_equal(plan_type(&p, "output.weight"), KRN_Q6_K);
    /* use_more_bits(i, 28): i < 3, i >= 24, or (i - 3) % 3 == 2 */
    static const int more[] = {0, 1, 2, 5, 8, 11, 14, 17, 20, 23, 24, 25, 26, 27};
    for (int il = 0, k = 0; il < 28; il++) {
        bool m = k < 14 && more[k] == il;
        k += m;
        char name[64];
        snprintf(name, sizeof name, "blk.%d.attn_v.weight", il);
        assert_int_equal(plan_type(&p, name), m ? KRN_Q6_K : KRN_Q4_K);
        snprintf(name, sizeof name, "blk.%d.ffn_down.weight", il);
        assert_int_equal(plan_type(&p, name), m ? KRN_Q6_K : KRN_Q4_K);
        snprintf(name, sizeof name, "blk.%d.attn_q.bias", il);
        assert_int_equal(plan_type(&p, name), KRN_F32);
    }
    const mk_tensor *t = plan_find(&p, "blk.0.ffn_down.weight");
    assert_int_equal(t->ne[0], 18944);
    assert_int_equal(t->ne[1], 3584);
    t = plan_find(&p, "blk.0.attn_k.weight");
    assert_int_equal(t->ne[0], 3584);
    assert_int_equal(t->ne[1], 4 * 128);
    mk_plan_free(&p);
}

/* 0.5b: rows of 896 are not whole 256-weight super-blocks, so Q4_K falls
 * back to Q5_0 and Q6_K (the tied LM head = token_embd) to Q8_0; ffn_down
 * (rows of 4864 = 19 * 256) keeps Q4_K/Q6_K. */
static void test_plan_0_5b_q4_k_m(void **state) {
    (void)state;
    mk_plan p;
    sb_err err = {0};
    assert_int_equal(mk_plan_make(mk_shape_hparams(MK_SHAPE_0_5B),
                                      MK_RECIPE_Q4_K_M, &p, &err), 0);
    assert_int_equal(p.n, 2 + 12 * 24);
    assert_int_equal(plan_type(&p, "token_embd.weight"), KRN_Q8_0);
    for (int64_t i = 0; i < p.n; i++)
        assert_string_not_equal(p.t[i].name, "output.weight");
    /* use_more_bits(i, 24): i < 3, i >= 21, or (i - 3) % 3 == 2 */
    assert_int_equal(plan_type(&p, "blk.0.attn_v.weight"), KRN_Q8_0);
    assert_int_equal(plan_type(&p, "blk.3.attn_v.weight"), KRN_Q5_0);
    assert_int_equal(plan_type(&p, "blk.5.attn_v.weight"), KRN_Q8_0);
    assert_int_equal(plan_type(&p, "blk.0.ffn_down.weight"), KRN_Q6_K);
    assert_int_equal(plan_type(&p, "blk.3.ffn_down.weight"), KRN_Q4_K);
    assert_int_equal(plan_type(&p, "blk.21.ffn_down.weight"), KRN_Q6_K);
    assert_int_equal(plan_type(&p, "blk.7.attn_q.weight"), KRN_Q5_0);
    assert_int_equal(plan_type(&p, "blk.7.attn_output.weight"), KRN_Q5_0);
    assert_int_equal(plan_type(&p, "blk.7.ffn_up.weight"), KRN_Q5_0);
    assert_int_equal(plan_type(&p, "blk.7.ffn_norm.weight"), KRN_F32);
    mk_plan_free(&p);
}

/* 1.5b: 1536 = 6 * 256, so no fallbacks: the tied head is Q6_K. */
static void test_plan_1_5b_q4_k_m(void **state) {
    (void)state;
    mk_plan p;
    sb_err err = {0};
    assert_int_equal(mk_plan_make(mk_shape_hparams(MK_SHAPE_1_5B),
                                      MK_RECIPE_Q4_K_M, &p, &err), 0);
    int64_t q4k, q6k, f32;
    count_types(&p, &q4k, &q6k, &f32);
    assert_int_equal(plan_type(&p, "token_embd.weight"), KRN_Q6_K);
    /* use_more_bits(i, 28) holds for 14 layers, for attn_v and ffn_down */
    assert_int_equal(q6k, 1 + 2 * 14);
    assert_int_equal(q4k, 7 * 28 - 2 * 14);
    assert_int_equal(f32, p.n - q4k - q6k);
    mk_plan_free(&p);
}

static void test_plan_q8_0_and_f32(void **state) {
    (void)state;
    mk_plan p;
    sb_err err = {0};
    assert_int_equal(mk_plan_make(mk_shape_hparams(MK_SHAPE_0_5B),
                                      MK_RECIPE_Q8_0, &p, &err), 0);
    for (int64_t i = 0; i < p.n; i++)
        assert_int_equal(p.t[i].type, p.t[i].n_dims == 2 ? KRN_Q8_0 : KRN_F32);
    /* Q8_0: 34 bytes per 32 weights */
    assert_int_equal(plan_find(&p, "token_embd.weight")->nbytes,
                     151936ull * 896 / 32 * 34);
    mk_plan_free(&p);
    assert_int_equal(mk_plan_make(mk_shape_hparams(MK_SHAPE_TINY),
                                      MK_RECIPE_F32, &p, &err), 0);
    uint64_t sum = 0;
    for (int64_t i = 0; i < p.n; i++) {
        assert_int_equal(p.t[i].type, KRN_F32);
        sum += (uint64_t)p.t[i].ne[0] * (uint64_t)p.t[i].ne[1] * 4;
    }
    assert_int_equal(p.total_bytes, sum);
    mk_plan_free(&p);
}

/* ---- bytes ---- */

static void test_same_seed_same_bytes(void **state) {
    (void)state;
    char a[128], b[128], c[128], ha[65], hb[65], hc[65];
    path_in_dir(a, sizeof a, "a.gguf");
    path_in_dir(b, sizeof b, "b.gguf");
    path_in_dir(c, sizeof c, "c.gguf");
    make(MK_SHAPE_TINY, MK_RECIPE_Q8_0, 7, 2, NULL, a);
    make(MK_SHAPE_TINY, MK_RECIPE_Q8_0, 7, 2, NULL, b);
    make(MK_SHAPE_TINY, MK_RECIPE_Q8_0, 8, 2, NULL, c);
    file_sha(a, ha);
    file_sha(b, hb);
    file_sha(c, hc);
    assert_string_equal(ha, hb);
    assert_string_not_equal(ha, hc);
    unlink(a);
    unlink(b);
    unlink(c);
}

static void test_thread_count_independent(void **state) {
    (void)state;
    char a[128], b[128], ha[65], hb[65];
    path_in_dir(a, sizeof a, "t1.gguf");
    path_in_dir(b, sizeof b, "t3.gguf");
    make(MK_SHAPE_TINY, MK_RECIPE_Q4_K_M, 1, 1, NULL, a);
    make(MK_SHAPE_TINY, MK_RECIPE_Q4_K_M, 1, 3, NULL, b);
    file_sha(a, ha);
    file_sha(b, hb);
    assert_string_equal(ha, hb);
    unlink(a);
    unlink(b);
}

/* ---- the tiny model loads back ---- */

static void check_tiny_shapes(const krn_model *d) {
    assert_int_equal(d->n_layer, 2);
    assert_int_equal(d->n_embd, 256);
    assert_int_equal(d->n_ff, 512);
    assert_int_equal(d->n_head, 4);
    assert_int_equal(d->n_head_kv, 2);
    assert_int_equal(d->head_dim, 64);
    assert_int_equal(d->n_vocab, 512);
    assert_true(d->rope_base == 1e6f);
    assert_true(d->rms_eps == 1e-6f);
    assert_int_equal(d->tok_embd.ne0, 256);
    assert_int_equal(d->tok_embd.ne1, 512);
    assert_ptr_equal(d->output.data, d->tok_embd.data); /* tied */
    assert_int_equal(d->layers[1].wk.ne0, 256);
    assert_int_equal(d->layers[1].wk.ne1, 128);
    assert_int_equal(d->layers[1].bv.ne0, 128);
    assert_int_equal(d->layers[1].w_down.ne0, 512);
    assert_int_equal(d->layers[1].w_down.ne1, 256);
}

static void load_tiny(mk_recipe r, krn_type embd, krn_type v0, krn_type v1) {
    char path[128];
    path_in_dir(path, sizeof path, "tiny.gguf");
    make(MK_SHAPE_TINY, r, 1, 2, NULL, path);
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) fail_msg("eng_model_load: %s", err.msg);
    const krn_model *d = eng_model_desc(m);
    check_tiny_shapes(d);
    assert_int_equal(eng_model_n_ctx(m), 4096);
    assert_int_equal(eng_model_eos(m), 258);
    assert_int_equal(eng_n_vocab(m), 512);
    assert_int_equal(d->tok_embd.type, embd);
    assert_int_equal(d->layers[0].wv.type, v0);
    assert_int_equal(d->layers[1].wv.type, v1);
    assert_int_equal(d->layers[0].wq.type, r == MK_RECIPE_F32    ? KRN_F32
                                           : r == MK_RECIPE_Q8_0 ? KRN_Q8_0
                                                                  : KRN_Q4_K);
    assert_int_equal(d->layers[0].attn_norm.type, KRN_F32);
    assert_int_equal(d->output_norm.type, KRN_F32);
    eng_model_free(m);
    unlink(path);
}

static void test_tiny_loads_f32(void **state) {
    (void)state;
    load_tiny(MK_RECIPE_F32, KRN_F32, KRN_F32, KRN_F32);
}

static void test_tiny_loads_q8_0(void **state) {
    (void)state;
    load_tiny(MK_RECIPE_Q8_0, KRN_Q8_0, KRN_Q8_0, KRN_Q8_0);
}

/* use_more_bits(i, 2): layer 1 only (i >= 7*2/8 = 1). */
static void test_tiny_loads_q4_k_m(void **state) {
    (void)state;
    load_tiny(MK_RECIPE_Q4_K_M, KRN_Q6_K, KRN_Q4_K, KRN_Q6_K);
}

/* The weights follow their stated distributions (f32, so exact values). */
static void test_tiny_weight_ranges(void **state) {
    (void)state;
    char path[128];
    path_in_dir(path, sizeof path, "ranges.gguf");
    make(MK_SHAPE_TINY, MK_RECIPE_F32, 3, 2, NULL, path);
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) fail_msg("eng_model_load: %s", err.msg);
    const krn_model *d = eng_model_desc(m);
    const float *e = d->tok_embd.data, *q = d->layers[0].wq.data;
    const float *nrm = d->layers[0].attn_norm.data, *b = d->layers[0].bq.data;
    double se = 0, sq = 0;
    float aq = 0.108253175f; /* sqrt(3 / 256) */
    for (int i = 0; i < 256 * 256; i++) {
        assert_true(e[i] > -1.0f && e[i] < 1.0f);
        assert_true(q[i] > -aq && q[i] < aq);
        se += (double)e[i] * e[i];
        sq += (double)q[i] * q[i];
    }
    /* variance a^2/3 within 2% (65536 samples: sd of the estimate ~0.6%) */
    assert_true(se / 65536 > 0.98 / 3 && se / 65536 < 1.02 / 3);
    assert_true(sq / 65536 > 0.98 / 256 && sq / 65536 < 1.02 / 256);
    for (int i = 0; i < 256; i++) {
        assert_true(nrm[i] > 0.9f && nrm[i] < 1.1f);
        assert_true(b[i] > -0.1f && b[i] < 0.1f);
    }
    eng_model_free(m);
    unlink(path);
}

/* ---- tokenizer.json ---- */

/* Writes a tokenizer.json: the 256 byte tokens (ids 0..255, in GPT-2 form,
 * every code point as a \u escape), then `extra` vocabulary entries (JSON
 * members, may be ""), `merges` (a JSON array) and `added` (a JSON array for
 * added_tokens, or NULL for none). */
static void write_json(const char *path, const char *extra, const char *merges,
                       const char *added) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"version\": \"1.0\", \"model\": {\"type\": \"BPE\", \"vocab\": {", f);
    for (int b = 0; b < 256; b++)
        fprintf(f, "%s\"\\u%04x\": %d", b ? ", " : "",
                (unsigned)gguf_gpt2_byte_to_cp((uint8_t)b), b);
    fprintf(f, "%s%s}, \"merges\": %s}", *extra ? ", " : "", extra, merges);
    if (added) fprintf(f, ", \"added_tokens\": %s", added);
    fputs("}\n", f);
    assert_int_equal(fclose(f), 0);
}

static void expect_token(const eng_model *m, int32_t id, const char *want) {
    int64_t len;
    const char *got = eng_token_bytes(m, id, &len);
    assert_non_null(got);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(got, want, len);
}

static void test_vocab_json(void **state) {
    (void)state;
    char json[128], path[128];
    path_in_dir(json, sizeof json, "tokenizer.json");
    path_in_dir(path, sizeof path, "json.gguf");
    /* every merge's parts and result are normal tokens (the loader checks
     * that); "xyz" is a vocabulary entry an added token repeats */
    write_json(json, "\"\\u0120h\": 256, \"ello\": 257, \"llo\": 261, "
               "\"xyz\": 262",
               "[\"\\u0120 h\", [\"e\", \"llo\"]]",
               "[{\"id\": 258, \"content\": \"<|endoftext|>\", \"special\": true},"
               " {\"id\": 259, \"content\": \"<|im_end|>\", \"special\": true},"
               " {\"id\": 260, \"content\": \"<tool_call>\", \"special\": false},"
               " {\"id\": 262, \"content\": \"xyz\", \"special\": false}]");
    make(MK_SHAPE_TINY, MK_RECIPE_Q8_0, 1, 2, json, path);
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) fail_msg("eng_model_load: %s", err.msg);
    /* tiny fits the vocabulary: ids 0..262, rounded up to 5 * 64 rows */
    assert_int_equal(eng_n_vocab(m), 320);
    assert_int_equal(eng_model_desc(m)->tok_embd.ne1, 320);
    expect_token(m, 10, "\n");
    expect_token(m, 256, " h");
    expect_token(m, 257, "ello");
    expect_token(m, 258, "<|endoftext|>");
    expect_token(m, 260, "<tool_call>");
    expect_token(m, 261, "llo");
    expect_token(m, 262, "xyz");
    expect_token(m, 263, "[PAD263]");
    expect_token(m, 319, "[PAD319]");
    assert_int_equal(eng_model_eos(m), 259);
    eng_model_free(m);

    gguf_file *f = gguf_open(path, &err);
    if (!f) fail_msg("gguf_open: %s", err.msg);
    int64_t kv = gguf_find_key(f, "tokenizer.ggml.merges");
    assert_true(kv >= 0);
    gguf_str s0 = gguf_arr_str(f, kv, 0), s1 = gguf_arr_str(f, kv, 1);
    assert_int_equal(s0.len, 4);
    assert_memory_equal(s0.ptr, "\xc4\xa0 h", 4);
    assert_int_equal(s1.len, 5);
    assert_memory_equal(s1.ptr, "e llo", 5);
    kv = gguf_find_key(f, "tokenizer.ggml.token_type");
    const unsigned char *ty = gguf_arr_data(f, kv);
    assert_int_equal(ty[4 * 0], 1);   /* byte token: normal */
    assert_int_equal(ty[4 * 257], 1); /* merged token: normal */
    assert_int_equal(ty[4 * 262], 4); /* added, not special: user-defined */
    assert_int_equal(ty[4 * 258], 3); /* special: control */
    assert_int_equal(ty[4 * 300], 5); /* padding: unused, as llama.cpp */
    uint32_t pad;
    assert_int_equal(gguf_get_u32(f, "tokenizer.ggml.padding_token_id", &pad,
                                  &err), 0);
    assert_int_equal(pad, 258);
    gguf_close(f);
    unlink(json);
    unlink(path);
}

/* One broken tokenizer.json: mkmodel fails naming what is wrong, and leaves
 * no file behind. */
static void expect_json_error(const char *extra, const char *merges,
                              const char *added, const char *want) {
    char json[128], path[128];
    path_in_dir(json, sizeof json, "bad.json");
    path_in_dir(path, sizeof path, "bad.gguf");
    write_json(json, extra, merges, added);
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_F32,
                          .vocab_json = json, .n_threads = 1};
    sb_err err = {0};
    assert_int_equal(mk_model_write(&o, path, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("error '%s' does not mention '%s'", err.msg, want);
    assert_int_equal(access(path, F_OK), -1);
    unlink(json);
}

static void test_vocab_json_errors(void **state) {
    (void)state;
    expect_json_error("\"dup\": 5", "[]", NULL, "duplicate id 5");
    expect_json_error("\"gap\": 300", "[]", NULL, "no token has id 256");
    /* tiny fits its vocabulary to the ids, so an id far out leaves a gap */
    expect_json_error("\"big\": 512", "[]", NULL, "no token has id 256");
    expect_json_error("\"huge\": 4194304", "[]", NULL,
                      "has id 4194304, expected 0..4194303");
    expect_json_error("\"neg\": -1", "[]", NULL, "has id -1");
    expect_json_error("\"str\": \"7\"", "[]", NULL, "'str' is not an integer");
    expect_json_error("", "[\"abc\"]", NULL, "'model.merges'[0]");
    expect_json_error("", "[[\"a\"]]", NULL, "'model.merges'[0]");
    expect_json_error("", "{}", NULL, "'model.merges' is missing");
    expect_json_error("", "[]", "[{\"id\": 3, \"content\": \"<x>\"}]",
                      "duplicate id 3");
    expect_json_error("", "[]", "[{\"content\": \"<x>\"}]", "'added_tokens'[0]");
    expect_json_error("", "[]", "{}", "'added_tokens' is not an array");

    char json[128];
    path_in_dir(json, sizeof json, "notjson.json");
    FILE *f = fopen(json, "w");
    assert_non_null(f);
    fputs("{\"model\": ", f);
    fclose(f);
    mk_opts o = {.shape = MK_SHAPE_TINY, .vocab_json = json};
    sb_err err = {0};
    assert_int_equal(mk_model_write(&o, "/nonexistent/x.gguf", &err), -1);
    assert_non_null(strstr(err.msg, "cannot read tokenizer.json"));
    f = fopen(json, "w");
    assert_non_null(f);
    fputs("{\"model\": {\"merges\": []}}", f);
    fclose(f);
    err = (sb_err){0};
    assert_int_equal(mk_model_write(&o, "/nonexistent/x.gguf", &err), -1);
    assert_non_null(strstr(err.msg, "'model.vocab' is missing"));
    unlink(json);
}

/* mk_vocab_json's size: fixed (an id beyond it is refused), or fitted
 * to the ids rounded up to a multiple of 64 (a whole multiple stays). */
static void test_vocab_json_sizes(void **state) {
    (void)state;
    char json[128];
    path_in_dir(json, sizeof json, "sizes.json");
    mk_vocab v;
    sb_err err = {0};
    write_json(json, "\"big\": 512", "[]", NULL);
    assert_int_equal(mk_vocab_json(json, 512, &v, &err), -1);
    assert_non_null(strstr(err.msg, "has id 512, expected 0..511"));
    assert_int_equal(v.n, 0); /* nothing left to free */
    err = (sb_err){0};
    assert_int_equal(mk_vocab_json(json, -1, &v, &err), -1);
    assert_non_null(strstr(err.msg, "vocabulary size -1"));

    write_json(json, "", "[]", NULL); /* ids 0..255 */
    assert_int_equal(mk_vocab_json(json, 0, &v, &err), 0);
    assert_int_equal(v.n, 256);
    mk_vocab_free(&v);
    write_json(json, "", "[]", "[{\"id\": 256, \"content\": \"<x>\"}]");
    assert_int_equal(mk_vocab_json(json, 0, &v, &err), 0);
    assert_int_equal(v.n, 320);
    assert_string_equal(v.tokens[256], "<x>");
    assert_int_equal(v.types[256], 4);
    assert_string_equal(v.tokens[319], "[PAD319]");
    mk_vocab_free(&v);
    assert_int_equal(mk_vocab_json(json, 300, &v, &err), 0);
    assert_int_equal(v.n, 300);
    mk_vocab_free(&v);
    unlink(json);
}

/* Only tiny fits the vocabulary; the real shapes keep their embedding rows
 * (checked on the plan, which is never written). Without --vocab, tiny
 * keeps its 512 built-in tokens. */
static void test_vocab_fits_tiny_only(void **state) {
    (void)state;
    char json[128];
    path_in_dir(json, sizeof json, "fit.json");
    write_json(json, "", "[]", NULL);
    mk_job job;
    sb_err err = {0};
    mk_opts o = {.shape = MK_SHAPE_0_5B, .recipe = MK_RECIPE_Q8_0,
                          .vocab_json = json};
    assert_int_equal(mk_job_init(&job, &o, &err), 0);
    assert_int_equal(job.shape.n_vocab, 151936);
    assert_int_equal(job.vocab.n, 151936);
    assert_int_equal(plan_find(&job.plan, "token_embd.weight")->ne[1], 151936);
    mk_job_free(&job);
    o.shape = MK_SHAPE_TINY;
    assert_int_equal(mk_job_init(&job, &o, &err), 0);
    assert_int_equal(job.shape.n_vocab, 256);
    assert_int_equal(plan_find(&job.plan, "token_embd.weight")->ne[1], 256);
    mk_job_free(&job);
    o.vocab_json = NULL;
    assert_int_equal(mk_job_init(&job, &o, &err), 0);
    assert_int_equal(job.vocab.n, 512);
    assert_int_equal(plan_find(&job.plan, "token_embd.weight")->ne[1], 512);
    mk_job_free(&job);
    assert_int_equal(mk_shape_hparams(MK_SHAPE_TINY)->n_vocab, 512);
    unlink(json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_plan_7b_q4_k_m),
        cmocka_unit_test(test_plan_0_5b_q4_k_m),
        cmocka_unit_test(test_plan_1_5b_q4_k_m),
        cmocka_unit_test(test_plan_q8_0_and_f32),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_thread_count_independent),
        cmocka_unit_test(test_tiny_loads_f32),
        cmocka_unit_test(test_tiny_loads_q8_0),
        cmocka_unit_test(test_tiny_loads_q4_k_m),
        cmocka_unit_test(test_tiny_weight_ranges),
        cmocka_unit_test(test_vocab_json),
        cmocka_unit_test(test_vocab_json_errors),
        cmocka_unit_test(test_vocab_json_sizes),
        cmocka_unit_test(test_vocab_fits_tiny_only),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
