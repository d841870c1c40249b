/*
 * tasks.c — the benchmark's tasks, read from bench/edits/ (bench.h). The
 * folders are data a user may edit, so every file is checked as it is
 * read: bounded sizes, a meta.json of the documented shape, one input and
 * one expected file with the same extension.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"

/* Larger than any source file an edit prompt can hold. */
enum { TASKS__MAX_FILE = 4 << 20, TASKS__MAX = 1024 };

/* dir + "/" + name, malloc'd; NULL when out of memory. */
static char *tasks__join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p) return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

/* The whole file, NUL-terminated, at most TASKS__MAX_FILE bytes. */
static int tasks__read(const char *path, char **data, int64_t *len,
                       sb_err *err) {
    return sb_read_file(path, "bench task", TASKS__MAX_FILE, data, len, err);
}

/* The one entry of folder `dir` named PREFIX.EXT, as a malloc'd path;
 * err when there is none or more than one. */
static char *tasks__find(const char *dir, const char *prefix, sb_err *err) {
    DIR *d = opendir(dir);
    if (!d) {
        sb_err_set(err, "bench task", "cannot open '%s': %s", dir,
                   strerror(errno));
        return NULL;
    }
    char *found = NULL;
    int count = 0;
    size_t pl = strlen(prefix);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, pl) || e->d_name[pl] != '.' ||
            !e->d_name[pl + 1] || strstr(e->d_name, ".tmp"))
            continue;
        if (++count == 1) found = tasks__join(dir, e->d_name);
    }
    closedir(d);
    if (count == 1 && found) return found;
    free(found);
    if (count)
        sb_err_set(err, "bench task", "'%s' holds %d files named %s.EXT; "
                   "expected one", dir, count, prefix);
    else
        sb_err_set(err, "bench task", "'%s' has no %s.EXT file", dir, prefix);
    return NULL;
}

static const char *tasks__ext(const char *path) {
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

/* meta.json: a flat object with the documented keys (others ignored). */
static int tasks__meta(const char *path, bench_task *t, sb_err *err) {
    json_error_t je;
    FILE *f = sb_fopen_read(path, "bench task", err);
    if (!f) return -1;
    json_t *j = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!j)
        return sb_err_set(err, "bench task", "%s: line %d: %s", path,
                          je.line, je.text);
    json_t *lang = json_object_get(j, "language"), *kind = json_object_get(j, "kind");
    json_t *li = json_object_get(j, "lines_in"), *lo = json_object_get(j, "lines_out");
    json_t *cl = json_object_get(j, "changed_lines");
    json_t *cs = json_object_get(j, "changed_share");
    int rc = 0;
    if (!json_is_string(lang) || !json_is_string(kind))
        rc = sb_err_set(err, "bench task", "%s: \"language\" and \"kind\" "
                        "must be strings", path);
    else if (!json_is_integer(li) || !json_is_integer(lo) ||
             !json_is_integer(cl) || json_integer_value(li) < 0 ||
             json_integer_value(lo) < 0 || json_integer_value(cl) < 0 ||
             json_integer_value(li) > 1000000 ||
             json_integer_value(lo) > 1000000 ||
             json_integer_value(cl) > 1000000)
        rc = sb_err_set(err, "bench task", "%s: \"lines_in\", \"lines_out\" "
                        "and \"changed_lines\" must be integers 0..1000000",
                        path);
    else if (!json_is_number(cs) || !(json_number_value(cs) >= 0) ||
             !(json_number_value(cs) <= 1))
        rc = sb_err_set(err, "bench task", "%s: \"changed_share\" must be "
                        "a number 0..1", path);
    else {
        t->language = strdup(json_string_value(lang));
        t->kind = strdup(json_string_value(kind));
        t->lines_in = (int32_t)json_integer_value(li);
        t->lines_out = (int32_t)json_integer_value(lo);
        t->changed_lines = (int32_t)json_integer_value(cl);
        t->changed_share = json_number_value(cs);
        if (!t->language || !t->kind)
            rc = sb_err_set(err, "bench task", "out of memory");
    }
    json_decref(j);
    return rc;
}

/* The instruction: one line; its final newline (and "\r") dropped. */
static int tasks__instruction(const char *path, bench_task *t, sb_err *err) {
    if (tasks__read(path, &t->instruction, &t->instruction_len, err)) return -1;
    while (t->instruction_len > 0 &&
           (t->instruction[t->instruction_len - 1] == '\n' ||
            t->instruction[t->instruction_len - 1] == '\r'))
        t->instruction[--t->instruction_len] = '\0';
    if (t->instruction_len == 0 || strspn(t->instruction, " \t") ==
                                       (size_t)t->instruction_len)
        return sb_err_set(err, "bench task", "'%s' is empty", path);
    return 0;
}

