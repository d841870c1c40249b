/*
 * sessionlog.c — the edit log: writing whole lines atomically, reading
 * them back one at a time, treating every line as untrusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sessionlog.h"

/* ==== the string fields ===================================================== */

/* Every string field of an entry, by its JSON name: where it lives in
 * slog_entry, where its length lives when it may hold any bytes (-1: NUL-
 * terminated), and whether a reader takes null or absence for NULL. The
 * writer and the reader both walk this one table, so a field can never be
 * written under one name and read under another. */
typedef struct slog__str_field {
    const char *key;
    size_t at;         /* offsetof the const char * */
    ptrdiff_t len_at;  /* offsetof its int64_t length, or -1 */
    bool nullable;
} slog__str_field;

#define SLOG__STR(key, field, nullable) \
    {key, offsetof(slog_entry, field), -1, nullable}
#define SLOG__STRN(key, field, len, nullable) \
    {key, offsetof(slog_entry, field), offsetof(slog_entry, len), nullable}

static const slog__str_field slog__strs[] = {
    SLOG__STR("engine_version", engine_version, true),
    SLOG__STR("backend", backend, false),
    SLOG__STR("device_name", device_name, true),
    SLOG__STR("model_path", model_path, true),
    SLOG__STR("model_sha256", model_sha256, false),
    SLOG__STR("warmup_table_sha256", warmup_sha256, true),
    SLOG__STR("uri", uri, true),
    SLOG__STR("language", language, true),
    SLOG__STRN("document", document, document_len, false),
    SLOG__STRN("instruction", instruction, instruction_len, false),
    SLOG__STR("prompt_version", prompt_version, false),
    SLOG__STR("prompt_ids_sha256", prompt_sha256, false),
    SLOG__STR("output_sha256", output_sha256, false),
    SLOG__STR("status", status, false),
};
enum { SLOG__N_STRS = sizeof slog__strs / sizeof slog__strs[0] };

/* The writer's view of field f of e: its string and its length. */
static const char *slog__str_value(const slog_entry *e,
                                   const slog__str_field *f, int64_t *len) {
    const char *v = *(const char *const *)((const char *)e + f->at);
    if (f->len_at >= 0) *len = *(const int64_t *)((const char *)e + f->len_at);
    else *len = v ? (int64_t)strlen(v) : 0;
    return v;
}

/* The reader's: where field f's string and length (NULL: none) go. */
static const char **slog__str_slot(slog_entry *e, const slog__str_field *f) {
    return (const char **)((char *)e + f->at);
}

static int64_t *slog__len_slot(slog_entry *e, const slog__str_field *f) {
    return f->len_at < 0 ? NULL : (int64_t *)((char *)e + f->len_at);
}

/* ==== writing =============================================================== */

struct slog_writer {
    int fd;
    char *path; /* owned, for messages */
};

/* Ends a torn last line (a crash or a short write mid-append) with "\n",
 * so that the next entry starts a line of its own and the torn one stays
 * readable as torn. */
static int slog__heal(int fd, const char *path, sb_err *err) {
    struct stat st;
    if (fstat(fd, &st)) return sb_err_set(err, "slog_open", "%s: %s", path,
                                          strerror(errno));
    if (st.st_size == 0) return 0;
    char last;
    if (pread(fd, &last, 1, st.st_size - 1) != 1)
        return sb_err_set(err, "slog_open", "%s: cannot read: %s", path,
                          strerror(errno));
    if (last == '\n') return 0;
    if (write(fd, "\n", 1) != 1)
        return sb_err_set(err, "slog_open", "%s: cannot write: %s", path,
                          strerror(errno));
    return 0;
}

slog_writer *slog_open(const char *path, sb_err *err) {
    slog_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    w->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (w->fd < 0) {
        sb_err_set(err, __func__, "cannot open session log '%s': %s", path,
                   strerror(errno));
        goto fail;
    }
    if (slog__heal(w->fd, path, err)) goto fail;
    return w;
fail:
    slog_close(w);
    return NULL;
}

