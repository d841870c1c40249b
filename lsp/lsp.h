/*
 * lsp.h — the public face of lsp/: the language server `sb-lsp --stdio`.
 *
 *     lsp_config cfg;
 *     lsp_config_defaults(&cfg);
 *     lsp_config_from_env(&cfg, &err);          // SB_MODEL, SB_DEVICE, ...
 *     lsp_server *srv = lsp_server_create(&cfg, 1, &err);   // replies on fd 1
 *     int code = lsp_server_run(srv, 0);                    // reads fd 0
 *     lsp_server_destroy(srv);
 *     return code;                 // 0 after shutdown + exit, else 1
 *
 * Layers, each in its own file and usable alone (the tests and the fuzzer
 * drive them separately):
 *   framing.c   Content-Length framed messages in and out (JSON-RPC 2.0)
 *   document.c  open documents: text in bytes, versions, LSP positions in
 *               utf-8 or utf-16 code units
 *   change.c    full and incremental changes applied to them (a gap buffer)
 *   diff.c      minimal hunks between two texts, for workspace/applyEdit
 *   server.c    the method table and the lifecycle; handlers live in
 *               text_sync.c (documents), actions.c (codeAction,
 *               executeCommand), config.c (options) and worker.c (the
 *               edit, on its own thread); all of them send through
 *               send.c, which calls none of them
 *
 * Untrusted input: every message is bounded (LSP_MAX_MESSAGE), every JSON
 * value is checked for its type before use, and a malformed message gets a
 * JSON-RPC error (or, for a notification, a window/logMessage) and changes
 * nothing: open documents are only ever replaced by a fully validated change.
 */
#ifndef SB_LSP_H
#define SB_LSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../base/base.h"
#include "../engine/engine.h"
#include "../stepcost/stepcost.h"

/* ==== Framing (lsp/framing.c) ============================================== */

/* Largest message body accepted: a message announcing more is skipped and
 * answered with an error. 64 MiB holds any source file an editor sends. */
enum { LSP_MAX_MESSAGE = 64 << 20 };
/* Longest header line, and most header lines per message. */
enum { LSP_MAX_HEADER_LINE = 1024, LSP_MAX_HEADERS = 32 };

typedef enum lsp_read_status {
    LSP_READ_OK,        /* *body holds one message */
    LSP_READ_EOF,       /* the stream ended cleanly between messages */
    LSP_READ_TRUNCATED, /* the stream ended inside a header or a body */
    LSP_READ_BAD,       /* a malformed or oversized message was consumed and
                           skipped; err says why; the stream is usable */
    LSP_READ_TOO_LARGE, /* a body over the cap: err gives its size; the next
                           call drops the body, then reads on */
    LSP_READ_IO,        /* read() failed; err says why */
} lsp_read_status;

/* Reads bytes from somewhere: returns the count read (0 at end of stream),
 * or -1 with errno set. */
typedef ssize_t (*lsp_read_fn)(void *ctx, void *buf, size_t n);

typedef struct lsp_reader lsp_reader;

/* A reader over `read` (ctx borrowed until lsp_reader_destroy). max_body:
 * the cap on a body, 1..LSP_MAX_MESSAGE (0: LSP_MAX_MESSAGE). NULL when out
 * of memory. */
lsp_reader *lsp_reader_create(lsp_read_fn read, void *ctx, size_t max_body);
/* A reader over a file descriptor (borrowed). */
lsp_reader *lsp_reader_from_fd(int fd, size_t max_body);
void lsp_reader_destroy(lsp_reader *r);

/* Reads one message. Headers are lines ending in CRLF (a bare LF is
 * accepted too), then an empty line; Content-Length (decimal, required) is
 * the body's size in bytes, Content-Type and unknown headers are ignored.
 * On LSP_READ_OK *body is the body, NUL-terminated, *len bytes long, owned
 * by the reader until the next call. After LSP_READ_BAD the reader has
 * skipped the offending header block, and the next call reads the next
 * message: a body the bad block carried (its length unknown or not to be
 * trusted) is dropped as junk in front of the next "Content-Length:",
 * where the reader resynchronises; so does a body longer than its
 * Content-Length said (docs/lsp.md, "Framing"). */
lsp_read_status lsp_reader_next(lsp_reader *r, const char **body, size_t *len,
                                sb_err *err);

/* Writes whole messages to a file descriptor; safe to call from several
 * threads (one message is never interleaved with another). */
