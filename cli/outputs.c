/*
 * Inspectable outputs, shared by sb generate, sb logits and sb compare:
 * prompts to token ids and token ids to and from JSON. Files are written
 * through base's sb_out (docs/limits.md, "Files").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_tokens(const eng_model *m, const char *cmd, const char *what,
               const char *text, int64_t len, unsigned flags, int32_t **ids,
               int32_t *n) {
    /* A first try sized by the text (ids rarely outnumber bytes), then one
     * of exactly the count it reported, which eng_tokenize never exceeds. */
    int64_t cap = len + 16, got = -1;
    int32_t *buf = NULL;
    for (int pass = 0; pass < 2; pass++) {
        int32_t *grown = cap <= INT32_MAX
                             ? realloc(buf, (size_t)cap * sizeof *buf) : NULL;
        if (!grown) {
            free(buf);
            return cli_fail(cmd, "out of memory for the %s's token ids", what);
        }
        buf = grown;
        got = eng_tokenize_ex(m, text, len, buf, cap, flags);
        if (got <= cap) break;
        cap = got;
    }
    if (got < 0 || got > cap) {
        free(buf);
        return cli_fail(cmd, "could not tokenize the %s (%lld bytes)", what,
                        (long long)len);
    }
    *ids = buf;
    *n = (int32_t)got;
    return CLI_OK;
}

json_t *cli_ids_json(const int32_t *ids, int64_t n) {
    json_t *a = json_array();
    for (int64_t i = 0; a && i < n; i++) {
        if (json_array_append_new(a, json_integer(ids[i]))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

int cli_ids_from_json(const char *cmd, const char *what, const json_t *a,
                      int32_t n_vocab, int32_t **ids, int32_t *n) {
    if (!json_is_array(a))
        return cli_fail(cmd, "%s: expected a JSON array of token ids", what);
    size_t len = json_array_size(a);
    if (len > INT32_MAX / sizeof **ids)
        return cli_fail(cmd, "%s: %zu ids is too many", what, len);
    *ids = malloc((len ? len : 1) * sizeof **ids);
    if (!*ids) return cli_fail(cmd, "%s: out of memory for %zu ids", what, len);
    for (size_t i = 0; i < len; i++) {
        const json_t *v = json_array_get(a, i);
        json_int_t id = json_is_integer(v) ? json_integer_value(v) : -1;
        if (id < 0 || id >= n_vocab) {
            free(*ids);
            *ids = NULL;
            if (!json_is_integer(v))
                return cli_fail(cmd, "%s: element %zu is not an integer", what, i);
            return cli_fail(cmd, "%s: element %zu is token id %lld, outside "
                            "0..%d", what, i, (long long)id, (int)n_vocab - 1);
        }
        (*ids)[i] = (int32_t)id;
    }
    *n = (int32_t)len;
    return CLI_OK;
}

char *cli_path_with(const char *path, const char *suffix) {
    size_t a = strlen(path), b = strlen(suffix);
    char *s = malloc(a + b + 1);
    if (!s) return NULL;
    memcpy(s, path, a);
    memcpy(s + a, suffix, b + 1);
    return s;
}
