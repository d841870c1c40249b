/*
 * table.c — a warm-up table made from a session, written as JSON, and read
 * back from untrusted JSON: every field's type, range and length checked
 * before use, the field named when one is wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "warmup_internal.h"

/* ==== making ================================================================ */

void wu__shape_of(const eng_model *m, wu_shape *out) {
    const krn_model *d = eng_model_desc(m);
    *out = (wu_shape){d->n_layer, d->n_embd, d->n_ff, d->n_head, d->n_head_kv,
                      d->head_dim, d->n_vocab, d->window};
}

int wu__table_describe(eng_session *s, eng_model *m, wu_table *t, sb_err *err) {
    memset(t, 0, sizeof *t);
    snprintf(t->engine_version, sizeof t->engine_version, "%s", eng_version());
    wu_device_of(s, &t->device);
    snprintf(t->model_sha256, sizeof t->model_sha256, "%s", eng_model_sha256(m));
    wu__shape_of(m, &t->shape);
    const krn_choice *c = NULL;
    int n = eng_session_choices(s, &c);
    if (n > 0) {
        t->choices = malloc((size_t)n * sizeof *t->choices);
        if (!t->choices) return sb_err_set(err, "wu_table_make", "out of memory");
        memcpy(t->choices, c, (size_t)n * sizeof *c);
        t->n_choices = n;
    }
    t->measurements = eng_session_measurements(s);
    if (wu_fingerprint_compute(s, &t->fp, err)) {
        wu_table_free(t);
        return -1;
    }
    return 0;
}

int wu_table_make(eng_session *s, eng_model *m, wu_table *t, sb_err *err) {
    if (wu__table_describe(s, m, t, err)) return -1;
    if (wu_step_costs(s, WU_COST_BUDGET_S, &t->costs, err)) {
        wu_table_free(t);
        return -1;
    }
    return 0;
}

void wu_table_free(wu_table *t) {
    free(t->choices);
    memset(t, 0, sizeof *t);
}

/* ==== writing =============================================================== */

static json_t *wu__device_json(const wu_device *d) {
    return json_pack("{s:s,s:s,s:s,s:s,s:i,s:i}", "backend", d->backend, "name",
                     d->name, "compute_capability", d->compute_capability,
                     "driver", d->driver, "cuda_driver", (int)d->cuda_driver,
                     "cuda_runtime", (int)d->cuda_runtime);
}

static json_t *wu__model_json(const wu_table *t) {
    const wu_shape *s = &t->shape;
    return json_pack("{s:s,s:{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}}", "sha256",
                     t->model_sha256, "shape", "n_layer", (int)s->n_layer,
                     "n_embd", (int)s->n_embd, "n_ff", (int)s->n_ff, "n_head",
                     (int)s->n_head, "n_head_kv", (int)s->n_head_kv, "head_dim",
                     (int)s->head_dim, "n_vocab", (int)s->n_vocab, "window",
                     (int)s->window);
}

static json_t *wu__fingerprint_json(const wu_fingerprint *fp) {
    json_t *steps = json_array();
    for (int k = 0; steps && k < WU_FP_STEPS; k++)
        json_array_append_new(steps, json_pack("{s:i,s:s}", "rows", (int)fp->rows[k],
                                               "sha256", fp->step_sha256[k]));
    return json_pack("{s:s,s:o*}", "sha256", fp->sha256, "steps", steps);
}

/* [{"rows": r, "ms": cost}, ...] of the listed row counts, in order. */
static json_t *wu__costs_json(const stepcost_table *c) {
    json_t *a = json_array();
    for (int r = 1; a && r <= STEPCOST_MAX_ROWS; r++)
        if (c->listed[r] > 0)
            json_array_append_new(a, json_pack("{s:i,s:f}", "rows", r, "ms", c->listed[r]));
    return a;
}

