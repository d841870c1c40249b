/*
 * The vocabulary and the encoder on the built-in byte vocabulary (no
 * merges): GPT-2's byte-to-unicode map, every byte's token, special tokens
 * (literal text, matched before anything else unless switched off), invalid
 * UTF-8, argument edges, and the load errors of a vocabulary that cannot
 * serve byte-level tokenization. BPE proper: test_bpe.c; the split:
 * test_pretok.c; the real vocabulary: test_tokenizer_ref.c.
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
#include "../../engine/model_internal.h"
#include "../support/tiny_model.h"

static char dir[64];
static char path[128];

static int setup_dir(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sb-tok-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/v.gguf", dir);
    return 0;
}

static int remove_dir(void **state) {
    (void)state;
    unlink(path);
    return rmdir(dir);
}

/* The map is a bijection from bytes onto code points 0..323 that keeps the
 * printable bytes and sends the other 68 to 256.. in byte order. */
static void test_gpt2_map(void **state) {
    (void)state;
    bool seen[324] = {0};
    uint32_t next = 256;
    for (int b = 0; b < 256; b++) {
        uint32_t cp = gguf_gpt2_byte_to_cp((uint8_t)b);
        bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) ||
                         b >= 174;
        assert_int_equal(cp, printable ? (uint32_t)b : next);
        if (!printable) next++;
        assert_true(cp < 324);
        assert_false(seen[cp]);
        seen[cp] = true;
        assert_int_equal(gguf_gpt2_cp_to_byte(cp), b);
    }
    assert_int_equal(next, 256 + 68);
    assert_int_equal(gguf_gpt2_byte_to_cp(' '), 0x120); /* "Ġ" */
    assert_int_equal(gguf_gpt2_byte_to_cp('\n'), 0x10A); /* "Ċ" */
    for (uint32_t cp = 0; cp < 400; cp++)
        if (cp >= 324 || !seen[cp]) assert_int_equal(gguf_gpt2_cp_to_byte(cp), -1);
}

/* All 256 bytes: byte b is token b of the built-in vocabulary, its bytes
 * are {b}; well-formed text (no merges) encodes one id per byte and its
 * tokens give the text back. */
static void test_byte_round_trip(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    for (int b = 0; b < 256; b++) {
        int64_t len = -1;
        const char *t = eng_token_bytes(m, b, &len);
        assert_non_null(t);
        assert_int_equal(len, 1);
        assert_int_equal((unsigned char)t[0], b);
    }
    char text[256];
    int64_t n = 0;
    for (int c = 0; c < 128; c++) text[n++] = (char)c;
    static const char wide[] = "\xc3\xa9" "\xe6\xbc\xa2" "\xf0\x9f\x99\x82"
                               "\xf4\x8f\xbf\xbf"; /* é 漢 🙂 U+10FFFF */
    memcpy(text + n, wide, sizeof wide - 1);
    n += (int64_t)sizeof wide - 1;
    int32_t ids[256];
    assert_int_equal(eng_tokenize(m, text, n, ids, 256), n);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(ids[i], (unsigned char)text[i]);
    eng_model_free(m);
}

/* Special tokens are matched before anything else (leftmost, longest) and
 * keep their literal text; ENG_TOK_SPECIAL off encodes the text as text.
 * The built-in vocabulary's [PAD<i>] slots are UNUSED tokens (as llama.cpp
 * types them), so their text is ordinary text. */
