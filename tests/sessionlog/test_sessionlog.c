/* Tests of sessionlog/: whole lines appended, read back field for field;
 * torn and malformed lines reported without losing the others. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sessionlog/sessionlog.h"

static char g_path[128];

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
        .wall_s = 1.5, .steps = 2, .drafted = 4, .accepted = 1,
        .has_context = true, .context_start = 0, .context_end = sizeof doc - 1,
        .cached_tokens = 17, .first_token_s = 0.25};
}

/* One writer, one entry: the entry and its session's summary. */
static void append(slog_entry e) {
    sb_err err = {0};
    slog_writer *w = slog_open(g_path, &err);
    assert_non_null(w);
    assert_int_equal(slog_append(w, &e, &err), 0);
    assert_int_equal(slog_close(w, &err), 0);
}

static void append_raw(const char *s) {
    FILE *f = fopen(g_path, "ab");
    fputs(s, f);
    fclose(f);
}

static slog_reader *open_reader(void) {
    sb_err err = {0};
    slog_reader *r = slog_reader_open(g_path, &err);
    if (!r) fail_msg("%s", err.msg);
    return r;
}

/* The next line is an edit entry with this seed. */
static void expect_entry(slog_reader *r, slog_entry *e, uint64_t seed) {
    sb_err err = {0};
    if (slog_next(r, e, &err) != 1) fail_msg("expected an entry: %s", err.msg);
    assert_int_equal(e->kind, SLOG_KIND_EDIT);
    assert_true(e->seed == seed);
}

/* The next line is a session's summary counting `entries`. */
static void expect_summary(slog_reader *r, slog_entry *e, int64_t entries) {
    sb_err err = {0};
    if (slog_next(r, e, &err) != 1) fail_msg("expected a summary: %s", err.msg);
    assert_int_equal(e->kind, SLOG_KIND_SUMMARY);
    assert_int_equal(e->summary_entries, entries);
    assert_int_equal(e->seq, entries + 1);
}

/* The next line is unreadable: line `line`, and the message names it and
 * says `want`. */
static void expect_unreadable(slog_reader *r, int64_t line, const char *want) {
    slog_entry e;
    sb_err err = {0};
    char where[32];
    snprintf(where, sizeof where, "line %lld", (long long)line);
    assert_int_equal(slog_next(r, &e, &err), -1);
    assert_int_equal(slog_line(r), line);
    if (!strstr(err.msg, where) || !strstr(err.msg, want))
        fail_msg("'%s' does not say '%s' and '%s'", err.msg, where, want);
}

/* Reads one line, whatever it is, that is not the end. */
static void expect_end_not(slog_reader *r, slog_entry *e) {
    sb_err err = {0};
    assert_int_not_equal(slog_next(r, e, &err), 0);
}

static void expect_end(slog_reader *r) {
    slog_entry e;
    sb_err err = {0};
    assert_int_equal(slog_next(r, &e, &err), 0);
}

/* Both NULL, or the same text. */
static void same_str(const char *got, const char *want) {
    if (!want) assert_null(got);
    else assert_string_equal(got, want);
}

/* Every field of got is want's. */
static void assert_same_entry(const slog_entry *got, const slog_entry *want) {
    same_str(got->engine_version, want->engine_version);
    same_str(got->backend, want->backend);
    same_str(got->device_name, want->device_name);
    same_str(got->model_path, want->model_path);
    same_str(got->model_sha256, want->model_sha256);
    same_str(got->warmup_sha256, want->warmup_sha256);
    same_str(got->uri, want->uri);
    same_str(got->language, want->language);
    assert_int_equal(got->document_len, want->document_len);
    assert_memory_equal(got->document, want->document, (size_t)want->document_len);
    assert_int_equal(got->region_start, want->region_start);
    assert_int_equal(got->region_end, want->region_end);
    assert_int_equal(got->instruction_len, want->instruction_len);
    assert_memory_equal(got->instruction, want->instruction,
                        (size_t)want->instruction_len);
    assert_true(got->temperature == want->temperature);
    assert_true(got->seed == want->seed);
    assert_int_equal(got->top_k, want->top_k);
    assert_int_equal(got->max_tokens, want->max_tokens);
    assert_int_equal(got->speculation, want->speculation);
    same_str(got->prompt_version, want->prompt_version);
    assert_int_equal(got->n_prompt, want->n_prompt);
    same_str(got->prompt_sha256, want->prompt_sha256);
    assert_int_equal(got->n_output, want->n_output);
    assert_memory_equal(got->output, want->output,
                        (size_t)want->n_output * sizeof *want->output);
    same_str(got->output_sha256, want->output_sha256);
    same_str(got->status, want->status);
    assert_true(got->wall_s == want->wall_s);
    assert_int_equal(got->steps, want->steps);
    assert_int_equal(got->drafted, want->drafted);
    assert_int_equal(got->accepted, want->accepted);
    assert_int_equal(got->has_context, want->has_context);
    assert_int_equal(got->context_start, want->context_start);
    assert_int_equal(got->context_end, want->context_end);
    assert_int_equal(got->cached_tokens, want->cached_tokens);
    assert_true(got->first_token_s == want->first_token_s);
}

