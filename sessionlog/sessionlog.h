/*
 * sessionlog.h — the public face of sessionlog/: one JSON line per edit,
 * enough to run the edit again and prove the output has not changed
 * (`sb replay`, cli/cmd_replay.c), chained so that a lost, added, moved or
 * changed line is noticed.
 *
 *     sb_err err = {0};
 *     slog_writer *w = slog_open("edits.jsonl", &err);
 *     slog_entry e = {...};                 // every pointer borrowed
 *     if (slog_append(w, &e, &err)) ...     // one line, on disk on return
 *     if (slog_close(w, &err)) ...          // the session's summary line
 *
 *     slog_report rep;
 *     slog_verify("edits.jsonl", &rep, &err);   // the chain, judged
 *     for (int i = 0; i < rep.n_damage; i++) report(&rep.damage[i]);
 *     slog_report_free(&rep);
 *
 *     slog_reader *r = slog_reader_open("edits.jsonl", &err);
 *     slog_entry e;
 *     int rc;
 *     while ((rc = slog_next(r, &e, &err)) != 0)
 *         if (rc < 0) report(err.msg);      // this line only; go on
 *     slog_reader_close(r);
 *
 * The chain. A writer is one session: a random session id, its entries
 * numbered 1, 2, ... ("seq"), and at slog_close a summary line stating how
 * many entries the session wrote. Every line (entry or summary) carries
 * "prev_sha256": the SHA-256 of the bytes of the non-empty line before it
 * in the file (without its "\n"), null for the first. So a deleted line
 * leaves its successor pointing at a hash the file lacks; a changed line no
 * longer has the hash its successor names; an added line is pointed at by
 * nothing; a moved one is pointed at from the wrong place; a log cut short
 * ends inside a session, without its summary. slog_verify names each.
 * What no chain can show: a suffix rewritten (the log cut anywhere and
 * lines appended chained to the last kept, a forged summary included), or
 * the log rewritten whole with new hashes. For that, keep the head hash
 * slog_verify reports (the last line's) where the log cannot be edited:
 * lines up to a line with that hash are as they were (session-log.md).
 *
 * Crash safety: each line is one write() to a file opened with O_APPEND,
 * then fsync'd, under an exclusive flock (so that two servers sharing a log
 * still chain it in file order). A crash or a full disk can only leave the
 * LAST line short. A reader reports such a torn line as unreadable and
 * reads every other line; a writer that finds one (at open, or before an
 * append: its own earlier short write) ends it with "\n" and chains its
 * next line to it, so the verifier can tell a line the writer cut short
 * (truncation) from one changed later.
 *
 * Lines are objects with "format": "sonicboom-edit-log-v2" and "kind":
 * "edit" (the fields of slog_entry below, by the JSON names given there) or
 * "summary". Lines of format v1 (before the chain) are still read: they
 * replay, but cannot be checked for tampering, and slog_verify says so.
 */
#ifndef SB_SESSIONLOG_H
#define SB_SESSIONLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"

#define SLOG_FORMAT "sonicboom-edit-log-v2"
#define SLOG_FORMAT_V1 "sonicboom-edit-log-v1"

/* Longest line a reader accepts (a document of up to 64 MiB, escaped). */
enum { SLOG_MAX_LINE = 512 << 20 };
/* Most output ids an entry may hold. */
enum { SLOG_MAX_OUTPUT = 1 << 20 };

typedef enum slog_kind {
    SLOG_KIND_EDIT,    /* "kind": "edit": one edit; every field below */
    SLOG_KIND_SUMMARY, /* "kind": "summary": a session's last line; only
                          the chain fields and summary_entries */
} slog_kind;

/* One line. Every pointer is borrowed: by slog_append for the call; from
 * slog_next, owned by the reader until its next call. Strings are
 * NUL-terminated unless a length is given; NULL means absent (written as
 * JSON null). */
typedef struct slog_entry {
    /* the chain: set by the writer (slog_append ignores what is given),
     * filled by slog_next */
    slog_kind kind;              /* "kind" */
    const char *session;         /* "session": 32 hex digits, one per writer;
                                    NULL for a v1 line */
    int64_t seq;                 /* "seq": 1, 2, ... in its session; a summary
                                    has summary_entries + 1; 0 for v1 */
    const char *prev_sha256;     /* "prev_sha256": 64 hex digits, or NULL for
                                    the first line of the file (and v1) */
    int64_t summary_entries;     /* "entries": the entries a summary's
                                    session wrote (torn ones included) */
    /* where it ran */
    const char *engine_version;  /* "engine_version": eng_version() */
    const char *backend;         /* "backend": "cpu" or "cuda" */
    const char *device_name;     /* "device_name": the CPU or GPU model
                                    (eng_session_device_name) */
    const char *model_path;      /* "model_path" */
    const char *model_sha256;    /* "model_sha256": 64 hex digits */
    const char *warmup_sha256;   /* "warmup_table_sha256": the SHA-256 of the
                                    warm-up table imported, or NULL */
    /* the request: the document, the part of it edited, the instruction */
    const char *uri;             /* "uri" */
    const char *language;        /* "language": the LSP languageId */
    const char *document;        /* "document" */
    int64_t document_len;
    int64_t region_start;        /* "region": [start, end], the bytes of the */
    int64_t region_end;          /* document the edit rewrote (whole lines) */
    bool has_context;            /* "context": [start, end], the bytes of the
                                    document prompt v2 showed as context, or
                                    null (none; always in older logs) */
    int64_t context_start, context_end;
    const char *range_json;      /* "range": the client's LSP range as JSON
                                    text, for reference; NULL: none */
    const char *instruction;     /* "instruction" */
    int64_t instruction_len;
    /* parameters */
    float temperature;           /* "temperature" */
    uint64_t seed;               /* "seed" */
    int32_t top_k;               /* "top_k" */
    int32_t max_tokens;          /* "max_tokens": as asked (0: default) */
    bool speculation;            /* "speculation" (never changes output) */
    const char *prompt_version;  /* "prompt_version" */
    /* what came out */
    int64_t n_prompt;            /* "prompt_tokens" */
    const char *prompt_sha256;   /* "prompt_ids_sha256" */
    const int32_t *output;       /* "output_ids" */
    int32_t n_output;
    const char *output_sha256;   /* "output_sha256": of the ids, as
                                    eng_tokens_sha256 */
    const char *status;          /* "status": "done" or "bad-answer" */
    double wall_s;               /* "wall_s" */
    int32_t steps;               /* "steps" */
    int64_t drafted, accepted;   /* "drafted", "accepted" */
    int64_t cached_tokens;       /* "cached_tokens": prompt tokens the
                                    prefix cache held (0 in older logs) */
    double first_token_s;        /* "first_token_s": seconds to the first
                                    output token (0 in older logs) */
} slog_entry;