static void test_special_tokens(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    static const char *const want[] = {"<|endoftext|>", "<|im_start|>",
                                       "<|im_end|>"};
    for (int i = 0; i < 3; i++) {
        int64_t len;
        const char *b = eng_token_bytes(m, 256 + i, &len);
        assert_non_null(b);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(b, want[i], len);
        assert_int_equal(eng_special_id(m, want[i]), 256 + i);
    }
    int64_t len;
    const char *b = eng_token_bytes(m, 511, &len);
    assert_int_equal(len, 8);
    assert_memory_equal(b, "[PAD511]", 8);
    assert_int_equal(eng_model_eos(m), 258);
    int32_t ids[32];
    assert_int_equal(eng_tokenize(m, "<|im_end|>", 10, ids, 32), 1);
    assert_int_equal(ids[0], 258);
    assert_int_equal(eng_tokenize(m, "a<|im_start|><|im_end|>b", 24, ids, 32), 4);
    assert_int_equal(ids[0], 'a');
    assert_int_equal(ids[1], 257);
    assert_int_equal(ids[2], 258);
    assert_int_equal(ids[3], 'b');
    assert_int_equal(eng_tokenize(m, "<|im_end", 8, ids, 32), 8);
    assert_int_equal(eng_special_id(m, "[PAD259]"), -1);
    assert_int_equal(eng_tokenize(m, "x[PAD300]", 9, ids, 32), 9);
    assert_int_equal(ids[1], '[');
    assert_int_equal(eng_tokenize_ex(m, "<|im_end|>", 10, ids, 32, 0), 10);
    assert_int_equal(ids[0], '<');
    assert_int_equal(eng_special_id(m, "<|im_end"), -1);
    eng_model_free(m);
}

/* Invalid UTF-8 is repaired, never refused: each maximal ill-formed
 * subpart becomes U+FFFD, whose three bytes are three ids here. */
static void test_invalid_utf8(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    int32_t ids[16];
    assert_int_equal(eng_tokenize(m, "a\xff" "b", 3, ids, 16), 5);
    static const int32_t want[] = {'a', 0xEF, 0xBF, 0xBD, 'b'};
    assert_memory_equal(ids, want, sizeof want);
    /* three bytes in, nine ids out: the 3n bound is tight */
    assert_int_equal(eng_tokenize(m, "\xed\xa0\x80", 3, NULL, 0), 9);
    assert_int_equal(eng_tokenize(m, "\xe2\x82<|im_end|>", 12, ids, 16), 4);
    assert_int_equal(ids[3], 258);
    eng_model_free(m);
}

static void test_tokenize_edges(void **state) {
    (void)state;
    eng_model *m = test_tiny_model_load(MK_RECIPE_Q8_0);
    int32_t ids[4] = {-7, -7, -7, -7};
    /* more ids than room: the count needed, only cap written */
    assert_int_equal(eng_tokenize(m, "hello", 5, ids, 3), 5);
    assert_int_equal(ids[0], 'h');
    assert_int_equal(ids[2], 'l');
    assert_int_equal(ids[3], -7);
    assert_int_equal(eng_tokenize(m, "", 0, NULL, 0), 0);
    assert_int_equal(eng_tokenize(m, "abc", 3, NULL, 0), 3);
    assert_int_equal(eng_tokenize(m, "abc", -1, ids, 4), -1);
    assert_int_equal(eng_tokenize(m, NULL, 2, ids, 4), -1);
    assert_int_equal(eng_tokenize(NULL, "abc", 3, ids, 4), -1);
    assert_int_equal(eng_tokenize(m, "abc", 3, NULL, 4), -1);
    assert_int_equal(eng_tokenize_ex(m, "abc", 3, ids, 4, 1u << 5), -1);
    /* a special id past cap is counted, not written */
    ids[1] = -7;
    assert_int_equal(eng_tokenize(m, "x<|im_end|>", 11, ids, 1), 2);
    assert_int_equal(ids[0], 'x');
    assert_int_equal(ids[1], -7);
    int64_t len = 99;
    assert_null(eng_token_bytes(m, -1, &len));
    assert_int_equal(len, 0);
    assert_null(eng_token_bytes(m, 512, &len));
    assert_int_equal(eng_n_vocab(m), 512);
    eng_model_free(m);
}

/* ---- vocabularies that cannot load ---- */


static void test_missing_byte_token(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    test_job_set_token(&job, 'A', "AA", GGUF_TOKEN_NORMAL);
    test_job_write_and_load(&job, path, "no token for byte 0x41");
    /* a control token with the byte's text does not stand in for it */
    test_job_init(&job);
    test_job_set_token(&job, 'z', "zz", GGUF_TOKEN_NORMAL);
    test_job_set_token(&job, 300, "z", GGUF_TOKEN_CONTROL);
    test_job_write_and_load(&job, path, "no token for byte 0x7a");
}

