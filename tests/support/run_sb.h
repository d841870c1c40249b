/*
 * run_sb.h — test support: the built `sb` command run as a user runs it,
 * in a scratch directory of its own per test binary.
 *
 *     assert_int_equal(test_sb("info -m '%s'", model), 0);
 *     char *out = test_sb_read("out", NULL);    // what it printed
 *     ...
 *     return cmocka_run_group_tests(tests, test_sb_group_setup,
 *                                   test_sb_group_teardown);
 *
 * The binary is "$SB_BUILD/sb" (SB_BUILD as `make test` exports it;
 * "build" when unset), so a test checks the build it belongs to.
 */
#ifndef SB_TESTS_RUN_SB_H
#define SB_TESTS_RUN_SB_H

#include <stdbool.h>
#include <stddef.h>

/* Makes the scratch directory /tmp/sb-<tag>-XXXXXX; 0, or -1 when it
 * cannot (for a cmocka group setup). */
int test_sb_setup(const char *tag);
/* Removes it with everything in it; 0 or -1 (for a group teardown). */
int test_sb_teardown(void);
/* The two as cmocka group fixtures (tag "run"), for
 * cmocka_run_group_tests(tests, test_sb_group_setup, test_sb_group_teardown). */
int test_sb_group_setup(void **state);
int test_sb_group_teardown(void **state);

/* The scratch directory's path (owned here). */
const char *test_sb_dir(void);
/* DIR/name in one of 4 static buffers, slot 0..3, so that up to four paths
 * can be used in one call. */
const char *test_sb_path(int slot, const char *name);

/* Runs "$SB_BUILD/sb ARGS" through the shell (ARGS formatted as printf
 * does; quote paths yourself), stdout into DIR/out and stderr into DIR/err.
 * Returns its exit status; fails the test when it did not exit. */
int test_sb(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A whole file, NUL-terminated (its length, without the NUL, into *len
 * unless len is NULL); caller frees. Fails the test when it cannot be read.
 * test_sb_read takes a name in the scratch directory ("out", "err"). */
char *test_read_file(const char *path, size_t *len);
char *test_sb_read(const char *name, size_t *len);
/* Writes len bytes to path; fails the test when it cannot. */
void test_write_file(const char *path, const void *data, size_t len);

/* The value after `key` (e.g. "sha256=") in text, up to a space or the
 * line's end, into out[cap]; fails the test when text has no key. */
void test_text_field(const char *text, const char *key, char *out, size_t cap);

/* True when DIR/<file> contains text; prints the file when it does not. */
bool test_sb_output_has(const char *file, const char *text);

#endif