typedef struct lsp_writer lsp_writer;

/* fd is borrowed. NULL when out of memory. */
lsp_writer *lsp_writer_create(int fd);
void lsp_writer_destroy(lsp_writer *w);
/* Frames and writes body (len bytes). -1 with err filled when the write
 * fails (the peer is gone); every later call fails at once. */
int lsp_writer_send(lsp_writer *w, const char *body, size_t len, sb_err *err);

/* ==== Documents (lsp/document.c, lsp/change.c) ============================ */

/* How a Position's `character` counts: UTF-16 code units (the LSP default)
 * or UTF-8 bytes (when the client offers "utf-8"). */
typedef enum lsp_encoding { LSP_UTF16 = 0, LSP_UTF8 = 1 } lsp_encoding;

/* An LSP position: zero-based line, and a column in the encoding's units. */
typedef struct lsp_pos {
    int64_t line, character;
} lsp_pos;

/* Byte offset of pos in text[0..len). Lines end at "\n", "\r\n" or a lone
 * "\r", as the LSP specification says. Lenient as clients expect: a line
 * past the last is the end of the text; a column past the end of its line
 * is the end of that line (before its terminator); a column that falls
 * inside a character (half of a UTF-16 surrogate pair, or the middle of a
 * UTF-8 sequence) rounds down to that character's start. Negative values
 * are the caller's to reject. Invalid UTF-8 counts one unit per byte. */
int64_t lsp_offset_at(const char *text, int64_t len, lsp_pos pos,
                      lsp_encoding enc);
/* The position of byte offset off (clamped to 0..len) in text. An offset
 * between "\r" and "\n" maps to the end of that line. */
lsp_pos lsp_pos_at(const char *text, int64_t len, int64_t off,
                   lsp_encoding enc);

typedef struct lsp_doc {
    char *uri;         /* owned */
    char *language;    /* owned; the client's languageId ("" when none) */
    char *text;        /* owned; NUL-terminated, len bytes (may hold NULs) */
    int64_t len;
    int64_t version;
    /* Which didOpen this text descends from: a number no other open of
     * any document had. Versions restart when a client reopens a document
     * (VS Code starts again at 1), so (uri, version) alone can name two
     * different texts; (uri, generation, version) cannot. */
    int64_t generation;
    /* Why this text may no longer be the editor's ("" while it is): a
     * didChange was refused (a version not above the last, a bad change),
     * so the editor went on from a text we do not have. No edit runs on it
     * until a didOpen or a didChange that sends the whole text. */
    char desync[200];
} lsp_doc;

/* One content change of textDocument/didChange: a replacement of the range
 * (when has_range) or of the whole text. text is borrowed. */
typedef struct lsp_change {
    bool has_range;
    lsp_pos start, end;
    const char *text;
    int64_t len;
} lsp_change;

/* Limits on what a client may make the server hold (docs/lsp.md, "Limits").
 * A document never grows past the largest message that could carry it; a
 * didChange holds at most LSP_MAX_CHANGES changes (a replace-all in a large
 * file sends tens of thousands). */
enum {
    LSP_MAX_DOCUMENT = LSP_MAX_MESSAGE, /* bytes of one open document */
    LSP_MAX_CHANGES = 1 << 16,          /* changes in one didChange */
    LSP_MAX_DOCUMENTS = 1024,           /* documents open at once */
    LSP_MAX_INSTRUCTION = 64 * 1024,    /* bytes of an edit's instruction */
    LSP_MAX_PARTIAL_REPORT = 16 * 1024, /* bytes of the edit's text in one
                                           progress report (previewStreaming) */
    /* bytes of all open documents together: without it, 1,024 documents
     * of 64 MiB could be held */
    LSP_MAX_OPEN_BYTES = 128 << 20,
};

typedef struct lsp_docs lsp_docs; /* the open documents, by URI */

lsp_docs *lsp_docs_create(void);
void lsp_docs_destroy(lsp_docs *d);
/* The open document with this URI, or NULL; borrowed until the next call
 * that changes d. */
lsp_doc *lsp_docs_find(lsp_docs *d, const char *uri);
/* Opens (or reopens, replacing) a document; copies every argument. */
int lsp_docs_open(lsp_docs *d, const char *uri, const char *language,
                  const char *text, int64_t len, int64_t version, sb_err *err);
