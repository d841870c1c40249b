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
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

/* ==== one setter per option ============================================== */

/* Each takes the option's text form (as a flag or a variable gives it) and
 * returns -1 for a bad value; why->msg is filled only when the table's
 * `expect` would not say what went wrong. */

static int config__path(char **slot, const char *v, sb_err *why) {
    if (!*v) {
        snprintf(why->msg, sizeof why->msg, "empty path");
        return -1;
    }
    char *p = strdup(v);
    if (!p) {
        snprintf(why->msg, sizeof why->msg, "out of memory");
        return -1;
    }
    free(*slot);
    *slot = p;
    return 0;
}

static int config__long(const char *v, long long lo, long long hi,
                        long long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* on/true and off/false; -1 for anything else. */
static int config__switch(const char *v, bool *out) {
    if (!strcmp(v, "on") || !strcmp(v, "true")) *out = true;
    else if (!strcmp(v, "off") || !strcmp(v, "false")) *out = false;
    else return -1;
    return 0;
}

static int config__model(lsp_config *c, const char *v, sb_err *why) {
    return config__path(&c->model, v, why);
}
static int config__log(lsp_config *c, const char *v, sb_err *why) {
    return config__path(&c->log, v, why);
}
static int config__warmup(lsp_config *c, const char *v, sb_err *why) {
    return config__path(&c->warmup, v, why);
}

static int config__device(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    if (!strcmp(v, "cpu")) c->device = ENG_DEVICE_CPU;
    else if (!strcmp(v, "cuda")) c->device = ENG_DEVICE_CUDA;
    else return -1;
    return 0;
}

static int config__threads(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    long long x;
    if (config__long(v, 0, 1024, &x)) return -1;
    c->threads = (int)x;
    return 0;
}

static int config__seed(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(v, &end, 10);
    if (errno || end == v || *end || *v == '-') return -1;
    c->seed = u;
    return 0;
}

static int config__temperature(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(t) || t < 0 || t > 100)
        return -1;
    c->temperature = (float)t;
    return 0;
}

static int config__max_tokens(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    long long x;
    if (config__long(v, 0, 1 << 24, &x)) return -1;
    c->max_tokens = (int32_t)x;
    return 0;
}

static int config__speculation(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    return config__switch(v, &c->speculation);
}

static int config__cost_table(lsp_config *c, const char *v, sb_err *why) {
    stepcost_table t;
    if (stepcost_table_load(v, &t, why)) return -1;
    c->costs = t;
    return 0;
}

static int config__prompt_version(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    if (!strcmp(v, "auto")) c->prompt_version = 0;
    else if (edit_prompt_version_parse(v, &c->prompt_version)) return -1;
    return 0;
}

static int config__context(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    if (strcmp(v, "file") && strcmp(v, "region")) return -1;
    c->context_region = !strcmp(v, "region");
    return 0;
}

static int config__context_budget(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    long long x;
    if (config__long(v, 0, 1 << 24, &x)) return -1;
    c->context_budget = (int32_t)x;
    return 0;
}

static int config__cache_mb(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    long long x;
    if (config__long(v, 0, 1 << 20, &x)) return -1;
    c->cache_mb = (int32_t)x;
    return 0;
}

static int config__prefix_cache(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    return config__switch(v, &c->prefix_cache);
}

static int config__preview_streaming(lsp_config *c, const char *v, sb_err *why) {
    (void)why;
    return config__switch(v, &c->preview_streaming);
}

/* ==== the table: the one list of sb-lsp's options ============================ */

/* The JSON type an initializationOption takes. */
typedef enum {
    CONFIG__STRING,  /* a path or a word */
    CONFIG__INTEGER,
    CONFIG__NUMBER,  /* any JSON number */
    CONFIG__BOOLEAN, /* true/false, as "on"/"off" */
    CONFIG__SEED,    /* an integer, or a string (JSON numbers cannot carry
                        all 64 bits everywhere) */
} config__json;

