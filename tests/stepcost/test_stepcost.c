/* Tests of stepcost/: the default table, reading tables from text and
 * files, measured costs, and the cost of row counts a table does not
 * list. The default's numbers are not restated here (stepcost.c is their
 * one home): the tests check what any default must satisfy. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../stepcost/stepcost.h"

static int parse(const char *text, stepcost_table *t, sb_err *err) {
    return stepcost_table_parse(text, (int64_t)strlen(text), t, err);
}

/* The default prices every row count, never less for more rows, says
 * where it came from, and reads back from its own listing. */
static void test_default(void **state) {
    (void)state;
    stepcost_table t;
    stepcost_table_default(&t);
    assert_true(stepcost_table_valid(&t));
    assert_int_equal(stepcost_table_max_rows(&t), STEPCOST_MAX_ROWS);
    assert_non_null(strstr(t.source, "default"));
    assert_true(stepcost_table_is_default(&t));
    /* a measured curve, so not always rising in rows (the GPU's 48-row step
     * costs more than its 64-row one): every row count priced */
    for (int r = 2; r <= STEPCOST_MAX_ROWS; r++) assert_true(stepcost_table_cost(&t, r) > 0);
    /* "1:3.22 2:3.59 ..." as a file: the same table, but not the default */
    char listed[1024], file[1024];
    stepcost_table_format(&t, listed, sizeof listed);
    size_t at = 0;
    for (const char *p = listed; *p; p++)
        file[at++] = *p == ':' ? ' ' : *p == ' ' ? '\n' : *p;
    file[at] = '\0';
    stepcost_table back;
    sb_err err = {0};
    assert_int_equal(parse(file, &back, &err), 0);
    for (int r = 1; r <= STEPCOST_MAX_ROWS; r++)
        assert_true(fabs(back.listed[r] - t.listed[r]) <= 1e-9 * t.listed[r]);
    assert_false(stepcost_table_is_default(&back));
}

/* Unlisted rows: a straight line up to STEPCOST_EACH_ROW_UP_TO, padded to
 * the next listed row count above it, unpriced past the last. */
static void test_unlisted_rows(void **state) {
    (void)state;
    stepcost_table t;
    sb_err err = {0};
    assert_int_equal(parse("1 1\n4 4\n16 10\n24 12\n64 20\n", &t, &err), 0);
    assert_true(stepcost_table_cost(&t, 1) == 1);
    assert_true(stepcost_table_cost(&t, 2) == 2);
    assert_true(stepcost_table_cost(&t, 3) == 3);
    assert_true(stepcost_table_cost(&t, 10) == 7);   /* 4 + 6/12 * 6 */
    for (int r = 17; r <= 24; r++) assert_true(stepcost_table_cost(&t, r) == 12);
    for (int r = 25; r <= 64; r++) assert_true(stepcost_table_cost(&t, r) == 20);
    assert_true(stepcost_table_cost(&t, 0) < 0);
    assert_true(stepcost_table_cost(&t, 65) < 0);
    /* a table that stops at 32 rows prices nothing beyond */
    assert_int_equal(parse("1 1\n32 3\n", &t, &err), 0);
    assert_int_equal(stepcost_table_max_rows(&t), 32);
    assert_true(stepcost_table_cost(&t, 2) == 3); /* 32 > 16: padded */
    assert_true(stepcost_table_cost(&t, 33) < 0);
}

static void test_parse(void **state) {
    (void)state;
    stepcost_table t;
    sb_err err = {0};
    assert_int_equal(parse("# rows cost\n1 1.0\n\n  8 2.5\r\n32\t4\n", &t,
                           &err), 0);
    assert_true(t.listed[1] == 1.0 && t.listed[8] == 2.5 && t.listed[32] == 4.0);
    assert_int_equal(parse("1 2", &t, &err), 0); /* no final newline */
    assert_true(t.listed[1] == 2.0);
}

