/*
 * sb-lsp with a warm-up table (initializationOptions.warmup): the session
 * takes the table after checking its fingerprint, the session log records
 * the table file's SHA-256, and a table for another model is refused with
 * a message naming it, the server staying up. The drafts are sized by this
 * machine's step costs: the table's, else measured when the session is
 * made, unless costTable names a table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../warmup/warmup.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"
#include "chain_model.h"
#include "lsp_client.h"

static const char DOC[] = "one\ntwo\nthree\n";
static const char REPLY[] = "one\nTWO\nthree\n";
static const char URI[] = "file:///tmp/sb-lsp-warmup/doc.txt";

static const char *model_path(void) { return test_sb_path(0, "chain.gguf"); }
static const char *log_path(void) { return test_sb_path(1, "edits.jsonl"); }

/* A table made here for the model at path, saved to out. */
static void make_table(const char *model, const char *out) {
    sb_err err = {0};
    eng_model *m = eng_model_load(model, &err);
    eng_session *s = m ? eng_session_create(m, &(eng_options){.n_threads = 1}, &err)
                       : NULL;
    wu_table t;
    if (!s || wu_table_make(s, m, &t, &err) || wu_table_save(out, &t, &err))
        fail_msg("%s", err.msg);
    wu_table_free(&t);
    eng_session_destroy(s);
    eng_model_free(m);
}

/* The last "step costs" line the server logged (window/logMessage). */
static char g_costs_line[1024];

static json_t *await(client *c, int64_t id, int *shows, char *shown, size_t cap) {
    json_t *m;
    while ((m = client_next(c))) {
        if (client_is_response(m, id)) return m;
        const char *method = client_method(m);
        const char *text = json_string_value(
            json_object_get(json_object_get(m, "params"), "message"));
        if (method && !strcmp(method, "window/logMessage") && text &&
            strstr(text, "step costs"))
            snprintf(g_costs_line, sizeof g_costs_line, "%s", text);
        if (method && !strcmp(method, "workspace/applyEdit"))
            client_send(c, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"),
                                     "result", "applied", 1));
        if (method && !strcmp(method, "window/showMessage")) {
            (*shows)++;
            snprintf(shown, cap, "%s", json_string_value(json_object_get(
                                           json_object_get(m, "params"), "message")));
        }
        json_decref(m);
    }
    fail_msg("sb-lsp ended without answering request %lld", (long long)id);
    return NULL;
}

/* One server with option key set to value (key NULL: neither), one edit
 * of DOC; the edit's response (caller decrefs) and the last message shown. */
static json_t *edit_with(const char *key, const char *value, char *shown, size_t cap) {
    client c;
    client_start(&c, NULL, NULL);
    json_t *opts = json_pack("{s:s,s:s,s:i}", "model", model_path(), "log", log_path(),
                             "threads", 1);
    if (key) json_object_set_new(opts, key, json_string(value));
    g_costs_line[0] = '\0';
    int shows = 0;
    json_decref(await(&c, client_request(&c, "initialize", json_pack(
                          "{s:i,s:{},s:o}", "processId", (int)getpid(),
                          "capabilities", "initializationOptions", opts)),
                      &shows, shown, cap));
    client_notify(&c, "initialized", NULL);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId",
        "plaintext", "version", 1, "text", DOC));
    json_t *r = await(&c, client_request(&c, "workspace/executeCommand", json_pack(
                          "{s:s,s:[{s:s,s:s}]}", "command", "sonicboom.edit",
                          "arguments", "uri", URI, "instruction", "shout two")),
                      &shows, shown, cap);
    json_decref(await(&c, client_request(&c, "shutdown", NULL), &shows, shown, cap));
    client_notify(&c, "exit", NULL);
    assert_int_equal(client_finish(&c), 0);
    return r;
}

static void test_table_taken_and_logged(void **state) {
    (void)state;
    const char *table = test_sb_path(2, "table.json");
    make_table(model_path(), table);
    unlink(log_path());
    char shown[512] = "";
    json_t *r = edit_with("warmup", table, shown, sizeof shown);
    assert_int_equal(client_error_code(r), 0);
    json_decref(r);
    /* its step costs are this machine's: the drafts are sized by them */
    if (!strstr(g_costs_line, "(warm-up table: "))
        fail_msg("step costs not the table's: '%s'", g_costs_line);
    /* the log's entry names the table file by its SHA-256 */
    size_t len;
    char *bytes = test_read_file(table, &len), want[65];
    sb_sha256_hex(bytes, len, want);
    free(bytes);
    char *log = test_read_file(log_path(), NULL);
    char field[100];
    snprintf(field, sizeof field, "\"warmup_table_sha256\":\"%s\"", want);
    if (!strstr(log, field)) fail_msg("the log lacks %s:\n%s", field, log);
    free(log);
    assert_int_equal(test_sb("replay '%s' -m '%s'", log_path(), model_path()), 0);
}

static void test_table_of_another_model(void **state) {
    (void)state;
    const char *table = test_sb_path(3, "other.json");
    make_table(test_tiny_model_path(MK_RECIPE_F32), table);
    char shown[512] = "";
    json_t *r = edit_with("warmup", table, shown, sizeof shown);
    assert_int_equal(client_error_code(r), -32803);
    const char *msg = json_string_value(json_object_get(json_object_get(r, "error"),
                                                        "message"));
    if (!msg || !strstr(msg, "another model")) fail_msg("error: %s", msg);
    assert_non_null(strstr(shown, "another model"));
    json_decref(r);
}

/* Without a table the session's step costs are measured when it is made;
 * a costTable file is the user's choice and nothing is measured. */
static void test_step_costs_measured_or_named(void **state) {
    (void)state;
    char shown[512] = "";
    json_t *r = edit_with(NULL, NULL, shown, sizeof shown);
    assert_int_equal(client_error_code(r), 0);
    json_decref(r);
    if (!strstr(g_costs_line, "(measured: ") || !strstr(g_costs_line, "(cpu)") ||
        !strstr(g_costs_line, "1:"))
        fail_msg("step costs not measured: '%s'", g_costs_line);
    const char *file = test_sb_path(2, "costs.txt");
    test_write_file(file, "1 1\n8 2\n", 8);
    r = edit_with("costTable", file, shown, sizeof shown);
    assert_int_equal(client_error_code(r), 0);
    json_decref(r);
    assert_string_equal(g_costs_line, "");
}

static int setup(void **state) {
    (void)state;
    sb_err err = {0};
    if (test_sb_setup("lsp-warmup") || chain_model_write(model_path(), REPLY, &err))
        return -1;
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return test_sb_teardown();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_taken_and_logged),
        cmocka_unit_test(test_table_of_another_model),
        cmocka_unit_test(test_step_costs_measured_or_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
