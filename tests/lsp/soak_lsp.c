/*
 * soak_lsp — `make soak` (not in CI): SOAK_EDITS edits (default 1,000)
 * through sb-lsp with the demo model, as a busy editor would ask for them.
 *
 * Five documents, from one line to 1 MB, are open and typed into between
 * edits (incremental didChanges). Each edit rewrites one to three lines of
 * one of them; at random it is left to finish, cancelled ($/cancelRequest
 * or the progress's cancel) once it has started, or its document is
 * changed while the model writes; other documents are typed into while
 * it runs. Every workspace/applyEdit must name the
 * version its edit was asked for; this editor applies it only while its
 * document is still at that version (as editors do) and sends the change
 * back. It checks, and exits 1 on the first failure:
 *   - the server logs no error (it refused none of our changes);
 *   - every answer is a result, -32800 (cancelled), -32801 (the document
 *     changed) or -32803 (the model gave no usable answer); nothing else;
 *   - every applyEdit is on the version it was made for;
 *   - the server's documents end where this editor's do (every 25 edits,
 *     through the code action on all their lines);
 *   - the server's resident memory stays bounded: VmRSS read from
 *     /proc/PID/status every 10 edits may not exceed its value after the
 *     first 20 edits by more than SOAK_RSS_SLACK_MB (default 64 MB);
 *   - the server never dies, and exits 0 after shutdown and exit.
 * Environment: SOAK_EDITS, SOAK_SEED (default 1), SOAK_THREADS (default 2),
 * SOAK_RSS_SLACK_MB; SB_BUILD as for the tests.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <time.h>

#include "lsp_client.h"

enum { N_DOCS = 5 };

typedef struct doc {
    char uri[64];
    char *text; /* this editor's copy, NUL-terminated */
    int64_t len;
    int64_t version;
} doc;

typedef struct soak {
    client c;
    doc docs[N_DOCS];
    uint64_t rng;
    /* tallies */
    int done, cancelled, modified, failed, applied, refused_stale, changes;
    long rss_base_kb, rss_max_kb, hwm_kb;
} soak;

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "soak: FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static uint32_t rnd(soak *s, uint32_t n) {
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return (uint32_t)(s->rng % n);
}

static long env_long(const char *name, long def) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : def;
}

/* ---- this editor's documents ---- */

/* C-like lines the demo model knows how to rename and comment. */
static void doc_fill(doc *d, int64_t lines) {
    size_t cap = (size_t)lines * 40 + 1, n = 0;
    d->text = malloc(cap);
    for (int64_t i = 0; i < lines; i++)
        n += (size_t)snprintf(d->text + n, cap - n, "int value_%lld = %lld;\n",
                              (long long)i, (long long)(i * 7 % 100));
    d->len = (int64_t)n;
}

/* Replaces bytes [a, b) of d's text by t (tn bytes). */
static void doc_splice(doc *d, int64_t a, int64_t b, const char *t, int64_t tn) {
    int64_t n = d->len - (b - a) + tn;
    char *p = malloc((size_t)n + 1);
    memcpy(p, d->text, (size_t)a);
    memcpy(p + a, t, (size_t)tn);
    memcpy(p + a + tn, d->text + b, (size_t)(d->len - b));
    p[n] = '\0';
    free(d->text);
    d->text = p;
    d->len = n;
}

static int64_t doc_lines(const doc *d) {
    return lsp_pos_at(d->text, d->len, d->len, LSP_UTF8).line + 1;
}

static json_t *pos_json(lsp_pos p) {
    return json_pack("{s:I,s:I}", "line", (json_int_t)p.line, "character",
                     (json_int_t)p.character);
}

/* Types into d: an insertion, a deletion within a line, or a new line,
 * sent as one incremental didChange. */
