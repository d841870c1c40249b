/*
 * params.c — defensive accessors for incoming JSON: every value's type and
 * range is checked before use, and a failure names the field.
 */
#include <string.h>

#include "server_internal.h"

int lsp__get_obj(json_t *o, const char *key, bool required, json_t **out,
                 sb_err *err) {
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    *out = NULL;
    if (!v || (json_is_null(v) && !required)) {
        if (required) return sb_err_set(err, key, "missing");
        return 0;
    }
    if (!json_is_object(v)) return sb_err_set(err, key, "expected an object");
    *out = v;
    return 0;
}

int lsp__get_str(json_t *o, const char *key, bool required, const char **out,
                 sb_err *err) {
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    *out = NULL;
    if (!v || (json_is_null(v) && !required)) {
        if (required) return sb_err_set(err, key, "missing");
        return 0;
    }
    if (!json_is_string(v)) return sb_err_set(err, key, "expected a string");
    /* Names, URIs and instructions are used as C strings: one holding a NUL
     * would compare equal to its prefix ("shutdown\u0000x" to "shutdown"),
     * so it is refused rather than cut (docs/lsp.md, "Strings"). */
    if (strlen(json_string_value(v)) != json_string_length(v))
        return sb_err_set(err, key, "contains a NUL character (\\u0000)");
    *out = json_string_value(v);
    return 0;
}

int lsp__get_text(json_t *o, const char *key, const char **out, int64_t *len,
                  sb_err *err) {
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (!v) return sb_err_set(err, key, "missing");
    if (!json_is_string(v)) return sb_err_set(err, key, "expected a string");
    *out = json_string_value(v);
    *len = (int64_t)json_string_length(v);
    return 0;
}

int lsp__get_int(json_t *o, const char *key, bool required, int64_t lo,
                 int64_t hi, int64_t *out, sb_err *err) {
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (!v || (json_is_null(v) && !required)) {
        if (required) return sb_err_set(err, key, "missing");
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return sb_err_set(err, key, "expected an integer %lld..%lld",
                          (long long)lo, (long long)hi);
    *out = json_integer_value(v);
    return 0;
}

static int lsp__get_pos(json_t *o, const char *key, lsp_pos *out,
                        sb_err *err) {
    json_t *p;
    sb_err inner = {0};
    if (lsp__get_obj(o, key, true, &p, err)) return -1;
    /* uinteger in the specification: 0..2^31-1 */
    if (lsp__get_int(p, "line", true, 0, INT32_MAX, &out->line, &inner) ||
        lsp__get_int(p, "character", true, 0, INT32_MAX, &out->character, &inner))
        return sb_err_set(err, key, "%s", inner.msg);
    return 0;
}

int lsp__get_range(json_t *o, const char *key, lsp_pos *start, lsp_pos *end,
                   sb_err *err) {
    json_t *r;
    sb_err inner = {0};
    if (lsp__get_obj(o, key, true, &r, err)) return -1;
    if (lsp__get_pos(r, "start", start, &inner) ||
        lsp__get_pos(r, "end", end, &inner))
        return sb_err_set(err, key, "%s", inner.msg);
    if (start->line > end->line ||
        (start->line == end->line && start->character > end->character))
        return sb_err_set(err, key, "start %lld:%lld is after end %lld:%lld",
                          (long long)start->line, (long long)start->character,
                          (long long)end->line, (long long)end->character);
    return 0;
}

int lsp__get_uri(json_t *params, const char **uri, sb_err *err) {
    json_t *td;
    sb_err inner = {0};
    if (lsp__get_obj(params, "textDocument", true, &td, err)) return -1;
    if (lsp__get_str(td, "uri", true, uri, &inner))
        return sb_err_set(err, "textDocument", "%s", inner.msg);
    return 0;
}

json_t *lsp__pos_json(lsp_pos p) {
    return json_pack("{s:I,s:I}", "line", (json_int_t)p.line, "character",
                     (json_int_t)p.character);
}
