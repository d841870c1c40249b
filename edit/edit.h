/*
 * edit.h — the public face of edit/: one edit job, start to finish. Builds
 * the edit prompt (ChatML, the wording, the fence), tokenizes it once,
 * makes the drafter over the file, generates until the model ends its turn,
 * and takes the edited file out of the fenced answer. Used by `sb edit`,
 * the language server and replay.
 *
 *     sb_err err = {0};
 *     edit_request rq = {.file = text, .file_len = n,
 *                        .instruction = "rename parse to parse_line",
 *                        .instruction_len = 26, .path = "src/parse.c"};
 *     edit_opts o = edit_defaults();          // speculation on, greedy
 *     edit_result r;
 *     if (edit_run(session, &rq, &o, &r, &err) == 0)
 *         fwrite(r.text, 1, (size_t)r.text_len, stdout);
 *     else if (r.status == EDIT_BAD_ANSWER)
 *         fprintf(stderr, "%s\nraw answer:\n%s\n", err.msg, r.answer);
 *     edit_result_free(&r);                   // in every case
 *
 * The answer format (edit/prompt.c): the prompt shows the file in a fence
 * of F backticks (edit_fence_len) and opens the assistant turn with the
 * same fence line, so the model's reply is the edited file's text, a line
 * holding the closing fence, then <|im_end|>. A file that does not end in
 * "\n" is shown with one added (so the fence starts a line); the reply is
 * read back the same way (edit_extract).
 *
 * The edited file's tokens are a pure function of the request, the
 * sampling parameters and the model (docs/determinism.md): speculation on
 * or off, max_draft and the progress callback change only speed.
 */
#ifndef SB_EDIT_H
#define SB_EDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/base.h"
#include "../engine/engine.h"
#include "../stepcost/stepcost.h"

/* ==== Requests ============================================================ */

/* One edit: apply `instruction` to the whole of `file` (the region to
 * rewrite: a whole file, or some lines of a document). The one request
 * struct of edit/: the prompt, edit_run, edit_plan and edit_simulate take
 * it. Strings are borrowed for the call they are passed to. */
typedef struct edit_request {
    const char *file;         /* file_len bytes, as in the editor's buffer */
    int64_t file_len;
    const char *instruction;  /* instruction_len bytes of UTF-8; not empty */
    int64_t instruction_len;
    const char *language;     /* fence tag or LSP languageId; may be NULL */
    const char *path;         /* for detection by extension; may be NULL */
    /* The prompt's wording: 1 or 2 (0: 1), edit_prompt_version_name. */
    int prompt_version;
    /* v2 only: the document `file` was cut from, shown read-only before it
     * (whole lines; edit_request_set_context fills these). NULL: none, the
     * prompt shows the file alone. */
    const char *context;
    int64_t context_len;
    int64_t context_line;     /* the document's line number (1-based) of
                                 the context's first line */
    int64_t region_line;      /* ... and of the file's first line */
    bool context_whole;       /* the context is the whole document */
} edit_request;

/* ==== Context (edit/context.c) ============================================ */

/* The default context budget for a session of `capacity` KV slots: half of
 * it, the rest left to the region, the instruction and the answer. */
int32_t edit_context_budget_default(int32_t capacity);

/* Points r at the region [from, to) of document[0..doc_len) (r->file) and
 * fills its context for prompt v2 (r->prompt_version is set to 2): the
 * whole document when its tokens fit budget_tokens, else a window of whole
 * lines around the region (docs/architecture.md, "The edit prompt's
 * context"). Tokens are counted line by line, each line with its newline
 * encoded alone. `from` must be at a line start and `to` at a line start
 * or the document's end. The document is borrowed as long as r. -1 with
 * err for a region that is not whole lines or out of range. */
int edit_request_set_context(edit_request *r, const eng_model *m,
                             const char *document, int64_t doc_len,
                             int64_t from, int64_t to, int32_t budget_tokens,
                             sb_err *err);

/* edit_request_set_context with the context given: bytes [context_from,
 * context_to) of the document, which must hold the region [from, to)
 * (replay takes a logged edit's context this way). */
