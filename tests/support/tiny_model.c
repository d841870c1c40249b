#include "tiny_model.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../../mkmodel/mkmodel_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TEST_N_RECIPES = 3 };

static char test__dir[64];
static char test__paths[TEST_N_RECIPES][96];
static char test__vocab_path[96];
static char test__vocab_json[512]; /* the json the vocab model was made from */

static void test__cleanup(void) {
    for (int i = 0; i < TEST_N_RECIPES; i++)
        if (test__paths[i][0]) unlink(test__paths[i]);
    if (test__vocab_path[0]) unlink(test__vocab_path);
    if (test__dir[0]) rmdir(test__dir);
}

/* The process's temporary directory, made on first use. */
static const char *test__tmpdir(void) {
    if (!test__dir[0]) {
        snprintf(test__dir, sizeof test__dir, "/tmp/sb-test-XXXXXX");
        if (!mkdtemp(test__dir)) {
            perror("mkdtemp");
            abort();
        }
        atexit(test__cleanup);
    }
    return test__dir;
}

static void test__make(const mk_opts *o, const char *path,
                       const char *who) {
    sb_err err = {0};
    if (mk_model_write(o, path, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        abort();
    }
}

static eng_model *test__load(const char *path, const char *who) {
    sb_err err = {0};
    eng_model *m = eng_model_load(path, &err);
    if (!m) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        abort();
    }
    return m;
}

const char *test_tiny_model_path(mk_recipe recipe) {
    if ((int)recipe < 0 || (int)recipe >= TEST_N_RECIPES) abort();
    if (test__paths[recipe][0]) return test__paths[recipe];
    snprintf(test__paths[recipe], sizeof test__paths[recipe], "%s/tiny-%d.gguf",
             test__tmpdir(), (int)recipe);
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = recipe, .seed = 1,
                          .n_threads = 2};
    test__make(&o, test__paths[recipe], __func__);
    return test__paths[recipe];
}

eng_model *test_tiny_model_load(mk_recipe recipe) {
    return test__load(test_tiny_model_path(recipe), __func__);
}

void test_tokref_path(char *buf, size_t cap, const char *name) {
    const char *build = getenv("SB_BUILD");
    snprintf(buf, cap, "%s/tokref/%s", build && *build ? build : "build", name);
}

const char *test_vocab_model_path(const char *json_path) {
    if (test__vocab_path[0]) {
        /* one model per process: a second vocabulary would need its own */
        if (strcmp(json_path, test__vocab_json)) abort();
        return test__vocab_path;
    }
    if (strlen(json_path) >= sizeof test__vocab_json) abort();
    strcpy(test__vocab_json, json_path);
    snprintf(test__vocab_path, sizeof test__vocab_path, "%s/tiny-vocab.gguf",
             test__tmpdir());
    /* threads: 0 = all CPUs; the bytes do not depend on it, and 39 MB of
     * embedding rows are the slow part under the sanitizers */
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_Q8_0,
                          .seed = 1, .vocab_json = test__vocab_json};
    test__make(&o, test__vocab_path, __func__);
    return test__vocab_path;
}

eng_model *test_vocab_model_load(const char *json_path) {
    return test__load(test_vocab_model_path(json_path), __func__);
}

eng_model *test_job_write_and_load(struct mk_job *job, const char *path,
                                   const char *want) {
    sb_err err = {0};
    if (mk_job_write(job, path, &err)) fail_msg("write: %s", err.msg);
    mk_job_free(job);
    eng_model *m = eng_model_load(path, &err);
    unlink(path);
    if (want) {
        assert_null(m);
        if (!strstr(err.msg, want))
            fail_msg("error '%s' does not contain '%s'", err.msg, want);
    } else if (!m) {
        fail_msg("eng_model_load: %s", err.msg);
    }
    return m;
}

void test_job_init(struct mk_job *job) {
    mk_opts o = {.shape = MK_SHAPE_TINY, .recipe = MK_RECIPE_F32,
                          .seed = 1, .n_threads = 2};
    sb_err err = {0};
    if (mk_job_init(job, &o, &err)) fail_msg("mk_job_init: %s", err.msg);
}

void test_job_set_token(struct mk_job *job, int id, const char *text,
                        int32_t type) {
    free(job->vocab.tokens[id]);
    job->vocab.tokens[id] = strdup(text);
    assert_non_null(job->vocab.tokens[id]);
    job->vocab.types[id] = type;
}