void slog_close(slog_writer *w) {
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    free(w->path);
    free(w);
}

/* A JSON string of n bytes, or null for NULL. json_stringn refuses invalid
 * UTF-8: such text is stored as null, which the reader then reports. */
static json_t *slog__str(const char *s, int64_t n) {
    if (!s) return json_null();
    json_t *j = json_stringn(s, (size_t)n);
    return j ? j : json_null();
}

/* Every string field of slog__strs into o. */
static void slog__put_strs(json_t *o, const slog_entry *e) {
    for (int i = 0; i < SLOG__N_STRS; i++) {
        int64_t len;
        const char *v = slog__str_value(e, &slog__strs[i], &len);
        json_object_set_new(o, slog__strs[i].key, slog__str(v, len));
    }
}

static json_t *slog__to_json(const slog_entry *e) {
    json_t *o = json_object(), *ids = json_array();
    if (!o || !ids) {
        json_decref(o);
        json_decref(ids);
        return NULL;
    }
    for (int32_t i = 0; i < e->n_output; i++)
        json_array_append_new(ids, json_integer(e->output[i]));
    json_t *range = NULL;
    if (e->range_json) range = json_loads(e->range_json, 0, NULL);
    json_object_set_new(o, "format", json_string(SLOG_FORMAT));
    slog__put_strs(o, e);
    json_object_set_new(o, "region", json_pack("[II]", (json_int_t)e->region_start,
                                               (json_int_t)e->region_end));
    json_object_set_new(o, "range", range ? range : json_null());
    json_object_set_new(o, "temperature", json_real(e->temperature));
    /* seeds use all 64 bits: as a decimal string, JSON numbers lose them */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)e->seed);
    json_object_set_new(o, "seed", json_string(seed));
    json_object_set_new(o, "top_k", json_integer(e->top_k));
    json_object_set_new(o, "max_tokens", json_integer(e->max_tokens));
    json_object_set_new(o, "speculation", json_boolean(e->speculation));
    json_object_set_new(o, "prompt_tokens", json_integer(e->n_prompt));
    json_object_set_new(o, "output_ids", ids);
    json_object_set_new(o, "wall_s", json_real(e->wall_s));
    json_object_set_new(o, "steps", json_integer(e->steps));
    json_object_set_new(o, "drafted", json_integer(e->drafted));
    json_object_set_new(o, "accepted", json_integer(e->accepted));
    return o;
}

int slog_append(slog_writer *w, const slog_entry *e, sb_err *err) {
    json_t *o = slog__to_json(e);
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    json_decref(o);
    if (!text) return sb_err_set(err, __func__, "out of memory for a log entry");
    size_t n = strlen(text);
    text[n] = '\n'; /* replaces the NUL: the line is written by length */
    /* A short write before this one (disk full) left a torn line: end it
     * first, or this entry would continue it and be unreadable too. */
    if (slog__heal(w->fd, w->path, err)) {
        free(text);
        return -1;
    }
    /* One write() with O_APPEND: the line lands whole at the end, after any
     * other writer's line. A short write (disk full) is left torn for the
     * reader to report and the next append to end. */
    ssize_t k = write(w->fd, text, n + 1);
    int saved = errno;
    free(text);
    if (k != (ssize_t)(n + 1))
        return sb_err_set(err, __func__, "%s: short write (%zd of %zu bytes): "
                          "%s", w->path, k, n + 1, k < 0 ? strerror(saved)
                                                         : "disk full?");
    if (fsync(w->fd))
        return sb_err_set(err, __func__, "%s: fsync failed: %s", w->path,
                          strerror(errno));
    return 0;
}

/* ==== reading =============================================================== */