int edit_request_context_at(edit_request *r, const char *document,
                            int64_t doc_len, int64_t from, int64_t to,
                            int64_t context_from, int64_t context_to,
                            sb_err *err);

/* ==== Languages (edit/language.c) ========================================= */

/* The fence tag for an edit (also a grammar name, below): `language`
 * when given, an LSP languageId or a fence tag ("c", "python",
 * "typescriptreact" -> "tsx", "shellscript" -> "bash"; an unknown id is
 * passed through as it is, and the prompt leaves out a tag it cannot show
 * in a fence line), else the extension of `path`
 * (".h" -> "c", ".rs" -> "rust"). NULL when neither says. The string is
 * static or borrowed from `language`. Either argument may be NULL. */
const char *edit_language(const char *language, const char *path);

/* The languages with a grammar, for the edit's fence tag and the language
 * server's code actions (lsp_enclosing_region): c, cpp, python,
 * javascript, typescript, tsx, rust, go, java, json, bash, lua, yaml,
 * markdown. */

/* The grammar for a file path, by its extension (case-insensitive: .c .h,
 * .cc .cpp .hpp ..., .py, .js .jsx, .ts, .tsx, .rs, .go, .java, .json,
 * .sh, .lua, .yaml .yml, .md), or NULL. Static string. */
const char *edit_language_for_path(const char *path);
/* The grammar for an LSP languageId or a grammar name ("typescriptreact"
 * gives "tsx", "javascriptreact" "javascript", "shellscript" "bash",
 * "jsonc" "json"), or NULL. Static string. */
const char *edit_language_for_id(const char *language_id);

/* ==== The prompt (edit/prompt.c) ========================================= */

/* One ChatML turn. Strings are borrowed for the duration of the call. */
typedef struct edit_chat_turn {
    const char *role;    /* "system", "user", "assistant"; NUL-terminated */
    const char *content; /* content_len bytes of UTF-8 */
    int64_t content_len;
} edit_chat_turn;

/* Renders turns the way Qwen2.5's chat template does, then opens the
 * assistant's turn and appends `answer` (the start of its reply; may be
 * NULL with answer_len 0):
 *
 *   <|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}
 *   <|im_end|>\n<|im_start|>assistant\n{answer}
 *
 * *text receives a NUL-terminated string of *len bytes that the caller frees
 * with free(). -1 with err filled for a missing role or content. */
int edit_chat_text(const edit_chat_turn *turns, int n_turns,
                   const char *answer, int64_t answer_len, char **text,
                   int64_t *len, sb_err *err);

/* The same prompt as token ids: the template's <|im_start|> and <|im_end|>
 * become the model's special ids; everything between them (roles, contents,
 * the answer start) is encoded with special matching OFF, so a file that
 * contains "<|im_end|>" is seen as that text, not as the end of a turn.
 * For contents free of special-token text the ids equal eng_tokenize of
 * edit_chat_text's string. *ids is malloc'd (caller frees); *n its length. */
int edit_chat_tokens(const eng_model *m, const edit_chat_turn *turns,
                     int n_turns, const char *answer, int64_t answer_len,
                     int32_t **ids, int64_t *n, sb_err *err);

/* The versions of the edit prompt's wording (edit/prompt.c): v1 shows the
 * file alone (what the demo model was trained on); v2 adds the document as
 * context and answers with the region only. */
enum { EDIT_PROMPT_VERSIONS = 2 };
/* v1's name, "sb-edit-prompt-v1". Static. */
const char *edit_prompt_version(void);
/* The name of version 1..EDIT_PROMPT_VERSIONS (0: 1), e.g.
 * "sb-edit-prompt-v2": record it with every logged edit; replay must use
 * the same one. Static; NULL for a version out of range. */
const char *edit_prompt_version_name(int version);
/* "v1", "v2" or a full name to the version number; -1 when unknown. */
int edit_prompt_version_parse(const char *s, int *version);
/* The version to prompt model m with: the highest this build knows of the
 * versions its file lists (eng_model_prompt_versions); without the key, 2,
 * except for the demo model trained on v1 before the key existed
 * (general.name "sonicboom-demo"), which gets 1 (docs/gguf.md). A file
 * listing only versions this build does not know gets 1. */
int edit_prompt_version_for(const eng_model *m);

