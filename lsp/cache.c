/*
 * cache.c — the worker's sessions, one per open document (docs/lsp.md,
 * "The prefix cache").
 *
 * Each session keeps its document's last prompt and answer in its KV
 * cache, so the next edit of that document prefills only what follows the
 * prefix the two prompts share (engine/session.c, eng_session_reuse): a
 * second edit of another region, or an edit after one was applied at line
 * 500, recomputes nothing before the first difference. Sessions are made
 * like the one the model was loaded with (same device, threads and launch
 * choices) while the budget allows; beyond it the least recently used is
 * dropped, and when only one is left it is handed over to the new
 * document. A session whose document was closed is dropped at the next
 * edit. Worker thread only.
 */
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

typedef struct lsp__cached {
    char *uri;             /* owned; NULL: not yet given to a document */
    eng_session *session;  /* owned */
    uint64_t used;         /* the clock at its last edit */
} lsp__cached;

struct lsp_cache {
    lsp__cached *v;        /* owned, n entries */
    int n, cap;
    uint64_t clock;
};

lsp_cache *lsp__cache_create(void) { return calloc(1, sizeof(lsp_cache)); }

static void lsp__cache_drop(lsp_cache *c, int i) {
    eng_session_destroy(c->v[i].session);
    free(c->v[i].uri);
    c->v[i] = c->v[--c->n];
}

void lsp__cache_clear(lsp_cache *c) {
    while (c && c->n > 0) lsp__cache_drop(c, c->n - 1);
}

void lsp__cache_destroy(lsp_cache *c) {
    if (!c) return;
    lsp__cache_clear(c);
    free(c->v);
    free(c);
}

int lsp__cache_adopt(lsp_cache *c, eng_session *session) {
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 4;
        lsp__cached *g = realloc(c->v, (size_t)cap * sizeof *g);
        if (!g) return -1;
        c->v = g;
        c->cap = cap;
    }
    c->v[c->n++] = (lsp__cached){.session = session, .used = ++c->clock};
    return 0;
}

int lsp__cache_count(const lsp_cache *c) { return c->n; }

/* Drops the sessions of documents that are no longer open. */
static void lsp__cache_prune(lsp_server *s) {
    lsp_cache *c = s->cache;
    pthread_mutex_lock(&s->lock);
    for (int i = c->n - 1; i >= 0; i--)
        if (c->v[i].uri && !lsp_docs_find(s->docs, c->v[i].uri) && c->n > 1)
            lsp__cache_drop(c, i);
    pthread_mutex_unlock(&s->lock);
}

static int lsp__cache_find(const lsp_cache *c, const char *uri) {
    for (int i = 0; i < c->n; i++)
        if (c->v[i].uri && !strcmp(c->v[i].uri, uri)) return i;
    return -1;
}

/* The least recently used entry, preferring one given to no document. */
static int lsp__cache_lru(const lsp_cache *c) {
    int best = 0;
    for (int i = 1; i < c->n; i++) {
        bool free_i = !c->v[i].uri, free_b = !c->v[best].uri;
        if ((free_i && !free_b) ||
            (free_i == free_b && c->v[i].used < c->v[best].used))
            best = i;
    }
    return best;
}

/* Gives entry i to uri. */
static eng_session *lsp__cache_give(lsp_cache *c, int i, const char *uri) {
    char *copy = strdup(uri);
    if (!copy) return NULL;
    free(c->v[i].uri);
    c->v[i].uri = copy;
    c->v[i].used = ++c->clock;
    return c->v[i].session;
}

/* A new session made like the first (the one the model was loaded with). */
static eng_session *lsp__cache_make(lsp_server *s, sb_err *err) {
    eng_session *proto = s->cache->v[0].session;
    const krn_choice *choices = NULL;
    const int n = eng_session_choices(proto, &choices);
    eng_options opt = {.device = s->cfg.device, .n_threads = s->cfg.threads,
                       .choices = n > 0 ? choices : NULL, .n_choices = n,
                       .tuning = s->cfg.tuning};
    return eng_session_create(s->model, &opt, err);
}

eng_session *lsp__cache_session(lsp_server *s, const char *uri, sb_err *err) {
    lsp_cache *c = s->cache;
    if (c->n == 0) {
        sb_err_set(err, "sb-lsp", "no session (the model is not loaded)");
        return NULL;
    }
    lsp__cache_prune(s);
    int i = lsp__cache_find(c, uri);
    if (i >= 0) return lsp__cache_give(c, i, uri);
    for (i = 0; i < c->n; i++) /* one no document holds yet */
        if (!c->v[i].uri) return lsp__cache_give(c, i, uri);
    const int64_t budget = (int64_t)s->cfg.cache_mb << 20;
    const int64_t each = eng_session_bytes(c->v[0].session);
    while (c->n > 1 && (int64_t)(c->n + 1) * each > budget)
        lsp__cache_drop(c, lsp__cache_lru(c));
    if ((int64_t)(c->n + 1) * each > budget)
        return lsp__cache_give(c, lsp__cache_lru(c), uri);
    sb_err why = {0};
    eng_session *made = lsp__cache_make(s, &why);
    if (!made || lsp__cache_adopt(c, made)) {
        /* no room on the device after all: hand the oldest over instead */
        eng_session_destroy(made);
        return lsp__cache_give(c, lsp__cache_lru(c), uri);
    }
    return lsp__cache_give(c, c->n - 1, uri);
}
