/*
 * prompt.c — ChatML prompts and the edit prompt (edit.h).
 *
 * A prompt is built as a list of parts: the template's special tokens
 * (<|im_start|>, <|im_end|>) and plain text (roles, contents, newlines).
 * Rendered as text, the parts are concatenated. Rendered as tokens, each
 * special part becomes the model's id for it and each maximal run of text
 * parts is encoded as one string with special matching off — the same
 * segments the reference tokenizer would see between those specials, so a
 * prompt without special-token text in its contents gets exactly the ids of
 * eng_tokenize(text), while text inside a turn can never end the turn.
 *
 * The edit prompt's wording lives in one table (prompt__edit below) with its
 * version string; replay depends on every byte of it.
 *
 * The file is tokenized once per edit, inside the prompt: the tokenizer
 * says where the prompt's ids split at the file's first and last byte
 * (eng_tokenize_cuts), and where both splits are clean the ids between them
 * are the file's own ids, exactly as encoding the file alone gives them
 * (edit__prompt_tokens; the drafter copies from them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit_internal.h"

/* ==== the edit prompt's wording ============================================ */

/* Changing any byte here changes the tokens of every edit: a new wording
 * is a new version (session logs record it and replay checks it; v1 stays
 * byte for byte so that old logs replay). Placeholders:
 *   {instruction}  the request's instruction, byte for byte
 *   {fence}        edit_fence_len(file) backticks
 *   {lang}         the language tag, or nothing (see prompt__lang_ok)
 *   {file}         the file, byte for byte, plus "\n" unless it is empty or
 *                  already ends in "\n" (so the closing fence starts a line)
 *   {context}      v2: the document as context (prompt__context below), or
 *                  nothing when the request has none
 *   {region}       v2: which lines {file} is: "Lines A-B of the file" with
 *                  a context, else "The code"
 * The answer opens the assistant turn: the model continues right after the
 * fence line, with the first byte of the edited file.
 *
 * v2 puts what stays the same across successive edits of one document
 * first: the system turn, then the document (unmarked: an inline marker
 * would end the prefix two edits of different regions share, which the
 * prefix cache keeps), then the region named by its line numbers and shown
 * again, then the instruction. The reply is the rewritten region only. */
static const struct prompt__wording {
    const char *version;
    const char *system; /* the system turn */
    const char *user;   /* the user turn */
    const char *answer; /* the start of the assistant turn */
} prompt__edit[EDIT_PROMPT_VERSIONS] = {
    {
        .version = "sb-edit-prompt-v1",
        .system = "You are a precise code editor. You are given an instruction and "
                  "the complete text of a file. Apply the instruction to the file "
                  "and reply with the complete edited file in a single fenced code "
                  "block. Change nothing that the instruction does not ask for, and "
                  "write nothing outside the code block.",
        .user = "{instruction}\n\n{fence}{lang}\n{file}{fence}",
        .answer = "{fence}{lang}\n",
    },
    {
        .version = "sb-edit-prompt-v2",
        .system = "You are a precise code editor. You may be given a file for "
                  "reference; you are given some of its lines and an instruction. "
                  "Apply the instruction to those lines and reply with them, "
                  "complete and edited, in a single fenced code block. The rest "
                  "of the file is context only: do not repeat it. Change nothing "
                  "that the instruction does not ask for, and write nothing "
                  "outside the code block.",
        .user = "{context}{region}, to edit:\n\n{fence}{lang}\n{file}{fence}\n\n"
                "Instruction: {instruction}",
        .answer = "{fence}{lang}\n",
    },
};

/* The v2 context block: the whole document, or a window of its lines. */
static const char prompt__context_whole[] = "The file, for reference:\n\n";
static const char prompt__context_window[] =
    "Lines %lld-%lld of the file, for reference:\n\n";

/* ==== a growable byte buffer ================================================ */

typedef struct prompt__buf {
    char *p;   /* owned; NUL-terminated when not failed */
    int64_t n;
    int64_t cap;
    bool oom;  /* an append failed: p is incomplete */
} prompt__buf;