char *wu_table_json(const wu_table *t) {
    json_t *conf = json_array();
    for (int i = 0; conf && i < t->n_choices; i++)
        json_array_append_new(conf, json_pack("{s:s,s:i,s:f}", "name",
                                              t->choices[i].name, "value",
                                              (int)t->choices[i].value, "ms",
                                              t->choices[i].ms));
    json_t *o = json_pack("{s:s,s:s,s:o*,s:o*,s:o*,s:i,s:o*}", "format", WU_FORMAT,
                          "engine_version", t->engine_version, "device",
                          wu__device_json(&t->device), "model", wu__model_json(t),
                          "configuration", conf, "measurements",
                          (int)t->measurements, "fingerprint",
                          wu__fingerprint_json(&t->fp));
    if (o && json_object_set_new(o, "step_costs", wu__costs_json(&t->costs))) {
        json_decref(o);
        o = NULL;
    }
    char *text = o ? json_dumps(o, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
    json_decref(o);
    return text;
}

int wu_table_save(const char *path, const wu_table *t, sb_err *err) {
    char *text = wu_table_json(t);
    if (!text) return sb_err_set(err, "wu_table_save", "out of memory");
    size_t n = strlen(text);
    text[n] = '\n'; /* written by length */
    int rc = sb_write_file(path, text, n + 1, err);
    free(text);
    return rc;
}

/* ==== reading =============================================================== */

/* A string field of at most cap - 1 bytes of printable ASCII (tables are
 * shown on terminals: no control characters), copied into out. */
static int wu__get_str(json_t *o, const char *where, const char *key, char *out,
                       size_t cap, sb_err *err) {
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return sb_err_set(err, "warm-up table", "%s%s: expected a string", where, key);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n >= cap)
        return sb_err_set(err, "warm-up table", "%s%s: %zu bytes, more than the "
                          "%zu allowed", where, key, n, cap - 1);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return sb_err_set(err, "warm-up table", "%s%s: byte %zu is not "
                              "printable ASCII", where, key, i);
    memcpy(out, s, n + 1);
    return 0;
}

static int wu__get_int(json_t *o, const char *where, const char *key, int64_t lo,
                       int64_t hi, int32_t *out, sb_err *err) {
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return sb_err_set(err, "warm-up table", "%s%s: expected an integer "
                          "%lld..%lld", where, key, (long long)lo, (long long)hi);
    *out = (int32_t)json_integer_value(v);
    return 0;
}

static int wu__get_sha(json_t *o, const char *where, const char *key, char out[65],
                       sb_err *err) {
    if (wu__get_str(o, where, key, out, 65, err)) return -1;
    if (strlen(out) != 64 || strspn(out, "0123456789abcdef") != 64)
        return sb_err_set(err, "warm-up table", "%s%s: expected 64 lowercase hex "
                          "digits", where, key);
    return 0;
}

static json_t *wu__get_obj(json_t *o, const char *key, sb_err *err) {
    json_t *v = json_object_get(o, key);
    if (!json_is_object(v))
        sb_err_set(err, "warm-up table", "%s: expected an object", key);
    return json_is_object(v) ? v : NULL;
}

static int wu__parse_device(json_t *o, wu_device *d, sb_err *err) {
    json_t *v = wu__get_obj(o, "device", err);
    if (!v) return -1;
    if (wu__get_str(v, "device.", "backend", d->backend, sizeof d->backend, err) ||
        wu__get_str(v, "device.", "name", d->name, sizeof d->name, err) ||
        wu__get_str(v, "device.", "compute_capability", d->compute_capability,
                    sizeof d->compute_capability, err) ||
        wu__get_str(v, "device.", "driver", d->driver, sizeof d->driver, err) ||
        wu__get_int(v, "device.", "cuda_driver", 0, INT32_MAX, &d->cuda_driver, err) ||
        wu__get_int(v, "device.", "cuda_runtime", 0, INT32_MAX, &d->cuda_runtime, err))
        return -1;
    if (strcmp(d->backend, "cpu") && strcmp(d->backend, "cuda"))
        return sb_err_set(err, "warm-up table", "device.backend: '%s' is neither "
                          "'cpu' nor 'cuda'", d->backend);
    return 0;
}

static int wu__parse_model(json_t *o, wu_table *t, sb_err *err) {
    json_t *m = wu__get_obj(o, "model", err);
    if (!m || wu__get_sha(m, "model.", "sha256", t->model_sha256, err)) return -1;
    json_t *s = json_object_get(m, "shape");
    if (!json_is_object(s))
        return sb_err_set(err, "warm-up table", "model.shape: expected an object");
    wu_shape *h = &t->shape;
    const int32_t big = 1 << 30;
    return wu__get_int(s, "model.shape.", "n_layer", 1, big, &h->n_layer, err) ||
           wu__get_int(s, "model.shape.", "n_embd", 1, big, &h->n_embd, err) ||
           wu__get_int(s, "model.shape.", "n_ff", 1, big, &h->n_ff, err) ||
           wu__get_int(s, "model.shape.", "n_head", 1, big, &h->n_head, err) ||
           wu__get_int(s, "model.shape.", "n_head_kv", 1, big, &h->n_head_kv, err) ||
           wu__get_int(s, "model.shape.", "head_dim", 1, big, &h->head_dim, err) ||
           wu__get_int(s, "model.shape.", "n_vocab", 1, big, &h->n_vocab, err) ||
           wu__get_int(s, "model.shape.", "window", 0, big, &h->window, err)
               ? -1 : 0;
}

