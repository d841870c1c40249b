/*
 * judge.c — slog_verify's judgement: the passes over what each line says.
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
#include <stdlib.h>
#include <string.h>

#include "judge.h"

/* ==== judging: links ========================================================= */

/* Marks repeated lines (damage: insertion) and resolves what each line
 * names. */
static int slog__link_lines(slog__judge *j) {
    if (slog__map_init_lines(&j->by_sha, (size_t)j->n, j->recs)) return -1;
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

/* A line linked to the one before it must also go on its session's
 * numbering: the next number, or past as many numbers as there are lines
 * damaged in place between (each may have been one of its entries). A
 * line that skips more was re-pointed over deleted entries (delete a
 * session's last entry, re-point its summary: the chain holds, the count
 * does not); one that goes back repeats a number. false when it was
 * flagged. */
static bool slog__numbered_on(slog__judge *j, int64_t i, const slog__session *s) {
    const slog__rec *r = &j->recs[i];
    int64_t gap = r->seq - s->last_seq - 1, unreadable = 0;
    for (int64_t m = s->last + 1; m < i; m++) /* a torn entry keeps its number */
        unreadable += j->recs[m].dup_of < 0 && slog__unreadable(&j->recs[m]);
    if (gap > unreadable) {
        slog__damage(j, i, SLOG_DELETION, "entries %lld..%lld of session %.8s "
                     "are missing before line %lld (the chain was re-pointed "
                     "over them)", (long long)s->last_seq + 1,
                     (long long)r->seq - 1, s->id, SLOG__LINE(i));
        return false;
    }
    if (gap < 0) {
        slog__damage(j, i, SLOG_EDITED, "line %lld is numbered %lld in session "
                     "%.8s, which already reached %lld", SLOG__LINE(i),
                     (long long)r->seq, s->id, (long long)s->last_seq);
        return false;
    }
    return true;
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
    if (slog__linked(j, i) && s->first >= 0 && !slog__numbered_on(j, i, s))
        return;
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

/* Every chained line in file order, then the unreadable ones left. A v1
 * line (no chain) may only come before every chained line: an old log
 * continued in v2. After one, it was added: formats do not mix back. */
static void slog__judge_breaks(slog__judge *j) {
    int64_t first_chained = -1;
    for (int64_t i = 0; i < j->n; i++) {
        const slog__rec *r = &j->recs[i];
        if (r->dup_of >= 0 || r->flagged) continue;
        if (r->state == SLOG__CHAINED) {
            if (first_chained < 0) first_chained = i;
            slog__judge_line(j, i);
        } else if (r->state == SLOG__V1 && first_chained >= 0) {
            slog__damage(j, i, SLOG_INSERTION, "line %lld is a v1 line (no "
                         "chain) after v2 lines (from line %lld): a v1 log may "
                         "only precede a v2 one, so it was added", SLOG__LINE(i),
                         SLOG__LINE(first_chained));
        }
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

/* The passes, in order: each leaves findings the next ones respect. */
int slog__judge_all(slog__judge *j) {
    if (slog__link_lines(j)) return -1;
    slog__keep_successors(j);
    if (slog__judge_order(j)) return -1;
    slog__judge_spans(j);
    slog__judge_breaks(j);
    slog__judge_sessions(j);
    return j->oom ? -1 : 0;
}
