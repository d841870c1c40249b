/*
 * sessionlog.h — the public face of sessionlog/: one JSON line per edit,
 * enough to run the edit again and prove the output has not changed
 * (`sb replay`, cli/cmd_replay.c).
 *
 *     sb_err err = {0};
 *     slog_writer *w = slog_open("edits.jsonl", &err);
 *     slog_entry e = {...};                 // every pointer borrowed
 *     if (slog_append(w, &e, &err)) ...     // one line, on disk on return
 *     slog_close(w);
 *
 *     slog_reader *r = slog_reader_open("edits.jsonl", &err);
 *     slog_entry e;
 *     int rc;
 *     while ((rc = slog_next(r, &e, &err)) != 0)
 *         if (rc < 0) report(err.msg);      // this line only; go on
 *     slog_reader_close(r);
 *
 * Crash safety: each entry is one write() of a whole line to a file opened
 * with O_APPEND, then fsync'd, so entries never interleave and a crash can
 * only leave the LAST line short. A reader reports such a torn line (no
 * final "\n") as unreadable and still reads every line before it; a writer
 * that finds one (at open, or before an append: its own short write on a
 * full disk) ends it with "\n" first, so the next entry starts clean.
 *
 * A line is an object with "format": "sonicboom-edit-log-v1"; the fields
 * are those of slog_entry below, by the JSON names given there.
 */
#ifndef SB_SESSIONLOG_H
#define SB_SESSIONLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"

#define SLOG_FORMAT "sonicboom-edit-log-v1"

/* Longest line a reader accepts (a document of up to 64 MiB, escaped). */
enum { SLOG_MAX_LINE = 512 << 20 };
/* Most output ids an entry may hold. */
enum { SLOG_MAX_OUTPUT = 1 << 26 };

/* One edit. Every pointer is borrowed: by slog_append for the call; from
 * slog_next, owned by the reader until its next call. Strings are
 * NUL-terminated unless a length is given; NULL means absent (written as
 * JSON null). */
typedef struct slog_entry {
    /* where it ran */
    const char *engine_version;  /* "engine_version": eng_version() */
    const char *backend;         /* "backend": "cpu" or "cuda" */
    const char *device_name;     /* "device_name": the CPU or GPU model
                                    (eng_session_device_name) */
    const char *model_path;      /* "model_path" */
    const char *model_sha256;    /* "model_sha256": 64 hex digits */
    const char *warmup_sha256;   /* "warmup_table_sha256": NULL until the
                                    CUDA backend has a warm-up table */
    /* the request: the document, the part of it edited, the instruction */
    const char *uri;             /* "uri" */
    const char *language;        /* "language": the LSP languageId */
    const char *document;        /* "document" */
    int64_t document_len;
    int64_t region_start;        /* "region": [start, end], the bytes of the */
    int64_t region_end;          /* document the edit rewrote */
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
} slog_entry;

/* ---- writing ------------------------------------------------------------- */

typedef struct slog_writer slog_writer;

/* Opens (creating, mode 0644) a log for appending. NULL with err filled. */
slog_writer *slog_open(const char *path, sb_err *err);
void slog_close(slog_writer *w);
/* Appends e as one line and fsyncs it. -1 with err filled; the file then
 * holds either the whole line or none of it, unless the disk filled up
 * mid-write: the next append ends that torn line before its own. */
int slog_append(slog_writer *w, const slog_entry *e, sb_err *err);

/* ---- reading ------------------------------------------------------------- */

typedef struct slog_reader slog_reader;

slog_reader *slog_reader_open(const char *path, sb_err *err);
void slog_reader_close(slog_reader *r);
/* Reads the next line into *e. Returns 1 for an entry, 0 at the end of the
 * file, -1 for an unreadable line (err names the line number and why: not
 * JSON, a missing or mistyped field, a torn last line); reading may go on
 * after -1. */
int slog_next(slog_reader *r, slog_entry *e, sb_err *err);
/* The 1-based number of the line slog_next last returned. */
int64_t slog_line(const slog_reader *r);

#endif /* SB_SESSIONLOG_H */