typedef struct config__option {
    lsp_option shown;   /* key, flag, env, arg, fallback, help */
    config__json json;
    const char *expect; /* a bad value's error: "KEY 'V': expected EXPECT" */
    int (*set)(lsp_config *c, const char *v, sb_err *why);
} config__option;

/* In --help's order. `fallback` is each default as text, applied by
 * lsp_config_defaults through the setter; NULL: unset (model: the demo
 * model, eng_default_model_path; costTable: stepcost_table_default). */
static const config__option config__table[] = {
    {{"model", "model", "SB_MODEL", "FILE", NULL,
      "GGUF model (default: the demo model)"},
     CONFIG__STRING, "a path", config__model},
    {{"device", "device", "SB_DEVICE", "cpu|cuda", "cpu",
      "where the model runs"},
     CONFIG__STRING, "cpu or cuda", config__device},
    {{"threads", "threads", "SB_THREADS", "N", "0",
      "CPU threads (0: one per online CPU)"},
     CONFIG__INTEGER, "0..1024 (0: all cores)", config__threads},
    {{"seed", "seed", "SB_SEED", "S", "0", "sampling seed"},
     CONFIG__SEED, "an unsigned integer", config__seed},
    {{"temperature", "temperature", "SB_TEMPERATURE", "T", "0",
      "sampling temperature (0: greedy)"},
     CONFIG__NUMBER, "0..100 (0: greedy)", config__temperature},
    {{"log", "log", "SB_LOG", "FILE", NULL,
      "session log, JSON lines (docs/session-log.md)"},
     CONFIG__STRING, "a path", config__log},
    {{"maxTokens", "max-tokens", "SB_MAX_TOKENS", "N", "0",
      "output cap in tokens (0: twice the file, plus 256)"},
     CONFIG__INTEGER, "0..16777216 (0: twice the file, plus 256)",
     config__max_tokens},
    {{"speculation", "speculation", "SB_SPECULATION", "on|off", "on",
      "copy drafts verified by the model; never changes output"},
     CONFIG__BOOLEAN, "on or off", config__speculation},
    {{"warmup", "warmup", "SB_WARMUP", "FILE", NULL,
      "a warm-up table (sb warmup --export), fingerprint checked"},
     CONFIG__STRING, "a path", config__warmup},
    {{"costTable", "cost-table", "SB_COST_TABLE", "FILE", NULL,
      "step costs drafts are sized by ('ROWS COST' lines; unset: measured)"},
     CONFIG__STRING, "a cost table", config__cost_table},
    {{"promptVersion", "prompt", "SB_PROMPT_VERSION", "auto|v1|v2", "auto",
      "edit prompt (auto: the model's; docs/lsp.md)"},
     CONFIG__STRING, "auto, v1 or v2", config__prompt_version},
    {{"context", "context", "SB_CONTEXT", "file|region", "file",
      "prompt v2: show the document before the region (file) or not"},
     CONFIG__STRING, "file or region", config__context},
    {{"contextBudget", "context-budget", "SB_CONTEXT_BUDGET", "N", "0",
      "prompt v2: tokens of the document shown (0: half the context)"},
     CONFIG__INTEGER, "0..16777216 tokens (0: half the context)",
     config__context_budget},
    {{"cacheMemoryMB", "cache-mb", "SB_CACHE_MB", "N", "1024",
      "MiB of sessions kept, one per open document (docs/lsp.md)"},
     CONFIG__INTEGER, "0..1048576", config__cache_mb},
    {{"prefixCache", "prefix-cache", "SB_PREFIX_CACHE", "on|off", "on",
      "reuse the KV of a prompt's cached prefix; never changes output"},
     CONFIG__BOOLEAN, "on or off", config__prefix_cache},
    {{"previewStreaming", "preview-streaming", "SB_PREVIEW_STREAMING", "on|off",
      "off", "progress reports carry the edit's text so far (docs/lsp.md)"},
     CONFIG__BOOLEAN, "on or off", config__preview_streaming},
};
enum { CONFIG__N = sizeof config__table / sizeof config__table[0] };

