/* Tests of slog_verify: a log written by real writers, then damaged in each
 * way the chain must name (deletion, insertion, reordering, truncation, an
 * edited entry), and the legitimate histories it must not call damage (a
 * writer that died, a writer's own short write, old v1 lines). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../sessionlog/sessionlog.h"
#include "../support/run_sb.h"

static const int32_t OUT[] = {300, 301, 258};

static slog_entry sample(uint64_t seed) {
    static const char doc[] = "int x;\nint y;\n";
    return (slog_entry){
        .engine_version = "v", .backend = "cpu", .model_path = "/m.gguf",
        .model_sha256 = "ab", .uri = "file:///a.c", .language = "c",
        .document = doc, .document_len = sizeof doc - 1, .region_start = 0,
        .region_end = 7, .instruction = "rename x", .instruction_len = 8,
        .seed = seed, .prompt_version = "p1", .n_prompt = 42,
        .prompt_sha256 = "cd", .output = OUT, .n_output = 3,
        .output_sha256 = "ef", .status = "done"};
}

/* ---- the log as lines ---- */

typedef struct lines {
    char *l[64];
    int n;
    bool final_newline;
} lines;

static lines read_lines(const char *path) {
    size_t len;
    char *text = test_read_file(path, &len);
    lines ls = {.final_newline = len > 0 && text[len - 1] == '\n'};
    for (char *p = text; *p && ls.n < 64;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        ls.l[ls.n++] = strndup(p, n);
        p += n + (nl ? 1 : 0);
    }
    free(text);
    return ls;
}

static void write_lines(const char *path, const lines *ls) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < ls->n; i++)
        fprintf(f, "%s%s", ls->l[i], i + 1 < ls->n || ls->final_newline ? "\n" : "");
    fclose(f);
}

static void free_lines(lines *ls) {
    for (int i = 0; i < ls->n; i++) free(ls->l[i]);
    ls->n = 0;
}

/* Removes line k (1-based). */
static void drop(lines *ls, int k) {
    free(ls->l[k - 1]);
    memmove(&ls->l[k - 1], &ls->l[k], (size_t)(ls->n - k) * sizeof ls->l[0]);
    ls->n--;
}

/* Inserts text so that it becomes line k. */
static void insert(lines *ls, int k, const char *text) {
    memmove(&ls->l[k], &ls->l[k - 1], (size_t)(ls->n - k + 1) * sizeof ls->l[0]);
    ls->l[k - 1] = strdup(text);
    ls->n++;
}

/* Cuts the log inside line k, after `bytes` of it: the last line, torn. */
static void cut_at(lines *ls, int k, size_t bytes) {
    while (ls->n > k) free(ls->l[--ls->n]);
    ls->l[k - 1][bytes] = '\0';
    ls->final_newline = false;
}

/* Line k with the first `from` replaced by `to`. */
static void replace_in(lines *ls, int k, const char *from, const char *to) {
    char *p = strstr(ls->l[k - 1], from);
    if (!p) fail_msg("line %d has no '%s'", k, from);
    size_t a = (size_t)(p - ls->l[k - 1]), n = strlen(ls->l[k - 1]);
    char *out = malloc(n - strlen(from) + strlen(to) + 1);
    memcpy(out, ls->l[k - 1], a);
    strcpy(out + a, to);
    strcat(out, p + strlen(from));
    free(ls->l[k - 1]);
    ls->l[k - 1] = out;
}

/* ---- logs ---- */

static const char *log_path(void) { return test_sb_path(0, "edits.jsonl"); }

/* One writer on path: n entries (seeds base, base+1, ...), closed. */
static void write_session_to(const char *path, int n, uint64_t base) {
    sb_err err = {0};
    slog_writer *w = slog_open(path, &err);
    if (!w) fail_msg("%s", err.msg);
    for (int i = 0; i < n; i++) {
        slog_entry e = sample(base + (uint64_t)i);
        assert_int_equal(slog_append(w, &e, &err), 0);
    }
    assert_int_equal(slog_close(w, &err), 0);
}

/* The same on the test's log; with `crash`, by a child process that dies
 * after its entries, as a killed server does: no summary. */
