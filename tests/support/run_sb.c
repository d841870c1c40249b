#include "run_sb.h"

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

static char test__sb_dir[64];

int test_sb_setup(const char *tag) {
    snprintf(test__sb_dir, sizeof test__sb_dir, "/tmp/sb-%.20s-XXXXXX", tag);
    return mkdtemp(test__sb_dir) ? 0 : -1;
}

int test_sb_group_setup(void **state) {
    (void)state;
    return test_sb_setup("run");
}

int test_sb_group_teardown(void **state) {
    (void)state;
    return test_sb_teardown();
}

int test_sb_teardown(void) {
    if (!test__sb_dir[0]) return 0;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test__sb_dir);
    return system(cmd) == 0 ? 0 : -1;
}

const char *test_sb_dir(void) { return test__sb_dir; }

const char *test_sb_path(int slot, const char *name) {
    static char bufs[4][256];
    if (slot < 0 || slot > 3) fail_msg("test_sb_path: slot %d is not 0..3", slot);
    snprintf(bufs[slot], sizeof bufs[slot], "%s/%s", test__sb_dir, name);
    return bufs[slot];
}

int test_sb(const char *fmt, ...) {
    const char *build = getenv("SB_BUILD");
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof args) fail_msg("test_sb: arguments too long");
    snprintf(cmd, sizeof cmd, "'%s/sb' %s >'%s/out' 2>'%s/err'",
             build && *build ? build : "build", args, test__sb_dir, test__sb_dir);
    int status = system(cmd);
    if (status == -1 || !WIFEXITED(status)) fail_msg("sb %s: did not exit", args);
    return WEXITSTATUS(status);
}

char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            buf = realloc(buf, (cap *= 2) + 1);
            assert_non_null(buf);
        }
    }
    fclose(f);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

char *test_sb_read(const char *name, size_t *len) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", test__sb_dir, name);
    return test_read_file(path, len);
}

void test_write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot create %s", path);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void test_text_field(const char *text, const char *key, char *out, size_t cap) {
    const char *at = strstr(text, key);
    if (!at) fail_msg("no %s in: %s", key, text);
    at += strlen(key);
    size_t n = strcspn(at, " \n");
    if (n >= cap) n = cap - 1;
    memcpy(out, at, n);
    out[n] = '\0';
}

bool test_sb_output_has(const char *file, const char *text) {
    char *s = test_sb_read(file, NULL);
    bool has = strstr(s, text) != NULL;
    if (!has) fprintf(stderr, "expected '%s' in %s:\n%s", text, file, s);
    free(s);
    return has;
}
