/*
 * lsp_demo — make demo's editor: it runs the language server as an editor
 * does (sb-lsp --stdio on pipes) and asks it for one edit.
 *
 * usage: lsp_demo SB_LSP FILE INSTRUCTION OUT
 *
 * initialize (offering UTF-8 positions), didOpen FILE, then
 * workspace/executeCommand sonicboom.edit with INSTRUCTION over the whole
 * document; the $/progress reports go to stderr as they come; the
 * workspace/applyEdit it receives (a versioned TextDocumentEdit of minimal
 * hunks; none when the model changed nothing) is applied to this copy of
 * the document and answered; then shutdown and exit. The edited document
 * goes to OUT; the server's account (hunks, tokens, steps, the SHA-256 of
 * the output ids) to stdout, one line. Exit 0 when the edit ran, 1 with a
 * message otherwise.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lsp/lsp.h"

typedef struct editor {
    pid_t pid;
    lsp_writer *to;
    lsp_reader *from;
    int64_t next_id;
    char *text;   /* the document as this editor holds it */
    int64_t len;
    char uri[PATH_MAX + 16];
} editor;

static void die(const char *what) {
    fprintf(stderr, "lsp_demo: %s\n", what);
    exit(1);
}

static void start_server(editor *e, const char *path) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) die("pipe failed");
    signal(SIGPIPE, SIG_IGN);
    e->pid = fork();
    if (e->pid < 0) die("fork failed");
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(path, path, "--stdio", (char *)NULL);
        perror(path);
        _exit(127);
    }
    close(in[0]), close(out[1]);
    /* our ends of its stdin and stdout, open until this process exits */
    e->to = lsp_writer_create(in[1]);
    e->from = lsp_reader_from_fd(out[0], 0);
    if (!e->to || !e->from) die("out of memory");
    e->next_id = 1;
}

/* Sends msg (takes the reference). */
static void send_msg(editor *e, json_t *msg) {
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    sb_err err = {0};
    if (!body || lsp_writer_send(e->to, body, strlen(body), &err))
        die("the server stopped reading");
    free(body);
}

static int64_t request(editor *e, const char *method, json_t *params) {
    const int64_t id = e->next_id++;
    send_msg(e, json_pack("{s:I,s:s,s:o}", "id", (json_int_t)id, "method", method, "params",
                          params ? params : json_object()));
    return id;
}

static void notify(editor *e, const char *method, json_t *params) {
    send_msg(e, json_pack("{s:s,s:o}", "method", method, "params",
                          params ? params : json_object()));
}

/* The server's next message; dies at its end of output. */
static json_t *next_msg(editor *e) {
    const char *body;
    size_t len;
    sb_err err = {0};
    if (lsp_reader_next(e->from, &body, &len, &err) != LSP_READ_OK)
        die("the server ended its output");
    json_t *m = json_loadb(body, len, 0, NULL);
    if (!m) die("the server sent a message that is not JSON");
    return m;
}

static const char *method_of(json_t *m) {
    return json_string_value(json_object_get(m, "method"));
}

static bool answers(json_t *m, int64_t id) {
    json_t *mid = json_object_get(m, "id");
    return !method_of(m) && json_is_integer(mid) && json_integer_value(mid) == id;
}

/* Waits for the answer to request id, passing over notifications. */
static json_t *await_answer(editor *e, int64_t id) {
    for (;;) {
        json_t *m = next_msg(e);
        if (answers(m, id)) return m;
        json_decref(m);
    }
}

/* One edit of a TextDocumentEdit as byte offsets of the original text. */
typedef struct hunk {
    int64_t from, to;
    const char *text;
} hunk;

static int by_start_desc(const void *a, const void *b) {
    const hunk *x = a, *y = b;
    return (x->from < y->from) - (x->from > y->from);
}

static lsp_pos pos_of(json_t *p) {
    lsp_pos q = {json_integer_value(json_object_get(p, "line")),
                 json_integer_value(json_object_get(p, "character"))};
    return q;
}

/* Applies edits (an array of {range, newText} over the current text, which
 * do not overlap) from the last to the first, so that earlier offsets hold. */
static void apply_edits(editor *e, json_t *edits) {
    const size_t n = json_array_size(edits);
    hunk *h = calloc(n ? n : 1, sizeof *h);
    if (!h) die("out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *ed = json_array_get(edits, i), *range = json_object_get(ed, "range");
        h[i].from = lsp_offset_at(e->text, e->len, pos_of(json_object_get(range, "start")),
                                  LSP_UTF8);
        h[i].to = lsp_offset_at(e->text, e->len, pos_of(json_object_get(range, "end")),
                                LSP_UTF8);
        h[i].text = json_string_value(json_object_get(ed, "newText"));
        if (!h[i].text || h[i].to < h[i].from) die("an edit without newText or range");
    }
    qsort(h, n, sizeof *h, by_start_desc);
    for (size_t i = 0; i < n; i++) {
        const int64_t add = (int64_t)strlen(h[i].text), cut = h[i].to - h[i].from;
        char *t = malloc((size_t)(e->len - cut + add + 1));
        if (!t) die("out of memory");
        memcpy(t, e->text, (size_t)h[i].from);
        memcpy(t + h[i].from, h[i].text, (size_t)add);
        memcpy(t + h[i].from + add, e->text + h[i].to, (size_t)(e->len - h[i].to));
        e->len = e->len - cut + add;
        t[e->len] = '\0';
        free(e->text);
        e->text = t;
    }
    free(h);
}

