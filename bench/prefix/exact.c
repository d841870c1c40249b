/*
 * exact.c — the prefix cache changes no output: every task of
 * the given folders (bench/edits' format: input.EXT, instruction.txt,
 * expected.EXT) edited four ways on one session, whose generated ids must
 * be identical:
 *
 *   1. cache off, speculation off (the reference, prefilled from 0);
 *   2. cache off, speculation on;
 *   3. cache on, speculation on, right after an edit of the same region
 *      with another instruction (the prompts share the system turn, the
 *      context and the region: the KV of all of it is kept);
 *   4. cache on, speculation off, right after 3 (the same prompt again:
 *      all of it but the last token is kept).
 *
 *     build/prefix_exact MODEL DIR... [INIT_JSON]
 *
 * Prompt v2 with the file as context (the default budget); the region is
 * the task's region.txt when it has one, else the lines the expected file
 * changes, two more on each side, at most 40 (from the first change); 96
 * output tokens at most. Each line shows the region, the context's lines
 * (the whole file, or the window the budget allows) and the tokens kept. A benchmark, not a
 * test: run by `make bench-prefix`, recorded in bench/RESULTS.md. Exit
 * status 1 when any output differs. INIT_JSON: {"device":"cuda"} runs it
 * on the GPU.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../edit/edit.h"

static char *read_file(const char *path, int64_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = '\0', *len = n;
    return b;
}

/* The file in dir whose name starts with `stem.`, into out. */
static bool find_file(const char *dir, const char *stem, char *out, size_t cap) {
    /* cap > strlen(dir) + 256: a name always fits */
    DIR *d = opendir(dir);
    if (!d) return false;
    struct dirent *e;
    bool found = false;
    size_t sl = strlen(stem);
    while (!found && (e = readdir(d)))
        if (!strncmp(e->d_name, stem, sl) && e->d_name[sl] == '.') {
            snprintf(out, cap, "%s/%s", dir, e->d_name);
            found = true;
        }
    closedir(d);
    return found;
}

/* Byte offset of line `line` (0-based) of text, or len past its end. */
static int64_t line_start(const char *t, int64_t len, int64_t line) {
    int64_t at = 0;
    for (int64_t l = 0; l < line && at < len; l++) {
        const char *nl = memchr(t + at, '\n', (size_t)(len - at));
        at = nl ? nl - t + 1 : len;
    }
    return at;
}

static int64_t count_lines(const char *t, int64_t len) {
    int64_t n = 0;
    for (int64_t i = 0; i < len; i++) n += t[i] == '\n';
    return n + (len > 0 && t[len - 1] != '\n');
}

/* The region: lines [*a, *b) around what expected changes in input. */
static void change_lines(const char *in, int64_t il, const char *ex, int64_t el,
                         int64_t *a, int64_t *b) {
    const int64_t lines = count_lines(in, il);
    int64_t first = 0;
    while (first < lines) {
        int64_t s = line_start(in, il, first), e = line_start(in, il, first + 1);
        int64_t s2 = line_start(ex, el, first), e2 = line_start(ex, el, first + 1);
        if (e - s != e2 - s2 || memcmp(in + s, ex + s2, (size_t)(e - s))) break;
        first++;
    }
    int64_t from_end = 0; /* equal lines at the end */
    const int64_t elines = count_lines(ex, el);
    while (from_end < lines - first && from_end < elines - first) {
        int64_t s = line_start(in, il, lines - 1 - from_end), e = line_start(in, il, lines - from_end);
        int64_t s2 = line_start(ex, el, elines - 1 - from_end), e2 = line_start(ex, el, elines - from_end);
        if (e - s != e2 - s2 || memcmp(in + s, ex + s2, (size_t)(e - s))) break;
        from_end++;
    }
    *a = first > 2 ? first - 2 : 0;
    *b = lines - from_end + 2 < lines ? lines - from_end + 2 : lines;
    if (*b > *a + 40) *b = *a + 40;
    if (*b <= *a) *b = *a + 1 < lines ? *a + 1 : lines;
}

typedef struct run_out {
    char sha[65];
    int32_t cached, n_prompt;
    bool ok;
} run_out;

static run_out run(eng_session *s, const edit_request *rq, bool cache, bool spec) {
    edit_opts o = edit_defaults();
    o.prefix_cache = cache;
    o.drafter = spec ? EDIT_DRAFTER_COPY : EDIT_DRAFTER_NONE;
    o.max_tokens = 96;
    edit_result r;
    sb_err err = {0};
    edit_run(s, rq, &o, &r, &err);
    run_out out = {.ok = r.status == EDIT_DONE || r.status == EDIT_BAD_ANSWER,
                   .cached = r.gen.cached_tokens, .n_prompt = (int32_t)r.n_prompt};
    memcpy(out.sha, r.gen.sha256, 65);
    if (!out.ok) fprintf(stderr, "prefix_exact: %s\n", err.msg);
    edit_result_free(&r);
    return out;
}

