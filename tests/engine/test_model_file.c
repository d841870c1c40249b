/*
 * The model file changed under a loaded model: a loaded
 * model holds its own copy of the file, so truncating, rewriting or
 * replacing the file afterwards neither crashes a step (it was SIGBUS:
 * weights pointed into a mapping of the file) nor changes the weights or
 * the hash the session log records (they followed the file's new bytes);
 * and eng_generate refuses, naming the change, once the file moved on.
 * Each test copies the tiny q8_0 model to a file of its own and damages it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/engine.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

static const int32_t PROMPT[] = {100, 101, 102, 103, 104, 105};
enum { N_PROMPT = 6, N_GEN = 8 };

/* A fresh copy of the tiny q8_0 model in the scratch directory; its bytes
 * into *orig (caller frees) when orig is not NULL. */
static const char *model_copy(char **orig, size_t *len) {
    size_t n;
    char *bytes = test_read_file(test_tiny_model_path(MK_RECIPE_Q8_0), &n);
    const char *p = test_sb_path(0, "model.gguf");
    unlink(p);
    test_write_file(p, bytes, n);
    if (orig) *orig = bytes, *len = n;
    else free(bytes);
    return p;
}

static eng_model *load(const char *p) {
    sb_err err = {0};
    eng_model *m = eng_model_load(p, &err);
    if (!m) fail_msg("eng_model_load: %s", err.msg);
    return m;
}

static eng_session *session(const eng_model *m) {
    sb_err err = {0};
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 2}, &err);
    if (!s) fail_msg("eng_session_create: %s", err.msg);
    return s;
}

/* The prompt's last-row logits, by prefill (no file check on this path:
 * it shows what the weights are, whatever the file says). */
static float *prefill_logits(eng_session *s, const eng_model *m) {
    float *out = malloc((size_t)eng_n_vocab(m) * sizeof *out);
    assert_non_null(out);
    sb_err err = {0};
    eng_session_truncate(s, 0);
    if (eng_session_prefill(s, PROMPT, N_PROMPT, 64, out, &err))
        fail_msg("prefill: %s", err.msg);
    return out;
}

static int generate(eng_session *s, char sha[65], sb_err *err) {
    eng_gen_params p = eng_gen_defaults();
    p.n_max = N_GEN;
    eng_gen_result r;
    int rc = eng_generate(s, PROMPT, N_PROMPT, &p, NULL, NULL, &r, err);
    if (rc == 0) {
        memcpy(sha, r.sha256, 65);
        free(r.tokens);
    }
    return rc;
}

static void truncate_file(const char *p, off_t size) {
    assert_int_equal(truncate(p, size), 0);
}

/* The SIGBUS: the file cut to nothing after load, then a step.
 * Before: the step touched pages of a mapping past the file's end and the
 * process died. Now: the step runs on the copy, bit for bit as before;
 * generation is refused with an error naming the change. */
