/*
 * slog_internal.h — private to sessionlog/: a line as JSON both ways, and
 * the chain fields every line carries.
 */
#ifndef SB_SLOG_INTERNAL_H
#define SB_SLOG_INTERNAL_H

#include <jansson.h>

#include "sessionlog.h"

/* The chain fields of a line being written. */
typedef struct slog__link {
    slog_kind kind;
    const char *session; /* 32 hex digits */
    int64_t seq;
    const char *prev;    /* 64 hex digits, or NULL for the file's first line */
    int64_t entries;     /* a summary's count */
} slog__link;

/* The JSON object of one line: the chain fields, then (for an edit) every
 * field of e. NULL when out of memory. Caller decrefs. */
json_t *slog__to_json(const slog__link *l, const slog_entry *e);

/* Fills e from the object o of a line (borrowing o's strings; the output
 * ids go into *ids, malloc'd, which the caller frees). -1 with err naming
 * the field. */
int slog__from_json(json_t *o, slog_entry *e, int32_t **ids, sb_err *err);

#endif /* SB_SLOG_INTERNAL_H */
