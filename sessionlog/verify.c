/*
 * verify.c — slog_verify: the whole log read once (each line's hash, what
 * it names, its session and number), then judged (judge.c). The map
 * (map.c) and the findings (findings.c) are below both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

const char *slog_damage_name(slog_damage_kind k) {
    switch (k) {
    case SLOG_DELETION: return "deletion";
    case SLOG_INSERTION: return "insertion";
    case SLOG_REORDERING: return "reordering";
    case SLOG_TRUNCATION: return "truncation";
    case SLOG_EDITED: return "edited entry";
    }
    return "damage";
}

static void slog__hex_bytes(const char *hex, unsigned char out[32]) {
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char c = hex[2 * i + k];
            v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
        }
        out[i] = (unsigned char)v;
    }
}

static void slog__bytes_hex(const unsigned char b[32], char hex[65]) {
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", b[i]);
}

/* ==== reading the lines ====================================================== */

static slog__rec *slog__push(slog__judge *j) {
    if (j->n == j->cap) {
        int64_t cap = j->cap ? 2 * j->cap : 256;
        slog__rec *r = realloc(j->recs, (size_t)cap * sizeof *r);
        if (!r) return NULL;
        j->recs = r;
        j->cap = cap;
    }
    slog__rec *r = &j->recs[j->n++];
    memset(r, 0, sizeof *r);
    r->session = -1;
    r->dup_of = -1;
    r->pred = SLOG__UNKNOWN;
    r->succ = -1;
    return r;
}

/* The map key of a session id: its 16 bytes, then zeros. */
static void slog__session_key(const char *id, unsigned char key[32]) {
    unsigned char full[32];
    char hex[65];
    memcpy(hex, id, 32);
    memset(hex + 32, '0', 32);
    hex[64] = '\0';
    slog__hex_bytes(hex, full);
    memcpy(key, full, 32);
}

/* Makes room for one more session in the map (which it keeps at most half
 * full). -1 when out of memory. */
static int slog__sessions_grow(slog__judge *j) {
    if ((size_t)j->n_sessions * 2 + 2 <= j->by_session.mask) return 0;
    slog__map bigger;
    if (slog__map_init(&bigger, 2 * (size_t)j->n_sessions + 2)) {
        slog__map_free(&bigger);
        return -1;
    }
    for (int32_t i = 0; i < j->n_sessions; i++) {
        unsigned char k[32];
        slog__session_key(j->sessions[i].id, k);
        slog__map_put(&bigger, k, i);
    }
    slog__map_free(&j->by_session);
    j->by_session = bigger;
    return 0;
}

/* The index of session id (added when new), or -1 when out of memory. */
static int32_t slog__session_of(slog__judge *j, const char *id) {
    unsigned char key[32];
    slog__session_key(id, key);
    int64_t at = slog__map_get(&j->by_session, key);
    if (at >= 0) return (int32_t)at;
    if (j->n_sessions == j->cap_sessions) {
        int32_t cap = j->cap_sessions ? 2 * j->cap_sessions : 16;
        slog__session *s = realloc(j->sessions, (size_t)cap * sizeof *s);
        if (!s) return -1;
        j->sessions = s;
        j->cap_sessions = cap;
    }
    if (slog__sessions_grow(j)) return -1;
    slog__session *s = &j->sessions[j->n_sessions];
    memcpy(s->id, id, 33);
    s->first = s->last = -1;
    s->last_seq = 0;
    s->summary = -1;
    slog__map_put(&j->by_session, key, j->n_sessions);
    return j->n_sessions++;
}

/* Records the line the reader just returned (rc from slog_next). */
static int slog__note_line(slog__judge *j, const slog_reader *r, int rc,
                           const slog_entry *e) {
    slog__rec *rec = slog__push(j);
    if (!rec) return -1;
    rec->line = slog_line(r);
    slog__hex_bytes(slog_line_sha256(r), rec->sha);
    if (rc < 0) {
        rec->state = slog_line_torn(r) ? SLOG__TORN : SLOG__UNREADABLE;
        return 0;
    }
    if (e->kind == SLOG_KIND_EDIT) j->rep->entries++;
    if (!e->session) {
        rec->state = SLOG__V1;
        j->rep->unchained++;
        return 0;
    }
    rec->state = SLOG__CHAINED;
    rec->summary = e->kind == SLOG_KIND_SUMMARY;
    rec->seq = e->seq;
    rec->entries = e->summary_entries;
    rec->has_prev = e->prev_sha256 != NULL;
    if (rec->has_prev) slog__hex_bytes(e->prev_sha256, rec->prev);
    rec->session = slog__session_of(j, e->session);
    return rec->session < 0 ? -1 : 0;
}

static int slog__by_line(const void *a, const void *b) {
    const slog_damage *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

/* ==== slog_verify ============================================================ */

static int slog__read_all(slog__judge *j, const char *path, sb_err *err) {
    slog_reader *r = slog_reader_open(path, err);
    if (!r) return -1;
    int rc;
    slog_entry e;
    while ((rc = slog_next(r, &e, &(sb_err){0})) != 0) {
        if (rc < 0 && !slog_line_sha256(r)[0]) {
            slog_reader_close(r);
            return sb_err_set(err, "slog_verify", "%s: read failed after line "
                              "%lld", path, (long long)slog_line(r));
        }
        if (slog__note_line(j, r, rc, &e)) {
            slog_reader_close(r);
            return sb_err_set(err, "slog_verify", "out of memory");
        }
    }
    slog_reader_close(r);
    return 0;
}

int slog_verify(const char *path, slog_report *rep, sb_err *err) {
    memset(rep, 0, sizeof *rep);
    slog__judge j = {.rep = rep};
    int rc = -1;
    if (slog__map_init(&j.by_session, 8)) {
        sb_err_set(err, "slog_verify", "out of memory");
        goto done;
    }
    if (slog__read_all(&j, path, err)) goto done;
    if (slog__judge_all(&j)) {
        sb_err_set(err, "slog_verify", "out of memory");
        goto done;
    }
    rep->lines = j.n;
    rep->sessions = j.n_sessions;
    if (j.n) slog__bytes_hex(j.recs[j.n - 1].sha, rep->head_sha256);
    if (rep->n_damage)
        qsort(rep->damage, (size_t)rep->n_damage, sizeof *rep->damage, slog__by_line);
    rc = 0;
done:
    if (rc) slog_report_free(rep);
    free(j.recs);
    free(j.sessions);
    slog__map_free(&j.by_sha);
    slog__map_free(&j.by_session);
    return rc;
}

void slog_report_free(slog_report *rep) {
    free(rep->damage);
    free(rep->notes);
    memset(rep, 0, sizeof *rep);
}