/* Loads folder dir/name into t (zeroed first). */
static int tasks__load_one(const char *dir, const char *name, bench_task *t,
                           sb_err *err) {
    memset(t, 0, sizeof *t);
    char *folder = tasks__join(dir, name), *meta = NULL, *instr = NULL;
    char *exp_path = NULL;
    int rc = -1;
    if (!folder || !(t->name = strdup(name)) ||
        !(meta = tasks__join(folder, "meta.json")) ||
        !(instr = tasks__join(folder, "instruction.txt"))) {
        sb_err_set(err, "bench task", "out of memory");
        goto done;
    }
    if (tasks__meta(meta, t, err) || tasks__instruction(instr, t, err) ||
        !(t->input_path = tasks__find(folder, "input", err)) ||
        !(exp_path = tasks__find(folder, "expected", err)))
        goto done;
    if (strcmp(tasks__ext(t->input_path), tasks__ext(exp_path))) {
        sb_err_set(err, "bench task", "'%s': input and expected files have "
                   "different extensions", folder);
        goto done;
    }
    rc = tasks__read(t->input_path, &t->input, &t->input_len, err) ||
                 tasks__read(exp_path, &t->expected, &t->expected_len, err)
             ? -1 : 0;
done:
    free(folder);
    free(meta);
    free(instr);
    free(exp_path);
    return rc;
}

/* A folder holding a meta.json is a task; anything else is passed over. */
static int tasks__is_task(const char *dir, const char *name) {
    if (name[0] == '.') return 0;
    char *folder = tasks__join(dir, name);
    char *meta = folder ? tasks__join(folder, "meta.json") : NULL;
    struct stat st;
    int yes = folder && meta && stat(folder, &st) == 0 && S_ISDIR(st.st_mode) &&
              stat(meta, &st) == 0 && S_ISREG(st.st_mode);
    free(folder);
    free(meta);
    return yes;
}

static int tasks__cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The task folders of dir in name order: names[0..*n), malloc'd. */
static int tasks__list(const char *dir, char ***names, int *n, sb_err *err) {
    DIR *d = opendir(dir);
    if (!d)
        return sb_err_set(err, "bench tasks", "cannot open '%s': %s", dir,
                          strerror(errno));
    char **v = calloc(TASKS__MAX, sizeof *v);
    int k = 0, rc = v ? 0 : sb_err_set(err, "bench tasks", "out of memory");
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (!tasks__is_task(dir, e->d_name)) continue;
        if (k == TASKS__MAX)
            rc = sb_err_set(err, "bench tasks", "'%s' holds more than %d "
                            "tasks", dir, TASKS__MAX);
        else if (!(v[k++] = strdup(e->d_name)))
            rc = sb_err_set(err, "bench tasks", "out of memory");
    }
    closedir(d);
    if (rc == 0 && k == 0)
        rc = sb_err_set(err, "bench tasks", "'%s' holds no task folders (a "
                        "folder with a meta.json)", dir);
    if (rc) {
        for (int i = 0; v && i < k; i++) free(v[i]);
        free(v);
        return -1;
    }
    qsort(v, (size_t)k, sizeof *v, tasks__cmp);
    *names = v;
    *n = k;
    return 0;
}

/* Keeps the names listed in `only`, in its order; err for an unknown one. */
static int tasks__select(const char *dir, const char *only, char **names,
                         int *n, sb_err *err) {
    char *copy = strdup(only), *save = NULL;
    char **kept = calloc((size_t)*n, sizeof *kept);
    int k = 0, rc = copy && kept ? 0 : sb_err_set(err, "bench tasks", "out of memory");
    for (char *tok = rc ? NULL : strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int at = -1;
        for (int i = 0; i < *n; i++)
            if (names[i] && !strcmp(names[i], tok)) at = i;
        for (int i = 0; at < 0 && i < k; i++)
            if (!strcmp(kept[i], tok)) at = -2;
        if (at == -2) continue; /* named twice: run once */
        if (at < 0) {
            rc = sb_err_set(err, "bench tasks", "--only: no task '%s' in '%s'",
                            tok, dir);
            break;
        }
        kept[k++] = names[at];
        names[at] = NULL;
    }
    if (rc == 0 && k == 0)
        rc = sb_err_set(err, "bench tasks", "--only names no task");
    for (int i = 0; i < *n; i++) free(names[i]);
    for (int i = 0; i < k; i++) names[i] = rc ? (free(kept[i]), NULL) : kept[i];
    *n = rc ? 0 : k;
    free(kept);
    free(copy);
    return rc;
}

int bench_tasks_load(const char *dir, const char *only, bench_task **tasks,
                     int *n, sb_err *err) {
    *tasks = NULL;
    *n = 0;
    char **names = NULL;
    int k = 0;
    if (tasks__list(dir, &names, &k, err)) return -1;
    if (only && *only && tasks__select(dir, only, names, &k, err)) {
        free(names);
        return -1;
    }
    bench_task *t = calloc((size_t)k, sizeof *t);
    int rc = t ? 0 : sb_err_set(err, "bench tasks", "out of memory");
    int loaded = 0;
    for (; rc == 0 && loaded < k; loaded++)
        if (tasks__load_one(dir, names[loaded], &t[loaded], err)) {
            rc = -1;
            loaded++; /* free the half-loaded one too */
            break;
        }
    for (int i = 0; i < k; i++) free(names[i]);
    free(names);
    if (rc) {
        bench_tasks_free(t, loaded);
        return -1;
    }
    *tasks = t;
    *n = k;
    return 0;
}

void bench_tasks_free(bench_task *tasks, int n) {
    for (int i = 0; tasks && i < n; i++) {
        bench_task *t = &tasks[i];
        free(t->name);
        free(t->input_path);
        free(t->input);
        free(t->expected);
        free(t->instruction);
        free(t->language);
        free(t->kind);
    }
    free(tasks);
}