/* Backticks in the fence around a file: one more than its longest run of
 * backticks, at least 3, so the file can never close the fence. */
int64_t edit_fence_len(const char *file, int64_t file_len);

/* The edit prompt (wording: edit/prompt.c, one table): a fixed system
 * message; a user turn holding the instruction, then the file in a fenced
 * block tagged with edit_language(r->language, r->path); the assistant turn
 * opened with the same fence line, so the model's reply is the edited
 * file's text followed by "\n", the fence and <|im_end|>. Text and tokens
 * as for edit_chat_text / edit_chat_tokens (the file's and instruction's
 * special-token text is never matched as special tokens). -1 with err for
 * an empty instruction or a missing file. */
int edit_prompt_text(const edit_request *r, char **text, int64_t *len,
                     sb_err *err);
int edit_prompt_tokens(const eng_model *m, const edit_request *r,
                       int32_t **ids, int64_t *n, sb_err *err);

/* ==== Extraction (edit/extract.c) — no model needed ======================= */

/* True when the prompt shows `file` with a "\n" it lacks: the file is not
 * empty and does not end in "\n". */
bool edit_adds_newline(const char *file, int64_t file_len);

/* Finds the edited file in the model's reply (the bytes it generated, the
 * final <|im_end|> or EOS token left out). The file ends at the first line
 * that closes the fence the CommonMark way: at column 0, at least fence_len
 * backticks, then nothing but spaces, tabs or "\r" up to "\n" or the end of
 * the reply. What follows that line is ignored. The file is
 * answer[0 .. *file_len): the reply before that line, less the "\n" the
 * prompt added when added_newline (edit_adds_newline of the original).
 * Shorter backtick runs, runs not at column 0 and runs followed by other
 * text ("```c") are part of the file. -1 with err filled when no line
 * closes the fence; *closing_at receives the closing line's offset on
 * success (may be NULL). */
int edit_extract(const char *answer, int64_t answer_len, int64_t fence_len,
                 bool added_newline, int64_t *file_len, int64_t *closing_at,
                 sb_err *err);

/* The reply a model gives when the edited file is `file`: the file, "\n"
 * unless it is empty or (without added_newline) already ends in one, and
 * fence_len backticks; no <|im_end|>. edit_extract of it gives `file` back
 * unless the file itself holds a closing line, or ends without "\n" when
 * added_newline is false (the prompt format cannot say "the final newline
 * was removed"). *text is malloc'd and NUL-terminated; caller frees. */
int edit_answer_text(const char *file, int64_t file_len, int64_t fence_len,
                     bool added_newline, char **text, int64_t *text_len,
                     sb_err *err);

/* What of the edited file a reply shows for sure while it is still being
 * generated (a preview that fills while tokens come). Fed the whole reply
 * so far, longer each time, known_len is the length of a prefix of the
 * file edit_extract will find in the finished reply, whatever comes next:
 * the reply's complete lines before any closing line, less the last
 * line's "\n" (the prompt may have added it, or the fence may follow it);
 * once a complete closing line is seen, closed is set and known_len is
 * the whole file. Never shrinks. */
typedef struct edit_partial {
    int64_t fence_len;
    bool added_newline;
    int64_t scanned;    /* bytes of complete lines looked at */
    int64_t known_len;
    bool closed;
} edit_partial;

edit_partial edit_partial_start(int64_t fence_len, bool added_newline);
/* answer[0 .. len): the reply so far; a prefix of it was given before. */
void edit_partial_update(edit_partial *p, const char *answer, int64_t len);

/* ==== Running an edit (edit/edit.c) ======================================= */

typedef enum edit_drafter_kind {
    EDIT_DRAFTER_COPY = 0,    /* copy spans of the file and the output,
                                 guided by where the output left the file
                                 (drafter.h) */
    EDIT_DRAFTER_NGRAM,       /* the plain prompt-lookup baseline */
    EDIT_DRAFTER_NONE,        /* no speculation: one token per step */
    EDIT_DRAFTER_COPY_PLAIN,  /* plain token copying, lookups only
                                 (drf_copy_opts.lookup_only): the
                                 yardstick for comparison */
} edit_drafter_kind;

