#include "tiny_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { TEST_N_RECIPES = 3 };

static char test__dir[64];
static char test__paths[TEST_N_RECIPES][96];

static void test__cleanup(void) {
    for (int i = 0; i < TEST_N_RECIPES; i++)
        if (test__paths[i][0]) unlink(test__paths[i]);
    if (test__dir[0]) rmdir(test__dir);
}

const char *test_tiny_model_path(eng_recipe recipe) {
    if ((int)recipe < 0 || (int)recipe >= TEST_N_RECIPES) abort();
    if (test__paths[recipe][0]) return test__paths[recipe];
    if (!test__dir[0]) {
        snprintf(test__dir, sizeof test__dir, "/tmp/sb-test-XXXXXX");
        if (!mkdtemp(test__dir)) {
            perror("mkdtemp");
            abort();
        }
        atexit(test__cleanup);
    }
    snprintf(test__paths[recipe], sizeof test__paths[recipe], "%s/tiny-%d.gguf",
             test__dir, (int)recipe);
    eng_mkmodel_opts o = {.shape = ENG_SHAPE_TINY, .recipe = recipe, .seed = 1,
                          .n_threads = 2};
    sb_err err = {0};
    if (eng_mkmodel(&o, test__paths[recipe], &err)) {
        fprintf(stderr, "test_tiny_model_path: %s\n", err.msg);
        abort();
    }
    return test__paths[recipe];
}

eng_model *test_tiny_model_load(eng_recipe recipe) {
    sb_err err = {0};
    eng_model *m = eng_model_load(test_tiny_model_path(recipe), &err);
    if (!m) {
        fprintf(stderr, "test_tiny_model_load: %s\n", err.msg);
        abort();
    }
    return m;
}
