/*
 * config.c — the server's options from three places, later ones winning:
 * environment variables (SB_MODEL, ...), command-line flags (--model, ...),
 * then the client's initializationOptions ({"model": ..., ...}), the most
 * specific: an editor's per-project setting beats a shell default.
 *
 * A bad value from the environment or a flag is an error before the server
 * starts; a bad initializationOption is reported to the user with
 * window/showMessage and ignored, since refusing `initialize` would leave
 * the editor without a server and without a reason.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

void lsp_config_defaults(lsp_config *c) {
    /* model NULL: the worker loads eng_default_model_path's, the demo model
     * beside the program, as every sb command does without -m */
    memset(c, 0, sizeof *c);
    c->device = ENG_DEVICE_CPU;
    c->speculation = true;
    c->cache_mb = 1024;
    c->prefix_cache = true;
    stepcost_table_default(&c->costs);
}


void lsp_config_free(lsp_config *c) {
    free(c->model);
    free(c->log);
    free(c->warmup);
    c->model = c->log = c->warmup = NULL;
}

static int lsp__set_path(char **slot, const char *key, const char *v,
                         sb_err *err) {
    if (!*v) return sb_err_set(err, "lsp_config_set", "%s: empty path", key);
    char *p = strdup(v);
    if (!p) return sb_err_set(err, "lsp_config_set", "out of memory");
    free(*slot);
    *slot = p;
    return 0;
}

