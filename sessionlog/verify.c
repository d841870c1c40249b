/*
 * verify.c — slog_verify: the whole log read once, its chain judged.
 *
 * Evidence per line: its own hash, the hash it names as its predecessor
 * (prev_sha256), its session and number in it (seq). In an intact log each
 * line names the line before it, and each session's lines are numbered 1,
 * 2, ... up to its summary, which counts them. The passes:
 *
 *   1. links: a line repeated word for word was inserted; two lines naming
 *      one line: the branch that goes on longer is the chain, the other
 *      was inserted (a forged line can name a real one, but nothing real
 *      names it);
 *   2. order: each run of linked lines should lie in file order; the lines
 *      outside its longest in-order part were moved (reordering);
 *   3. spans: a line lying between a line and its successor, of no chain
 *      there, was inserted;
 *   4. breaks: a line naming a hash the file lacks follows a deletion when
 *      its session skips numbers (not counting lines damaged in place),
 *      else the line before it was edited; a line naming nothing (a new
 *      chain) after other lines, or one added to a session after its
 *      summary, was inserted; a line that does not parse is an entry cut
 *      short (truncation) when the next line is chained to it as it is or
 *      it is the unfinished last line, else edited;
 *   5. sessions: a log that ends inside a session, without its summary,
 *      was cut short (truncation). A session whose writer died leaves no
 *      summary either, but the next line is chained to its last one:
 *      nothing is missing, and that is a note, not damage.
 *
 * Each line gets at most one finding. Some stories look alike to any
 * chain (the last entry of a session whose writer died, edited, or that
 * session's summary deleted): the finding names the likelier one, and
 * either way the damage is found.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slog_internal.h"

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

/* ==== what each line says =================================================== */

typedef enum slog__state { SLOG__CHAINED, SLOG__V1, SLOG__UNREADABLE, SLOG__TORN } slog__state;

/* A line's predecessor when it is not a line of the file. */
enum { SLOG__GENESIS = -1, SLOG__MISSING = -2, SLOG__UNKNOWN = -3 };

typedef struct slog__rec {
    int64_t line;
    unsigned char sha[32];
    slog__state state;
    bool summary;
    int32_t session;      /* index into the sessions, -1 when none */
    int64_t seq, entries;
    bool has_prev;
    unsigned char prev[32];
    /* judged */
    int64_t dup_of;       /* index of an earlier identical line, or -1 */
    int64_t pred;         /* index of the line it names, or SLOG__* */
    int64_t succ;         /* the line kept as its successor, or -1 */
    int64_t reach;        /* lines from it to its chain's end; 0: not known */
    bool in_order;        /* in its run of linked lines' longest in-order part */
    bool flagged;         /* has its finding */
} slog__rec;

typedef struct slog__session {
    char id[33];
    int64_t first, last;  /* indexes of its first and latest line so far */
    int64_t last_seq;     /* highest seq seen so far */
    int64_t summary;      /* index of its summary, or -1 */
} slog__session;

/* An open-addressed map from 32-byte keys to indexes. */
typedef struct slog__map {
    unsigned char (*keys)[32];
    int64_t *vals;        /* index + 1; 0: empty */
    size_t mask;
} slog__map;

typedef struct slog__judge {
    slog__rec *recs;
    int64_t n, cap;
    slog__session *sessions;
    int32_t n_sessions, cap_sessions;
    slog__map by_sha, by_session;
    slog_report *rep;
    bool oom;
} slog__judge;

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

/* ==== the map ================================================================ */

static int slog__map_init(slog__map *m, size_t n) {
    size_t cap = 16;
    while (cap < 2 * n + 1) cap *= 2;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = calloc(cap, sizeof *m->vals);
    m->mask = cap - 1;
    return m->keys && m->vals ? 0 : -1;
}