/* Answers what the server asks while an edit runs; returns the
 * executeCommand response. */
static json_t *play_editor(editor *e, int64_t id) {
    for (;;) {
        json_t *m = next_msg(e);
        const char *method = method_of(m);
        if (answers(m, id)) {
            fprintf(stderr, "\n");
            return m;
        }
        json_t *params = json_object_get(m, "params");
        if (method && !strcmp(method, "window/workDoneProgress/create")) {
            send_msg(e, json_pack("{s:O,s:n}", "id", json_object_get(m, "id"), "result"));
        } else if (method && !strcmp(method, "$/progress")) {
            const char *msg = json_string_value(
                json_object_get(json_object_get(params, "value"), "message"));
            if (msg) fprintf(stderr, "\rsb-lsp: %-70s", msg);
        } else if (method && !strcmp(method, "workspace/applyEdit")) {
            json_t *dc = json_array_get(
                json_object_get(json_object_get(params, "edit"), "documentChanges"), 0);
            const char *uri = json_string_value(
                json_object_get(json_object_get(dc, "textDocument"), "uri"));
            if (!uri || strcmp(uri, e->uri))
                die("workspace/applyEdit without a TextDocumentEdit of this document");
            apply_edits(e, json_object_get(dc, "edits"));
            send_msg(e, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"), "result",
                                  "applied", 1));
        } else if (method && !strcmp(method, "window/showMessage")) {
            fprintf(stderr, "\nsb-lsp says: %s",
                    json_string_value(json_object_get(params, "message")));
        }
        json_decref(m);
    }
}

static char *read_file(const char *path, int64_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read the file");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *b = realloc(buf, cap);
            if (!b) die("out of memory");
            buf = b;
        }
        const size_t k = fread(buf + n, 1, 4096, f);
        n += k;
        if (k < 4096) break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = (int64_t)n;
    return buf;
}

static void open_document(editor *e, const char *path) {
    char abs[PATH_MAX];
    if (!realpath(path, abs)) die("cannot resolve the file's path");
    snprintf(e->uri, sizeof e->uri, "file://%s", abs);
    e->text = read_file(path, &e->len);
    notify(e, "textDocument/didOpen",
           json_pack("{s:{s:s,s:s,s:i,s:s%}}", "textDocument", "uri", e->uri, "languageId", "c",
                     "version", 1, "text", e->text, (size_t)e->len));
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: lsp_demo SB_LSP FILE INSTRUCTION OUT\n");
        return 2;
    }
    editor e = {0};
    start_server(&e, argv[1]);
    json_t *caps = json_pack("{s:{s:[s]},s:{s:b},s:{s:b,s:{s:b}}}", "general",
                             "positionEncodings", "utf-8", "window", "workDoneProgress", 1,
                             "workspace", "applyEdit", 1, "workspaceEdit", "documentChanges", 1);
    json_decref(await_answer(&e, request(&e, "initialize",
                                         json_pack("{s:i,s:n,s:o}", "processId", (int)getpid(),
                                                   "rootUri", "capabilities", caps))));
    notify(&e, "initialized", NULL);
    open_document(&e, argv[2]);
    json_t *arg = json_pack("{s:s,s:s,s:i}", "uri", e.uri, "instruction", argv[3], "version", 1);
    json_t *r = play_editor(&e, request(&e, "workspace/executeCommand",
                                        json_pack("{s:s,s:[o],s:s}", "command", "sonicboom.edit",
                                                  "arguments", arg, "workDoneToken", "demo")));
    json_t *error = json_object_get(r, "error");
    if (error) {
        fprintf(stderr, "lsp_demo: the edit failed: %s\n",
                json_string_value(json_object_get(error, "message")));
        return 1;
    }
    json_t *result = json_object_get(r, "result");
    printf("sb-lsp: %lld hunk(s), %lld tokens in %lld steps, sha256=%s\n",
           (long long)json_integer_value(json_object_get(result, "hunks")),
           (long long)json_integer_value(json_object_get(result, "tokens")),
           (long long)json_integer_value(json_object_get(result, "steps")),
           json_string_value(json_object_get(result, "sha256")));
    json_decref(r);
    json_decref(await_answer(&e, request(&e, "shutdown", NULL)));
    notify(&e, "exit", NULL);
    int status = 0;
    waitpid(e.pid, &status, 0);
    sb_err err = {0};
    if (sb_write_file(argv[4], e.text, (size_t)e.len, &err)) {
        fprintf(stderr, "lsp_demo: %s\n", err.msg);
        return 1;
    }
    lsp_writer_destroy(e.to), lsp_reader_destroy(e.from);
    free(e.text);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
