/* What sb does with inputs an unlucky user or an attacker hands it (issue
 * 24): files without end or too large for the input cap, a directory where
 * a file belongs, a model whose name holds terminal control sequences. Each
 * must end in one clear line and exit 1, never read forever or print the
 * bytes raw. Through the built binary ("$SB_BUILD/sb"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../mkmodel/mkmodel_internal.h"
#include "../support/run_sb.h"
#include "../support/tiny_model.h"

/* stderr holds `want`; prints stderr when it does not. */
static void expect_err(const char *want) {
    assert_true(test_sb_output_has("err", want));
}

/* /dev/zero never ends: the default cap (16 MiB) stops it. Before the cap,
 * sb read on, growing ~175 MB/s, until memory ran out. */
static void test_prompt_file_without_end(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    assert_int_equal(test_sb("generate -m '%s' -f /dev/zero -n 1", model), 1);
    expect_err("cannot read prompt file '/dev/zero': larger than the limit of "
               "16777216 bytes (raise it with --max-input BYTES)");
    assert_int_equal(test_sb("generate -m '%s' -p 'int' -n 4 --draft-source "
                             "/dev/zero", model), 1);
    expect_err("cannot read draft source '/dev/zero': larger than the limit");
    assert_int_equal(test_sb("edit -m '%s' --file /dev/zero --instruction x",
                             model), 1);
    expect_err("cannot read the file '/dev/zero': larger than the limit");
}

/* --max-input moves the cap both ways: a file one byte over it is refused,
 * one exactly at it is read. */
static void test_max_input(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    const char *prompt = test_sb_path(0, "prompt.txt");
    test_write_file(prompt, "def add(a, b):", 14);
    assert_int_equal(test_sb("generate -m '%s' -f '%s' -n 2 --max-input 13",
                             model, prompt), 1);
    expect_err("larger than the limit of 13 bytes");
    assert_int_equal(test_sb("generate -m '%s' -f '%s' -n 2 --max-input 14",
                             model, prompt), 0);
    assert_int_equal(test_sb("generate -m '%s' -f '%s' --max-input 0", model,
                             prompt), 2);
    expect_err("--max-input '0': expected 1..");
    /* stdin has the same cap */
    assert_int_equal(test_sb("generate -m '%s' -f - -n 2 --max-input 5 < '%s'",
                             model, prompt), 1);
    expect_err("cannot read prompt file '(stdin)': larger than the limit of 5");
}

/* A directory opens, then every read fails: the message said "Input/output
 * error"; it must say what is wrong. */
static void test_directory_input(void **state) {
    (void)state;
    const char *model = test_tiny_model_path(MK_RECIPE_Q8_0);
    assert_int_equal(test_sb("generate -m '%s' -f '%s' -n 1", model,
                             test_sb_dir()), 1);
    expect_err("it is a directory, expected a file");
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction x", model,
                             test_sb_dir()), 1);
    expect_err("it is a directory, expected a file");
    /* the other inputs read by name: a cost table said
     * "Input/output error", replay "read failed after line 0", and
     * compare, --ids-in and --vocab parsed a directory as empty JSON */
    const char *dir = test_sb_dir();
    assert_int_equal(test_sb("edit -m '%s' --file '%s' --instruction x "
                             "--cost-table '%s'", model, model, dir), 1);
    expect_err("cost table: '");
    expect_err("' is a directory, expected a regular file");
    assert_int_equal(test_sb("replay '%s'", dir), 1);
    expect_err("session log: '");
    expect_err("' is a directory, expected a regular file");
    assert_int_equal(test_sb("compare '%s' '%s'", dir, dir), 1);
    expect_err("is a directory, expected a regular file");
    assert_int_equal(test_sb("logits -m '%s' --ids-in '%s' --out '%s'", model,
                             dir, test_sb_path(0, "x")), 1);
    expect_err("--ids-in: '");
    expect_err("' is a directory, expected a regular file");
    assert_int_equal(test_sb("mkmodel --shape tiny --quant f32 --quiet --vocab "
                             "'%s' -o '%s'", dir, test_sb_path(0, "v.gguf")), 1);
    expect_err("tokenizer.json: '");
    expect_err("' is a directory, expected a regular file");
}