/* Applies the changes in order, then sets the version; all or nothing: a
 * version not above the document's (the LSP specification: versions
 * increase with every change), a change whose range is reversed (start
 * after end) or negative, more than LSP_MAX_CHANGES changes, a document
 * grown past LSP_MAX_DOCUMENT, or changes so scattered that applying them
 * would take many passes over the document fail with err naming why; the
 * text and version are left exactly as they were and the document is
 * marked out of sync (lsp_doc.desync). While it is, only changes that
 * begin with a whole text (no range) apply, and they bring it back in
 * sync. Changes in document order, or in reverse order, cost a few passes
 * over the document plus their text. */
int lsp_docs_change(lsp_docs *d, const char *uri, const lsp_change *changes,
                    int n, int64_t version, lsp_encoding enc, sb_err *err);
/* The bytes the last lsp_docs_change copied, moved or stepped over: its
 * cost, which tests bound instead of timing it. */
int64_t lsp_docs_last_work(const lsp_docs *d);
/* Closes a document; -1 when it is not open. */
int lsp_docs_close(lsp_docs *d, const char *uri, sb_err *err);

/* ==== Diff (lsp/diff.c) ==================================================== */

/* One replacement: bytes [old_start, old_end) of the old text become bytes
 * [new_start, new_end) of the new text. */
typedef struct lsp_hunk {
    int64_t old_start, old_end;
    int64_t new_start, new_end;
} lsp_hunk;

/* The hunks that turn old into new: a line diff (Myers' shortest edit
 * script over lines, after the common leading and trailing lines are set
 * aside), then each changed block trimmed of the bytes its old and new
 * sides share at either end. Hunks are in order, never overlap and never
 * touch (an unchanged line separates them), never split a UTF-8 character
 * or a CRLF pair, and applying them to old gives new exactly. Identical
 * texts give no hunks. Past a cost bound (a huge, scattered change) the
 * middle becomes one hunk: still exact, only less minimal.
 * *hunks is malloc'd (caller frees; NULL when *n is 0). */
int lsp_diff(const char *old, int64_t old_len, const char *new_text,
             int64_t new_len, lsp_hunk **hunks, int *n, sb_err *err);

/* ==== The server (lsp/server.c) ============================================ */

/* What the server runs with. Strings are owned by the config (strdup'd by
 * the setters below) and freed by lsp_config_free. */
typedef struct lsp_config {
    char *model;          /* GGUF path; NULL: eng_default_model_path */
    eng_device device;    /* cpu (default) or cuda */
    int threads;          /* 0: one per online CPU */
    uint64_t seed;        /* sampling seed (default 0) */
    float temperature;    /* 0: greedy (default) */
    char *log;            /* session log path; NULL: no log */
    int32_t max_tokens;   /* output cap in tokens; 0: the edit's default */
    bool speculation;     /* default on; never changes output */
    char *warmup;         /* a warm-up table (sb warmup --export) whose
                             configuration the session takes after checking
                             its fingerprint; NULL: none */
    stepcost_table costs; /* step costs drafts are sized by (costTable, a
                             file); default stepcost_table_default */
    int prompt_version;   /* promptVersion: 1 or 2; 0 (auto): the model's
                             (edit_prompt_version_for) */
    bool context_region;  /* context "region": prompt v2 shows the region
                             alone; default "file": the document too */
    int32_t context_budget; /* contextBudget in tokens; 0: half the
                             session's context */
    int32_t cache_mb;     /* cacheMemoryMB: the sessions kept, one per open
                             document, in MiB (default 1024; docs/lsp.md) */
    bool prefix_cache;    /* prefixCache: default on; never changes output */
    bool preview_streaming; /* previewStreaming: default off; on, progress
                             reports carry the edit's text so far (at most
                             LSP_MAX_PARTIAL_REPORT bytes a report;
                             docs/lsp.md); never changes output */
    krn_tuning tuning;    /* the kernel switches (SB_CUDA_*, SB_CPU_ISA;
                             kernels.h), which sb-lsp's main reads once from
                             the environment (krn_tuning_from_env): not
                             options of the table below, since they change
                             speed only; zeroed (default): the defaults */
    bool test_hold;       /* sb-lsp --test-hold-edits, for tests only: an
                             edit waits after its first progress report
                             until it is cancelled (worker.c); default off */
    bool test_report_steps; /* sb-lsp --test-report-steps, for tests only: a
                             progress report after every step, so a
                             client's test sees the edit's text grow
                             whatever the machine's speed; default off */
} lsp_config;