static void write_session(int n, uint64_t base, bool crash) {
    if (!crash) {
        write_session_to(log_path(), n, base);
        return;
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sb_err err = {0};
        slog_writer *w = slog_open(log_path(), &err);
        for (int i = 0; w && i < n; i++) {
            slog_entry e = sample(base + (uint64_t)i);
            if (slog_append(w, &e, &err)) _exit(1);
        }
        _exit(w ? 0 : 1);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Two sessions of three entries: lines 1-3 entries, 4 summary, 5-7
 * entries, 8 summary. */
static lines standard_log(void) {
    unlink(log_path());
    write_session(3, 10, false);
    write_session(3, 20, false);
    return read_lines(log_path());
}

static slog_report verify_lines(const lines *ls) {
    write_lines(log_path(), ls);
    slog_report rep;
    sb_err err = {0};
    if (slog_verify(log_path(), &rep, &err)) fail_msg("%s", err.msg);
    return rep;
}

static void print_report(const slog_report *rep) {
    for (int i = 0; i < rep->n_damage; i++)
        print_message("  line %lld: %s: %s\n", (long long)rep->damage[i].line,
                      slog_damage_name(rep->damage[i].kind), rep->damage[i].what);
}

/* Every finding is of kind k, and one of them is at `line` (0: anywhere). */
static void expect_only(const slog_report *rep, slog_damage_kind k, int64_t line) {
    bool at = line == 0 && rep->n_damage > 0;
    for (int i = 0; i < rep->n_damage; i++) {
        if (rep->damage[i].kind != k) {
            print_report(rep);
            fail_msg("expected only %s, found %s", slog_damage_name(k),
                     slog_damage_name(rep->damage[i].kind));
        }
        at = at || rep->damage[i].line == line;
    }
    if (!at) {
        print_report(rep);
        fail_msg("expected %s at line %lld", slog_damage_name(k), (long long)line);
    }
}

/* Damages the standard log with `how`, verifies, expects kind at line. */
#define TAMPER(how, kind, line)                           \
    do {                                                  \
        lines ls = standard_log();                        \
        how;                                              \
        slog_report rep = verify_lines(&ls);              \
        expect_only(&rep, kind, line);                    \
        slog_report_free(&rep);                           \
        free_lines(&ls);                                  \
    } while (0)

/* ---- tests ---- */

static void test_intact(void **state) {
    (void)state;
    lines ls = standard_log();
    assert_int_equal(ls.n, 8);
    slog_report rep = verify_lines(&ls);
    print_report(&rep);
    assert_int_equal(rep.n_damage, 0);
    assert_int_equal(rep.n_notes, 0);
    assert_int_equal(rep.lines, 8);
    assert_int_equal(rep.entries, 6);
    assert_int_equal(rep.sessions, 2);
    assert_int_equal(rep.closed, 2);
    assert_int_equal(rep.unchained, 0);
    char head[65];
    sb_sha256_hex(ls.l[7], strlen(ls.l[7]), head);
    assert_string_equal(rep.head_sha256, head);
    slog_report_free(&rep);
    free_lines(&ls);
}

static void test_deletion(void **state) {
    (void)state;
    TAMPER(drop(&ls, 2), SLOG_DELETION, 2);         /* an entry */
    TAMPER((drop(&ls, 2), drop(&ls, 2)), SLOG_DELETION, 2); /* two */
    TAMPER(drop(&ls, 3), SLOG_DELETION, 3);         /* the last before a summary */
    TAMPER(drop(&ls, 1), SLOG_DELETION, 1);         /* the first line */
    TAMPER(drop(&ls, 4), SLOG_DELETION, 4);         /* a summary */
    TAMPER((drop(&ls, 4), drop(&ls, 3)), SLOG_DELETION, 3); /* a session's end */
    TAMPER(drop(&ls, 6), SLOG_DELETION, 6);         /* in the second session */
}

static void test_insertion(void **state) {
    (void)state;
    /* a line repeated */
    TAMPER(insert(&ls, 4, ls.l[1]), SLOG_INSERTION, 4);
    /* a forged entry naming a real predecessor (line 2's) */
    TAMPER((insert(&ls, 3, ls.l[1]), replace_in(&ls, 3, "rename x", "rename y")),
           SLOG_INSERTION, 3);
    /* a line of garbage */
    TAMPER(insert(&ls, 6, "{\"hello\":1}"), SLOG_INSERTION, 6);
    TAMPER(insert(&ls, 2, "not json"), SLOG_INSERTION, 2);
    /* another log's lines pasted in: a chain of their own */
    const char *other = test_sb_path(1, "other.jsonl");
    unlink(other);
    write_session_to(other, 2, 40);
    lines o = read_lines(other);
    TAMPER((insert(&ls, 5, o.l[0]), insert(&ls, 6, o.l[1])), SLOG_INSERTION, 5);
    free_lines(&o);
    /* an entry added to a session after its summary, even well chained */
    TAMPER((insert(&ls, 5, ls.l[2]), replace_in(&ls, 5, "\"seed\":\"12\"",
                                                "\"seed\":\"13\"")),
           SLOG_INSERTION, 5);
}

static void test_reordering(void **state) {
    (void)state;
    char *t;
    /* two neighbours swapped */
    TAMPER((t = ls.l[1], ls.l[1] = ls.l[2], ls.l[2] = t), SLOG_REORDERING, 0);
    /* one line moved far back */
    TAMPER((t = strdup(ls.l[5]), drop(&ls, 6), insert(&ls, 2, t), free(t)),
           SLOG_REORDERING, 2);
    /* the two sessions swapped */
    TAMPER((memmove(ls.l + 8, ls.l, 4 * sizeof *ls.l), memmove(ls.l, ls.l + 4,
            8 * sizeof *ls.l)), SLOG_REORDERING, 0);
}

static void test_edited(void **state) {
    (void)state;
    TAMPER(replace_in(&ls, 2, "rename x", "rename z"), SLOG_EDITED, 2);
    TAMPER(replace_in(&ls, 6, "[300,", "[301,"), SLOG_EDITED, 6);
    TAMPER(replace_in(&ls, 1, "\"status\":\"done\"", "\"status\":\"bad-answer\""),
           SLOG_EDITED, 1);
    /* changed so that it no longer parses */
    TAMPER(replace_in(&ls, 2, "{", "["), SLOG_EDITED, 2);
    /* a summary's count changed */
    TAMPER(replace_in(&ls, 8, "\"entries\":3", "\"entries\":4"), SLOG_EDITED, 8);
}

static void test_truncation(void **state) {
    (void)state;
    /* cut mid-line */
    TAMPER(cut_at(&ls, 7, 20), SLOG_TRUNCATION, 7);
    /* cut after a whole entry: the session has no summary */
    TAMPER((free(ls.l[7]), ls.n = 7), SLOG_TRUNCATION, 7);
    TAMPER((drop(&ls, 8), drop(&ls, 7)), SLOG_TRUNCATION, 6);
    /* emptied: nothing to judge, nothing proven (the caller refuses it) */
    lines ls = standard_log();
    free_lines(&ls);
    slog_report rep = verify_lines(&ls);
    assert_int_equal(rep.lines, 0);
    assert_int_equal(rep.entries, 0);
    assert_string_equal(rep.head_sha256, "");
    slog_report_free(&rep);
}

/* A writer that died leaves no summary: when the next session is chained
 * to its last line, nothing is missing (a note, not damage); a crash
 * mid-line is a truncation of that entry, the rest intact. */
static void test_writer_died(void **state) {
    (void)state;
    unlink(log_path());
    write_session(2, 10, true);
    write_session(2, 20, false);
    lines ls = read_lines(log_path());
    slog_report rep = verify_lines(&ls);
    print_report(&rep);
    assert_int_equal(rep.n_damage, 0);
    assert_int_equal(rep.n_notes, 1);
    assert_non_null(strstr(rep.notes[0].what, "nothing is missing"));
    assert_int_equal(rep.sessions, 2);
    assert_int_equal(rep.closed, 1);
    slog_report_free(&rep);
    free_lines(&ls);

    /* killed mid-append: a torn last line, then a new session heals it */
    unlink(log_path());
    write_session(2, 10, true);
    FILE *f = fopen(log_path(), "ab");
    fputs("{\"format\":\"sonicboom-edit-log-v2\",\"kind\":\"ed", f);
    fclose(f);
    write_session(1, 20, false);
    ls = read_lines(log_path());
    assert_int_equal(ls.n, 5);
    rep = verify_lines(&ls);
    expect_only(&rep, SLOG_TRUNCATION, 3);
    assert_int_equal(rep.n_damage, 1);
    slog_report_free(&rep);
    free_lines(&ls);
}

static void limit_file_size(rlim_t bytes) {
    struct rlimit lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
    lim.rlim_cur = bytes;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

/* The writer's own short write (a full disk): that entry is lost and named
 * as cut short; nothing else is damage. */
static void test_short_write(void **state) {
    (void)state;
    unlink(log_path());
    sb_err err = {0};
    slog_writer *w = slog_open(log_path(), &err);
    assert_non_null(w);
    slog_entry e = sample(1);
    assert_int_equal(slog_append(w, &e, &err), 0);
    struct stat st;
    assert_int_equal(stat(log_path(), &st), 0);
    signal(SIGXFSZ, SIG_IGN);
    limit_file_size((rlim_t)st.st_size + 30);
    e = sample(2);
    assert_int_equal(slog_append(w, &e, &err), -1);
    limit_file_size(RLIM_INFINITY);
    signal(SIGXFSZ, SIG_DFL);
    e = sample(3);
    err = (sb_err){0};
    assert_int_equal(slog_append(w, &e, &err), 0);
    assert_int_equal(slog_close(w, &err), 0);
    lines ls = read_lines(log_path());
    slog_report rep = verify_lines(&ls);
    expect_only(&rep, SLOG_TRUNCATION, 2);
    assert_int_equal(rep.n_damage, 1);
    assert_int_equal(rep.closed, 1);
    slog_report_free(&rep);
    free_lines(&ls);
}

/* A log begun before the chain (format v1 lines), continued by this
 * version: the old lines are counted as unchained, not as damage. */
static void test_v1_prefix(void **state) {
    (void)state;
    lines ls = standard_log();
    char *v1 = strdup(ls.l[0]);
    free_lines(&ls);
    lines old = {.final_newline = true};
    insert(&old, 1, v1);
    replace_in(&old, 1, "sonicboom-edit-log-v2", "sonicboom-edit-log-v1");
    free(v1);
    write_lines(log_path(), &old);
    write_session(1, 30, false);
    ls = read_lines(log_path());
    slog_report rep = verify_lines(&ls);
    print_report(&rep);
    assert_int_equal(rep.n_damage, 0);
    assert_int_equal(rep.unchained, 1);
    assert_int_equal(rep.entries, 2);
    slog_report_free(&rep);
    free_lines(&ls);
    free_lines(&old);
}

/* The chain holds but the count does not: a session's last entry deleted
 * and only its summary re-pointed (it still counts 3, the session holds 2
 * numbered 1..2). And a v1 line appended after v2 lines. Both read intact
 * before (the second with a note). */
/* A log followed by 20,000 junk lines: every one is damage, but the
 * report keeps the first SLOG_MAX_FINDINGS and counts the rest (a finding
 * for each line of a 10 MB junk log took 2.1 GB with the rest). */
static void test_junk_lines_counted(void **state) {
    (void)state;
    lines ls = standard_log();
    write_lines(log_path(), &ls);
    free_lines(&ls);
    FILE *f = fopen(log_path(), "ab");
    assert_non_null(f);
    for (int i = 0; i < 20000; i++) fputs("x\n", f);
    fclose(f);
    slog_report rep;
    sb_err err = {0};
    if (slog_verify(log_path(), &rep, &err)) fail_msg("%s", err.msg);
    assert_int_equal(rep.n_damage, SLOG_MAX_FINDINGS);
    assert_int_equal(rep.n_damage + rep.more_damage, 20000);
    assert_int_equal(rep.lines, 20008);
    slog_report_free(&rep);
}

static void test_repointed_and_mixed(void **state) {
    (void)state;
    lines ls = standard_log();
    char dropped[65], before[65];
    sb_sha256_hex(ls.l[6], strlen(ls.l[6]), dropped);
    sb_sha256_hex(ls.l[5], strlen(ls.l[5]), before);
    drop(&ls, 7);
    replace_in(&ls, 7, dropped, before); /* the summary names entry 2 now */
    slog_report rep = verify_lines(&ls);
    expect_only(&rep, SLOG_DELETION, 7);
    slog_report_free(&rep);
    free_lines(&ls);

    ls = standard_log();
    char *v1 = strdup(ls.l[0]);
    insert(&ls, 9, v1);
    free(v1);
    replace_in(&ls, 9, "sonicboom-edit-log-v2", "sonicboom-edit-log-v1");
    rep = verify_lines(&ls);
    expect_only(&rep, SLOG_INSERTION, 9);
    slog_report_free(&rep);
    free_lines(&ls);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repointed_and_mixed),
        cmocka_unit_test(test_junk_lines_counted),
        cmocka_unit_test(test_intact),
        cmocka_unit_test(test_deletion),
        cmocka_unit_test(test_insertion),
        cmocka_unit_test(test_reordering),
        cmocka_unit_test(test_edited),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_writer_died),
        cmocka_unit_test(test_short_write),
        cmocka_unit_test(test_v1_prefix),
    };
    if (test_sb_setup("slog")) return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    test_sb_teardown();
    return rc;
}