/* A choice's name: 1..47 of [A-Za-z0-9_.:-]. */
static bool wu__name_ok(const char *s) {
    size_t n = strlen(s);
    return n >= 1 && n < sizeof ((krn_choice *)0)->name &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_.:-") == n;
}

static int wu__parse_choice(json_t *c, size_t i, krn_choice *out, sb_err *err) {
    char where[48];
    snprintf(where, sizeof where, "configuration[%zu].", i);
    if (!json_is_object(c))
        return sb_err_set(err, "warm-up table", "configuration[%zu]: expected an "
                          "object", i);
    if (wu__get_str(c, where, "name", out->name, sizeof out->name, err)) return -1;
    if (!wu__name_ok(out->name))
        return sb_err_set(err, "warm-up table", "%sname: '%s' is not 1..47 of "
                          "[A-Za-z0-9_.:-]", where, out->name);
    if (wu__get_int(c, where, "value", INT32_MIN, INT32_MAX, &out->value, err))
        return -1;
    json_t *ms = json_object_get(c, "ms");
    if (!json_is_number(ms) || !isfinite(json_number_value(ms)) ||
        json_number_value(ms) < 0 || json_number_value(ms) > 1e9)
        return sb_err_set(err, "warm-up table", "%sms: expected a number of "
                          "milliseconds 0..1e9", where);
    out->ms = json_number_value(ms);
    return 0;
}

static int wu__parse_configuration(json_t *o, wu_table *t, sb_err *err) {
    json_t *a = json_object_get(o, "configuration");
    if (!json_is_array(a) || json_array_size(a) > WU_MAX_CHOICES)
        return sb_err_set(err, "warm-up table", "configuration: expected an array "
                          "of at most %d choices", WU_MAX_CHOICES);
    size_t n = json_array_size(a);
    if (!n) return 0;
    t->choices = calloc(n, sizeof *t->choices);
    if (!t->choices) return sb_err_set(err, "warm-up table", "out of memory");
    t->n_choices = (int)n;
    for (size_t i = 0; i < n; i++) {
        if (wu__parse_choice(json_array_get(a, i), i, &t->choices[i], err)) return -1;
        for (size_t k = 0; k < i; k++)
            if (!strcmp(t->choices[k].name, t->choices[i].name))
                return sb_err_set(err, "warm-up table", "configuration[%zu].name: "
                                  "'%s' is chosen twice", i, t->choices[i].name);
    }
    return 0;
}

static int wu__parse_fingerprint(json_t *o, wu_fingerprint *fp, sb_err *err) {
    json_t *f = wu__get_obj(o, "fingerprint", err);
    if (!f || wu__get_sha(f, "fingerprint.", "sha256", fp->sha256, err)) return -1;
    json_t *steps = json_object_get(f, "steps");
    if (!json_is_array(steps) || json_array_size(steps) != WU_FP_STEPS)
        return sb_err_set(err, "warm-up table", "fingerprint.steps: expected an "
                          "array of %d steps", WU_FP_STEPS);
    for (int k = 0; k < WU_FP_STEPS; k++) {
        json_t *s = json_array_get(steps, (size_t)k);
        char where[32];
        snprintf(where, sizeof where, "fingerprint.steps[%d].", k);
        if (!json_is_object(s))
            return sb_err_set(err, "warm-up table", "fingerprint.steps[%d]: "
                              "expected an object", k);
        if (wu__get_int(s, where, "rows", 1, KRN_MAX_ROWS, &fp->rows[k], err) ||
            wu__get_sha(s, where, "sha256", fp->step_sha256[k], err))
            return -1;
    }
    return 0;
}

/* "step_costs" (optional: tables written before it lack it): at most
 * STEPCOST_MAX_ROWS entries {rows: 1..64, each once, ms: a positive finite
 * number}; when present, rows 1 must be among them. */
