/*
 * Tests of `sb replay` as a user runs it: logs of real edits (the chain
 * model of tests/lsp answers every edit with a fixed reply, through the
 * real prompt, engine and extraction), written by the session-log writer
 * as sb-lsp writes them, then checked entry by entry and as a chain.
 *
 * Exit statuses: 0 intact and identical, 1 an entry differs or is
 * refused, 3 the log is damaged or empty.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../edit/edit.h"
#include "../../sessionlog/sessionlog.h"
#include "../lsp/chain_model.h"
#include "../support/run_sb.h"

static const char DOC[] = "alpha\nbeta\ngamma\n";
static const char REPLY[] = "alpha\nBETA\ngamma\n";

static const char *model_path(void) { return test_sb_path(0, "chain.gguf"); }
static const char *log_path(void) { return test_sb_path(1, "edits.jsonl"); }

/* One real edit of DOC (whole document), as sb-lsp runs it. */
typedef struct real_edit {
    eng_model *model;
    edit_result r;
} real_edit;

static real_edit g_edit;

static int setup(void **state) {
    (void)state;
    if (test_sb_setup("replay")) return -1;
    sb_err err = {0};
    if (chain_model_write(model_path(), REPLY, &err)) return -1;
    g_edit.model = eng_model_load(model_path(), &err);
    eng_session *s = g_edit.model
                         ? eng_session_create(g_edit.model,
                                              &(eng_options){.n_threads = 1}, &err)
                         : NULL;
    if (!s) return -1;
    /* what replay makes of the entry below: the uri's path, its language */
    edit_request rq = {.file = DOC, .file_len = sizeof DOC - 1,
                       .instruction = "uppercase beta", .instruction_len = 14,
                       .language = "plaintext", .path = "/tmp/doc.txt"};
    edit_opts o = edit_defaults();
    int rc = edit_run(s, &rq, &o, &g_edit.r, &err);
    eng_session_destroy(s);
    return rc;
}

static int teardown(void **state) {
    (void)state;
    edit_result_free(&g_edit.r);
    eng_model_free(g_edit.model);
    return test_sb_teardown();
}

/* The entry sb-lsp logs for g_edit. */
static slog_entry logged(void) {
    const edit_result *r = &g_edit.r;
    return (slog_entry){
        .engine_version = eng_version(), .backend = "cpu", .device_name = "cpu",
        .model_path = model_path(), .model_sha256 = eng_model_sha256(g_edit.model),
        .uri = "file:///tmp/doc.txt", .language = "plaintext", .document = DOC,
        .document_len = sizeof DOC - 1, .region_start = 0,
        .region_end = sizeof DOC - 1, .instruction = "uppercase beta",
        .instruction_len = 14, .speculation = true,
        .prompt_version = r->prompt_version, .n_prompt = r->n_prompt,
        .prompt_sha256 = r->prompt_sha256, .output = r->gen.tokens,
        .n_output = r->gen.n_tokens, .output_sha256 = r->gen.sha256,
        .status = "done", .steps = r->gen.steps};
}

/* A new log of one session: a good entry, then `second` (unless NULL). */
static void write_log(const slog_entry *second) {
    unlink(log_path());
    sb_err err = {0};
    slog_writer *w = slog_open(log_path(), &err);
    if (!w) fail_msg("%s", err.msg);
    slog_entry e = logged();
    assert_int_equal(slog_append(w, &e, &err), 0);
    if (second) assert_int_equal(slog_append(w, second, &err), 0);
    assert_int_equal(slog_close(w, &err), 0);
}

static int replay(const char *extra) {
    return test_sb("replay '%s' %s", log_path(), extra);
}