static void type_into(soak *s, doc *d) {
    int64_t line = rnd(s, (uint32_t)doc_lines(d));
    lsp_pos a = {line, rnd(s, 12)};
    int64_t off = lsp_offset_at(d->text, d->len, a, LSP_UTF8);
    a = lsp_pos_at(d->text, d->len, off, LSP_UTF8);
    lsp_pos b = a;
    int64_t end = off;
    const char *texts[] = {"x", "", "int extra = 1;\n", "_v"};
    const char *t = texts[rnd(s, 4)];
    if (!*t) { /* delete up to two bytes, not past the line's end */
        while (end < d->len && end < off + 2 && d->text[end] != '\n') end++;
        b = lsp_pos_at(d->text, d->len, end, LSP_UTF8);
    }
    doc_splice(d, off, end, t, (int64_t)strlen(t));
    d->version += 1 + rnd(s, 2); /* versions increase, not always by one */
    client_notify(&s->c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:I},s:[{s:{s:o,s:o},s:s}]}", "textDocument", "uri", d->uri,
        "version", (json_int_t)d->version, "contentChanges", "range", "start",
        pos_json(a), "end", pos_json(b), "text", t));
    s->changes++;
}

/* ---- the server's memory ---- */

static void read_mem(soak *s, long *rss, long *hwm) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->c.pid);
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read %s: the server is gone", path);
    *rss = *hwm = -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmRSS:", 6)) *rss = strtol(line + 6, NULL, 10);
        if (!strncmp(line, "VmHWM:", 6)) *hwm = strtol(line + 6, NULL, 10);
    }
    fclose(f);
    if (*rss < 0 || *hwm < 0) die("no VmRSS/VmHWM in %s", path);
}

static void check_mem(soak *s, int edit) {
    long rss, hwm;
    read_mem(s, &rss, &hwm);
    if (edit == 20) s->rss_base_kb = rss;
    if (rss > s->rss_max_kb) s->rss_max_kb = rss;
    s->hwm_kb = hwm;
    long slack = env_long("SOAK_RSS_SLACK_MB", 64) * 1024;
    if (s->rss_base_kb && rss > s->rss_base_kb + slack)
        die("edit %d: VmRSS %ld kB, more than %ld kB after edit 20 plus %ld kB",
            edit, rss, s->rss_base_kb, slack);
    if (edit % 100 == 0)
        fprintf(stderr, "soak: edit %d: VmRSS %ld kB, VmHWM %ld kB\n", edit, rss, hwm);
}

/* ---- messages ---- */

/* Fails on a logged error: this editor sends only well-formed changes, so
 * the server must never refuse one. */
static void check_log(json_t *m) {
    const char *method = client_method(m);
    json_t *p = json_object_get(m, "params");
    if (method && !strcmp(method, "window/logMessage") &&
        json_integer_value(json_object_get(p, "type")) == 1)
        die("the server logged an error: %s",
            json_string_value(json_object_get(p, "message")));
}

static doc *doc_by_uri(soak *s, const char *uri) {
    for (int i = 0; i < N_DOCS; i++)
        if (uri && !strcmp(s->docs[i].uri, uri)) return &s->docs[i];
    return NULL;
}

/* A workspace/applyEdit: on the version asked for, or refused. */
static void on_apply(soak *s, json_t *m, int64_t asked_version) {
    json_t *dc = json_array_get(json_object_get(json_object_get(json_object_get(
        m, "params"), "edit"), "documentChanges"), 0);
    json_t *td = json_object_get(dc, "textDocument");
    doc *d = doc_by_uri(s, json_string_value(json_object_get(td, "uri")));
    json_t *ver = json_object_get(td, "version");
    if (!d || !json_is_integer(ver)) die("applyEdit without a versioned document");
    if (json_integer_value(ver) != asked_version)
        die("applyEdit on version %lld, the edit was asked for %lld",
            (long long)json_integer_value(ver), (long long)asked_version);
    bool current = d->version == asked_version;
    json_t *edits = json_object_get(dc, "edits");
    size_t n = json_array_size(edits);
    if (current && n > 0) {
        /* hunks are in order and apart: apply and send them last to first */
        json_t *changes = json_array();
        for (size_t k = n; k-- > 0;) {
            json_t *e = json_array_get(edits, k), *r = json_object_get(e, "range");
            lsp_pos a = {json_integer_value(json_object_get(json_object_get(r, "start"), "line")),
                         json_integer_value(json_object_get(json_object_get(r, "start"), "character"))};
            lsp_pos b = {json_integer_value(json_object_get(json_object_get(r, "end"), "line")),
                         json_integer_value(json_object_get(json_object_get(r, "end"), "character"))};
            json_t *t = json_object_get(e, "newText");
            doc_splice(d, lsp_offset_at(d->text, d->len, a, LSP_UTF8),
                       lsp_offset_at(d->text, d->len, b, LSP_UTF8),
                       json_string_value(t), (int64_t)json_string_length(t));
            json_array_append_new(changes, json_pack("{s:O,s:O}", "range", r, "text", t));
        }
        d->version++;
        client_notify(&s->c, "textDocument/didChange", json_pack(
            "{s:{s:s,s:I},s:o}", "textDocument", "uri", d->uri, "version",
            (json_int_t)d->version, "contentChanges", changes));
        s->applied++;
    } else if (!current) {
        s->refused_stale++; /* we typed after asking: an editor refuses it */
    }
    client_send(&s->c, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"),
                                 "result", "applied", current));
}

