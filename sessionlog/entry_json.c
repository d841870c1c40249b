/*
 * entry_json.c — one log line as a JSON object and back, every field read
 * as untrusted: its type, its range, its length.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slog_internal.h"

/* ==== the string fields ===================================================== */

/* Every string field of an edit, by its JSON name: where it lives in
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

/* True when s is 64 lowercase hex digits (a SHA-256 as this log writes
 * it). */
static bool slog__is_sha256(const char *s) {
    if (!s || strlen(s) != 64) return false;
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* ==== writing =============================================================== */

/* A JSON string of n bytes, or null for NULL. json_stringn refuses invalid
 * UTF-8: such text is stored as null, which the reader then reports. */
static json_t *slog__str(const char *s, int64_t n) {
    if (!s) return json_null();
    json_t *j = json_stringn(s, (size_t)n);
    return j ? j : json_null();
}

static void slog__put_link(json_t *o, const slog__link *l) {
    json_object_set_new(o, "format", json_string(SLOG_FORMAT));
    json_object_set_new(o, "kind", json_string(l->kind == SLOG_KIND_SUMMARY
                                                   ? "summary" : "edit"));
    json_object_set_new(o, "session", json_string(l->session));
    json_object_set_new(o, "seq", json_integer(l->seq));
    json_object_set_new(o, "prev_sha256", l->prev ? json_string(l->prev)
                                                  : json_null());
    if (l->kind == SLOG_KIND_SUMMARY)
        json_object_set_new(o, "entries", json_integer(l->entries));
}

static void slog__put_edit(json_t *o, const slog_entry *e, json_t *ids) {
    for (int i = 0; i < SLOG__N_STRS; i++) {
        int64_t len;
        const char *v = slog__str_value(e, &slog__strs[i], &len);
        json_object_set_new(o, slog__strs[i].key, slog__str(v, len));
    }
    json_t *range = e->range_json ? json_loads(e->range_json, 0, NULL) : NULL;
    json_object_set_new(o, "region", json_pack("[II]", (json_int_t)e->region_start,
                                               (json_int_t)e->region_end));
    json_object_set_new(o, "range", range ? range : json_null());
    json_object_set_new(o, "context", e->has_context
                                          ? json_pack("[II]", (json_int_t)e->context_start,
                                                      (json_int_t)e->context_end)
                                          : json_null());
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
    json_object_set_new(o, "cached_tokens", json_integer(e->cached_tokens));
    json_object_set_new(o, "first_token_s", json_real(e->first_token_s));
}

json_t *slog__to_json(const slog__link *l, const slog_entry *e) {
    json_t *o = json_object();
    if (!o) return NULL;
    slog__put_link(o, l);
    if (l->kind == SLOG_KIND_SUMMARY) return o;
    json_t *ids = json_array();
    if (!ids) {
        json_decref(o);
        return NULL;
    }
    for (int32_t i = 0; i < e->n_output; i++)
        json_array_append_new(ids, json_integer(e->output[i]));
    slog__put_edit(o, e, ids);
    return o;
}

/* ==== reading =============================================================== */

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

static int slog__get_ids(json_t *o, slog_entry *e, int32_t **ids, sb_err *err) {
    json_t *a = json_object_get(o, "output_ids");
    if (!json_is_array(a) || json_array_size(a) > SLOG_MAX_OUTPUT)
        return sb_err_set(err, "slog_next", "field 'output_ids': expected an "
                          "array of at most %d ids", SLOG_MAX_OUTPUT);
    size_t n = json_array_size(a);
    *ids = malloc((n ? n : 1) * sizeof **ids);
    if (!*ids) return sb_err_set(err, "slog_next", "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > INT32_MAX)
            return sb_err_set(err, "slog_next", "output_ids[%zu]: expected a "
                              "token id", i);
        (*ids)[i] = (int32_t)json_integer_value(v);
    }
    e->output = *ids;
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

/* The chain fields of a v2 line. */
static int slog__get_link(json_t *o, slog_entry *e, sb_err *err) {
    const char *kind;
    if (slog__get_str(o, "kind", false, &kind, NULL, err)) return -1;
    if (!strcmp(kind, "edit")) e->kind = SLOG_KIND_EDIT;
    else if (!strcmp(kind, "summary")) e->kind = SLOG_KIND_SUMMARY;
    else return sb_err_set(err, "slog_next", "field 'kind': '%.20s' is neither "
                           "'edit' nor 'summary'", kind);
    if (slog__get_str(o, "session", false, &e->session, NULL, err)) return -1;
    if (strlen(e->session) != 32 || strspn(e->session, "0123456789abcdef") != 32)
        return sb_err_set(err, "slog_next", "field 'session': expected 32 hex "
                          "digits");
    if (slog__get_int(o, "seq", 1, INT64_MAX, &e->seq, err) ||
        slog__get_str(o, "prev_sha256", true, &e->prev_sha256, NULL, err))
        return -1;
    if (e->prev_sha256 && !slog__is_sha256(e->prev_sha256))
        return sb_err_set(err, "slog_next", "field 'prev_sha256': expected 64 "
                          "hex digits or null");
    if (e->kind == SLOG_KIND_SUMMARY)
        return slog__get_int(o, "entries", 0, INT64_MAX - 1, &e->summary_entries,
                             err);
    return 0;
}

/* The fields of an edit (either format). */
static int slog__get_edit(json_t *o, slog_entry *e, int32_t **ids, sb_err *err) {
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
    json_t *ctx = json_object_get(o, "context");
    e->has_context = ctx && !json_is_null(ctx);
    if (e->has_context) {
        if (json_unpack(ctx, "[II]", &rs, &re) || rs < 0 || rs > e->region_start ||
            re < e->region_end || re > e->document_len)
            return sb_err_set(err, "slog_next", "field 'context': expected null "
                              "or [start, end] around the region, inside the "
                              "document");
        e->context_start = rs;
        e->context_end = re;
    }
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
    /* speed only, and absent from logs older than the prefix cache: read
     * when present */
    json_t *c = json_object_get(o, "cached_tokens"), *f = json_object_get(o, "first_token_s");
    e->cached_tokens = json_is_integer(c) ? json_integer_value(c) : 0;
    e->first_token_s = json_is_number(f) ? json_number_value(f) : 0.0;
    return slog__get_ids(o, e, ids, err);
}

int slog__from_json(json_t *o, slog_entry *e, int32_t **ids, sb_err *err) {
    memset(e, 0, sizeof *e);
    const char *fmt = NULL;
    if (slog__get_str(o, "format", false, &fmt, NULL, err)) return -1;
    if (!strcmp(fmt, SLOG_FORMAT_V1)) {
        e->kind = SLOG_KIND_EDIT; /* before the chain: no session, seq, prev */
    } else if (!strcmp(fmt, SLOG_FORMAT)) {
        if (slog__get_link(o, e, err)) return -1;
        if (e->kind == SLOG_KIND_SUMMARY) return 0;
    } else {
        return sb_err_set(err, "slog_next", "format '%.40s': expected '%s'",
                          fmt, SLOG_FORMAT);
    }
    return slog__get_edit(o, e, ids, err);
}
