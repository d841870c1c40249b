/*
 * findings.c — a finding recorded in slog_verify's report: what the passes
 * (judge.c) add, capped at SLOG_MAX_FINDINGS each of damage and notes. It
 * calls neither verify.c nor judge.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge.h"

void slog__add(slog__judge *j, bool note, int64_t at, slog_damage_kind k,
                      const char *fmt, ...) {
    slog_damage **list = note ? &j->rep->notes : &j->rep->damage;
    int *n = note ? &j->rep->n_notes : &j->rep->n_damage;
    if (!note) j->recs[at].flagged = true;
    if (*n >= SLOG_MAX_FINDINGS) {
        ++*(note ? &j->rep->more_notes : &j->rep->more_damage);
        return;
    }
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
}

void slog__damage(slog__judge *j, int64_t at, slog_damage_kind k,
                         const char *fmt, ...) {
    if (j->recs[at].flagged) return; /* one finding a line */
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    slog__add(j, false, at, k, "%s", what);
}