static int lsp__parse_long(const char *v, long long lo, long long hi,
                           long long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* promptVersion, context, contextBudget, cacheMemoryMB, prefixCache: 1 when
 * the key is none of them. */
static int lsp__config_prompt(lsp_config *c, const char *key, const char *v,
                              sb_err *err) {
    long long x;
    if (!strcmp(key, "promptVersion")) {
        if (!strcmp(v, "auto")) c->prompt_version = 0;
        else if (edit_prompt_version_parse(v, &c->prompt_version))
            return sb_err_set(err, "lsp_config_set", "promptVersion '%.40s': "
                              "expected auto, v1 or v2", v);
        return 0;
    }
    if (!strcmp(key, "context")) {
        if (strcmp(v, "file") && strcmp(v, "region"))
            return sb_err_set(err, "lsp_config_set", "context '%.40s': expected "
                              "file or region", v);
        c->context_region = !strcmp(v, "region");
        return 0;
    }
    if (!strcmp(key, "contextBudget")) {
        if (lsp__parse_long(v, 0, 1 << 24, &x))
            return sb_err_set(err, "lsp_config_set", "contextBudget '%.40s': "
                              "expected 0..16777216 tokens (0: half the "
                              "context)", v);
        c->context_budget = (int32_t)x;
        return 0;
    }
    if (!strcmp(key, "cacheMemoryMB")) {
        if (lsp__parse_long(v, 0, 1 << 20, &x))
            return sb_err_set(err, "lsp_config_set", "cacheMemoryMB '%.40s': "
                              "expected 0..1048576", v);
        c->cache_mb = (int32_t)x;
        return 0;
    }
    if (!strcmp(key, "prefixCache")) {
        if (!strcmp(v, "on") || !strcmp(v, "true")) c->prefix_cache = true;
        else if (!strcmp(v, "off") || !strcmp(v, "false")) c->prefix_cache = false;
        else return sb_err_set(err, "lsp_config_set", "prefixCache '%.40s': "
                               "expected on or off", v);
        return 0;
    }
    return 1;
}

int lsp_config_set(lsp_config *c, const char *key, const char *v, sb_err *err) {
    long long x;
    if (!strcmp(key, "model")) return lsp__set_path(&c->model, key, v, err);
    if (!strcmp(key, "log")) return lsp__set_path(&c->log, key, v, err);
    if (!strcmp(key, "warmup")) return lsp__set_path(&c->warmup, key, v, err);
    if (!strcmp(key, "device")) {
        if (!strcmp(v, "cpu")) c->device = ENG_DEVICE_CPU;
        else if (!strcmp(v, "cuda")) c->device = ENG_DEVICE_CUDA;
        else return sb_err_set(err, "lsp_config_set", "device '%.40s': expected "
                               "cpu or cuda", v);
        return 0;
    }
    if (!strcmp(key, "threads")) {
        if (lsp__parse_long(v, 0, 1024, &x))
            return sb_err_set(err, "lsp_config_set", "threads '%.40s': expected "
                              "0..1024 (0: all cores)", v);
        c->threads = (int)x;
        return 0;
    }
    if (!strcmp(key, "seed")) {
        char *end;
        errno = 0;
        unsigned long long u = strtoull(v, &end, 10);
        if (errno || end == v || *end || *v == '-')
            return sb_err_set(err, "lsp_config_set", "seed '%.40s': expected an "
                              "unsigned integer", v);
        c->seed = u;
        return 0;
    }
    if (!strcmp(key, "temperature")) {
        char *end;
        errno = 0;
        double t = strtod(v, &end);
        if (errno || end == v || *end || !isfinite(t) || t < 0 || t > 100)
            return sb_err_set(err, "lsp_config_set", "temperature '%.40s': "
                              "expected 0..100 (0: greedy)", v);
        c->temperature = (float)t;
        return 0;
    }
    if (!strcmp(key, "maxTokens")) {
        if (lsp__parse_long(v, 0, 1 << 24, &x))
            return sb_err_set(err, "lsp_config_set", "maxTokens '%.40s': expected "
                              "0..16777216 (0: twice the file, plus 256)", v);
        c->max_tokens = (int32_t)x;
        return 0;
    }
    if (!strcmp(key, "speculation")) {
        if (!strcmp(v, "on") || !strcmp(v, "true")) c->speculation = true;
        else if (!strcmp(v, "off") || !strcmp(v, "false")) c->speculation = false;
        else return sb_err_set(err, "lsp_config_set", "speculation '%.40s': "
                               "expected on or off", v);
        return 0;
    }
    if (!strcmp(key, "costTable")) {
        stepcost_table t;
        sb_err why = {0};
        if (stepcost_table_load(v, &t, &why))
            return sb_err_set(err, "lsp_config_set", "costTable: %s", why.msg);
        c->costs = t;
        return 0;
    }
    const int rc = lsp__config_prompt(c, key, v, err);
    if (rc <= 0) return rc;
    return sb_err_set(err, "lsp_config_set", "unknown option '%.40s'", key);
}

static const struct {
    const char *env, *key;
} lsp__env[] = {
    {"SB_MODEL", "model"}, {"SB_DEVICE", "device"}, {"SB_THREADS", "threads"},
    {"SB_SEED", "seed"}, {"SB_TEMPERATURE", "temperature"}, {"SB_LOG", "log"},
    {"SB_MAX_TOKENS", "maxTokens"}, {"SB_SPECULATION", "speculation"},
    {"SB_WARMUP", "warmup"}, {"SB_COST_TABLE", "costTable"},
    {"SB_PROMPT_VERSION", "promptVersion"}, {"SB_CONTEXT", "context"},
    {"SB_CONTEXT_BUDGET", "contextBudget"}, {"SB_CACHE_MB", "cacheMemoryMB"},
    {"SB_PREFIX_CACHE", "prefixCache"},
};

int lsp_config_from_env(lsp_config *c, sb_err *err) {
    for (size_t i = 0; i < sizeof lsp__env / sizeof lsp__env[0]; i++) {
        const char *v = getenv(lsp__env[i].env);
        sb_err inner = {0};
        if (v && *v && lsp_config_set(c, lsp__env[i].key, v, &inner))
            return sb_err_set(err, lsp__env[i].env, "%s", inner.msg);
    }
    return 0;
}

static bool lsp__known_key(const char *key) {
    static const char *const keys[] = {"model", "device", "threads", "seed",
                                       "temperature", "log", "maxTokens",
                                       "speculation", "warmup", "costTable",
                                       "promptVersion", "context", "contextBudget",
                                       "cacheMemoryMB", "prefixCache"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(keys[i], key)) return true;
    return false;
}

/* The text form of a JSON option value, as lsp_config_set takes it; NULL
 * for a value of the wrong JSON type. */
static const char *lsp__opt_text(const char *key, json_t *v, char *buf,
                                 size_t cap) {
    bool is_path = !strcmp(key, "model") || !strcmp(key, "log") ||
                   !strcmp(key, "device") || !strcmp(key, "warmup") ||
                   !strcmp(key, "costTable") || !strcmp(key, "promptVersion") ||
                   !strcmp(key, "context");
    if (is_path) return json_is_string(v) ? json_string_value(v) : NULL;
    if (!strcmp(key, "temperature")) {
        if (!json_is_number(v)) return NULL;
        snprintf(buf, cap, "%.17g", json_number_value(v));
        return buf;
    }
    if (!strcmp(key, "speculation") || !strcmp(key, "prefixCache")) {
        if (!json_is_boolean(v)) return NULL;
        return json_is_true(v) ? "on" : "off";
    }
    /* threads, seed, maxTokens: integers (a seed may also be a string,
     * since JSON numbers cannot carry all 64 bits everywhere) */
    if (json_is_integer(v)) {
        snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
        return buf;
    }
    if (!strcmp(key, "seed") && json_is_string(v)) return json_string_value(v);
    return NULL;
}

void lsp__apply_init_options(lsp_server *s, json_t *opts) {
    if (!opts || json_is_null(opts)) return;
    if (!json_is_object(opts)) {
        lsp__show(s, LSP_MSG_WARNING, "sb-lsp: initializationOptions must be an "
                  "object; ignored");
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach(opts, key, v) {
        char buf[64];
        sb_err err = {0};
        const char *text = lsp__opt_text(key, v, buf, sizeof buf);
        if (!lsp__known_key(key))
            sb_err_set(&err, "initializationOptions", "unknown option '%.60s'", key);
        else if (json_is_string(v) &&
                 strlen(json_string_value(v)) != json_string_length(v))
            sb_err_set(&err, "initializationOptions", "%s: contains a NUL "
                       "character (\\u0000)", key); /* a path cut short */
        else if (!text)
            sb_err_set(&err, "initializationOptions", "%s: wrong JSON type", key);
        else
            lsp_config_set(&s->cfg, key, text, &err);
        if (err.msg[0])
            lsp__show(s, LSP_MSG_WARNING, "sb-lsp: %s; ignored", err.msg);
    }
}