/* Reads to the answer of edit `id`, acting on what comes meanwhile; `act`
 * is what to do once its progress has begun (0 nothing, 1 cancel, 2
 * progress cancel, 3 change its document). */
static void run_edit(soak *s, doc *d, int64_t id, const char *token, int act,
                     int64_t asked_version) {
    bool acted = act == 0;
    json_t *m;
    while ((m = client_next(&s->c))) {
        const char *method = client_method(m);
        check_log(m);
        if (client_is_response(m, id)) {
            int code = client_error_code(m);
            if (code == 0) s->done++;
            else if (code == -32800) s->cancelled++;
            else if (code == -32801) s->modified++;
            else if (code == -32803) s->failed++;
            else die("edit answered %s", json_dumps(m, JSON_COMPACT));
            json_decref(m);
            return;
        }
        if (method && !strcmp(method, "workspace/applyEdit")) on_apply(s, m, asked_version);
        else if (method && json_object_get(m, "id")) /* e.g. progress/create */
            client_send(&s->c, json_pack("{s:O,s:n}", "id", json_object_get(m, "id"),
                                         "result"));
        const char *t = json_string_value(json_object_get(json_object_get(m, "params"),
                                                          "token"));
        bool ours = method && !strcmp(method, "$/progress") && t && !strcmp(t, token);
        /* now and then, typing into another document while the model writes */
        doc *other = &s->docs[rnd(s, N_DOCS)];
        if (ours && other != d && rnd(s, 4) == 0) type_into(s, other);
        if (!acted && ours) {
            acted = true;
            if (act == 1)
                client_notify(&s->c, "$/cancelRequest", json_pack("{s:I}", "id",
                                                                  (json_int_t)id));
            else if (act == 2)
                client_notify(&s->c, "window/workDoneProgress/cancel",
                              json_pack("{s:s}", "token", token));
            else
                type_into(s, d);
        }
        json_decref(m);
    }
    die("the server ended during edit %lld", (long long)id);
}

/* The server's view of d's end, through the code action on a selection
 * of every line (an empty one would give the syntax node around it). */
static void check_sync(soak *s, doc *d) {
    int64_t id = client_request(&s->c, "textDocument/codeAction", json_pack(
        "{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}", "textDocument", "uri",
        d->uri, "range", "start", "line", 0, "character", 0, "end", "line",
        1 << 30, "character", 0, "context", "diagnostics"));
    json_t *m;
    while ((m = client_next(&s->c))) {
        check_log(m);
        if (client_is_response(m, id)) break;
        json_decref(m);
    }
    if (!m) die("the server ended during a code action");
    json_t *end = json_object_get(json_object_get(json_array_get(json_object_get(
        json_object_get(json_array_get(json_object_get(m, "result"), 0), "command"),
        "arguments"), 0), "range"), "end");
    lsp_pos want = lsp_pos_at(d->text, d->len, d->len, LSP_UTF8);
    if (json_integer_value(json_object_get(end, "line")) != want.line ||
        json_integer_value(json_object_get(end, "character")) != want.character)
        die("%s out of sync: the server ends at %lld:%lld, the editor at %lld:%lld",
            d->uri, (long long)json_integer_value(json_object_get(end, "line")),
            (long long)json_integer_value(json_object_get(end, "character")),
            (long long)want.line, (long long)want.character);
    json_decref(m);
}