static const config__option *config__find(const char *key) {
    for (int i = 0; i < CONFIG__N; i++)
        if (!strcmp(config__table[i].shown.key, key)) return &config__table[i];
    return NULL;
}

int lsp_option_count(void) { return CONFIG__N; }

lsp_option lsp_option_at(int i) {
    return i >= 0 && i < CONFIG__N ? config__table[i].shown : (lsp_option){0};
}

void lsp_options_help(FILE *out) {
    for (int i = 0; i < CONFIG__N; i++) {
        const lsp_option *o = &config__table[i].shown;
        char flag[64];
        snprintf(flag, sizeof flag, "%s--%s %s",
                 !strcmp(o->key, "model") ? "-m, " : "    ", o->flag, o->arg);
        fprintf(out, "  %-28s %-18s %s\n        %s", flag, o->env, o->key,
                o->help);
        if (o->fallback) fprintf(out, "; default %s", o->fallback);
        fputc('\n', out);
    }
}

/* ==== setting ================================================================ */

void lsp_config_defaults(lsp_config *c) {
    memset(c, 0, sizeof *c);
    stepcost_table_default(&c->costs);
    for (int i = 0; i < CONFIG__N; i++) {
        const char *v = config__table[i].shown.fallback;
        sb_err unused = {0};
        if (v && config__table[i].set(c, v, &unused) != 0)
            assert(!"a default in config__table fails its own setter");
    }
}

void lsp_config_free(lsp_config *c) {
    free(c->model);
    free(c->log);
    free(c->warmup);
    c->model = c->log = c->warmup = NULL;
}

int lsp_config_set(lsp_config *c, const char *key, const char *v, sb_err *err) {
    const config__option *o = config__find(key);
    if (!o) return sb_err_set(err, "lsp_config_set", "unknown option '%.40s'", key);
    sb_err why = {0};
    if (o->set(c, v, &why) == 0) return 0;
    if (why.msg[0])
        return sb_err_set(err, "lsp_config_set", "%s: %s", key, why.msg);
    return sb_err_set(err, "lsp_config_set", "%s '%.40s': expected %s", key, v,
                      o->expect);
}

int lsp_config_from_env(lsp_config *c, sb_err *err) {
    for (int i = 0; i < CONFIG__N; i++) {
        const char *v = getenv(config__table[i].shown.env);
        sb_err inner = {0};
        if (v && *v && lsp_config_set(c, config__table[i].shown.key, v, &inner))
            return sb_err_set(err, config__table[i].shown.env, "%s", inner.msg);
    }
    return 0;
}

/* The text form of a JSON option value, as lsp_config_set takes it; NULL
 * for a value of the wrong JSON type. */
static const char *config__opt_text(const config__option *o, json_t *v,
                                    char *buf, size_t cap) {
    switch (o->json) {
    case CONFIG__STRING:
        return json_is_string(v) ? json_string_value(v) : NULL;
    case CONFIG__NUMBER:
        if (!json_is_number(v)) return NULL;
        snprintf(buf, cap, "%.17g", json_number_value(v));
        return buf;
    case CONFIG__BOOLEAN:
        if (!json_is_boolean(v)) return NULL;
        return json_is_true(v) ? "on" : "off";
    case CONFIG__SEED:
        if (json_is_string(v)) return json_string_value(v);
        __attribute__((fallthrough)); /* else an integer */
    case CONFIG__INTEGER:
        if (!json_is_integer(v)) return NULL;
        snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
        return buf;
    }
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
        const config__option *o = config__find(key);
        const char *text = o ? config__opt_text(o, v, buf, sizeof buf) : NULL;
        if (!o)
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
