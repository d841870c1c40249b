/*
 * map.c — the open-addressed map from 32-byte keys (SHA-256 hashes, session
 * ids) to line indexes that slog_verify (verify.c) and its passes (judge.c)
 * share. It calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "judge.h"

int slog__map_init(slog__map *m, size_t n) {
    m->recs = NULL;
    size_t cap = 16;
    while (cap < 2 * n + 1) cap *= 2;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = calloc(cap, sizeof *m->vals);
    m->mask = cap - 1;
    return m->keys && m->vals ? 0 : -1;
}

int slog__map_init_lines(slog__map *m, size_t n, const slog__rec *recs) {
    size_t cap = 16;
    while (cap < 2 * n + 1) cap *= 2;
    m->keys = NULL;
    m->recs = recs;
    m->vals = calloc(cap, sizeof *m->vals);
    m->mask = cap - 1;
    return m->vals ? 0 : -1;
}

void slog__map_free(slog__map *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t slog__map_slot(const slog__map *m, const unsigned char key[32]) {
    uint64_t h;
    memcpy(&h, key, sizeof h); /* SHA-256 bytes: already uniform */
    size_t i = (size_t)sb_mix64(h) & m->mask;
    while (m->vals[i] && memcmp(m->recs ? m->recs[m->vals[i] - 1].sha : m->keys[i],
                                key, 32))
        i = (i + 1) & m->mask;
    return i;
}

/* The index stored for key, or -1. */
int64_t slog__map_get(const slog__map *m, const unsigned char key[32]) {
    return m->vals[slog__map_slot(m, key)] - 1;
}

/* Stores key -> v unless key is there; returns the index stored for key. */
int64_t slog__map_put(slog__map *m, const unsigned char key[32], int64_t v) {
    size_t i = slog__map_slot(m, key);
    if (!m->vals[i]) {
        if (!m->recs) memcpy(m->keys[i], key, 32);
        m->vals[i] = v + 1;
    }
    return m->vals[i] - 1;
}