static void test_parse_errors(void **state) {
    (void)state;
    static const struct {
        const char *text, *want;
    } BAD[] = {
        {"2 1.0\n", "no line for 1 row"},
        {"1 1.0\n65 2.0\n", "line 2"},
        {"1 1.0\n0 2.0\n", "line 2"},
        {"1 0\n", "positive"},
        {"1 -3\n", "positive"},
        {"1 1.0 extra\n", "line 1"},
        {"1\n", "line 1"},
        {"1:2\n", "line 1"},
        {"x 1\n", "line 1"},
        {"1 nan\n", "line 1"},
        {"1 inf\n", "line 1"},
        {"1 1\n1 2\n", "twice"},
        {"", "no line for 1 row"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        stepcost_table t;
        sb_err err = {0};
        assert_int_equal(parse(BAD[i].text, &t, &err), -1);
        if (!strstr(err.msg, BAD[i].want))
            fail_msg("'%s': error '%s' lacks '%s'", BAD[i].text, err.msg,
                     BAD[i].want);
    }
    char long_line[300];
    memset(long_line, ' ', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = '\0';
    stepcost_table t;
    sb_err err = {0};
    assert_int_equal(parse(long_line, &t, &err), -1);
    assert_non_null(strstr(err.msg, "longer than"));
    /* a NUL inside a line is not text */
    memset(&err, 0, sizeof err);
    assert_int_equal(stepcost_table_parse("1 1\n2\0 3\n", 9, &t, &err), -1);
    assert_non_null(strstr(err.msg, "NUL"));
}

/* Files: the path becomes the source; errors name the path. */
static void test_load(void **state) {
    (void)state;
    char path[] = "/tmp/sb_stepcost_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "1 3\n64 6\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)sizeof text - 1);
    close(fd);
    stepcost_table t;
    sb_err err = {0};
    assert_int_equal(stepcost_table_load(path, &t, &err), 0);
    assert_string_equal(t.source, path);
    assert_true(stepcost_table_cost(&t, 40) == 6);
    FILE *f = fopen(path, "w");
    fputs("1 3\n64 -6\n", f);
    fclose(f);
    assert_int_equal(stepcost_table_load(path, &t, &err), -1);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "line 2"));
    unlink(path);
    memset(&err, 0, sizeof err);
    assert_int_equal(stepcost_table_load(path, &t, &err), -1);
    assert_non_null(strstr(err.msg, "cannot open"));
    /* a directory is named as one (it was "Input/output error"); a FIFO
     * is refused without blocking the open (it blocked for good) */
    memset(&err, 0, sizeof err);
    assert_int_equal(stepcost_table_load("/tmp", &t, &err), -1);
    assert_non_null(strstr(err.msg, "'/tmp' is a directory, expected a regular file"));
    assert_int_equal(mkfifo(path, 0600), 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(stepcost_table_load(path, &t, &err), -1);
    assert_non_null(strstr(err.msg, "is a FIFO, expected a regular file"));
    unlink(path);
}

/* Measured costs go in one at a time; bad ones are refused by name. */
static void test_set(void **state) {
    (void)state;
    stepcost_table t;
    stepcost_table_empty(&t, "measured: test");
    assert_false(stepcost_table_valid(&t)); /* no 1-row cost yet */
    sb_err err = {0};
    assert_int_equal(stepcost_table_set(&t, 1, 2.0, &err), 0);
    assert_int_equal(stepcost_table_set(&t, 8, 3.0, &err), 0);
    assert_true(stepcost_table_valid(&t));
    assert_int_equal(stepcost_table_set(&t, 8, 3.5, &err), 0); /* replaced */
    assert_true(stepcost_table_cost(&t, 8) == 3.5);
    assert_int_equal(stepcost_table_set(&t, 0, 1, &err), -1);
    assert_non_null(strstr(err.msg, "rows 0"));
    memset(&err, 0, sizeof err);
    assert_int_equal(stepcost_table_set(&t, 2, NAN, &err), -1);
    assert_int_equal(stepcost_table_set(&t, 2, 0, NULL), -1);
    assert_int_equal(stepcost_table_set(&t, 65, 1, NULL), -1);
    t.listed[4] = -1; /* filled by hand, wrongly */
    assert_false(stepcost_table_valid(&t));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_unlisted_rows),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
