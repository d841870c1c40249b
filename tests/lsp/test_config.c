/* The server's options (lsp/config.c): one table gives the defaults, the
 * setters, the environment variables, the flags and --help, and
 * docs/environment.md lists every row of it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lsp/lsp.h"

/* The documented defaults (docs/environment.md, README), set once. */
static void test_defaults(void **state) {
    (void)state;
    lsp_config c;
    lsp_config_defaults(&c);
    assert_null(c.model);
    assert_null(c.log);
    assert_null(c.warmup);
    assert_int_equal(c.device, ENG_DEVICE_CPU);
    assert_int_equal(c.threads, 0);
    assert_true(c.seed == 0 && c.temperature == 0.0f && c.max_tokens == 0);
    assert_true(c.speculation && c.prefix_cache && !c.context_region);
    assert_int_equal(c.prompt_version, 0);
    assert_int_equal(c.context_budget, 0);
    assert_int_equal(c.cache_mb, 1024);
    assert_false(c.test_hold);
    stepcost_table t;
    stepcost_table_default(&t);
    assert_memory_equal(c.costs.listed, t.listed, sizeof t.listed);
    lsp_config_free(&c);
}

/* Every option: its default, given as text, is a value its setter takes;
 * a value no option takes is refused naming the key, and through the
 * environment naming the variable too. */
static void test_every_option_sets_and_refuses(void **state) {
    (void)state;
    const int n = lsp_option_count();
    assert_true(n >= 15);
    for (int i = 0; i < n; i++) {
        const lsp_option o = lsp_option_at(i);
        assert_non_null(o.key);
        assert_non_null(o.flag);
        assert_non_null(o.env);
        lsp_config c;
        lsp_config_defaults(&c);
        sb_err err = {0};
        if (o.fallback && lsp_config_set(&c, o.key, o.fallback, &err))
            fail_msg("%s: its default '%s' is refused: %s", o.key, o.fallback,
                     err.msg);
        /* "" is no path, no number, no word an option takes */
        err = (sb_err){0};
        assert_int_equal(lsp_config_set(&c, o.key, "", &err), -1);
        if (!strstr(err.msg, o.key)) fail_msg("'%s' lacks %s", err.msg, o.key);
        /* the environment: an empty variable is unset, a bad one named */
        setenv(o.env, "-1x", 1);
        err = (sb_err){0};
        int rc = lsp_config_from_env(&c, &err);
        unsetenv(o.env);
        const bool path = !strcmp(o.arg, "FILE");
        if (path) {
            /* a path is any text; a cost table must also be a file */
            if (!strcmp(o.key, "costTable")) assert_int_equal(rc, -1);
            else assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -1);
            if (!strstr(err.msg, o.env) || !strstr(err.msg, o.key))
                fail_msg("'%s' lacks %s or %s", err.msg, o.env, o.key);
        }
        lsp_config_free(&c);
    }
    sb_err err = {0};
    lsp_config c;
    lsp_config_defaults(&c);
    assert_int_equal(lsp_config_set(&c, "modle", "x", &err), -1);
    assert_non_null(strstr(err.msg, "unknown option 'modle'"));
    assert_null(lsp_option_at(lsp_option_count()).key);
    assert_null(lsp_option_at(-1).key);
    lsp_config_free(&c);
}

/* Values each kind of option takes, from text as flags and variables
 * give it. */
static void test_values(void **state) {
    (void)state;
    lsp_config c;
    lsp_config_defaults(&c);
    sb_err err = {0};
    assert_int_equal(lsp_config_set(&c, "device", "cuda", &err), 0);
    assert_int_equal(c.device, ENG_DEVICE_CUDA);
    assert_int_equal(lsp_config_set(&c, "seed", "18446744073709551615", &err), 0);
    assert_true(c.seed == UINT64_MAX);
    assert_int_equal(lsp_config_set(&c, "temperature", "0.5", &err), 0);
    assert_true(c.temperature == 0.5f);
    assert_int_equal(lsp_config_set(&c, "speculation", "false", &err), 0);
    assert_false(c.speculation);
    assert_int_equal(lsp_config_set(&c, "context", "region", &err), 0);
    assert_true(c.context_region);
    assert_int_equal(lsp_config_set(&c, "promptVersion", "v1", &err), 0);
    assert_int_equal(c.prompt_version, 1);
    assert_int_equal(lsp_config_set(&c, "cacheMemoryMB", "0", &err), 0);
    assert_int_equal(c.cache_mb, 0);
    assert_int_equal(lsp_config_set(&c, "model", "/m.gguf", &err), 0);
    assert_string_equal(c.model, "/m.gguf");
    assert_int_equal(lsp_config_set(&c, "threads", "1025", &err), -1);
    assert_string_equal(err.msg, "lsp_config_set: threads '1025': expected "
                        "0..1024 (0: all cores)");
    assert_int_equal(c.threads, 0);
    lsp_config_free(&c);
}

/* The whole of a text file, NUL-terminated (caller frees). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s (run from the repository root)", path);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* docs/environment.md's sb-lsp table has a row per option starting
 * "| `ENV` | `--flag`" and naming the key; --help names all three. */
static void test_docs_and_help_list_every_option(void **state) {
    (void)state;
    char *doc = slurp("docs/environment.md");
    char *help = NULL;
    size_t help_len = 0;
    FILE *out = open_memstream(&help, &help_len);
    assert_non_null(out);
    lsp_options_help(out);
    fclose(out);
    for (int i = 0; i < lsp_option_count(); i++) {
        const lsp_option o = lsp_option_at(i);
        char row[160], key[80], flag[80];
        snprintf(row, sizeof row, "| `%s` | `--%s`", o.env, o.flag);
        snprintf(key, sizeof key, "`%s`", o.key);
        const char *at = strstr(doc, row);
        if (!at) fail_msg("docs/environment.md: no row '%s'", row);
        const char *eol = strchr(at, '\n');
        const char *k = strstr(at, key);
        if (!k || (eol && k > eol))
            fail_msg("docs/environment.md: the row of %s lacks %s", o.env, key);
        snprintf(flag, sizeof flag, "--%s %s", o.flag, o.arg);
        if (!strstr(help, flag) || !strstr(help, o.env))
            fail_msg("--help lacks '%s' or %s", flag, o.env);
    }
    free(help);
    free(doc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_option_sets_and_refuses),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_docs_and_help_list_every_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
