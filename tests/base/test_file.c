/* Tests of base/file.c, the write-path rule (docs/limits.md, "Files"): a
 * file written whole never goes through a link or over a device, FIFO or
 * directory, and leaves no temporary behind; an appended file is never a
 * link or a FIFO; a file read by name never blocks its open. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../base/base.h"

static char g_dir[64];

static const char *in_dir(int slot, const char *name) {
    static char buf[4][160];
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", g_dir, name);
    return buf[slot];
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The whole of a small file ("" when absent). */
static const char *got(const char *path) {
    static char buf[256];
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Entries of the directory whose names contain ".tmp". */
static int temporaries(void) {
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return n;
}

static int setup(void **state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/sb-file-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) ? -1 : 0;
}

static void test_write_creates_and_replaces(void **state) {
    (void)state;
    const char *p = in_dir(0, "new.txt");
    sb_err err = {0};
    assert_int_equal(sb_write_file(p, "one\n", 4, &err), 0);
    assert_string_equal(got(p), "one\n");
    assert_int_equal(sb_write_file(p, "two\n", 4, &err), 0);
    assert_string_equal(got(p), "two\n");
    assert_int_equal(temporaries(), 0);
}

/* A link planted at the old fixed temporary name (PATH.tmp) is neither
 * followed nor touched: the temporary is made exclusively. */
static void test_planted_temporary_link(void **state) {
    (void)state;
    const char *p = in_dir(0, "out.bin"), *victim = in_dir(1, "victim");
    put(victim, "precious\n");
    assert_int_equal(symlink(victim, in_dir(2, "out.bin.tmp")), 0);
    sb_err err = {0};
    assert_int_equal(sb_write_file(p, "data\n", 5, &err), 0);
    assert_string_equal(got(victim), "precious\n");
    assert_string_equal(got(p), "data\n");
    unlink(in_dir(2, "out.bin.tmp"));
}

/* A link, a FIFO or a directory at PATH is refused, left as it was, and
 * no temporary stays. */
static void test_refuses_what_is_not_a_regular_file(void **state) {
    (void)state;
    const char *victim = in_dir(1, "victim2");
    put(victim, "precious\n");
    const char *link = in_dir(0, "link"), *fifo = in_dir(2, "fifo"),
               *dir = in_dir(3, "dir");
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(dir, 0700), 0);
    const char *paths[] = {link, fifo, dir};
    const char *kinds[] = {"a symbolic link", "a FIFO", "a directory"};
    for (int i = 0; i < 3; i++) {
        sb_err err = {0};
        assert_int_equal(sb_write_file(paths[i], "x", 1, &err), -1);
        assert_non_null(strstr(err.msg, kinds[i]));
        assert_non_null(strstr(err.msg, "refusing to replace it"));
    }
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_string_equal(got(victim), "precious\n");
    assert_int_equal(temporaries(), 0);
    /* /dev/null is a character device: never renamed over (as root that
     * would delete it), refused before anything is made */
    sb_err err = {0};
    assert_int_equal(sb_write_file("/dev/null", "x", 1, &err), -1);
    assert_non_null(strstr(err.msg, "a character device"));
    unlink(link);
    unlink(fifo);
    rmdir(dir);
}

/* PATH turned into a link while the temporary was written: checked again
 * before the rename, refused, the temporary removed. */
static void test_link_appearing_before_commit(void **state) {
    (void)state;
    const char *p = in_dir(0, "late"), *victim = in_dir(1, "victim3");
    put(victim, "precious\n");
    sb_out o;
    sb_err err = {0};
    assert_int_equal(sb_out_create(&o, p, &err), 0);
    sb_out_write(&o, "data", 4);
    assert_int_equal(symlink(victim, p), 0);
    assert_int_equal(sb_out_commit(&o, &err), -1);
    assert_non_null(strstr(err.msg, "a symbolic link"));
    assert_string_equal(got(victim), "precious\n");
    assert_int_equal(temporaries(), 0);
    unlink(p);
}

/* Under a file size limit a write fails with EFBIG (SIGXFSZ ignored, as
 * sb and sb-lsp do): one line naming the limit, no temporary, the old
 * file kept. */
static void test_file_size_limit(void **state) {
    (void)state;
    const char *p = in_dir(0, "big");
    put(p, "old\n");
    struct rlimit was;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    void (*old)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {4096, was.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    static char data[65536];
    sb_err err = {0};
    int rc = sb_write_file(p, data, sizeof data, &err);
    setrlimit(RLIMIT_FSIZE, &was);
    signal(SIGXFSZ, old);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.msg, "file too large"));
    assert_string_equal(got(p), "old\n");
    assert_int_equal(temporaries(), 0);
}