/* Every field comes back as written: absent strings as NULL, a document
 * holding a NUL byte, all 64 bits of a seed; and the chain: one session,
 * numbered lines, each naming the hash of the line before, a summary. */
static void test_round_trip(void **state) {
    (void)state;
    fresh_path();
    slog_entry first = sample(18446744073709551615ull), second = sample(7);
    second.device_name = "NVIDIA H200";
    second.warmup_sha256 = "0123";
    second.range_json = NULL;
    sb_err err = {0};
    slog_writer *w = slog_open(g_path, &err);
    assert_non_null(w);
    char session[33];
    strcpy(session, slog_session(w));
    assert_int_equal(strlen(session), 32);
    assert_int_equal(slog_append(w, &first, &err), 0);
    assert_int_equal(slog_append(w, &second, &err), 0);
    assert_int_equal(slog_close(w, &err), 0);

    slog_reader *r = open_reader();
    slog_entry e;
    char prev[65];
    expect_entry(r, &e, 18446744073709551615ull);
    assert_same_entry(&e, &first);
    assert_string_equal(e.session, session);
    assert_int_equal(e.seq, 1);
    assert_null(e.prev_sha256); /* the file's first line */
    strcpy(prev, slog_line_sha256(r));
    expect_entry(r, &e, 7);
    assert_same_entry(&e, &second);
    assert_int_equal(e.seq, 2);
    assert_string_equal(e.prev_sha256, prev);
    assert_int_equal(slog_line(r), 2);
    strcpy(prev, slog_line_sha256(r));
    expect_summary(r, &e, 2);
    assert_string_equal(e.session, session);
    assert_string_equal(e.prev_sha256, prev);
    expect_end(r);
    slog_reader_close(r);

    /* a second session chains to the first's summary, with a new id */
    append(sample(9));
    r = open_reader();
    for (int i = 0; i < 3; i++) expect_end_not(r, &e);
    strcpy(prev, slog_line_sha256(r));
    expect_entry(r, &e, 9);
    assert_int_equal(e.seq, 1);
    assert_string_equal(e.prev_sha256, prev);
    assert_string_not_equal(e.session, session);
    slog_reader_close(r);
    unlink(g_path);
}

/* A line as bytes: the SHA-256 a reader reports is the hash of exactly the
 * line's bytes without its newline. */
static void test_line_hash(void **state) {
    (void)state;
    fresh_path();
    append(sample(1));
    char *text = NULL;
    size_t cap = 0;
    FILE *f = fopen(g_path, "rb");
    ssize_t n = getline(&text, &cap, f);
    fclose(f);
    assert_true(n > 1);
    char want[65];
    sb_sha256_hex(text, (size_t)n - 1, want);
    free(text);
    slog_reader *r = open_reader();
    slog_entry e;
    expect_entry(r, &e, 1);
    assert_string_equal(slog_line_sha256(r), want);
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
    slog_reader *r = open_reader();
    slog_entry e;
    expect_entry(r, &e, 1);
    expect_summary(r, &e, 1);
    expect_unreadable(r, 3, "model_sha256");
    expect_unreadable(r, 4, "not a JSON object");
    expect_entry(r, &e, 2);
    expect_summary(r, &e, 1);
    expect_unreadable(r, 7, "torn");
    assert_true(slog_line_torn(r));
    expect_end(r);
    slog_reader_close(r);

    /* the next writer ends the torn line first: its entry reads cleanly,
     * chained to the torn line's bytes */
    append(sample(3));
    r = open_reader();
    sb_err err = {0};
    int good = 0, bad = 0, rc;
    uint64_t last = 0;
    char torn[65] = "", named[65] = "";
    while ((rc = slog_next(r, &e, &err)) != 0) {
        if (rc > 0 && e.kind == SLOG_KIND_EDIT) {
            good++;
            last = e.seed;
            if (slog_line(r) == 8) strcpy(named, e.prev_sha256);
        } else if (rc < 0) {
            bad++;
            if (slog_line(r) == 7) strcpy(torn, slog_line_sha256(r));
        }
    }
    assert_int_equal(good, 3);
    assert_int_equal(bad, 3);
    assert_true(last == 3);
    assert_string_equal(named, torn);
    slog_reader_close(r);
    unlink(g_path);
}