struct slog_reader {
    FILE *f;
    char *line;      /* owned (getline) */
    size_t cap;
    int64_t lineno;
    json_t *cur;     /* the current entry's JSON; owned */
    int32_t *ids;    /* the current entry's output ids; owned */
    bool done;       /* a read error ended the file */
};

slog_reader *slog_reader_open(const char *path, sb_err *err) {
    slog_reader *r = calloc(1, sizeof *r);
    if (!r) {
        sb_err_set(err, __func__, "out of memory");
        return NULL;
    }
    r->f = fopen(path, "rb");
    if (!r->f) {
        sb_err_set(err, __func__, "cannot open session log '%s': %s", path,
                   strerror(errno));
        free(r);
        return NULL;
    }
    return r;
}

void slog_reader_close(slog_reader *r) {
    if (!r) return;
    fclose(r->f);
    free(r->line);
    json_decref(r->cur);
    free(r->ids);
    free(r);
}

int64_t slog_line(const slog_reader *r) {
    return r->lineno;
}

/* The field's string, or NULL for null/absent when allowed. */
static int slog__get_str(json_t *o, const char *key, bool nullable,
                         const char **s, int64_t *len, sb_err *err) {
    json_t *v = json_object_get(o, key);
    if ((!v || json_is_null(v)) && nullable) {
        *s = NULL;
        if (len) *len = 0;
        return 0;
    }
    if (!json_is_string(v))
        return sb_err_set(err, "slog_next", "field '%s': expected a string",
                          key);
    *s = json_string_value(v);
    if (len) *len = (int64_t)json_string_length(v);
    return 0;
}

static int slog__get_int(json_t *o, const char *key, int64_t lo, int64_t hi,
                         int64_t *out, sb_err *err) {
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return sb_err_set(err, "slog_next", "field '%s': expected an integer "
                          "%lld..%lld", key, (long long)lo, (long long)hi);
    *out = json_integer_value(v);
    return 0;
}

static int slog__get_ids(slog_reader *r, json_t *o, slog_entry *e, sb_err *err) {
    json_t *a = json_object_get(o, "output_ids");
    if (!json_is_array(a) || json_array_size(a) > SLOG_MAX_OUTPUT)
        return sb_err_set(err, "slog_next", "field 'output_ids': expected an "
                          "array of at most %d ids", SLOG_MAX_OUTPUT);
    size_t n = json_array_size(a);
    r->ids = malloc((n ? n : 1) * sizeof *r->ids);
    if (!r->ids) return sb_err_set(err, "slog_next", "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > INT32_MAX)
            return sb_err_set(err, "slog_next", "output_ids[%zu]: expected a "
                              "token id", i);
        r->ids[i] = (int32_t)json_integer_value(v);
    }
    e->output = r->ids;
    e->n_output = (int32_t)n;
    return 0;
}

static int slog__get_params(json_t *o, slog_entry *e, sb_err *err) {
    json_t *t = json_object_get(o, "temperature");
    if (!json_is_number(t) || json_number_value(t) < 0 ||
        json_number_value(t) > 100)
        return sb_err_set(err, "slog_next", "field 'temperature': expected a "
                          "number 0..100");
    e->temperature = (float)json_number_value(t);
    const char *seed;
    char *end;
    if (slog__get_str(o, "seed", false, &seed, NULL, err)) return -1;
    errno = 0;
    unsigned long long sv = strtoull(seed, &end, 10);
    if (errno || end == seed || *end || *seed == '-')
        return sb_err_set(err, "slog_next", "field 'seed': '%.30s' is not an "
                          "unsigned integer", seed);
    e->seed = sv;
    int64_t v;
    if (slog__get_int(o, "top_k", 0, INT32_MAX, &v, err)) return -1;
    e->top_k = (int32_t)v;
    if (slog__get_int(o, "max_tokens", 0, INT32_MAX, &v, err)) return -1;
    e->max_tokens = (int32_t)v;
    json_t *sp = json_object_get(o, "speculation");
    if (!json_is_boolean(sp))
        return sb_err_set(err, "slog_next", "field 'speculation': expected "
                          "true or false");
    e->speculation = json_is_true(sp);
    return 0;
}