static void slog__map_free(slog__map *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t slog__map_slot(const slog__map *m, const unsigned char key[32]) {
    uint64_t h;
    memcpy(&h, key, sizeof h); /* SHA-256 bytes: already uniform */
    size_t i = (size_t)sb_mix64(h) & m->mask;
    while (m->vals[i] && memcmp(m->keys[i], key, 32)) i = (i + 1) & m->mask;
    return i;
}

/* The index stored for key, or -1. */
static int64_t slog__map_get(const slog__map *m, const unsigned char key[32]) {
    return m->vals[slog__map_slot(m, key)] - 1;
}

/* Stores key -> v unless key is there; returns the index stored for key. */
static int64_t slog__map_put(slog__map *m, const unsigned char key[32], int64_t v) {
    size_t i = slog__map_slot(m, key);
    if (!m->vals[i]) {
        memcpy(m->keys[i], key, 32);
        m->vals[i] = v + 1;
    }
    return m->vals[i] - 1;
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

/* ==== findings =============================================================== */

static void slog__add(slog__judge *j, bool note, int64_t at, slog_damage_kind k,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void slog__add(slog__judge *j, bool note, int64_t at, slog_damage_kind k,
                      const char *fmt, ...) {
    slog_damage **list = note ? &j->rep->notes : &j->rep->damage;
    int *n = note ? &j->rep->n_notes : &j->rep->n_damage;
    slog_damage *d = realloc(*list, (size_t)(*n + 1) * sizeof *d);
    if (!d) {
        j->oom = true;
        return;
    }
    *list = d;
    d = &d[(*n)++];
    d->line = j->recs[at].line;
    d->kind = k;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->what, sizeof d->what, fmt, ap);
    va_end(ap);
    if (!note) j->recs[at].flagged = true;
}

static void slog__damage(slog__judge *j, int64_t at, slog_damage_kind k,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void slog__damage(slog__judge *j, int64_t at, slog_damage_kind k,
                         const char *fmt, ...) {
    if (j->recs[at].flagged) return; /* one finding a line */
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    slog__add(j, false, at, k, "%s", what);
}

#define SLOG__LINE(i) ((long long)j->recs[i].line)
#define SLOG__SID(s) (j->sessions[s].id)

/* ==== judging: links ========================================================= */

/* Marks repeated lines (damage: insertion) and resolves what each line
 * names. */
static int slog__link_lines(slog__judge *j) {
    if (slog__map_init(&j->by_sha, (size_t)j->n)) return -1;
    for (int64_t i = 0; i < j->n; i++) {
        int64_t first = slog__map_put(&j->by_sha, j->recs[i].sha, i);
        if (first == i) continue;
        j->recs[i].dup_of = first;
        slog__damage(j, i, SLOG_INSERTION, "line %lld repeats line %lld word "
                     "for word", SLOG__LINE(i), SLOG__LINE(first));
    }
    for (int64_t i = 0; i < j->n; i++) {
        slog__rec *r = &j->recs[i];
        if (r->dup_of >= 0 || r->state != SLOG__CHAINED) continue;
        if (!r->has_prev) {
            r->pred = SLOG__GENESIS;
        } else {
            int64_t k = slog__map_get(&j->by_sha, r->prev);
            r->pred = k >= 0 ? k : SLOG__MISSING;
        }
    }
    return 0;
}

/* The length of the chain from line i on, following kept successors. */
static int64_t slog__reach(slog__judge *j, int64_t i) {
    int64_t end = i, n = 0;
    while (end >= 0 && !j->recs[end].reach) {
        n++;
        end = j->recs[end].succ;
    }
    int64_t total = n + (end >= 0 ? j->recs[end].reach : 0);
    for (int64_t m = i; m != end; m = j->recs[m].succ) j->recs[m].reach = total--;
    return j->recs[i].reach;
}

/* Flags a branch that is not the chain: `from` and every line after it. */
static void slog__drop_branch(slog__judge *j, int64_t from, int64_t k, int64_t kept) {
    for (int64_t m = from; m >= 0; m = j->recs[m].succ)
        slog__damage(j, m, SLOG_INSERTION, "line %lld is not in the chain: it "
                     "branches off line %lld, which line %lld continues",
                     SLOG__LINE(m), SLOG__LINE(k), SLOG__LINE(kept));
}

/* Gives each line at most one successor. Two lines naming one line: the
 * branch that goes on longer is the chain, the other was added (a forged
 * entry names a real predecessor, but nothing real names it). */
static void slog__keep_successors(slog__judge *j) {
    for (int64_t i = 0; i < j->n; i++) {
        int64_t k = j->recs[i].pred;
        if (k >= 0 && j->recs[k].succ < 0) j->recs[k].succ = i;
    }
    for (int64_t i = 0; i < j->n; i++) {
        int64_t k = j->recs[i].pred, cur = k >= 0 ? j->recs[k].succ : -1;
        if (k < 0 || cur == i || j->recs[i].flagged || j->recs[cur].flagged) continue;
        if (slog__reach(j, i) > slog__reach(j, cur)) {
            j->recs[k].succ = i;
            slog__drop_branch(j, cur, k, i);
        } else {
            slog__drop_branch(j, i, k, cur);
        }
    }
}

/* True when line i continues the chain from a kept predecessor. */
static bool slog__linked(const slog__judge *j, int64_t i) {
    int64_t k = j->recs[i].pred;
    return k >= 0 && j->recs[k].succ == i && !j->recs[k].flagged;
}

/* ==== judging: order ========================================================= */

/* Marks the longest run of the lines at[0..n) (file indexes, chain order)
 * that is in file order too: what stayed in place. */
static int slog__mark_in_order(slog__judge *j, const int64_t *at, int64_t n) {
    int64_t *tail = malloc((size_t)n * sizeof *tail); /* index into at */
    int64_t *from = malloc((size_t)n * sizeof *from);
    if (!tail || !from) {
        free(tail);
        free(from);
        return -1;
    }
    int64_t len = 0;
    for (int64_t x = 0; x < n; x++) {
        int64_t lo = 0, hi = len; /* first tail whose line is after at[x] */
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (at[tail[mid]] < at[x]) lo = mid + 1;
            else hi = mid;
        }
        from[x] = lo > 0 ? tail[lo - 1] : -1;
        tail[lo] = x;
        if (lo == len) len++;
    }
    for (int64_t x = len ? tail[len - 1] : -1; x >= 0; x = from[x])
        j->recs[at[x]].in_order = true;
    free(tail);
    free(from);
    return 0;
}

/* Each run of linked lines: the lines out of its file order were moved. */
static int slog__judge_order(slog__judge *j) {
    int64_t *at = malloc((size_t)(j->n ? j->n : 1) * sizeof *at);
    if (!at) return -1;
    for (int64_t h = 0; h < j->n; h++) {
        const slog__rec *r = &j->recs[h];
        if (r->dup_of >= 0 || r->flagged || slog__linked(j, h)) continue;
        int64_t n = 0;
        for (int64_t m = h; m >= 0; m = j->recs[m].succ) at[n++] = m;
        if (slog__mark_in_order(j, at, n)) {
            free(at);
            return -1;
        }
        for (int64_t x = 0; x < n; x++) {
            if (j->recs[at[x]].in_order) continue;
            if (x > 0)
                slog__damage(j, at[x], SLOG_REORDERING, "line %lld is out of "
                             "place: the chain puts it right after line %lld",
                             SLOG__LINE(at[x]), SLOG__LINE(at[x - 1]));
            else
                slog__damage(j, at[x], SLOG_REORDERING, "line %lld is out of "
                             "place: the chain puts it right before line %lld",
                             SLOG__LINE(at[x]), SLOG__LINE(at[x + 1]));
        }
    }
    free(at);
    return 0;
}

/* Lines inside a link (between a line and the one that names it) that are
 * not of that chain were added there. */
static void slog__judge_spans(slog__judge *j) {
    for (int64_t i = 0; i < j->n; i++) {
        const slog__rec *r = &j->recs[i];
        if (r->flagged || r->dup_of >= 0 || !r->in_order || !slog__linked(j, i) ||
            !j->recs[r->pred].in_order)
            continue;
        for (int64_t m = r->pred + 1; m < i; m++)
            if (j->recs[m].dup_of < 0)
                slog__damage(j, m, SLOG_INSERTION, "line %lld is not in the "
                             "chain: line %lld continues from line %lld",
                             SLOG__LINE(m), SLOG__LINE(i), SLOG__LINE(r->pred));
    }
}

/* ==== judging: where the chain breaks ========================================= */

static bool slog__unreadable(const slog__rec *r) {
    return r->state == SLOG__UNREADABLE || r->state == SLOG__TORN;
}

/* The nearest earlier line with no finding, or -1. */
static int64_t slog__before(const slog__judge *j, int64_t i) {
    while (--i >= 0)
        if (j->recs[i].dup_of < 0 && !j->recs[i].flagged) return i;
    return -1;
}

/* Unreadable lines between indexes from and to (exclusive) that nothing
 * names and that have no finding: entries damaged in place, which account
 * for numbers missing around them. */
static int64_t slog__damaged_between(const slog__judge *j, int64_t from, int64_t to) {
    int64_t n = 0;
    for (int64_t m = from + 1; m < to; m++) {
        const slog__rec *b = &j->recs[m];
        n += b->dup_of < 0 && !b->flagged && slog__unreadable(b) && b->succ < 0;
    }
    return n;
}

/* Line i names a hash the file lacks: lines were deleted before it, or the
 * line before it (p) changed. Its session's numbering tells which. */
static void slog__judge_missing(slog__judge *j, int64_t i, const slog__session *s) {
    const slog__rec *r = &j->recs[i];
    int64_t p = slog__before(j, i);
    int64_t gap = r->seq - s->last_seq - 1;
    if (p < 0) {
        slog__damage(j, i, SLOG_DELETION, "the lines before line %lld are "
                     "missing: it is chained to a line the file lacks",
                     SLOG__LINE(i));
    } else if (gap > slog__damaged_between(j, s->last, i)) {
        slog__damage(j, i, SLOG_DELETION, "entries %lld..%lld of session %.8s "
                     "are missing before line %lld", (long long)s->last_seq + 1,
                     (long long)r->seq - 1, s->id, SLOG__LINE(i));
    } else if (slog__unreadable(&j->recs[p]) && j->recs[p].succ < 0) {
        slog__damage(j, p, SLOG_EDITED, "line %lld does not parse: line %lld is "
                     "chained to what it was", SLOG__LINE(p), SLOG__LINE(i));
    } else if (r->seq == 1 && j->recs[p].state == SLOG__CHAINED &&
               j->recs[p].summary) {
        /* a summary's only content is its count, checked on its own: whole
         * sessions after it going missing is the likelier story */
        slog__damage(j, i, SLOG_DELETION, "lines after line %lld (a session's "
                     "summary) are missing, whole sessions at least: line %lld "
                     "is chained to a line the file lacks", SLOG__LINE(p),
                     SLOG__LINE(i));
    } else if (r->seq == 1 && j->recs[p].state == SLOG__CHAINED &&
               j->recs[p].session != r->session &&
               j->sessions[j->recs[p].session].summary < 0) {
        slog__damage(j, i, SLOG_DELETION, "the end of session %.8s after line "
                     "%lld is missing (its summary at least): line %lld is "
                     "chained to a line the file lacks",
                     j->sessions[j->recs[p].session].id, SLOG__LINE(p), SLOG__LINE(i));
    } else {
        slog__damage(j, p, SLOG_EDITED, "line %lld was changed after line %lld "
                     "was chained to it", SLOG__LINE(p), SLOG__LINE(i));
    }
}

/* Line i in its session: not after the summary; where its chain starts,
 * the break explained; a summary that counts its own number. */
static void slog__judge_line(slog__judge *j, int64_t i) {
    const slog__rec *r = &j->recs[i];
    slog__session *s = &j->sessions[r->session];
    if (s->summary >= 0) {
        slog__damage(j, i, SLOG_INSERTION, "line %lld adds to session %.8s after "
                     "its summary (line %lld)", SLOG__LINE(i), s->id,
                     SLOG__LINE(s->summary));
        return;
    }
    if (!slog__linked(j, i)) {
        if (r->pred == SLOG__MISSING) {
            slog__judge_missing(j, i, s);
        } else if (r->pred == SLOG__GENESIS && slog__before(j, i) >= 0) {
            slog__damage(j, i, SLOG_INSERTION, "line %lld starts a chain of its "
                         "own (prev_sha256 null) after line %lld: lines of "
                         "another log were added here", SLOG__LINE(i),
                         SLOG__LINE(slog__before(j, i)));
        }
    }
    if (r->summary) {
        if (r->seq != r->entries + 1)
            slog__damage(j, i, SLOG_EDITED, "the summary at line %lld counts "
                         "%lld entries but is numbered %lld", SLOG__LINE(i),
                         (long long)r->entries, (long long)r->seq);
        s->summary = i;
    }
    if (s->first < 0) s->first = i;
    if (r->seq > s->last_seq) s->last_seq = r->seq;
    s->last = i;
}

/* Every chained line in file order, then the unreadable ones left. */
static void slog__judge_breaks(slog__judge *j) {
    for (int64_t i = 0; i < j->n; i++) {
        const slog__rec *r = &j->recs[i];
        if (r->dup_of < 0 && !r->flagged && r->state == SLOG__CHAINED)
            slog__judge_line(j, i);
    }
    for (int64_t i = 0; i < j->n; i++) {
        const slog__rec *r = &j->recs[i];
        if (r->dup_of >= 0 || r->flagged || !slog__unreadable(r)) continue;
        if (r->succ >= 0)
            slog__damage(j, i, SLOG_TRUNCATION, "line %lld is an entry cut short "
                         "when it was written (a full disk or a crash): line %lld "
                         "is chained to it as it is", SLOG__LINE(i),
                         SLOG__LINE(r->succ));
        else if (r->state == SLOG__TORN)
            slog__damage(j, i, SLOG_TRUNCATION, "line %lld, the last, is cut "
                         "short: its writer stopped mid-entry", SLOG__LINE(i));
        else
            slog__damage(j, i, SLOG_EDITED, "line %lld does not parse: changed "
                         "after it was written, or added", SLOG__LINE(i));
    }
}

/* Sessions without a summary: cut short at the end of the log, or a writer
 * that died (the next line chained to its last: nothing missing). */
static void slog__judge_sessions(slog__judge *j) {
    int64_t last_chained = -1;
    for (int64_t i = 0; i < j->n; i++)
        if (j->recs[i].dup_of < 0 && !j->recs[i].flagged &&
            j->recs[i].state == SLOG__CHAINED)
            last_chained = i;
    for (int32_t k = 0; k < j->n_sessions; k++) {
        const slog__session *s = &j->sessions[k];
        if (s->summary >= 0) {
            j->rep->closed++;
            continue;
        }
        if (s->last < 0) continue; /* every line of it has a finding */
        bool later_damage = false;
        for (int64_t m = s->last + 1; m < j->n && !later_damage; m++)
            later_damage = j->recs[m].flagged;
        if (j->recs[s->last].succ >= 0)
            slog__add(j, true, s->last, SLOG_TRUNCATION, "session %.8s (lines "
                      "%lld..%lld) has no summary: its writer stopped without "
                      "closing it; the next line is chained to its last, so "
                      "nothing is missing", s->id, SLOG__LINE(s->first),
                      SLOG__LINE(s->last));
        else if (s->last == last_chained && !later_damage)
            slog__damage(j, s->last, SLOG_TRUNCATION, "the log ends inside "
                         "session %.8s, after its entry %lld at line %lld, with "
                         "no summary: cut short there, or its writer is still "
                         "running or was killed", s->id, (long long)s->last_seq,
                         SLOG__LINE(s->last));
        else
            slog__add(j, true, s->last, SLOG_TRUNCATION, "session %.8s has no "
                      "summary (see the damage reported)", s->id);
    }
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

/* The passes, in order: each leaves findings the next ones respect. */
static int slog__judge_all(slog__judge *j) {
    if (slog__link_lines(j)) return -1;
    slog__keep_successors(j);
    if (slog__judge_order(j)) return -1;
    slog__judge_spans(j);
    slog__judge_breaks(j);
    slog__judge_sessions(j);
    return j->oom ? -1 : 0;
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