static int64_t file_size(void) {
    struct stat st;
    assert_int_equal(stat(g_path, &st), 0);
    return (int64_t)st.st_size;
}

/* Sets the largest file this process may write (RLIM_INFINITY: no limit). */
static void limit_file_size(rlim_t bytes) {
    struct rlimit lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
    lim.rlim_cur = bytes;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

/* A short write (a full disk; here a file-size limit, which
 * write() meets the same way) leaves a torn line. The same writer's next
 * entry must start a line of its own and read back, not continue the torn
 * line and be lost with it. */
static void test_short_write_then_append(void **state) {
    (void)state;
    fresh_path();
    sb_err err = {0};
    slog_writer *w = slog_open(g_path, &err);
    assert_non_null(w);
    slog_entry e = sample(1);
    assert_int_equal(slog_append(w, &e, &err), 0);
    /* room for 40 more bytes: the next line is cut short */
    signal(SIGXFSZ, SIG_IGN);
    limit_file_size((rlim_t)(file_size() + 40));
    e = sample(2);
    assert_int_equal(slog_append(w, &e, &err), -1);
    assert_non_null(strstr(err.msg, "short write"));
    limit_file_size(RLIM_INFINITY);
    signal(SIGXFSZ, SIG_DFL);
    /* the disk has room again: the same writer goes on */
    e = sample(3);
    err = (sb_err){0};
    if (slog_append(w, &e, &err)) fail_msg("%s", err.msg);
    assert_int_equal(slog_close(w, NULL), 0);
    slog_reader *r = open_reader();
    expect_entry(r, &e, 1);
    expect_unreadable(r, 2, "not a JSON object");
    char torn[65];
    strcpy(torn, slog_line_sha256(r));
    expect_entry(r, &e, 3);
    /* the torn line took number 2 and is chained to as it is */
    assert_int_equal(e.seq, 3);
    assert_string_equal(e.prev_sha256, torn);
    expect_summary(r, &e, 3);
    expect_end(r);
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
    slog_reader *r = open_reader();
    slog_entry e;
    expect_entry(r, &e, 1);
    expect_summary(r, &e, 1);
    expect_unreadable(r, 3, "region");
    expect_unreadable(r, 4, "output_ids[0]");
    expect_end(r);
    slog_reader_close(r);
    unlink(g_path);
    /* an unopenable log: a clear error naming it */
    sb_err e3 = {0};
    assert_null(slog_reader_open("/nonexistent/dir/log", &e3));
    assert_non_null(strstr(e3.msg, "/nonexistent/dir/log"));
    assert_null(slog_open("/nonexistent/dir/log", &e3));
}

/* A log path pointed at something that is not this format's session log
 * is refused with one line and left byte for byte: a link (to a shell rc
 * file, whose `$(...)` in an edited document would run when sourced), a
 * dangling link (never created through), a FIFO (never blocks), a file of
 * other text or other JSON. An empty file, or one starting with a log's
 * line, is appended to. */
static void test_open_refuses_what_is_not_a_log(void **state) {
    (void)state;
    char dir[] = "/tmp/sb-slog-dir-XXXXXX", rc[96], link[96], dangling[96],
         absent[96], fifo[96], json[96], empty[96];
    assert_non_null(mkdtemp(dir));
    snprintf(rc, sizeof rc, "%s/bashrc", dir);
    snprintf(link, sizeof link, "%s/link.jsonl", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.jsonl", dir);
    snprintf(absent, sizeof absent, "%s/absent", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.jsonl", dir);
    snprintf(json, sizeof json, "%s/other.jsonl", dir);
    snprintf(empty, sizeof empty, "%s/empty.jsonl", dir);
    static const char rc_text[] = "alias ls='ls -F'\n";
    /* a JSON line, but not a log's: "format" is not its first field */
    static const char json_text[] = "{\"kind\":\"edit\",\"format\":\"sonicboom-edit-log-v2\"}\n";
    FILE *f = fopen(rc, "wb");
    fputs(rc_text, f);
    fclose(f);
    f = fopen(json, "wb");
    fputs(json_text, f);
    fclose(f);
    f = fopen(empty, "wb");
    fclose(f);
    assert_int_equal(symlink(rc, link), 0);
    assert_int_equal(symlink(absent, dangling), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const struct {
        const char *path, *want;
    } refused[] = {
        {link, "is a symbolic link"}, {dangling, "is a symbolic link"},
        {fifo, "is a FIFO"}, {rc, "is not a session log"},
        {json, "is not a session log"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        sb_err err = {0};
        assert_null(slog_open(refused[i].path, &err));
        if (!strstr(err.msg, refused[i].want)) fail_msg("%s", err.msg);
        assert_null(strchr(err.msg, '\n'));
    }
    char buf[128] = {0};
    f = fopen(rc, "rb");
    assert_int_equal(fread(buf, 1, sizeof buf, f), strlen(rc_text));
    fclose(f);
    assert_string_equal(buf, rc_text);
    assert_int_equal(access(absent, F_OK), -1);
    /* an empty file is a log to start; once started it is appended to */
    snprintf(g_path, sizeof g_path, "%s", empty);
    append(sample(1));
    append(sample(2));
    slog_reader *r = open_reader();
    slog_entry e;
    expect_entry(r, &e, 1);
    expect_summary(r, &e, 1);
    expect_entry(r, &e, 2);
    expect_summary(r, &e, 1);
    expect_end(r);
    slog_reader_close(r);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A line of more values than an entry may hold is refused before it is
 * parsed (jansson holds every value at once: 2^26 ids cost 3 GB), and the
 * lines after it read on. */
static void test_too_many_values(void **state) {
    (void)state;
    fresh_path();
    size_t n = (size_t)SLOG_MAX_OUTPUT + 1000;
    char *line = malloc(2 * n + 64);
    assert_non_null(line);
    size_t k = (size_t)sprintf(line, "{\"format\":\"%s\",\"output_ids\":[", SLOG_FORMAT);
    for (size_t i = 0; i < n; i++) {
        line[k++] = '0';
        line[k++] = ',';
    }
    memcpy(line + k - 1, "]}\n", 4);
    FILE *f = fopen(g_path, "wb");
    fwrite(line, 1, k + 2, f);
    fclose(f);
    free(line);
    append(sample(1));
    slog_reader *r = open_reader();
    slog_entry e;
    sb_err err = {0};
    assert_int_equal(slog_next(r, &e, &err), -1);
    if (!strstr(err.msg, "JSON values, more than an entry holds")) fail_msg("%s", err.msg);
    expect_entry(r, &e, 1);
    expect_summary(r, &e, 1);
    expect_end(r);
    slog_reader_close(r);
    unlink(g_path);
}

/* A lock another process holds for good no longer holds up every edit's
 * answer: the append waits a bounded time, fails saying why, and writes
 * nothing; once the lock is free it goes on. Before: it waited forever. */
static void test_lock_wait_is_bounded(void **state) {
    (void)state;
    fresh_path();
    sb_err err = {0};
    slog_writer *w = slog_open(g_path, &err);
    assert_non_null(w);
    slog_set_lock_wait(w, 50);
    int other = open(g_path, O_RDONLY | O_CLOEXEC);
    assert_true(other >= 0);
    assert_int_equal(flock(other, LOCK_EX), 0);
    slog_entry e = sample(1);
    assert_int_equal(slog_append(w, &e, &err), -1);
    assert_non_null(strstr(err.msg, "another process has held its lock"));
    assert_int_equal(file_size(), 0);
    close(other); /* the lock goes with it */
    err = (sb_err){0};
    if (slog_append(w, &e, &err)) fail_msg("%s", err.msg);
    assert_int_equal(slog_close(w, &err), 0);
    slog_reader *r = open_reader();
    expect_entry(r, &e, 1);
    expect_summary(r, &e, 1);
    expect_end(r);
    slog_reader_close(r);
    unlink(g_path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lock_wait_is_bounded),
        cmocka_unit_test(test_too_many_values),
        cmocka_unit_test(test_open_refuses_what_is_not_a_log),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_line_hash),
        cmocka_unit_test(test_torn_and_bad_lines),
        cmocka_unit_test(test_field_checks),
        cmocka_unit_test(test_short_write_then_append),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