static void one_edit(soak *s, int i) {
    static const char *const instructions[] = {
        "rename value to amount", "add a comment above each line",
        "make the numbers negative", "rename int to long"};
    doc *d = &s->docs[rnd(s, N_DOCS)];
    int64_t lines = doc_lines(d);
    int64_t a = rnd(s, (uint32_t)lines), k = 1 + rnd(s, 3);
    char token[32];
    snprintf(token, sizeof token, "soak-%d", i);
    int64_t id = client_request(&s->c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s,s:I,s:{s:{s:I,s:i},s:{s:I,s:i}}}],s:s}", "command",
        "sonicboom.edit", "arguments", "uri", d->uri, "instruction",
        instructions[rnd(s, 4)], "version", (json_int_t)d->version, "range",
        "start", "line", (json_int_t)a, "character", 0, "end", "line",
        (json_int_t)(a + k), "character", 0, "workDoneToken", token));
    uint32_t r = rnd(s, 10); /* 4 in 10 finish, 2 each cancelled two ways, 2 changed */
    run_edit(s, d, id, token, r < 4 ? 0 : r < 6 ? 1 : r < 8 ? 2 : 3, d->version);
}

static void open_docs(soak *s) {
    static const int64_t lines[N_DOCS] = {1, 10, 200, 5000, 45000}; /* to ~1 MB */
    for (int i = 0; i < N_DOCS; i++) {
        doc *d = &s->docs[i];
        snprintf(d->uri, sizeof d->uri, "file:///tmp/soak/doc%d.c", i);
        doc_fill(d, lines[i]);
        d->version = 1;
        client_notify(&s->c, "textDocument/didOpen", json_pack(
            "{s:{s:s,s:s,s:i,s:s%}}", "textDocument", "uri", d->uri, "languageId",
            "c", "version", 1, "text", d->text, (size_t)d->len));
    }
}

static void initialize(soak *s) {
    int64_t id = client_request(&s->c, "initialize", json_pack(
        "{s:{s:{s:[s]},s:{s:b},s:{s:{s:b}}},s:{s:I}}", "capabilities", "general",
        "positionEncodings", "utf-8", "window", "workDoneProgress", 1, "workspace",
        "workspaceEdit", "documentChanges", 1, "initializationOptions", "threads",
        (json_int_t)env_long("SOAK_THREADS", 2)));
    json_t *m;
    while ((m = client_next(&s->c)) && !client_is_response(m, id)) json_decref(m);
    if (!m || !json_object_get(m, "result")) die("initialize failed");
    json_decref(m);
    client_notify(&s->c, "initialized", NULL);
}

int main(void) {
    soak s = {.rng = 0x9E3779B97F4A7C15u ^ (uint64_t)env_long("SOAK_SEED", 1)};
    long edits = env_long("SOAK_EDITS", 1000);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    client_start(&s.c, NULL, NULL);
    /* a 1 MB pipe, so a burst of progress never blocks the server while we
     * write a large document */
    fcntl(s.c.from, F_SETPIPE_SZ, 1 << 20);
    fcntl(s.c.to, F_SETPIPE_SZ, 1 << 20);
    initialize(&s);
    open_docs(&s);
    for (int i = 1; i <= edits; i++) {
        for (uint32_t k = rnd(&s, 3); k > 0; k--) type_into(&s, &s.docs[rnd(&s, N_DOCS)]);
        one_edit(&s, i);
        if (i % 10 == 0 || i == 20) check_mem(&s, i);
        if (i % 25 == 0)
            for (int k = 0; k < N_DOCS; k++) check_sync(&s, &s.docs[k]);
    }
    for (int k = 0; k < N_DOCS; k++) check_sync(&s, &s.docs[k]);
    long rss, hwm;
    read_mem(&s, &rss, &hwm);
    int64_t id = client_request(&s.c, "shutdown", NULL);
    json_t *m;
    while ((m = client_next(&s.c)) && !client_is_response(m, id)) json_decref(m);
    json_decref(m);
    client_notify(&s.c, "exit", NULL);
    int code = client_finish(&s.c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("soak: %ld edits in %.0f s: %d applied (%d done, %d refused as stale by the "
           "editor), %d cancelled, %d content-modified, %d no usable answer; %d "
           "typed changes; VmRSS after edit 20 %ld kB, max %ld kB, end %ld kB; "
           "VmHWM %ld kB; exit %d\n", edits, wall, s.applied, s.done,
           s.refused_stale, s.cancelled, s.modified, s.failed, s.changes,
           s.rss_base_kb, s.rss_max_kb, rss, hwm, code);
    if (code != 0) die("sb-lsp exited %d after shutdown and exit", code);
    for (int k = 0; k < N_DOCS; k++) free(s.docs[k].text);
    return 0;
}
