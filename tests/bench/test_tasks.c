/* bench/lib/tasks.c: task folders are loaded whole and in order, --only picks
 * and orders them, and each kind of broken folder is refused with an error
 * naming it. The fixtures are written here, one per failure mode. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/lib/bench.h"

static char root[64]; /* this run's scratch directory */

static const char *META =
    "{\"language\": \"C\", \"lines_in\": 2, \"lines_out\": 2, \"kind\": "
    "\"rename\", \"changed_lines\": 1, \"changed_share\": 0.5}\n";

static void put(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fresh tasks folder root/set; returns its path (static buffer). */
static const char *fresh_set(const char *set) {
    static char dir[256];
    snprintf(dir, sizeof dir, "%s/%s", root, set);
    assert_int_equal(mkdir(dir, 0700), 0);
    return dir;
}

/* A complete task folder dir/name; `skip` names a file to leave out. */
static void make_task(const char *dir, const char *name, const char *skip) {
    char t[512];
    snprintf(t, sizeof t, "%s/%s", dir, name);
    assert_int_equal(mkdir(t, 0700), 0);
    if (!skip || strcmp(skip, "meta.json")) put(t, "meta.json", META);
    if (!skip || strcmp(skip, "instruction.txt"))
        put(t, "instruction.txt", "rename x to y\n");
    if (!skip || strcmp(skip, "input.c")) put(t, "input.c", "int x;\nint z;\n");
    if (!skip || strcmp(skip, "expected.c"))
        put(t, "expected.c", "int y;\nint z;\n");
}

static void load_fails(const char *dir, const char *only, const char *want) {
    bench_task *t = (bench_task *)1;
    int n = -1;
    sb_err err = {0};
    assert_int_equal(bench_tasks_load(dir, only, &t, &n, &err), -1);
    assert_null(t);
    assert_int_equal(n, 0);
    if (!strstr(err.msg, want)) fail_msg("'%s' lacks '%s'", err.msg, want);
}

static void test_loads_in_name_order(void **state) {
    (void)state;
    const char *dir = fresh_set("good");
    make_task(dir, "02-b", NULL);
    make_task(dir, "01-a", NULL);
    char notes[300];
    snprintf(notes, sizeof notes, "%s/notes", dir);
    assert_int_equal(mkdir(notes, 0700), 0);
    bench_task *t = NULL;
    int n = 0;
    sb_err err = {0};
    assert_int_equal(bench_tasks_load(dir, NULL, &t, &n, &err), 0);
    assert_int_equal(n, 2); /* "notes" has no meta.json: not a task */
    assert_string_equal(t[0].name, "01-a");
    assert_string_equal(t[1].name, "02-b");
    assert_string_equal(t[0].instruction, "rename x to y"); /* newline dropped */
    assert_int_equal(t[0].instruction_len, 13);
    assert_string_equal(t[0].input, "int x;\nint z;\n");
    assert_int_equal(t[0].expected_len, 14);
    assert_string_equal(t[0].kind, "rename");
    assert_int_equal(t[0].changed_lines, 1);
    assert_true(strstr(t[0].input_path, "/01-a/input.c") != NULL);
    bench_tasks_free(t, n);

    assert_int_equal(bench_tasks_load(dir, "02-b,01-a,02-b", &t, &n, &err), 0);
    assert_int_equal(n, 2); /* the order given, each once */
    assert_string_equal(t[0].name, "02-b");
    assert_string_equal(t[1].name, "01-a");
    bench_tasks_free(t, n);
    load_fails(dir, "01-a,zz", "--only: no task 'zz'");
}

static void test_refuses_broken_folders(void **state) {
    (void)state;
    load_fails(fresh_set("empty"), NULL, "holds no task folders");
    const char *dir = fresh_set("noinput");
    make_task(dir, "01-a", "input.c");
    load_fails(dir, NULL, "has no input.EXT file");
    dir = fresh_set("noinstr");
    make_task(dir, "01-a", "instruction.txt");
    load_fails(dir, NULL, "instruction.txt");
    char t[300];
    dir = fresh_set("blank");
    make_task(dir, "01-a", NULL);
    snprintf(t, sizeof t, "%s/01-a", dir);
    put(t, "instruction.txt", "  \n");
    load_fails(dir, NULL, "is empty");
    dir = fresh_set("ext");
    make_task(dir, "01-a", "expected.c");
    snprintf(t, sizeof t, "%s/01-a", dir);
    put(t, "expected.py", "x = 1\n");
    load_fails(dir, NULL, "different extensions");
    dir = fresh_set("twoinputs");
    make_task(dir, "01-a", NULL);
    snprintf(t, sizeof t, "%s/01-a", dir);
    put(t, "input.h", "int x;\n");
    load_fails(dir, NULL, "holds 2 files named input.EXT");
}

static void test_refuses_bad_meta(void **state) {
    (void)state;
    static const struct { const char *meta, *want; } bad[] = {
        {"{\"language\": \"C\"", "meta.json: line"},
        {"{\"language\": 1, \"kind\": \"x\"}", "must be strings"},
        {"{\"language\": \"C\", \"kind\": \"x\", \"lines_in\": -1, "
         "\"lines_out\": 1, \"changed_lines\": 1, \"changed_share\": 0.1}",
         "must be integers"},
        {"{\"language\": \"C\", \"kind\": \"x\", \"lines_in\": 1, "
         "\"lines_out\": 1, \"changed_lines\": 1, \"changed_share\": 2}",
         "changed_share"},
        {"{\"language\": \"C\", \"language\": \"C\"}", "duplicate"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char set[32], t[300];
        snprintf(set, sizeof set, "meta%zu", i);
        const char *dir = fresh_set(set);
        make_task(dir, "01-a", "meta.json");
        snprintf(t, sizeof t, "%s/01-a", dir);
        put(t, "meta.json", bad[i].meta);
        load_fails(dir, NULL, bad[i].want);
    }
}

static int setup(void **state) {
    (void)state;
    snprintf(root, sizeof root, "/tmp/sb-test-tasks-XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_in_name_order),
        cmocka_unit_test(test_refuses_broken_folders),
        cmocka_unit_test(test_refuses_bad_meta),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