/* Parses "copy", "ngram", "none", "copy-plain". */
int edit_drafter_parse(const char *s, edit_drafter_kind *out, sb_err *err);

/* Progress after a step (a forward pass that committed tokens). */
typedef struct edit_progress {
    int32_t tokens;       /* output tokens so far */
    int32_t steps;        /* steps so far (the prefill's last row is one) */
    double elapsed_s;     /* since edit_run began, prefill included */
    double tok_s;         /* output tokens per second of elapsed time */
    double accept_rate;   /* draft tokens accepted / drafted so far, 0..1;
                             0 before anything was drafted */
    /* With edit_opts.partial_text: the edited file as far as the reply
     * shows it for sure (edit_partial): text[0 .. text_len) is a prefix of
     * edit_result.text should the edit end with EDIT_DONE. Borrowed for
     * the call; NULL otherwise. */
    const char *text;
    int64_t text_len;
} edit_progress;

/* Called after each step, from the generating thread; `p` is borrowed for
 * the call. Return non-zero to cancel: generation stops at the next token
 * (speculation off: at once) and the status is EDIT_CANCELLED. */
typedef int (*edit_progress_fn)(void *ctx, const edit_progress *p);

typedef struct edit_opts {
    edit_drafter_kind drafter;  /* EDIT_DRAFTER_NONE: speculation off */
    int32_t max_draft;          /* 1..ENG_MAX_DRAFT; 0: ENG_MAX_DRAFT */
    int32_t max_tokens;         /* output cap; 0: edit_default_max_tokens */
    eng_sampling sampling;
    edit_progress_fn progress;  /* may be NULL */
    void *progress_ctx;
    /* What a step costs by its rows (stepcost.h), by which the copy
     * drafter chooses its draft lengths: a table measured on this machine
     * or loaded with --cost-table; NULL: stepcost_table_default. Borrowed
     * for the call. */
    const stepcost_table *costs;
    /* Keep the K/V of the longest prefix this prompt shares with what the
     * session holds (eng_gen_params.reuse_prefix): the same bits, sooner. */
    bool prefix_cache;
    /* Fill edit_progress.text (keeps a copy of the reply's bytes as they
     * come; the output is the same either way). */
    bool partial_text;
} edit_opts;

/* Copy drafter, max_draft 0, max_tokens 0, greedy, no progress, the
 * drafter's default costs, the prefix cache on. */
edit_opts edit_defaults(void);

/* The output cap when none is given: room for the file to double, plus
 * 256 tokens, for a file of n_file_tokens. */
int32_t edit_default_max_tokens(int64_t n_file_tokens);

typedef enum edit_status {
    EDIT_DONE = 0,    /* text holds the edited file */
    EDIT_FAILED,      /* nothing generated, or an engine error (see err) */
    EDIT_BAD_ANSWER,  /* the reply never closed the fence (ran to the cap,
                         the context's end, or ended its turn without it):
                         answer holds the raw reply, text is NULL */
    EDIT_CANCELLED,   /* the progress callback cancelled: answer holds the
                         reply so far, text is NULL */
} edit_status;

/* Everything an edit produced; owned by the result, freed together by
 * edit_result_free (safe on a zeroed or failed result). */
typedef struct edit_result {
    edit_status status;
    char *text;              /* the edited file (EDIT_DONE only; NUL-
                                terminated), text_len bytes */
    int64_t text_len;
    char *answer;            /* the raw reply: every output token's bytes
                                but a final <|im_end|> or EOS (special
                                tokens elsewhere appear as their text); NUL-
                                terminated; NULL when nothing was generated */
    int64_t answer_len;
    int32_t *prompt_ids;     /* the edit prompt's ids */
    int64_t n_prompt;
    char prompt_sha256[65];  /* eng_tokens_sha256 of prompt_ids */
    const char *prompt_version; /* edit_prompt_version_name(); static */
    const char *language;    /* the fence tag used (edit_language); static or
                                borrowed from the request; may be NULL */
    int64_t fence_len;
    eng_gen_result gen;      /* gen.tokens: the output ids (owned here), the
                                final <|im_end|>/EOS included; stop reason,
                                times, steps, drafts, sha256 of the ids */
} edit_result;

