/*
 * edit/job.c: an edit tokenizes its file once, inside the prompt. The
 * file's own ids (the drafter's source) are taken from the prompt's ids
 * where the tokenizer says they split cleanly around the file, and they
 * are then exactly the ids of the file encoded alone; elsewhere the file
 * is encoded again. Checked with the real Qwen vocabulary (the tokenizer
 * reference's tokenizer.json) on every edit task of the repository and on
 * the files that must fall back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit_internal.h"
#include "../support/tiny_model.h"

static int setup(void **state) {
    char json[512];
    test_tokref_path(json, sizeof json, "tokenizer.json");
    *state = test_vocab_model_load(json);
    return *state ? 0 : -1;
}

static int teardown(void **state) {
    eng_model_free(*state);
    return 0;
}

/* Makes the job for `file` and checks its file ids against the file
 * encoded alone, and its prompt ids against edit_prompt_tokens. Returns
 * whether the ids came from the prompt. */
static bool check_job(const eng_model *m, const char *file, int64_t len,
                      const char *path) {
    edit_request rq = {.file = file, .file_len = len,
                       .instruction = "Rename x to y.", .instruction_len = 14,
                       .path = path};
    edit__job job;
    sb_err err = {0};
    if (edit__job_make(m, &rq, &job, &err)) fail_msg("%s", err.msg);
    int64_t cap = 3 * len + 1;
    int32_t *alone = malloc((size_t)cap * sizeof *alone);
    assert_non_null(alone);
    int64_t n = eng_tokenize_ex(m, file, len, alone, cap, 0);
    assert_true(n >= 0 && n <= cap);
    assert_int_equal(job.n_file, n);
    if (n) assert_memory_equal(job.file_ids, alone, (size_t)n * sizeof *alone);
    int32_t *prompt = NULL;
    int64_t n_prompt = 0;
    if (edit_prompt_tokens(m, &rq, &prompt, &n_prompt, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(job.n_prompt, n_prompt);
    assert_memory_equal(job.prompt_ids, prompt, (size_t)n_prompt * sizeof *prompt);
    bool once = job.file_ids_from_prompt;
    free(prompt);
    free(alone);
    edit__job_free(&job);
    return once;
}

static char *read_all(const char *path, int64_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 > cap) {
            cap = 2 * cap + 4096;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = (int64_t)len;
    return buf;
}

/* The input file of every task folder under dir; returns how many there
 * were, and how many were tokenized once in *once. */
static int check_tasks(const eng_model *m, const char *dir, int *once) {
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot open %s (run from the repository root)", dir);
    int tasks = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[512];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *t = opendir(sub);
        if (!t) continue;
        struct dirent *f;
        while ((f = readdir(t))) {
            if (strncmp(f->d_name, "input.", 6)) continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            int64_t n = 0;
            char *text = read_all(path, &n);
            *once += check_job(m, text, n, path);
            tasks++;
            free(text);
        }
        closedir(t);
    }
    closedir(d);
    return tasks;
}

/* The task files of the repository end with a newline and start with
 * code: nearly all of them (today every one) are tokenized once. */
static void test_task_files_once(void **state) {
    const eng_model *m = *state;
    int once = 0;
    int tasks = check_tasks(m, "tests/data/edits", &once) +
                check_tasks(m, "bench/edits", &once);
    assert_true(tasks >= 25);
    if (once * 10 < tasks * 9)
        fail_msg("only %d of %d task files were tokenized once", once, tasks);
}

/* Files the prompt's ids do not split cleanly around are encoded again,
 * and get the same ids either way. */
static void test_fallbacks(void **state) {
    const eng_model *m = *state;
    static const struct {
        const char *file;
        bool once;
    } cases[] = {
        {"int x;\n", true},
        {"int x = 1;", false},     /* ";" takes the "\n" the prompt adds */
        {"int x", true},           /* a letter does not */
        {"\nint x;\n", false},     /* the blank line joins the fence's "\n" */
        {"  int x;\n", true},
        {"x = \"caf\xc3\xa9\"\n", true},
        {"x = \"cafe\xcc\x81\"\n", false}, /* NFC moves bytes */
        {"x = \"\xff\"\n", false},          /* so does UTF-8 repair */
        {"", true},
        {"a  \n", true},
        {"a  ", false},            /* trailing spaces take the "\n" too */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *f = cases[i].file;
        bool once = check_job(m, f, (int64_t)strlen(f), "x.c");
        if (once != cases[i].once)
            fail_msg("case %zu (\"%s\"): tokenized %s", i, f,
                     once ? "once" : "twice");
    }
}

/* Prompt v2 with the document as context: the region's and the context's
 * ids both come from the prompt's (tokenized once), each exactly its text
 * encoded alone; they are the copy drafter's source, region first. */
static void test_context_ids(void **state) {
    const eng_model *m = *state;
    const char *doc = "int add(int a, int b);\n\nint main(void) {\n"
                      "    return add(1, 2);\n}\n";
    const char *region = strstr(doc, "int main");
    edit_request rq = {.instruction = "Add a third argument.", .instruction_len = 21,
                       .path = "x.c"};
    sb_err err = {0};
    if (edit_request_set_context(&rq, m, doc, (int64_t)strlen(doc), region - doc,
                                 (int64_t)strlen(doc), 4096, &err))
        fail_msg("%s", err.msg);
    assert_true(rq.context_whole);
    edit__job job;
    if (edit__job_make(m, &rq, &job, &err)) fail_msg("%s", err.msg);
    assert_true(job.file_ids_from_prompt);
    int32_t alone[256];
    int64_t n = eng_tokenize_ex(m, doc, (int64_t)strlen(doc), alone, 256, 0);
    assert_int_equal(job.n_context, n);
    assert_memory_equal(job.context_ids, alone, (size_t)n * sizeof *alone);
    n = eng_tokenize_ex(m, region, (int64_t)strlen(region), alone, 256, 0);
    assert_int_equal(job.n_file, n);
    assert_memory_equal(job.file_ids, alone, (size_t)n * sizeof *alone);
    edit__job_free(&job);
}

/* A file that cannot fit the context whatever its tokens (more bytes
 * than the longest token times the context) is refused before it is
 * tokenized (before, a 60 MB document was tokenized, ~4.6 s that no
 * cancel interrupted, only to fail on its length). Before: the job was
 * made, all of it tokenized. */
static void test_file_past_the_context(void **state) {
    const eng_model *m = *state;
    int64_t longest = 1, len;
    for (int32_t id = 0; id < eng_n_vocab(m); id++)
        if (eng_token_bytes(m, id, &len) && len > longest) longest = len;
    int64_t n = longest * eng_model_n_ctx(m) + 1;
    char *file = malloc((size_t)n);
    assert_non_null(file);
    for (int64_t i = 0; i < n; i++) file[i] = "int x;\n"[i % 7];
    edit_request rq = {.file = file, .file_len = n, .instruction = "x",
                       .instruction_len = 1};
    edit__job job;
    sb_err err = {0};
    assert_int_equal(edit__job_make(m, &rq, &job, &err), -1);
    assert_non_null(strstr(err.msg, "more than the model's context"));
    free(file);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task_files_once),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_context_ids),
        cmocka_unit_test(test_file_past_the_context),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