void lsp_config_defaults(lsp_config *c);
void lsp_config_free(lsp_config *c);
/* Sets one option by its initializationOptions key (lsp_option_at's key)
 * from its text form, as flags and environment variables give it
 * (costTable: a file's path, read now). -1 with err naming the key and the
 * value for an unknown key or a bad value. */
int lsp_config_set(lsp_config *c, const char *key, const char *value,
                   sb_err *err);
/* Reads every option's environment variable (lsp_option_at's env) where
 * set and not empty. */
int lsp_config_from_env(lsp_config *c, sb_err *err);

/* One option as a reader sees it. config.c's table is the one list of
 * the options: the setters, the defaults, initializationOptions' JSON
 * types, --help, the environment and sb-lsp's flags all come from it, and
 * tests/lsp/test_config.c checks docs/environment.md against it. Strings
 * are static. */
typedef struct lsp_option {
    const char *key;      /* initializationOptions key: "maxTokens" */
    const char *flag;     /* sb-lsp's flag, without "--": "max-tokens" */
    const char *env;      /* environment variable: "SB_MAX_TOKENS" */
    const char *arg;      /* the flag's value in --help: "N" */
    const char *fallback; /* the default as text; NULL: unset */
    const char *help;     /* one line */
} lsp_option;

int lsp_option_count(void);
/* Option i, 0 <= i < lsp_option_count(), in --help's order; all NULL
 * outside. */
lsp_option lsp_option_at(int i);
/* Two lines an option: "--flag ARG  ENV  key", then its help. */
void lsp_options_help(FILE *out);

typedef struct lsp_server lsp_server;

/* A server that writes its messages to out_fd (borrowed). cfg is copied.
 * NULL with err filled when out of memory or a thread cannot start. */
lsp_server *lsp_server_create(const lsp_config *cfg, int out_fd, sb_err *err);
/* Stops the worker (cancelling any edit) and frees everything. */
void lsp_server_destroy(lsp_server *s);
/* Stops the worker (cancelling any edit: nothing is applied) and closes
 * the session log, writing its session's summary, without freeing
 * anything: for a process about to end on a signal while lsp_server_run
 * may still be reading (lsp/main.c). Call at most once, and never with
 * lsp_server_destroy. */
void lsp_server_finish(lsp_server *s);

/* Reads and answers messages from in_fd until `exit` or the end of the
 * stream. Returns the process exit code the LSP specification asks for: 0
 * after shutdown then exit, 1 otherwise (exit without shutdown, the stream
 * ending, or the client gone). */
int lsp_server_run(lsp_server *s, int in_fd);

/* Handles one message body (what lsp_reader_next returned), as run does;
 * for the fuzzer and tests. Returns true once `exit` was received. */
bool lsp_server_handle(lsp_server *s, const char *body, size_t len);

/* ==== The enclosing syntax node (lsp/syntax.c) ============================= */

/* The region an edit "of the code here" rewrites, for bytes [from, to) of
 * len bytes of text (from == to: a cursor): the smallest named syntax
 * node, not the whole file, that contains [from, to), spans at least two
 * lines and covers whole lines (only blanks before it on its first line
 * and after it on its last) — a function, a class, a block, a multi-line
 * statement — widened to those whole lines: *start at its first line's
 * start, *end past its last line's "\n" (or at len). Returns true with
 * that; false, with the whole text [0, len), when `language` (a name from
 * edit_language, an LSP languageId or a grammar name) has no
 * grammar, the text does not parse, or no node qualifies. A text over
 * 256 KiB is parsed only in a window of whole lines 128 KiB each side of
 * the range (a node cut by the window's edge is no answer; a window over
 * 1 MiB is not parsed), so a call costs at most a bounded parse whatever
 * the text's size. from and to are clamped to 0..len and put in order.
 * text is borrowed for the call.
 *
 *     int64_t a, b;
 *     if (lsp_enclosing_region(text, len, "c", cursor, cursor, &a, &b))
 *         ...;   // text[a..b) is the function (or block) around the cursor
 */
bool lsp_enclosing_region(const char *text, int64_t len, const char *language,
                          int64_t from, int64_t to, int64_t *start,
                          int64_t *end);

#endif /* SB_LSP_H */