static void prompt__put(prompt__buf *b, const char *s, int64_t n) {
    if (b->oom || n <= 0) return;
    if (n > INT64_MAX / 2 - b->n) {
        b->oom = true;
        return;
    }
    if (b->n + n + 1 > b->cap) {
        int64_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *g = realloc(b->p, (size_t)cap);
        if (!g) {
            b->oom = true;
            return;
        }
        b->p = g;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, (size_t)n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void prompt__puts(prompt__buf *b, const char *s) {
    prompt__put(b, s, (int64_t)strlen(s));
}

/* ==== parts ================================================================= */

typedef struct prompt__part {
    const char *text; /* borrowed from the caller or static */
    int64_t len;
    bool special;     /* a template special token, text is its name */
} prompt__part;

typedef struct prompt__parts {
    prompt__part *v; /* owned */
    int n, cap;
    bool oom;
} prompt__parts;

static void prompt__add(prompt__parts *ps, const char *text, int64_t len,
                        bool special) {
    if (ps->oom) return;
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 16;
        prompt__part *g = ps->cap < (1 << 28)
                              ? realloc(ps->v, (size_t)cap * sizeof *g)
                              : NULL;
        if (!g) {
            ps->oom = true;
            return;
        }
        ps->v = g;
        ps->cap = cap;
    }
    ps->v[ps->n++] = (prompt__part){text, len, special};
}

static void prompt__special(prompt__parts *ps, const char *name) {
    prompt__add(ps, name, (int64_t)strlen(name), true);
}

/* ChatML, as Qwen2.5's template renders it. content_part (NULL, or one
 * entry per turn) receives the index of each turn's content part. */
static int prompt__chat(prompt__parts *ps, const edit_chat_turn *turns,
                        int n_turns, const char *answer, int64_t answer_len,
                        int *content_part, sb_err *err) {
    if (n_turns < 0 || (n_turns > 0 && !turns) || answer_len < 0 ||
        (answer_len > 0 && !answer))
        return sb_err_set(err, __func__, "bad arguments: %d turns, answer of "
                          "%lld bytes", n_turns, (long long)answer_len);
    for (int i = 0; i < n_turns; i++) {
        const edit_chat_turn *t = &turns[i];
        if (!t->role || !*t->role || t->content_len < 0 ||
            (t->content_len > 0 && !t->content))
            return sb_err_set(err, __func__, "turn %d needs a role and content "
                              "(content_len %lld)", i, (long long)t->content_len);
        prompt__special(ps, "<|im_start|>");
        prompt__add(ps, t->role, (int64_t)strlen(t->role), false);
        prompt__add(ps, "\n", 1, false);
        if (content_part) content_part[i] = ps->n;
        prompt__add(ps, t->content, t->content_len, false);
        prompt__special(ps, "<|im_end|>");
        prompt__add(ps, "\n", 1, false);
    }
    prompt__special(ps, "<|im_start|>");
    prompt__add(ps, "assistant\n", 10, false);
    prompt__add(ps, answer, answer_len, false);
    if (ps->oom) return sb_err_set(err, __func__, "out of memory");
    return 0;
}

static int prompt__text(const prompt__parts *ps, char **text, int64_t *len,
                        sb_err *err) {
    prompt__buf b = {0};
    for (int i = 0; i < ps->n; i++)
        prompt__put(&b, ps->v[i].text, ps->v[i].len);
    if (!b.p && !b.oom && !(b.p = calloc(1, 1))) b.oom = true; /* "" */
    if (b.oom) {
        free(b.p);
        return sb_err_set(err, __func__, "out of memory for the prompt text");
    }
    *text = b.p;
    *len = b.n;
    return 0;
}

/* Byte ranges [from, to) of one part, to be found among the prompt's ids:
 * on return ids[first[k] .. first[k] + count[k]) encode exactly range k's
 * bytes as encoding them alone would, or first[k] is -1 when the prompt's
 * encoding does not split cleanly at both ends (eng_tokenize_cuts). */
typedef struct prompt__span {
    int part;                   /* index of the part; -1: nothing to find */
    int n;                      /* ranges: 1 or 2 */
    int64_t from[2], to[2];     /* byte offsets inside that part */
    int64_t first[2], count[2]; /* out */
} prompt__span;

/* Encodes the run of text parts [from, to) as one string without special
 * matching, appending to ids[*n..cap); finds span's bytes when its part is
 * in the run. */
static int prompt__encode_run(const eng_model *m, const prompt__parts *ps,
                              int from, int to, int32_t *ids, int64_t cap,
                              int64_t *n, prompt__span *span, sb_err *err) {
    prompt__buf b = {0};
    int64_t cuts[4] = {0}, at[4] = {-1, -1, -1, -1};
    bool find = span && span->part >= from && span->part < to;
    for (int i = from; i < to; i++) {
        if (find && i == span->part)
            for (int k = 0; k < span->n; k++) {
                cuts[2 * k] = b.n + span->from[k];
                cuts[2 * k + 1] = b.n + span->to[k];
            }
        prompt__put(&b, ps->v[i].text, ps->v[i].len);
    }
    if (b.oom) {
        free(b.p);
        return sb_err_set(err, __func__, "out of memory");
    }
    int64_t k = eng_tokenize_cuts(m, b.p, b.n, ids + *n, cap - *n, 0, cuts,
                                  find ? 2 * span->n : 0, at);
    free(b.p);
    if (k < 0 || k > cap - *n)
        return sb_err_set(err, __func__, "could not tokenize %lld bytes of the "
                          "prompt", (long long)b.n);
    for (int r = 0; find && r < span->n; r++)
        if (at[2 * r] >= 0 && at[2 * r + 1] >= 0) {
            span->first[r] = *n + at[2 * r];
            span->count[r] = at[2 * r + 1] - at[2 * r];
        }
    *n += k;
    return 0;
}

/* Upper bound on the ids: 3 per text byte (eng_tokenize's bound) plus one
 * per special part. */
static int prompt__id_bound(const prompt__parts *ps, int64_t *bound,
                            sb_err *err) {
    uint64_t total = 1, add;
    for (int i = 0; i < ps->n; i++) {
        add = 1;
        if ((!ps->v[i].special &&
             !sb_mul_u64(3, (uint64_t)ps->v[i].len, &add)) ||
            !sb_add_u64(total, add, &total))
            return sb_err_set(err, __func__, "the prompt is too long");
    }
    if (total > INT64_MAX || total > SIZE_MAX / sizeof(int32_t))
        return sb_err_set(err, __func__, "the prompt is too long (%llu ids)",
                          (unsigned long long)total);
    *bound = (int64_t)total;
    return 0;
}

/* The parts as ids: each special part the model's id for it, each maximal
 * run of text parts encoded as one string. span may be NULL. */
static int prompt__tokens(const eng_model *m, const prompt__parts *ps,
                          prompt__span *span, int32_t **out, int64_t *out_n,
                          sb_err *err) {
    int64_t cap = 0, n = 0;
    for (int k = 0; span && k < 2; k++) span->first[k] = -1, span->count[k] = 0;
    if (!m) return sb_err_set(err, __func__, "no model");
    if (prompt__id_bound(ps, &cap, err)) return -1;
    int32_t *ids = malloc((size_t)cap * sizeof *ids);
    if (!ids) return sb_err_set(err, __func__, "out of memory for %lld ids",
                                (long long)cap);
    for (int i = 0; i < ps->n;) {
        if (ps->v[i].special) {
            int32_t id = eng_special_id(m, ps->v[i].text);
            if (id < 0) {
                sb_err_set(err, __func__, "the model has no special token '%s' "
                           "(the ChatML template needs it)", ps->v[i].text);
                goto fail;
            }
            ids[n++] = id;
            i++;
            continue;
        }
        int j = i;
        while (j < ps->n && !ps->v[j].special) j++;
        if (prompt__encode_run(m, ps, i, j, ids, cap, &n, span, err))
            goto fail;
        i = j;
    }
    int32_t *fit = realloc(ids, (size_t)(n ? n : 1) * sizeof *ids);
    *out = fit ? fit : ids;
    *out_n = n;
    return 0;
fail:
    free(ids);
    return -1;
}

/* ==== edit.h: chat ========================================================== */

int edit_chat_text(const edit_chat_turn *turns, int n_turns,
                   const char *answer, int64_t answer_len, char **text,
                   int64_t *len, sb_err *err) {
    prompt__parts ps = {0};
    int rc = (prompt__chat(&ps, turns, n_turns, answer, answer_len, NULL,
                           err) ||
              prompt__text(&ps, text, len, err)) ? -1 : 0;
    free(ps.v);
    return rc;
}

int edit_chat_tokens(const eng_model *m, const edit_chat_turn *turns,
                     int n_turns, const char *answer, int64_t answer_len,
                     int32_t **ids, int64_t *n, sb_err *err) {
    prompt__parts ps = {0};
    int rc = (prompt__chat(&ps, turns, n_turns, answer, answer_len, NULL,
                           err) ||
              prompt__tokens(m, &ps, NULL, ids, n, err)) ? -1 : 0;
    free(ps.v);
    return rc;
}

/* ==== edit.h: the edit prompt =============================================== */

const char *edit_prompt_version(void) { return prompt__edit[0].version; }

const char *edit_prompt_version_name(int version) {
    if (version == 0) version = 1;
    if (version < 1 || version > EDIT_PROMPT_VERSIONS) return NULL;
    return prompt__edit[version - 1].version;
}

int edit_prompt_version_for(const eng_model *m) {
    const uint32_t listed = eng_model_prompt_versions(m);
    if (!listed) return eng_model_name_is(m, "sonicboom-demo") ? 1 : 2;
    for (int v = EDIT_PROMPT_VERSIONS; v > 1; v--)
        if (listed & (1u << v)) return v;
    return 1;
}

int edit_prompt_version_parse(const char *s, int *version) {
    for (int v = 1; s && v <= EDIT_PROMPT_VERSIONS; v++) {
        char shortname[16];
        snprintf(shortname, sizeof shortname, "v%d", v);
        if (!strcmp(s, shortname) || !strcmp(s, prompt__edit[v - 1].version)) {
            *version = v;
            return 0;
        }
    }
    return -1;
}

int64_t edit_fence_len(const char *file, int64_t file_len) {
    int64_t longest = 0, run = 0;
    for (int64_t i = 0; i < file_len; i++) {
        run = file[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    return longest + 1 > 3 ? longest + 1 : 3;
}

/* A language tag goes into the fence's info string only when it is 1..32
 * of [A-Za-z0-9_+#.-]: anything else could break the fence line. */
static bool prompt__lang_ok(const char *lang) {
    size_t n = lang ? strlen(lang) : 0;
    if (n == 0 || n > 32) return false;
    for (size_t i = 0; i < n; i++) {
        char c = lang[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || strchr("_+#.-", c);
        if (!ok) return false;
    }
    return true;
}

/* What a wording template is expanded with. */
typedef struct prompt__fill {
    const edit_request *r;
    const char *lang;     /* the fence tag (edit_language), may be NULL */
    int64_t fence;        /* backticks */
    int64_t fence_context;/* backticks around the context */
    int64_t file_from;    /* out: where {file} put the file's bytes in the */
    int64_t file_to;      /*      buffer (the added "\n" not included), */
                          /*      -1 when the template has no {file} */
    int64_t context_from; /* out: the same for the context's bytes */
    int64_t context_to;
} prompt__fill;

/* Lines in text[0..n): newlines, plus one for a last line without one. */
static int64_t prompt__lines(const char *text, int64_t n) {
    int64_t lines = 0;
    for (int64_t i = 0; i < n; i++) lines += text[i] == '\n';
    return lines + (n > 0 && text[n - 1] != '\n');
}

static void prompt__put_fenced(prompt__buf *b, const char *text, int64_t n,
                               int64_t fence, const char *lang,
                               int64_t *from, int64_t *to) {
    for (int64_t i = 0; i < fence; i++) prompt__put(b, "`", 1);
    if (prompt__lang_ok(lang)) prompt__puts(b, lang);
    prompt__put(b, "\n", 1);
    *from = b->n;
    prompt__put(b, text, n);
    *to = b->n;
    if (n > 0 && text[n - 1] != '\n') prompt__put(b, "\n", 1);
    for (int64_t i = 0; i < fence; i++) prompt__put(b, "`", 1);
}

/* {context}: the document (or its window) in a fence, then a blank line. */
static void prompt__context(prompt__buf *b, prompt__fill *f) {
    const edit_request *r = f->r;
    if (!r->context) return;
    char head[96];
    if (r->context_whole)
        snprintf(head, sizeof head, "%s", prompt__context_whole);
    else
        snprintf(head, sizeof head, prompt__context_window,
                 (long long)r->context_line,
                 (long long)(r->context_line +
                             prompt__lines(r->context, r->context_len) - 1));
    prompt__puts(b, head);
    prompt__put_fenced(b, r->context, r->context_len, f->fence_context, f->lang,
                       &f->context_from, &f->context_to);
    prompt__put(b, "\n\n", 2);
}

/* {region}: the region's line numbers in the document, when there is one. */
static void prompt__region(prompt__buf *b, const prompt__fill *f) {
    const edit_request *r = f->r;
    if (!r->context) {
        prompt__puts(b, "The code");
        return;
    }
    const int64_t lines = prompt__lines(r->file, r->file_len);
    char s[80];
    snprintf(s, sizeof s, "Lines %lld-%lld of the file", (long long)r->region_line,
             (long long)(r->region_line + (lines > 0 ? lines - 1 : 0)));
    prompt__puts(b, s);
}

/* Expands one wording template (see prompt__edit) into b. */
static void prompt__expand(prompt__buf *b, const char *tpl, prompt__fill *f) {
    const edit_request *r = f->r;
    for (const char *p = tpl; *p;) {
        const char *q = strchr(p, '{');
        if (!q) {
            prompt__puts(b, p);
            break;
        }
        prompt__put(b, p, q - p);
        if (!strncmp(q, "{instruction}", 13)) {
            prompt__put(b, r->instruction, r->instruction_len);
            p = q + 13;
        } else if (!strncmp(q, "{fence}", 7)) {
            for (int64_t i = 0; i < f->fence; i++) prompt__put(b, "`", 1);
            p = q + 7;
        } else if (!strncmp(q, "{lang}", 6)) {
            if (prompt__lang_ok(f->lang)) prompt__puts(b, f->lang);
            p = q + 6;
        } else if (!strncmp(q, "{context}", 9)) {
            prompt__context(b, f);
            p = q + 9;
        } else if (!strncmp(q, "{region}", 8)) {
            prompt__region(b, f);
            p = q + 8;
        } else if (!strncmp(q, "{file}", 6)) {
            f->file_from = b->n;
            prompt__put(b, r->file, r->file_len);
            f->file_to = b->n;
            if (r->file_len > 0 && r->file[r->file_len - 1] != '\n')
                prompt__put(b, "\n", 1);
            p = q + 6;
        } else {
            prompt__put(b, q, 1); /* a literal brace */
            p = q + 1;
        }
    }
}

/* The request's prompt version (0: 1) and its context, checked. */
static int prompt__check(const edit_request *r, int *version, sb_err *err) {
    if (!r || !r->instruction || r->instruction_len <= 0 || r->file_len < 0 ||
        (r->file_len > 0 && !r->file))
        return sb_err_set(err, "edit prompt", "an edit needs a non-empty "
                          "instruction and a file (instruction_len %lld, "
                          "file_len %lld)",
                          r ? (long long)r->instruction_len : -1LL,
                          r ? (long long)r->file_len : -1LL);
    *version = r->prompt_version ? r->prompt_version : 1;
    if (*version < 1 || *version > EDIT_PROMPT_VERSIONS)
        return sb_err_set(err, "edit prompt", "prompt version %d; expected "
                          "1..%d", r->prompt_version, EDIT_PROMPT_VERSIONS);
    if (!r->context) return 0;
    if (*version < 2)
        return sb_err_set(err, "edit prompt", "prompt v1 shows no file "
                          "context: use prompt v2 or leave the context out");
    if (r->context_len < 0 || r->context_line < 1 || r->region_line < 1)
        return sb_err_set(err, "edit prompt", "bad context: %lld bytes from "
                          "line %lld, the region at line %lld",
                          (long long)r->context_len, (long long)r->context_line,
                          (long long)r->region_line);
    return 0;
}

/* The edit prompt's parts; the expanded user turn and answer are returned
 * in bufs (owned by the caller, who frees them after the parts). span (may
 * be NULL) is pointed at the file's bytes in the user turn, and at the
 * context's as its second range when there is one. */
static int prompt__edit_parts(const edit_request *r, prompt__parts *ps,
                              prompt__buf bufs[2], prompt__span *span,
                              sb_err *err) {
    int version = 1;
    if (prompt__check(r, &version, err)) return -1;
    const struct prompt__wording *w = &prompt__edit[version - 1];
    prompt__fill f = {.r = r, .lang = edit_language(r->language, r->path),
                      .fence = edit_fence_len(r->file, r->file_len),
                      .fence_context = r->context ? edit_fence_len(r->context,
                                                                   r->context_len)
                                                  : 0,
                      .file_from = -1, .file_to = -1,
                      .context_from = -1, .context_to = -1};
    prompt__expand(&bufs[0], w->user, &f);
    prompt__expand(&bufs[1], w->answer, &f);
    if (bufs[0].oom || bufs[1].oom)
        return sb_err_set(err, __func__, "out of memory for the edit prompt");
    edit_chat_turn turns[2] = {
        {"system", w->system, (int64_t)strlen(w->system)},
        {"user", bufs[0].p, bufs[0].n},
    };
    int content_part[2];
    if (prompt__chat(ps, turns, 2, bufs[1].p, bufs[1].n, content_part, err))
        return -1;
    if (span) {
        *span = (prompt__span){.part = content_part[1], .n = 1,
                               .from = {f.file_from}, .to = {f.file_to}};
        if (f.context_from >= 0) {
            span->n = 2;
            span->from[1] = f.context_from;
            span->to[1] = f.context_to;
        }
    }
    return 0;
}

int edit_prompt_text(const edit_request *r, char **text, int64_t *len,
                     sb_err *err) {
    prompt__parts ps = {0};
    prompt__buf bufs[2] = {{0}, {0}};
    int rc = (prompt__edit_parts(r, &ps, bufs, NULL, err) ||
              prompt__text(&ps, text, len, err)) ? -1 : 0;
    free(ps.v);
    free(bufs[0].p);
    free(bufs[1].p);
    return rc;
}

int edit__prompt_tokens(const eng_model *m, const edit_request *r,
                        int32_t **ids, int64_t *n, edit__spans *where,
                        sb_err *err) {
    prompt__parts ps = {0};
    prompt__buf bufs[2] = {{0}, {0}};
    prompt__span span = {.part = -1};
    int rc = (prompt__edit_parts(r, &ps, bufs, &span, err) ||
              prompt__tokens(m, &ps, &span, ids, n, err)) ? -1 : 0;
    free(ps.v);
    free(bufs[0].p);
    free(bufs[1].p);
    if (where) {
        where->file_first = rc ? -1 : span.first[0];
        where->file_count = rc ? 0 : span.count[0];
        where->context_first = rc || span.n < 2 ? -1 : span.first[1];
        where->context_count = rc || span.n < 2 ? 0 : span.count[1];
    }
    return rc;
}

int edit_prompt_tokens(const eng_model *m, const edit_request *r,
                       int32_t **ids, int64_t *n, sb_err *err) {
    return edit__prompt_tokens(m, r, ids, n, NULL, err);
}
