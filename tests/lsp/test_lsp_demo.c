/*
 * make demo's editor (tests/lsp/lsp_demo.c) against the real server: with
 * the chain model (chain_model.h: its greedy answer to any edit prompt is
 * REPLY) it must open the file, run sonicboom.edit through sb-lsp, apply
 * the workspace/applyEdit hunks, and leave exactly REPLY as the document;
 * and report a failure (a missing file) with exit 1 and nothing written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>

#include "../support/run_sb.h"
#include "chain_model.h"

static const char *const ORIGINAL = "one\ntwo\nthree\nfour\n";
static const char *const REPLY = "one\nTWO\nthree\nfour\nfive\n";

static char g_dir[64];

/* Runs lsp_demo on `file` with the chain model; its exit status, stdout in out. */
static int run_demo(const char *file, const char *result, char *out, size_t cap) {
    const char *build = getenv("SB_BUILD");
    if (!build || !*build) build = "build";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "SB_MODEL='%s/chain.gguf' '%s/lsp_demo' '%s/sb-lsp' '%s' "
             "'make it louder' '%s' 2>/dev/null", g_dir, build, build, file, result);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    const size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_demo_edit_through_lsp(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/sb-lsp-demo-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    char model[128], file[128], result[128], out[1024];
    snprintf(model, sizeof model, "%s/chain.gguf", g_dir);
    snprintf(file, sizeof file, "%s/numbers.txt", g_dir);
    snprintf(result, sizeof result, "%s/edited.txt", g_dir);
    sb_err err = {0};
    if (chain_model_write(model, REPLY, &err)) fail_msg("%s", err.msg);
    test_write_file(file, ORIGINAL, strlen(ORIGINAL));

    assert_int_equal(run_demo(file, result, out, sizeof out), 0);
    char *edited = test_read_file(result, NULL);
    assert_string_equal(edited, REPLY);
    free(edited);
    assert_non_null(strstr(out, "2 hunk(s)")); /* TWO, and five appended */
    assert_non_null(strstr(out, "sha256="));

    char missing[160];
    snprintf(missing, sizeof missing, "%s/absent.txt", g_dir);
    remove(result);
    assert_int_equal(run_demo(missing, result, out, sizeof out), 1);
    assert_int_not_equal(access(result, F_OK), 0); /* nothing written */

    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_demo_edit_through_lsp)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