static void test_truncated_after_load(void **state) {
    (void)state;
    const char *p = model_copy(NULL, NULL);
    eng_model *m = load(p);
    eng_session *s = session(m);
    char before[65], after[65];
    sb_err err = {0};
    if (generate(s, before, &err)) fail_msg("generate: %s", err.msg);
    float *want = prefill_logits(s, m);
    truncate_file(p, 0);
    float *got = prefill_logits(s, m);
    assert_memory_equal(got, want, (size_t)eng_n_vocab(m) * sizeof *got);
    assert_int_equal(generate(s, after, &err), -1);
    if (!strstr(err.msg, "changed since it was loaded") ||
        !strstr(err.msg, "its size changed") || !strstr(err.msg, "load the model again"))
        fail_msg("unexpected error: %s", err.msg);
    /* loaded again (the file restored): the same tokens as before */
    eng_session_destroy(s);
    eng_model_free(m);
    p = model_copy(NULL, NULL);
    m = load(p);
    s = session(m);
    err = (sb_err){0};
    if (generate(s, after, &err)) fail_msg("generate: %s", err.msg);
    assert_string_equal(after, before);
    free(want);
    free(got);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Cut in half rather than emptied: the same. */
static void test_half_truncated(void **state) {
    (void)state;
    char *orig;
    size_t len;
    const char *p = model_copy(&orig, &len);
    eng_model *m = load(p);
    eng_session *s = session(m);
    truncate_file(p, (off_t)(len / 2));
    float *got = prefill_logits(s, m);
    free(got);
    sb_err err = {0};
    char sha[65];
    assert_int_equal(generate(s, sha, &err), -1);
    assert_non_null(strstr(err.msg, "its size changed"));
    free(orig);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Rewritten in place, same size: before, later steps ran on the new bytes
 * while the hash (taken lazily from the mapping) described whichever bytes
 * it read. Now the hash is the loaded bytes' and generation is refused. */
static void test_rewritten_in_place(void **state) {
    (void)state;
    char *orig;
    size_t len;
    const char *p = model_copy(&orig, &len);
    char want_sha[65];
    sb_sha256_hex(orig, len, want_sha);
    eng_model *m = load(p);
    eng_session *s = session(m);
    float *want = prefill_logits(s, m);
    /* the last quarter of the file (weights) overwritten with other bytes */
    int fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    size_t from = len - len / 4;
    char *junk = malloc(len - from);
    assert_non_null(junk);
    for (size_t i = 0; i < len - from; i++) junk[i] = (char)(orig[from + i] ^ 0x5a);
    assert_int_equal(pwrite(fd, junk, len - from, (off_t)from), (ssize_t)(len - from));
    close(fd);
    float *got = prefill_logits(s, m);
    assert_memory_equal(got, want, (size_t)eng_n_vocab(m) * sizeof *got);
    assert_string_equal(eng_model_sha256(m), want_sha);
    sb_err err = {0};
    assert_int_equal(eng_model_check_file(m, &err), -1);
    assert_non_null(strstr(err.msg, "changed since it was loaded"));
    char sha[65];
    err = (sb_err){0};
    assert_int_equal(generate(s, sha, &err), -1);
    free(junk);
    free(want);
    free(got);
    free(orig);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Replaced by a rename (how a download tool finishes): refused. Deleted:
 * no other bytes claim the path, so the snapshot goes on. */
static void test_replaced_or_deleted(void **state) {
    (void)state;
    const char *p = model_copy(NULL, NULL);
    eng_model *m = load(p);
    sb_err err = {0};
    assert_int_equal(eng_model_check_file(m, &err), 0);
    const char *other = test_sb_path(1, "other.gguf");
    size_t n;
    char *bytes = test_read_file(p, &n);
    test_write_file(other, bytes, n);
    free(bytes);
    assert_int_equal(rename(other, p), 0);
    assert_int_equal(eng_model_check_file(m, &err), -1);
    assert_non_null(strstr(err.msg, "it was replaced by another file"));
    unlink(p);
    err = (sb_err){0};
    assert_int_equal(eng_model_check_file(m, &err), 0);
    eng_session *s = session(m);
    char sha[65];
    if (generate(s, sha, &err)) fail_msg("generate: %s", err.msg);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* Nothing changed: the check passes, also after a chdir (the path is kept
 * absolute), and a model from a buffer has no file to check. */
static void test_unchanged(void **state) {
    (void)state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(test_sb_dir()), 0);
    model_copy(NULL, NULL);
    eng_model *m = load("model.gguf");
    assert_int_equal(chdir("/"), 0);
    sb_err err = {0};
    assert_int_equal(eng_model_check_file(m, &err), 0);
    assert_string_equal(err.msg, "");
    assert_int_equal(chdir(cwd), 0);
    eng_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_after_load),
        cmocka_unit_test(test_half_truncated),
        cmocka_unit_test(test_rewritten_in_place),
        cmocka_unit_test(test_replaced_or_deleted),
        cmocka_unit_test(test_unchanged),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