static void test_append_refuses_links_and_fifos(void **state) {
    (void)state;
    char victim[160], absent[160];
    snprintf(victim, sizeof victim, "%s", in_dir(1, "rc"));
    snprintf(absent, sizeof absent, "%s", in_dir(1, "created-through-link"));
    const char *link = in_dir(0, "log-link"), *dangling = in_dir(2, "log-dangling"),
               *fifo = in_dir(3, "log-fifo");
    put(victim, "echo hi\n");
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(symlink(absent, dangling), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    sb_err err = {0};
    assert_int_equal(sb_open_append(link, "session log", &err), -1);
    assert_non_null(strstr(err.msg, "is a symbolic link"));
    err = (sb_err){0};
    assert_int_equal(sb_open_append(dangling, "session log", &err), -1);
    assert_non_null(strstr(err.msg, "is a symbolic link"));
    assert_int_equal(access(absent, F_OK), -1);
    err = (sb_err){0};
    assert_int_equal(sb_open_append(fifo, "session log", &err), -1);
    assert_non_null(strstr(err.msg, "a FIFO"));
    assert_string_equal(got(victim), "echo hi\n");
    int fd = sb_open_append(in_dir(0, "log"), "session log", &err);
    assert_true(fd >= 0);
    close(fd);
    unlink(link);
    unlink(dangling);
    unlink(fifo);
}

/* A FIFO with no writer would block a plain open for reading forever. */
static void test_read_refuses_fifo_and_directory(void **state) {
    (void)state;
    const char *fifo = in_dir(0, "table-fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    sb_err err = {0};
    assert_int_equal(sb_open_read(fifo, "cost table", &err), -1);
    assert_non_null(strstr(err.msg, "cost table"));
    assert_non_null(strstr(err.msg, "a FIFO, expected a regular file"));
    err = (sb_err){0};
    assert_int_equal(sb_open_read(g_dir, "cost table", &err), -1);
    assert_non_null(strstr(err.msg, "is a directory"));
    put(in_dir(1, "t"), "x");
    int fd = sb_open_read(in_dir(1, "t"), "cost table", &err);
    assert_true(fd >= 0);
    char c = 0;
    assert_int_equal(read(fd, &c, 1), 1);
    close(fd);
    unlink(fifo);
}

/* A file read whole: its bytes NUL-terminated, one past the cap refused
 * naming the cap, a directory and a FIFO refused by name, a read across
 * the 64 KiB first buffer grown exactly to the cap. */
static void test_read_file_whole_and_bounded(void **state) {
    (void)state;
    const char *p = in_dir(0, "whole");
    put(p, "abcdef");
    sb_err err = {0};
    char *data = NULL;
    int64_t len = -1;
    assert_int_equal(sb_read_file(p, "bench task", 6, &data, &len, &err), 0);
    assert_int_equal(len, 6);
    assert_string_equal(data, "abcdef");
    free(data);
    assert_int_equal(sb_read_file(p, "bench task", 5, &data, &len, &err), -1);
    assert_non_null(strstr(err.msg, "bench task: "));
    assert_non_null(strstr(err.msg, "is larger than 5 bytes"));
    err = (sb_err){0};
    assert_int_equal(sb_read_file(g_dir, "bench task", 9, &data, &len, &err), -1);
    assert_non_null(strstr(err.msg, "is a directory"));
    err = (sb_err){0};
    assert_int_equal(sb_read_file(in_dir(1, "absent"), "cost table", 9, &data,
                                  &len, &err), -1);
    assert_non_null(strstr(err.msg, "cost table: cannot open"));
    /* 100,000 bytes: past the first 64 KiB buffer, exactly at the cap */
    const char *big = in_dir(2, "big");
    FILE *f = fopen(big, "wb");
    assert_non_null(f);
    for (int i = 0; i < 100000; i++) fputc('a' + i % 26, f);
    fclose(f);
    err = (sb_err){0};
    assert_int_equal(sb_read_file(big, "t", 100000, &data, &len, &err), 0);
    assert_int_equal(len, 100000);
    assert_int_equal(data[99999], 'a' + 99999 % 26);
    assert_int_equal(data[100000], '\0');
    free(data);
    assert_int_equal(sb_read_file(big, "t", 99999, &data, &len, &err), -1);
    assert_non_null(strstr(err.msg, "larger than 99999 bytes"));
    unlink(p);
    unlink(big);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_file_whole_and_bounded),
        cmocka_unit_test(test_write_creates_and_replaces),
        cmocka_unit_test(test_planted_temporary_link),
        cmocka_unit_test(test_refuses_what_is_not_a_regular_file),
        cmocka_unit_test(test_link_appearing_before_commit),
        cmocka_unit_test(test_file_size_limit),
        cmocka_unit_test(test_append_refuses_links_and_fifos),
        cmocka_unit_test(test_read_refuses_fifo_and_directory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
