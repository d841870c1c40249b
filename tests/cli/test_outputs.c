/* What sb's writers do with hostile output paths (docs/limits.md): a link
 * planted at the old temporary name PATH.tmp is not followed, a FIFO or a
 * device at PATH is refused and left as it was, and a file size limit ends
 * in one line with no temporary left. Through the built binary. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/run_sb.h"

/* Entries of the scratch directory whose names contain ".tmp". */
static int temporaries(void) {
    DIR *d = opendir(test_sb_dir());
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return n;
}

#define MK "mkmodel --shape tiny --quant f32 --quiet -o "

/* Before: mkmodel opened PATH.tmp with O_TRUNC through the link and wrote
 * the model over its target. */
static void test_planted_temporary_link(void **state) {
    (void)state;
    char victim[256];
    snprintf(victim, sizeof victim, "%s", test_sb_path(0, "victim"));
    test_write_file(victim, "precious\n", 9);
    assert_int_equal(symlink(victim, test_sb_path(1, "m.gguf.tmp")), 0);
    assert_int_equal(test_sb(MK "'%s'", test_sb_path(2, "m.gguf")), 0);
    size_t len;
    char *text = test_read_file(victim, &len);
    assert_string_equal(text, "precious\n");
    free(text);
    struct stat st;
    assert_int_equal(stat(test_sb_path(2, "m.gguf"), &st), 0);
    assert_true(st.st_size > 1000);
    unlink(test_sb_path(1, "m.gguf.tmp"));
    unlink(test_sb_path(2, "m.gguf"));
}

/* Before: a regular file was renamed over the FIFO and sb exited 0. */
static void test_fifo_output_refused(void **state) {
    (void)state;
    const char *fifo = test_sb_path(0, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(test_sb(MK "'%s'", fifo), 1);
    assert_true(test_sb_output_has("err", "is a FIFO: refusing to replace it"));
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(temporaries(), 0);
    unlink(fifo);
}

/* Before: SIGXFSZ killed sb and the temporary stayed behind. */
static void test_file_size_limit(void **state) {
    (void)state;
    const char *build = getenv("SB_BUILD");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ulimit -f 64; '%s/sb' " MK "'%s' 2>'%s'",
             build && *build ? build : "build", test_sb_path(0, "big.gguf"),
             test_sb_path(1, "err"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_true(test_sb_output_has("err", "file too large"));
    size_t len;
    char *err = test_read_file(test_sb_path(1, "err"), &len);
    assert_non_null(memchr(err, '\n', len));
    assert_ptr_equal(strchr(err, '\n'), err + len - 1); /* one line */
    free(err);
    assert_int_equal(temporaries(), 0);
    assert_int_equal(access(test_sb_path(0, "big.gguf"), F_OK), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_temporary_link),
        cmocka_unit_test(test_fifo_output_refused),
        cmocka_unit_test(test_file_size_limit),
    };
    return cmocka_run_group_tests(tests, test_sb_group_setup, test_sb_group_teardown);
}