/* Fills e from o (borrowing o's strings). */
static int slog__from_json(slog_reader *r, json_t *o, slog_entry *e,
                           sb_err *err) {
    memset(e, 0, sizeof *e);
    const char *fmt = NULL;
    if (slog__get_str(o, "format", false, &fmt, NULL, err)) return -1;
    if (strcmp(fmt, SLOG_FORMAT))
        return sb_err_set(err, "slog_next", "format '%.40s': expected '%s'",
                          fmt, SLOG_FORMAT);
    for (int i = 0; i < SLOG__N_STRS; i++) {
        const slog__str_field *f = &slog__strs[i];
        if (slog__get_str(o, f->key, f->nullable, slog__str_slot(e, f),
                          slog__len_slot(e, f), err))
            return -1;
    }
    json_t *reg = json_object_get(o, "region");
    json_int_t rs, re;
    if (json_unpack(reg, "[II]", &rs, &re) || rs < 0 || rs > re ||
        re > e->document_len)
        return sb_err_set(err, "slog_next", "field 'region': expected [start, "
                          "end] inside the document's %lld bytes",
                          (long long)e->document_len);
    e->region_start = rs;
    e->region_end = re;
    if (slog__get_params(o, e, err)) return -1;
    int64_t v;
    if (slog__get_int(o, "prompt_tokens", 0, INT64_MAX, &e->n_prompt, err) ||
        slog__get_int(o, "steps", 0, INT32_MAX, &v, err))
        return -1;
    e->steps = (int32_t)v;
    json_t *w = json_object_get(o, "wall_s");
    e->wall_s = json_is_number(w) ? json_number_value(w) : 0.0;
    json_t *d = json_object_get(o, "drafted"), *a = json_object_get(o, "accepted");
    e->drafted = json_is_integer(d) ? json_integer_value(d) : 0;
    e->accepted = json_is_integer(a) ? json_integer_value(a) : 0;
    return slog__get_ids(r, o, e, err);
}

int slog_next(slog_reader *r, slog_entry *e, sb_err *err) {
    json_decref(r->cur);
    r->cur = NULL;
    free(r->ids);
    r->ids = NULL;
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->line, &r->cap, r->f);
        if (n < 0 || r->done) {
            if (!r->done && errno && errno != EINVAL && ferror(r->f)) {
                r->done = true;
                return sb_err_set(err, __func__, "read failed after line %lld: "
                                  "%s", (long long)r->lineno, strerror(errno));
            }
            return 0;
        }
        r->lineno++;
        bool torn = r->line[n - 1] != '\n';
        if (!torn) n--;
        if (n == 0 && !torn) continue; /* an empty line (a healed tear) */
        if (torn)
            return sb_err_set(err, __func__, "line %lld: torn last line of %zd "
                              "bytes (the writer stopped mid-entry)",
                              (long long)r->lineno, n);
        if (n > SLOG_MAX_LINE)
            return sb_err_set(err, __func__, "line %lld: %zd bytes, more than "
                              "the %d a log line may hold", (long long)r->lineno,
                              n, SLOG_MAX_LINE);
        json_error_t je;
        r->cur = json_loadb(r->line, (size_t)n, JSON_ALLOW_NUL, &je);
        if (!r->cur || !json_is_object(r->cur))
            return sb_err_set(err, __func__, "line %lld: not a JSON object%s%s",
                              (long long)r->lineno, r->cur ? "" : ": ",
                              r->cur ? "" : je.text);
        sb_err inner = {0};
        if (slog__from_json(r, r->cur, e, &inner))
            return sb_err_set(err, __func__, "line %lld: %s", (long long)r->lineno,
                              inner.msg);
        return 1;
    }
}