/* The prompt's length and the output cap edit_run will use for this
 * request: a session for it needs n_prompt + max_tokens KV slots (with
 * fewer, generation stops when the context is full). */
int edit_plan(const eng_model *m, const edit_request *req, const edit_opts *o,
              int32_t *n_prompt, int32_t *max_tokens, sb_err *err);

/* Runs one edit on session s (the session's KV cache is reset; the model is
 * the session's). Generation stops after <|im_end|>, after the model's EOS,
 * at max_tokens or when the context is full. Returns 0 with status
 * EDIT_DONE, or -1 with err filled (one line) and status saying which kind
 * of failure: for EDIT_BAD_ANSWER and EDIT_CANCELLED the reply and the
 * statistics are in the result. The request's strings are borrowed for
 * the call. Call edit_result_free afterwards in every case. */
int edit_run(eng_session *s, const edit_request *req, const edit_opts *o,
             edit_result *res, sb_err *err);
void edit_result_free(edit_result *res);

/* Why an edit's generation ended, for reports and logs: "cancelled",
 * "end-of-turn" (the reply's <|im_end|>), "eos", "context-full",
 * "stop-string" or "length". Static storage. */
const char *edit_stop_name(const edit_result *res);

/* ==== Simulating an edit's drafting (edit/sim.c) — sb draftsim ============ */

typedef struct edit_sim_opts {
    edit_drafter_kind drafter;
    int32_t max_draft;             /* 1..ENG_MAX_DRAFT; 0: ENG_MAX_DRAFT */
    const stepcost_table *costs;   /* NULL: stepcost_table_default */
} edit_sim_opts;

typedef struct edit_sim_result {
    int32_t output_tokens;         /* the reply's tokens, <|im_end|> included */
    int32_t steps;                 /* as eng_gen_result.steps */
    double tokens_per_step;
    int64_t drafted, accepted;
    int32_t accept_hist[ENG_MAX_DRAFT + 1]; /* as eng_gen_result's */
    int32_t rows_hist[KRN_MAX_ROWS + 1];    /* decode steps by rows scored */
    /* Plain decoding's decode steps (output_tokens - 1, one row each) over
     * the speculative decode steps, both priced by the cost table; 1 when
     * there is only one token. */
    double projected_speedup;
    /* The cap any drafter has on this reply under the same table and
     * max_draft: plain decoding's cost over the least a drafter whose
     * every guess holds would pay (the cheapest way to cover the reply
     * with steps of 1..max_draft+1 rows, each committing all its rows). */
    double perfect_speedup;
    int32_t perfect_steps;         /* the steps of that cheapest cover */
} edit_sim_result;

/* The token ids of the reply a model gives when, asked to edit `file`, it
 * writes `edited`: edit_answer_text(edited) with the prompt's fence,
 * encoded as one piece of text (special matching off), then <|im_end|>
 * (the model's EOS when it has none). This is the canonical BPE of the
 * reply, what a model trained on canonical encodings emits; it starts at a
 * token boundary because a reply's first token never merges with the
 * prompt's last. (A real model may now and then emit a non-canonical
 * split; such replies are not modelled.) Also the training target for an
 * edit. -1 with err when `edited` holds a line that would close the fence
 * early. *ids is malloc'd (caller frees); *n its length. */
int edit_reply_ids(const eng_model *m, const char *file, int64_t file_len,
                   const char *edited, int64_t edited_len, int32_t **ids,
                   int32_t *n, sb_err *err);

/* Replays an edit whose model reply is known: `req` is the edit as asked
 * (its file the input), `expected` the edited file the model is taken to
 * write, and the reply edit_reply_ids(input, expected). The drafter is
 * made as edit_run makes it, except that the copy drafter chooses its
 * draft lengths by this cost table, and is driven as the speculative loop
 * drives it (eng_spec_simulate), with no forward pass. The reply's end is
 * allowed past edit_run's output cap. The model is only read for its
 * vocabulary. */
int edit_simulate(const eng_model *m, const edit_request *req,
                  const char *expected, int64_t expected_len,
                  const edit_sim_opts *o, edit_sim_result *out, sb_err *err);

#endif /* SB_EDIT_H */
