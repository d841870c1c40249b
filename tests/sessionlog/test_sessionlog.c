/* Tests of sessionlog/: whole lines appended, read back field for field;
 * torn and malformed lines reported without losing the others. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sessionlog/sessionlog.h"

static char g_path[64];

static void fresh_path(void) {
    snprintf(g_path, sizeof g_path, "/tmp/sb-slog-XXXXXX");
    int fd = mkstemp(g_path);
    assert_true(fd >= 0);
    close(fd);
}

static const int32_t OUT[] = {300, 301, 258};

static slog_entry sample(uint64_t seed) {
    static const char doc[] = "int x;\n\0tail\n"; /* holds a NUL byte */
    return (slog_entry){
        .engine_version = "v", .backend = "cpu", .device_name = NULL,
        .model_path = "/m.gguf", .model_sha256 = "ab", .warmup_sha256 = NULL,
        .uri = "file:///a.c", .language = "c", .document = doc,
        .document_len = sizeof doc - 1, .region_start = 0, .region_end = 7,
        .range_json = "{\"start\":{\"line\":0,\"character\":0}}",
        .instruction = "rename x", .instruction_len = 8, .temperature = 0.5f,
        .seed = seed, .top_k = 3, .max_tokens = 99, .speculation = true,
        .prompt_version = "p1", .n_prompt = 42, .prompt_sha256 = "cd",
        .output = OUT, .n_output = 3, .output_sha256 = "ef", .status = "done",
        .wall_s = 1.5, .steps = 2, .drafted = 4, .accepted = 1};
}

static void append(slog_entry e) {
    sb_err err = {0};
    slog_writer *w = slog_open(g_path, &err);
    assert_non_null(w);
    assert_int_equal(slog_append(w, &e, &err), 0);
    slog_close(w);
}

static void append_raw(const char *s) {
    FILE *f = fopen(g_path, "ab");
    fputs(s, f);
    fclose(f);
}

static void test_round_trip(void **state) {
    (void)state;
    fresh_path();
    append(sample(18446744073709551615ull)); /* all 64 bits of a seed */
    append(sample(7));
    sb_err err = {0};
    slog_reader *r = slog_reader_open(g_path, &err);
    assert_non_null(r);
    slog_entry e;
    assert_int_equal(slog_next(r, &e, &err), 1);
    assert_true(e.seed == 18446744073709551615ull);
    assert_int_equal(e.document_len, 13);
    assert_memory_equal(e.document, "int x;\n\0tail\n", 13);
    assert_int_equal(e.region_end, 7);
    assert_null(e.device_name);
    assert_null(e.warmup_sha256);
    assert_string_equal(e.instruction, "rename x");
    assert_true(e.temperature == 0.5f);
    assert_int_equal(e.top_k, 3);
    assert_int_equal(e.max_tokens, 99);
    assert_true(e.speculation);
    assert_int_equal(e.n_output, 3);
    assert_memory_equal(e.output, OUT, sizeof OUT);
    assert_string_equal(e.status, "done");
    assert_int_equal(slog_next(r, &e, &err), 1);
    assert_true(e.seed == 7);
    assert_int_equal(slog_line(r), 2);
    assert_int_equal(slog_next(r, &e, &err), 0);
    slog_reader_close(r);
    unlink(g_path);
}

static void test_torn_and_bad_lines(void **state) {
    (void)state;
    fresh_path();
    append(sample(1));
    append_raw("{\"format\":\"sonicboom-edit-log-v1\",\"backend\":\"cpu\"}\n"); /* fields missing */
    append_raw("not json\n");
    append(sample(2));
    append_raw("{\"format\":\"sonicboom-ed"); /* a crash mid-append */
    sb_err err = {0};
    slog_reader *r = slog_reader_open(g_path, &err);
    slog_entry e;
    assert_int_equal(slog_next(r, &e, &err), 1);
    sb_err e2 = {0};
    assert_int_equal(slog_next(r, &e, &e2), -1);
    assert_non_null(strstr(e2.msg, "line 2"));
    assert_non_null(strstr(e2.msg, "model_sha256"));
    sb_err e3 = {0};
    assert_int_equal(slog_next(r, &e, &e3), -1);
    assert_non_null(strstr(e3.msg, "not a JSON object"));
    assert_int_equal(slog_next(r, &e, &err), 1);
    assert_true(e.seed == 2);
    sb_err e4 = {0};
    assert_int_equal(slog_next(r, &e, &e4), -1);
    assert_non_null(strstr(e4.msg, "torn"));
    assert_int_equal(slog_next(r, &e, &err), 0);
    slog_reader_close(r);

    /* the next writer ends the torn line first: its entry reads cleanly */
    append(sample(3));
    r = slog_reader_open(g_path, &err);
    int good = 0, bad = 0, rc;
    uint64_t last = 0;
    while ((rc = slog_next(r, &e, &err)) != 0) {
        if (rc > 0) {
            good++;
            last = e.seed;
        } else {
            bad++;
        }
    }
    assert_int_equal(good, 3);
    assert_int_equal(bad, 3);
    assert_true(last == 3);
    slog_reader_close(r);
    unlink(g_path);
}

static void test_field_checks(void **state) {
    (void)state;
    fresh_path();
    append(sample(1));
    FILE *f = fopen(g_path, "rb");
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    /* a reversed region; an id that is not an id */
    char bad_region[4096], bad_id[4096];
    strcpy(bad_region, line);
    strcpy(bad_id, line);
    char *p = strstr(bad_region, "\"region\":[0,7]");
    assert_non_null(p);
    memcpy(p, "\"region\":[8,7]", 14); /* start after end */
    char *q = strstr(bad_id, "[300,");
    assert_non_null(q);
    memcpy(q, "[-30,", 5);
    append_raw(bad_region);
    append_raw(bad_id);
    sb_err err = {0};
    slog_reader *r = slog_reader_open(g_path, &err);
    slog_entry e;
    assert_int_equal(slog_next(r, &e, &err), 1);
    sb_err e2 = {0};
    assert_int_equal(slog_next(r, &e, &e2), -1);
    assert_non_null(strstr(e2.msg, "region"));
    sb_err e4 = {0};
    assert_int_equal(slog_next(r, &e, &e4), -1);
    assert_non_null(strstr(e4.msg, "output_ids[0]"));
    assert_int_equal(slog_next(r, &e, &err), 0);
    slog_reader_close(r);
    unlink(g_path);
    /* an unopenable log: a clear error naming it */
    sb_err e3 = {0};
    assert_null(slog_reader_open("/nonexistent/dir/log", &e3));
    assert_non_null(strstr(e3.msg, "/nonexistent/dir/log"));
    assert_null(slog_open("/nonexistent/dir/log", &e3));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_torn_and_bad_lines),
        cmocka_unit_test(test_field_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