static void test_normal_token_not_byte_form(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    test_job_set_token(&job, 300, "\xe4\xb8\x80", GGUF_TOKEN_NORMAL); /* U+4E00 */
    test_job_write_and_load(&job, path, "token 300");
    test_job_init(&job);
    test_job_set_token(&job, 301, "a b", GGUF_TOKEN_NORMAL); /* raw space: unmapped */
    test_job_write_and_load(&job, path, "not in GPT-2 byte-to-unicode form");
    test_job_init(&job);
    test_job_set_token(&job, 302, "\xc4", GGUF_TOKEN_NORMAL); /* truncated UTF-8 */
    test_job_write_and_load(&job, path, "token 302");
}

/* Multi-byte tokens decode; special and user-defined ones stay literal
 * (spaces and all); the lowest one-byte token wins the byte's slot. */
static void test_decoding(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    test_job_set_token(&job, 300, "\xc4\xa0hello\xc4\x8a", GGUF_TOKEN_NORMAL);
    test_job_set_token(&job, 301, "<tool call>", GGUF_TOKEN_USER_DEFINED);
    test_job_set_token(&job, 302, "\xc4\xa0", GGUF_TOKEN_NORMAL); /* a second " " */
    test_job_set_token(&job, 303, "\xc3\xa9", GGUF_TOKEN_NORMAL); /* "é" = byte 0xe9 */
    eng_model *m = test_job_write_and_load(&job, path, NULL);
    int64_t len;
    const char *b = eng_token_bytes(m, 300, &len);
    assert_int_equal(len, 7);
    assert_memory_equal(b, " hello\n", 7);
    b = eng_token_bytes(m, 301, &len);
    assert_int_equal(len, 11);
    assert_memory_equal(b, "<tool call>", 11);
    b = eng_token_bytes(m, 303, &len);
    assert_int_equal(len, 1);
    assert_int_equal((unsigned char)b[0], 0xe9);
    /* U+9000 is E9 80 80: its first byte is token 0xe9, not 303 */
    int32_t ids[4];
    assert_int_equal(eng_tokenize(m, " \xe9\x80\x80", 4, ids, 4), 4);
    assert_int_equal(ids[0], ' ');
    assert_int_equal(ids[1], 0xe9);
    eng_model_free(m);
}

static void test_bad_token_type(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    job.vocab.types[7] = 9;
    test_job_write_and_load(&job, path, "'tokenizer.ggml.token_type'[7] is 9");
}

/* A tokenizer model other than gpt2 is refused: its strings are not in
 * byte-to-unicode form. The file is damaged in place: "gpt2" -> "bert". */
static void test_not_gpt2(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    sb_err err = {0};
    if (mk_job_write(&job, path, &err)) fail_msg("write: %s", err.msg);
    mk_job_free(&job);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    static char head[1 << 16];
    size_t n = fread(head, 1, sizeof head, f);
    static const char key[] = "tokenizer.ggml.model";
    char *k = NULL;
    for (size_t i = 0; !k && i + sizeof key - 1 <= n; i++)
        if (!memcmp(head + i, key, sizeof key - 1)) k = head + i;
    assert_non_null(k);
    /* key, then u32 type (string), u64 length 4, then the value */
    long at = (long)(k - head) + (long)sizeof key - 1 + 4 + 8;
    assert_memory_equal(head + at, "gpt2", 4);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    assert_int_equal(fwrite("bert", 1, 4, f), 4);
    assert_int_equal(fclose(f), 0);
    eng_model *m = eng_model_load(path, &err);
    unlink(path);
    assert_null(m);
    assert_non_null(strstr(err.msg, "'tokenizer.ggml.model' is 'bert', "
                                    "expected 'gpt2'"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpt2_map),
        cmocka_unit_test(test_byte_round_trip),
        cmocka_unit_test(test_special_tokens),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_tokenize_edges),
        cmocka_unit_test(test_missing_byte_token),
        cmocka_unit_test(test_normal_token_not_byte_form),
        cmocka_unit_test(test_decoding),
        cmocka_unit_test(test_bad_token_type),
        cmocka_unit_test(test_not_gpt2),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