/* A large file that is not a GGUF is refused by its magic before it is
 * read: under a 1 GB address-space limit, a 2 GB sparse file says "bad
 * magic" (it was read whole first: 8 s and 2.1 GB, here "cannot
 * allocate"). Under the sanitizers (SB_SANITIZED=1), whose shadow memory
 * needs far more address space than any such limit, the same run goes
 * without the limit: only the message is checked there. */
static void test_info_checks_magic_first(void **state) {
    (void)state;
    const char *path = test_sb_path(0, "big.bin");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("NOPE", f);
    fclose(f);
    assert_int_equal(truncate(path, (off_t)2 << 30), 0);
    const char *build = getenv("SB_BUILD");
    char cmd[1024];
    const char *san = getenv("SB_SANITIZED");
    snprintf(cmd, sizeof cmd, "%s'%s/sb' info -m '%s' 2>'%s'",
             san && *san == '1' ? "" : "ulimit -v 1048576; ",
             build && *build ? build : "build", path, test_sb_path(1, "err"));
    int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    expect_err("bad magic 4e 4f 50 45");
    unlink(path);
}

/* A bad option is one line naming it (getopt's own message and a
 * "(see --help)" line made three before). */
static void test_bad_option_one_line(void **state) {
    (void)state;
    const char *cases[] = {"mkmodel --bogus", "generate -n", "replay --x=1"};
    const char *want[] = {"option '--bogus'", "option -n", "option '--x=1'"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(test_sb("%s", cases[i]), 2);
        size_t len;
        char *err = test_sb_read("err", &len);
        assert_non_null(strstr(err, want[i]));
        assert_true(len > 0 && strchr(err, '\n') == err + len - 1);
        free(err);
    }
}

/* A model named with an escape sequence (set the window title, clear the
 * screen), a C1 control, a bidi override and a backslash: sb info shows
 * each escaped and prints none of those bytes. */
static void test_info_escapes_name(void **state) {
    (void)state;
    static const char name[] = "evil\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                               "\xe2\x80\xae" "a\\b \xc3\xa9t\xc3\xa9\xff";
    mk_job job;
    test_job_init(&job);
    memcpy(job.name, name, sizeof name);
    const char *path = test_sb_path(0, "evil.gguf");
    sb_err err = {0};
    if (mk_job_write(&job, path, &err)) fail_msg("write: %s", err.msg);
    mk_job_free(&job);
    assert_int_equal(test_sb("info -m '%s'", path), 0);
    char *out = test_sb_read("out", NULL);
    assert_null(strchr(out, '\x1b'));
    assert_null(strchr(out, '\x07'));
    assert_null(strstr(out, "\xc2\x9b"));
    assert_null(strstr(out, "\xe2\x80\xae"));
    if (!strstr(out, "name:          evil\\x1B]0;pwned\\x07\\x1B[2J\\u{009B}"
                     "\\u{202E}a\\\\b \xc3\xa9t\xc3\xa9\\xFF\n"))
        fail_msg("name not escaped as expected:\n%s", out);
    free(out);
}

/* Error messages quote the file too (here the architecture, which sb
 * refuses): escaped the same way. */
static void test_error_escapes_file_text(void **state) {
    (void)state;
    mk_job job;
    test_job_init(&job);
    job.arch = "qwen\x1b]0;pwned\x07";
    const char *path = test_sb_path(0, "arch.gguf");
    sb_err err = {0};
    if (mk_job_write(&job, path, &err)) fail_msg("write: %s", err.msg);
    mk_job_free(&job);
    assert_int_equal(test_sb("info -m '%s'", path), 1);
    char *msg = test_sb_read("err", NULL);
    assert_null(strchr(msg, '\x1b'));
    if (!strstr(msg, "is 'qwen\\x1B]0;pwned\\x07', expected 'qwen2'"))
        fail_msg("architecture not escaped as expected: %s", msg);
    free(msg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prompt_file_without_end),
        cmocka_unit_test(test_max_input),
        cmocka_unit_test(test_directory_input),
        cmocka_unit_test(test_bad_option_one_line),
        cmocka_unit_test(test_info_checks_magic_first),
        cmocka_unit_test(test_info_escapes_name),
        cmocka_unit_test(test_error_escapes_file_text),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup,
                                  test_sb_group_teardown);
}