/* ---- writing ------------------------------------------------------------- */

typedef struct slog_writer slog_writer;

/* Opens (creating, mode 0644) a log for appending and starts a session
 * with a new random id. NULL with err filled; refused: a symbolic link at
 * path, anything but a regular file, a file that is not empty and does
 * not begin as a log line does (session-log.md, "Opening the log"). */
slog_writer *slog_open(const char *path, sb_err *err);
/* How long an append waits for the file's lock while another process
 * holds it (SLOG_LOCK_WAIT_MS unless set; at least 1 ms); past it the
 * append fails, saying so, and writes nothing. */
enum { SLOG_LOCK_WAIT_MS = 10000 };
void slog_set_lock_wait(slog_writer *w, int ms);
/* Appends e (kind, session, seq and prev_sha256 are the writer's) as one
 * line and fsyncs it. -1 with err filled; the file then holds either the
 * whole line or none of it, unless the disk filled up mid-write: the next
 * append (or the next writer's first) ends that torn line before its own. */
int slog_append(slog_writer *w, const slog_entry *e, sb_err *err);
/* Ends the session: appends its summary line when it wrote any entry, and
 * closes the file. -1 with err when the summary could not be written (the
 * log then reads as cut short); the writer is freed either way. NULL: 0. */
int slog_close(slog_writer *w, sb_err *err);
/* The session id (32 hex digits); owned by w. */
const char *slog_session(const slog_writer *w);

/* ---- reading ------------------------------------------------------------- */

typedef struct slog_reader slog_reader;

slog_reader *slog_reader_open(const char *path, sb_err *err);
void slog_reader_close(slog_reader *r);
/* Reads the next non-empty line into *e. Returns 1 for an entry or summary
 * (e->kind says which), 0 at the end of the file, -1 for an unreadable line
 * (err names the line number and why: not JSON, a missing or mistyped
 * field, a torn last line); reading may go on after -1. */
int slog_next(slog_reader *r, slog_entry *e, sb_err *err);
/* The 1-based number of the line slog_next last returned. */
int64_t slog_line(const slog_reader *r);
/* The SHA-256 (64 hex digits) of that line's bytes, readable or not, as a
 * later line's prev_sha256 names it; owned by r until its next call. */
const char *slog_line_sha256(const slog_reader *r);
/* True when that line was the file's last and lacked its "\n". */
bool slog_line_torn(const slog_reader *r);

/* ---- verifying the chain (verify.c) --------------------------------------- */

typedef enum slog_damage_kind {
    SLOG_DELETION,   /* lines the chain names are missing */
    SLOG_INSERTION,  /* a line that is not in the chain (added, repeated) */
    SLOG_REORDERING, /* lines of the chain out of their order */
    SLOG_TRUNCATION, /* an entry cut short, or the log ends mid-session */
    SLOG_EDITED,     /* a line changed after the next one was chained to it */
} slog_damage_kind;

/* "deletion", "insertion", "reordering", "truncation", "edited entry". */
const char *slog_damage_name(slog_damage_kind k);

typedef struct slog_damage {
    int64_t line;          /* where it shows (1-based) */
    slog_damage_kind kind;
    char what[256];        /* one line: what is wrong, in words */
} slog_damage;

typedef struct slog_report {
    int64_t lines;         /* non-empty lines */
    int64_t entries;       /* readable edit entries (v1 and v2) */
    int64_t sessions;      /* distinct session ids */
    int64_t closed;        /* of those, with a summary */
    int64_t unchained;     /* v1 entries: no chain, not checkable */
    char head_sha256[65];  /* the last line's SHA-256; "" for an empty log */
    int n_damage;
    slog_damage *damage;   /* n_damage findings in line order; owned */
    int n_notes;
    slog_damage *notes;    /* remarks that are not damage (a session whose
                              writer died without a summary, but nothing
                              is missing); kind unused; owned */
    /* Findings past the first SLOG_MAX_FINDINGS of each list: counted,
     * not kept (a log of millions of junk lines would otherwise hold a
     * finding for each). The log is damaged when n_damage or more_damage
     * is not 0. */
    int64_t more_damage, more_notes;
} slog_report;

enum { SLOG_MAX_FINDINGS = 1000 };

/* Reads the whole log at path and judges its chain: every line in its
 * place, every session closed. 0 with *rep filled (damage or not); -1 with
 * err only when the file cannot be read. Free with slog_report_free. */
int slog_verify(const char *path, slog_report *rep, sb_err *err);
void slog_report_free(slog_report *rep);

#endif /* SB_SESSIONLOG_H */