/* One task; true when its four outputs are identical. */
static bool task(eng_session *s, const eng_model *m, const char *dir, int *cached_min) {
    char in_path[1300], ex_path[1300], instr_path[1300];
    snprintf(instr_path, sizeof instr_path, "%s/instruction.txt", dir);
    if (!find_file(dir, "input", in_path, sizeof in_path) ||
        !find_file(dir, "expected", ex_path, sizeof ex_path))
        return true; /* not a task folder */
    int64_t il = 0, el = 0, nl = 0;
    char *in = read_file(in_path, &il), *ex = read_file(ex_path, &el),
         *instr = read_file(instr_path, &nl);
    if (!in || !ex || !instr) {
        fprintf(stderr, "prefix_exact: cannot read %s\n", dir);
        exit(1);
    }
    while (nl > 0 && (instr[nl - 1] == '\n' || instr[nl - 1] == '\r')) instr[--nl] = '\0';
    int64_t a, b;
    change_lines(in, il, ex, el, &a, &b);
    char region_path[1300];
    snprintf(region_path, sizeof region_path, "%s/region.txt", dir);
    FILE *rf = fopen(region_path, "r"); /* the task names its selection */
    long long ra, rb;
    if (rf && fscanf(rf, "%lld:%lld", &ra, &rb) == 2 && ra >= 1 && rb >= ra)
        a = ra - 1, b = rb;
    if (rf) fclose(rf);
    edit_request rq = {.instruction = instr, .instruction_len = nl, .path = in_path};
    sb_err err = {0};
    if (edit_request_set_context(&rq, m, in, il, line_start(in, il, a),
                                 line_start(in, il, b), 2048, &err)) {
        fprintf(stderr, "prefix_exact: %s: %s\n", dir, err.msg);
        exit(1);
    }
    edit_request other = rq;
    other.instruction = "Tidy this code up.";
    other.instruction_len = 18;
    run_out r1 = run(s, &rq, false, false), r2 = run(s, &rq, false, true);
    run(s, &other, true, true);
    run_out r3 = run(s, &rq, true, true), r4 = run(s, &rq, true, false);
    bool same = r1.ok && r2.ok && r3.ok && r4.ok && !strcmp(r1.sha, r2.sha) &&
                !strcmp(r1.sha, r3.sha) && !strcmp(r1.sha, r4.sha);
    const char *name = strrchr(dir, '/');
    const int64_t ctx_last = rq.context_line +
                             count_lines(rq.context, rq.context_len) - 1;
    printf("%-40s lines %4lld-%-4lld context %4lld-%-4lld prompt %5d cached %5d "
           "%5d  %s %.12s\n", name ? name + 1 : dir, (long long)a + 1, (long long)b,
           (long long)rq.context_line, (long long)ctx_last, r1.n_prompt, r3.cached,
           r4.cached, same ? "identical" : "DIFFERENT", r1.sha);
    fflush(stdout);
    if (r3.cached < *cached_min) *cached_min = r3.cached;
    free(in);
    free(ex);
    free(instr);
    return same;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every task folder of root, in name order. */
static void folder(eng_session *s, const eng_model *m, const char *root, int *n,
                   int *same, int *cached_min) {
    DIR *d = opendir(root);
    if (!d) {
        fprintf(stderr, "prefix_exact: cannot open %s\n", root);
        exit(1);
    }
    char *names[1024];
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < 1024)
        if (e->d_name[0] != '.') names[k++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)k, sizeof *names, cmp_str);
    for (int i = 0; i < k; i++) {
        char dir[1024], probe[1300];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        if (find_file(dir, "input", probe, sizeof probe)) {
            (*n)++;
            *same += task(s, m, dir, cached_min);
        }
        free(names[i]);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: prefix_exact MODEL DIR... [INIT_JSON]\n");
        return 2;
    }
    int last = argc;
    eng_options opt = {.n_threads = 2};
    if (argv[argc - 1][0] == '{') {
        json_t *j = json_loads(argv[argc - 1], 0, NULL);
        const char *dev = json_string_value(json_object_get(j, "device"));
        if (dev && !strcmp(dev, "cuda")) opt.device = ENG_DEVICE_CUDA;
        json_decref(j);
        last--;
    }
    sb_err err = {0};
    /* the SB_CUDA_* and SB_CPU_ISA switches (docs/environment.md) */
    if (krn_tuning_from_env(&opt.tuning, getenv, &err)) {
        fprintf(stderr, "prefix_exact: %s\n", err.msg);
        return 2;
    }
    eng_model *m = eng_model_load(argv[1], &err);
    eng_session *s = m ? eng_session_create(m, &opt, &err) : NULL;
    if (!s) {
        fprintf(stderr, "prefix_exact: %s\n", err.msg);
        return 1;
    }
    int n = 0, same = 0, cached_min = 1 << 30;
    for (int i = 2; i < last; i++) folder(s, m, argv[i], &n, &same, &cached_min);
    printf("prefix_exact: %d of %d tasks identical with the cache and speculation "
           "on and off (%s, %s); fewest tokens kept by a cached run: %d\n", same, n,
           eng_session_backend(s), eng_session_device_name(s), cached_min);
    eng_session_destroy(s);
    eng_model_free(m);
    return same == n ? 0 : 1;
}