static int wu__parse_costs(json_t *o, const wu_table *t, stepcost_table *c, sb_err *err) {
    stepcost_table_empty(c, NULL);
    json_t *a = json_object_get(o, "step_costs");
    if (!a) return 0;
    if (!json_is_array(a) || json_array_size(a) > STEPCOST_MAX_ROWS)
        return sb_err_set(err, "warm-up table", "step_costs: expected an array of "
                          "at most %d steps", STEPCOST_MAX_ROWS);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *e = json_array_get(a, i), *ms = json_object_get(e, "ms");
        char where[48];
        int32_t rows;
        snprintf(where, sizeof where, "step_costs[%zu].", i);
        if (!json_is_object(e))
            return sb_err_set(err, "warm-up table", "step_costs[%zu]: expected an "
                              "object", i);
        if (wu__get_int(e, where, "rows", 1, STEPCOST_MAX_ROWS, &rows, err)) return -1;
        if (c->listed[rows] > 0)
            return sb_err_set(err, "warm-up table", "%srows: %d is listed twice",
                              where, (int)rows);
        if (!json_is_number(ms) || !isfinite(json_number_value(ms)) ||
            json_number_value(ms) <= 0 || json_number_value(ms) > 1e9)
            return sb_err_set(err, "warm-up table", "%sms: expected a positive number "
                              "of milliseconds up to 1e9", where);
        c->listed[rows] = json_number_value(ms);
    }
    if (json_array_size(a) && !stepcost_table_valid(c))
        return sb_err_set(err, "warm-up table", "step_costs: the 1-row step is not "
                          "listed");
    snprintf(c->source, sizeof c->source, "warm-up table: %.100s (%s)", t->device.name,
             t->device.backend);
    return 0;
}

static int wu__parse_object(json_t *o, wu_table *t, sb_err *err) {
    char format[64];
    if (wu__get_str(o, "", "format", format, sizeof format, err)) return -1;
    if (strcmp(format, WU_FORMAT))
        return sb_err_set(err, "warm-up table", "format '%s': expected '%s'",
                          format, WU_FORMAT);
    return wu__get_str(o, "", "engine_version", t->engine_version,
                       sizeof t->engine_version, err) ||
                   wu__parse_device(o, &t->device, err) ||
                   wu__parse_model(o, t, err) ||
                   wu__parse_configuration(o, t, err) ||
                   wu__get_int(o, "", "measurements", 0, INT32_MAX,
                               &t->measurements, err) ||
                   wu__parse_fingerprint(o, &t->fp, err) ||
                   wu__parse_costs(o, t, &t->costs, err)
               ? -1 : 0;
}

int wu_table_parse(const char *text, size_t len, wu_table *t, sb_err *err) {
    memset(t, 0, sizeof *t);
    if (len > WU_MAX_FILE)
        return sb_err_set(err, "warm-up table", "%zu bytes, more than the %d a "
                          "table may hold", len, WU_MAX_FILE);
    json_error_t je;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return sb_err_set(err, "warm-up table", "not a JSON object: %s (line %d)",
                          o ? "another value" : je.text, je.line);
    }
    int rc = wu__parse_object(o, t, err);
    json_decref(o);
    if (rc) wu_table_free(t);
    return rc;
}

int wu_table_load(const char *path, wu_table *t, char sha256[65], sb_err *err) {
    memset(t, 0, sizeof *t);
    /* a regular file only, and the open never blocks (a FIFO) */
    int fd = sb_open_read(path, "warm-up table", err);
    struct stat st;
    if (fd < 0) return -1;
    if (fstat(fd, &st) || st.st_size > WU_MAX_FILE) {
        close(fd);
        return sb_err_set(err, "warm-up table", "'%s' is larger than a table "
                          "may be (1 MiB)", path);
    }
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t n = text ? read(fd, text, (size_t)st.st_size) : -1;
    close(fd);
    if (n != st.st_size) {
        free(text);
        return sb_err_set(err, "warm-up table", "cannot read '%s'", path);
    }
    if (sha256) sb_sha256_hex(text, (size_t)n, sha256);
    sb_err inner = {0};
    int rc = wu_table_parse(text, (size_t)n, t, &inner);
    free(text);
    /* "warm-up table: FIELD: ..." becomes "warm-up table 'PATH': FIELD: ..." */
    const char *why = inner.msg;
    if (!strncmp(why, "warm-up table: ", 15)) why += 15;
    if (rc) sb_err_set(err, "warm-up table", "'%s': %s", path, why);
    return rc;
}