static void test_intact(void **state) {
    (void)state;
    assert_int_equal(g_edit.r.status, EDIT_DONE);
    slog_entry e = logged();
    write_log(&e);
    assert_int_equal(replay(""), 0);
    assert_true(test_sb_output_has("out", "entry at line 1: identical"));
    assert_true(test_sb_output_has("out", "entry at line 2: identical"));
    assert_true(test_sb_output_has("err", "2 identical"));
    /* speculation off, and the chain alone */
    assert_int_equal(replay("--speculation off"), 0);
    assert_int_equal(replay("--chain-only"), 0);
    char *out = test_sb_read("out", NULL);
    assert_null(strstr(out, "identical ("));
    free(out);
}

/* Each field that states a result is checked against the replay or the
 * entry itself, with the chain intact (the writer logs what it is given). */
static void test_stated_results(void **state) {
    (void)state;
    slog_entry e = logged();
    e.output_sha256 = "00000000000000000000000000000000000000000000000000000000000000aa";
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "entry at line 2: different: its "
                                   "output_sha256 is not the SHA-256"));

    e = logged();
    e.status = "bad-answer";
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "different: status done here, "
                                   "bad-answer in the log"));

    e = logged();
    e.n_prompt += 1;
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "different: the prompt's ids"));

    /* the output ids and their hash changed together */
    int32_t ids[256];
    memcpy(ids, e.output, (size_t)e.n_output * sizeof *ids);
    e = logged();
    ids[0] = ids[0] == 5 ? 6 : 5;
    e.output = ids;
    char sha[65];
    eng_tokens_sha256(ids, e.n_output, sha);
    e.output_sha256 = sha;
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "entry at line 2: different at token 0"));

    /* a region that does not cover whole lines */
    e = logged();
    e.region_start = 2;
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "region does not cover whole lines"));
}

/* Another engine version is refused unless asked for; none at all too. */
static void test_engine_version(void **state) {
    (void)state;
    slog_entry e = logged();
    e.engine_version = "0.0.1-elsewhere";
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "entry at line 2: refused: logged by "
                                   "engine 0.0.1-elsewhere"));
    assert_int_equal(replay("--any-version"), 0);
    assert_true(test_sb_output_has("out", "entry at line 2: identical"));

    e.engine_version = NULL;
    write_log(&e);
    assert_int_equal(replay(""), 1);
    assert_true(test_sb_output_has("out", "names no engine version"));
}

/* A log made on the GPU replays on the CPU (--device cpu) to the same bits;
 * here the entry says cuda, and the CPU must reproduce its ids. */
static void test_other_device(void **state) {
    (void)state;
    slog_entry e = logged();
    e.backend = "cuda";
    e.device_name = "NVIDIA H200";
    write_log(&e);
    assert_int_equal(replay("--device cpu"), 0);
    assert_true(test_sb_output_has("out", "entry at line 2: identical"));
}

/* Damage wins over identical entries: exit 3, each finding named. */
static void test_damaged_and_empty(void **state) {
    (void)state;
    slog_entry e = logged();
    write_log(&e);
    /* delete the first entry: the second still replays identical */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sed -i 1d '%s'", log_path());
    assert_int_equal(system(cmd), 0);
    assert_int_equal(replay(""), 3);
    assert_true(test_sb_output_has("out", "damage at line 1: deletion"));
    assert_true(test_sb_output_has("out", "entry at line 1: identical"));
    assert_true(test_sb_output_has("err", "DAMAGED"));
    assert_int_equal(replay("--chain-only"), 3);

    /* an empty log proves nothing */
    test_write_file(log_path(), "", 0);
    assert_int_equal(replay(""), 3);
    assert_true(test_sb_output_has("out", "holds no edit entry"));
    assert_int_equal(test_sb("replay /nonexistent/log.jsonl"), 1);
    assert_true(test_sb_output_has("err", "/nonexistent/log.jsonl"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intact),
        cmocka_unit_test(test_stated_results),
        cmocka_unit_test(test_engine_version),
        cmocka_unit_test(test_other_device),
        cmocka_unit_test(test_damaged_and_empty),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
