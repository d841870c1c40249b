/*
 * judge.h — private to sessionlog/: what slog_verify knows of each line,
 * and the passes (judge.c) that turn it into findings.
 */
#ifndef SB_SLOG_JUDGE_H
#define SB_SLOG_JUDGE_H

#include <stdint.h>

#include "slog_internal.h"

/* ==== what each line says =================================================== */

/* A line: chained (format v2), v1 (no chain), not parseable, or the
 * unfinished last line. */
typedef enum slog__state {
    SLOG__CHAINED,
    SLOG__V1,
    SLOG__UNREADABLE,
    SLOG__TORN
} slog__state;

/* A line's predecessor when it is not a line of the file. */
enum { SLOG__GENESIS = -1, SLOG__MISSING = -2, SLOG__UNKNOWN = -3 };

/* One line: kept for every non-empty line of the log, so its fields are
 * ordered widest first (no padding between them: 136 bytes). */
typedef struct slog__rec {
    int64_t line;
    int64_t seq, entries;
    /* judged */
    int64_t dup_of;       /* index of an earlier identical line, or -1 */
    int64_t pred;         /* index of the line it names, or SLOG__* */
    int64_t succ;         /* the line kept as its successor, or -1 */
    int64_t reach;        /* lines from it to its chain's end; 0: not known */
    unsigned char sha[32];
    unsigned char prev[32];
    slog__state state;
    int32_t session;      /* index into the sessions, -1 when none */
    bool summary;
    bool has_prev;
    bool in_order;        /* in its run of linked lines' longest in-order part */
    bool flagged;         /* has its finding */
} slog__rec;

typedef struct slog__session {
    char id[33];
    int64_t first, last;  /* indexes of its first and latest line so far */
    int64_t last_seq;     /* highest seq seen so far */
    int64_t summary;      /* index of its summary, or -1 */
} slog__session;

/* An open-addressed map from 32-byte keys to indexes. Keyless (recs set):
 * the key of index v is recs[v].sha, not stored again, which saves 32
 * bytes a slot on the map of every line's hash. */
typedef struct slog__map {
    unsigned char (*keys)[32]; /* NULL when keyless */
    const slog__rec *recs;     /* keyless: whose sha the keys are; borrowed */
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

/* ---- the map (map.c) ---- */

int slog__map_init(slog__map *m, size_t n);
/* A keyless map of n lines' hashes (recs must not move while it is used). */
int slog__map_init_lines(slog__map *m, size_t n, const slog__rec *recs);
void slog__map_free(slog__map *m);
/* The index stored for key, or -1. */
int64_t slog__map_get(const slog__map *m, const unsigned char key[32]);
/* Stores key -> v unless key is there; returns the index stored for key. */
int64_t slog__map_put(slog__map *m, const unsigned char key[32], int64_t v);

/* ---- findings (findings.c) ---- */

/* A finding at record `at`: damage (which flags the line), or a note. */
void slog__add(slog__judge *j, bool note, int64_t at, slog_damage_kind k,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Damage at record `at`, unless the line has its finding already. */
void slog__damage(slog__judge *j, int64_t at, slog_damage_kind k,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A record's line number, for messages (j in scope). */
#define SLOG__LINE(i) ((long long)j->recs[i].line)

/* ---- the passes (judge.c) ---- */

/* Judges j's records (read in file order): fills j->rep's findings and
 * counts. -1 when out of memory. */
int slog__judge_all(slog__judge *j);

#endif /* SB_SLOG_JUDGE_H */
