/*
 * Tests of sb-lsp as an editor sees it: conversations over pipes with the
 * built server ($SB_BUILD/sb-lsp), then `sb replay` of the session log they
 * leave.
 *
 * The model is tests/lsp/chain_model.h's: real forward passes whose greedy
 * answer is a fixed fenced reply (REPLY below), so every edit runs the real
 * prompt, tokenizer, drafter, engine and extraction; what is scripted is
 * only which text the weights make the model say.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>

#include "../../edit/edit.h"
#include "chain_model.h"
#include "lsp_client.h"

static const char *const OPENED = "alpha \xF0\x9F\x98\x80 x\nbeta\ngamma\ndelta\n";
/* after the test's incremental changes */
static const char *const SYNCED =
    "alpha \xF0\x9F\x98\x80! x\nbeta\ngamma\ndelta\nepsilon\n";
/* what the chain model answers, whatever it is asked */
static const char *const REPLY =
    "alpha \xF0\x9F\x98\x80! x\nBETA\ngamma\ndelta\nepsilon!\n";
static const char *const URI = "file:///tmp/sb-lsp-test/demo.txt";

static char g_dir[64], g_model[128], g_log[128];

static void fixture(void) {
    if (g_dir[0]) return;
    snprintf(g_dir, sizeof g_dir, "/tmp/sb-lsp-test-XXXXXX");
    if (!mkdtemp(g_dir)) abort();
    snprintf(g_model, sizeof g_model, "%s/chain.gguf", g_dir);
    snprintf(g_log, sizeof g_log, "%s/edits.jsonl", g_dir);
    sb_err err = {0};
    if (chain_model_write(g_model, REPLY, &err)) fail_msg("%s", err.msg);
}

static void cleanup(void) {
    if (!g_dir[0]) return;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", g_dir);
}

/* ---- a local copy of the document, kept as the editor keeps it ---- */

typedef struct doc {
    char *text;
    int64_t len;
} doc;

static void doc_set(doc *d, const char *s) {
    free(d->text);
    d->text = strdup(s);
    d->len = (int64_t)strlen(s);
}

/* Applies a WorkspaceEdit's edits for URI (all relative to the text before
 * any of them, as the specification says: apply from the last one). */
static void doc_apply(doc *d, json_t *edits) {
    size_t n = json_array_size(edits);
    for (size_t k = n; k-- > 0;) {
        json_t *e = json_array_get(edits, k), *r = json_object_get(e, "range");
        lsp_pos a = {json_integer_value(json_object_get(json_object_get(r, "start"), "line")),
                     json_integer_value(json_object_get(json_object_get(r, "start"), "character"))};
        lsp_pos b = {json_integer_value(json_object_get(json_object_get(r, "end"), "line")),
                     json_integer_value(json_object_get(json_object_get(r, "end"), "character"))};
        int64_t s = lsp_offset_at(d->text, d->len, a, LSP_UTF16);
        int64_t t = lsp_offset_at(d->text, d->len, b, LSP_UTF16);
        json_t *nt = json_object_get(e, "newText");
        size_t m = json_string_length(nt);
        char *p = malloc((size_t)(d->len - (t - s)) + m + 1);
        memcpy(p, d->text, (size_t)s);
        memcpy(p + s, json_string_value(nt), m);
        memcpy(p + s + m, d->text + t, (size_t)(d->len - t));
        d->len = d->len - (t - s) + (int64_t)m;
        p[d->len] = '\0';
        free(d->text);
        d->text = p;
    }
}

/* ---- conversation steps ---- */

static void start_server(client *c, char *const *env) {
    fixture();
    client_start(c, env, NULL);
}

static json_t *await_response(client *c, int64_t id) {
    json_t *m;
    while ((m = client_next(c))) {
        if (client_is_response(m, id)) return m;
        json_decref(m);
    }
    fail_msg("the server ended without answering request %lld", (long long)id);
    return NULL;
}

/* initialize; doc_changes: whether the client announces
 * workspaceEdit.documentChanges (versioned edits); `more` (may be NULL;
 * taken) is added to the initializationOptions. */
static void initialize_with(client *c, bool progress, bool doc_changes, json_t *more) {
    json_t *caps = json_pack("{s:{s:[s]},s:{s:{s:b}},s:{s:{s:{s:[i]}}}}",
                             "general", "positionEncodings", "utf-16",
                             "workspace", "workspaceEdit", "documentChanges",
                             (int)doc_changes,
                             "textDocument", "codeAction", "tagSupport",
                             "valueSet", 1);
    if (progress) json_object_set_new(caps, "window", json_pack("{s:b}",
                                                                "workDoneProgress", 1));
    json_t *opts = json_pack("{s:s,s:s,s:i}", "model", g_model, "log", g_log,
                             "threads", 1);
    if (more) json_object_update(opts, more);
    json_decref(more);
    int64_t id = client_request(c, "initialize", json_pack(
        "{s:i,s:o,s:o}", "processId", (int)getpid(), "capabilities", caps,
        "initializationOptions", opts));
    json_t *r = await_response(c, id);
    json_t *caps_out = json_object_get(json_object_get(r, "result"), "capabilities");
    assert_string_equal(json_string_value(json_object_get(caps_out, "positionEncoding")),
                        "utf-16");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(caps_out, "textDocumentSync"), "change")), 2);
    json_decref(r);
    client_notify(c, "initialized", NULL);
}

static void initialize(client *c, bool progress) {
    initialize_with(c, progress, true, NULL);
}

static void open_and_sync(client *c, doc *d) {
    client_notify(c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId",
        "plaintext", "version", 1, "text", OPENED));
    /* "!" after the emoji: column 8 in UTF-16 units (6 + a surrogate pair) */
    client_notify(c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s},"
        "{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}]}",
        "textDocument", "uri", URI, "version", 2, "contentChanges",
        "range", "start", "line", 0, "character", 8, "end", "line", 0,
        "character", 8, "text", "!",
        "range", "start", "line", 4, "character", 0, "end", "line", 4,
        "character", 0, "text", "epsilon\n"));
    doc_set(d, SYNCED);
}

typedef struct outcome {
    json_t *response;   /* the executeCommand response */
    int begins, reports, ends, applies, shows;
} outcome;

/* Runs sonicboom.edit and plays the editor until it is answered. */
static outcome run_edit(client *c, doc *d, json_t *arg, json_t *token) {
    char uri[256];
    snprintf(uri, sizeof uri, "%s", json_string_value(json_object_get(arg, "uri")));
    json_t *params = json_pack("{s:s,s:[o]}", "command", "sonicboom.edit",
                               "arguments", arg);
    if (token) json_object_set_new(params, "workDoneToken", token);
    int64_t id = client_request(c, "workspace/executeCommand", params);
    outcome o = {0};
    json_t *m;
    while ((m = client_next(c))) {
        const char *method = client_method(m);
        if (client_is_response(m, id)) {
            o.response = m;
            return o;
        }
        if (method && !strcmp(method, "window/workDoneProgress/create")) {
            client_send(c, json_pack("{s:O,s:n}", "id", json_object_get(m, "id"),
                                     "result"));
        } else if (method && !strcmp(method, "$/progress")) {
            const char *kind = json_string_value(json_object_get(
                json_object_get(json_object_get(m, "params"), "value"), "kind"));
            o.begins += !strcmp(kind, "begin");
            o.reports += !strcmp(kind, "report");
            o.ends += !strcmp(kind, "end");
        } else if (method && !strcmp(method, "workspace/applyEdit")) {
            json_t *dc = json_array_get(json_object_get(json_object_get(
                json_object_get(m, "params"), "edit"), "documentChanges"), 0);
            assert_string_equal(json_string_value(json_object_get(
                json_object_get(dc, "textDocument"), "uri")), uri);
            doc_apply(d, json_object_get(dc, "edits"));
            o.applies++;
            client_send(c, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"),
                                     "result", "applied", 1));
        } else if (method && !strcmp(method, "window/showMessage")) {
            o.shows++;
        }
        json_decref(m);
    }
    fail_msg("the server ended without answering executeCommand");
    return o;
}

/* The engine's own answer for the same request, in-process. */
static void engine_answer(const char *file, char **text, char sha[65]) {
    sb_err err = {0};
    eng_model *m = eng_model_load(g_model, &err);
    assert_non_null(m);
    eng_session *s = eng_session_create(m, &(eng_options){.n_threads = 1}, &err);
    assert_non_null(s);
    const char *instr = "Shout the second line";
    edit_request rq = {.file = file, .file_len = (int64_t)strlen(file),
                       .instruction = instr, .instruction_len = (int64_t)strlen(instr),
                       .language = "plaintext"};
    edit_opts o = edit_defaults();
    edit_result r = {0};
    if (edit_run(s, &rq, &o, &r, &err)) fail_msg("edit_run: %s", err.msg);
    *text = strndup(r.text, (size_t)r.text_len);
    memcpy(sha, r.gen.sha256, 65);
    edit_result_free(&r);
    eng_session_destroy(s);
    eng_model_free(m);
}

static void shutdown_and_exit(client *c, int want_code) {
    json_t *r = await_response(c, client_request(c, "shutdown", NULL));
    assert_true(json_is_null(json_object_get(r, "result")));
    json_decref(r);
    client_notify(c, "exit", NULL);
    assert_int_equal(client_finish(c), want_code);
}

/* ---- tests ---- */

static void test_conversation(void **state) {
    (void)state;
    client c;
    doc d = {0};
    unlink(g_log);
    start_server(&c, NULL);
    initialize(&c, true);
    open_and_sync(&c, &d);

    /* codeAction: offered, tagged LLMGenerated, over the selected lines; an
     * unknown kind in `only` is ignored, and a filter without ours gets [] */
    json_t *r = await_response(&c, client_request(&c, "textDocument/codeAction",
        json_pack("{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[],s:[s,s]}}",
                  "textDocument", "uri", URI, "range", "start", "line", 1,
                  "character", 2, "end", "line", 2, "character", 1, "context",
                  "diagnostics", "only", "refactor", "source.odd.kind")));
    json_t *act = json_array_get(json_object_get(r, "result"), 0);
    assert_non_null(act);
    assert_string_equal(json_string_value(json_object_get(act, "kind")), "refactor.rewrite");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(act, "tags"), 0)), 1);
    json_t *arg = json_array_get(json_object_get(json_object_get(act, "command"),
                                                 "arguments"), 0);
    json_t *rng = json_object_get(arg, "range");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(rng, "start"), "line")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(rng, "end"), "line")), 3);
    json_decref(r);
    r = await_response(&c, client_request(&c, "textDocument/codeAction",
        json_pack("{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[],s:[s]}}",
                  "textDocument", "uri", URI, "range", "start", "line", 0,
                  "character", 0, "end", "line", 0, "character", 0, "context",
                  "diagnostics", "only", "quickfix")));
    assert_int_equal(json_array_size(json_object_get(r, "result")), 0);
    json_decref(r);

    /* the whole document */
    outcome o = run_edit(&c, &d, json_pack("{s:s,s:s,s:i}", "uri", URI,
                                           "instruction", "Shout the second line",
                                           "version", 2), NULL);
    assert_int_equal(client_error_code(o.response), 0);
    assert_int_equal(o.begins, 1);
    assert_true(o.reports >= 1);
    assert_int_equal(o.ends, 1);
    assert_int_equal(o.applies, 1);
    char *engine = NULL, sha[65];
    engine_answer(SYNCED, &engine, sha);
    assert_string_equal(engine, REPLY);
    assert_string_equal(d.text, engine); /* the hunks give the engine's output */
    json_t *res = json_object_get(o.response, "result");
    assert_string_equal(json_string_value(json_object_get(res, "sha256")), sha);
    assert_int_equal(json_integer_value(json_object_get(res, "hunks")), 2);
    json_decref(o.response);
    free(engine);

    /* the editor reports what it applied, then edits lines 1..2 only: they
     * are replaced by the answer, everything else stays byte for byte */
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 3,
        "contentChanges", "text", d.text));
    char *before = strdup(d.text);
    o = run_edit(&c, &d, json_pack("{s:s,s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}",
                                   "uri", URI, "range", "start", "line", 1,
                                   "character", 0, "end", "line", 3, "character", 0,
                                   "instruction", "Shout the second line"), NULL);
    assert_int_equal(client_error_code(o.response), 0);
    const char *l1 = strchr(before, '\n') + 1;
    const char *l3 = strchr(strchr(l1, '\n') + 1, '\n') + 1;
    char want[512];
    snprintf(want, sizeof want, "%.*s%s%s", (int)(l1 - before), before, REPLY, l3);
    assert_string_equal(d.text, want);
    json_decref(o.response);
    free(before);
    free(d.text);
    shutdown_and_exit(&c, 0);
}

/* Waits for the first progress report of the held edit. */
/* A code action at a bare cursor covers the enclosing syntax node's lines
 * (lsp_enclosing_region, tree-sitter): inside the if's body, the whole if
 * statement (lines 1..4); with no grammar (plaintext), the whole document. */
static json_t *action_range(client *c, const char *uri, int line, int character) {
    json_t *r = await_response(c, client_request(c, "textDocument/codeAction",
        json_pack("{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}",
                  "textDocument", "uri", uri, "range", "start", "line", line,
                  "character", character, "end", "line", line, "character",
                  character, "context", "diagnostics")));
    json_t *act = json_array_get(json_object_get(r, "result"), 0);
    assert_non_null(act);
    json_t *arg = json_array_get(json_object_get(json_object_get(act, "command"),
                                                 "arguments"), 0);
    json_t *rng = json_deep_copy(json_object_get(arg, "range"));
    json_decref(r);
    return rng;
}

static int range_line(json_t *rng, const char *end) {
    return (int)json_integer_value(json_object_get(json_object_get(rng, end), "line"));
}

static void test_code_action_enclosing_node(void **state) {
    (void)state;
    static const char *const C_URI = "file:///tmp/sb-lsp-test/f.c";
    static const char *const C_TEXT =
        "int f(int x) {\n"
        "    if (x > 0) {\n"
        "        x = x * 2;\n"
        "        x = x + 1;\n"
        "    }\n"
        "    return x;\n"
        "}\n";
    client c;
    start_server(&c, NULL);
    initialize(&c, false);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", C_URI, "languageId", "c",
        "version", 1, "text", C_TEXT));
    json_t *rng = action_range(&c, C_URI, 2, 10);
    assert_int_equal(range_line(rng, "start"), 1);
    assert_int_equal(range_line(rng, "end"), 5); /* through line 4's end */
    json_decref(rng);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId",
        "plaintext", "version", 1, "text", OPENED));
    rng = action_range(&c, URI, 1, 1);
    assert_int_equal(range_line(rng, "start"), 0);
    json_decref(rng);
    shutdown_and_exit(&c, 0);
}

static void await_report(client *c) {
    json_t *m;
    while ((m = client_next(c))) {
        const char *method = client_method(m);
        bool report = method && !strcmp(method, "$/progress") &&
                      !strcmp(json_string_value(json_object_get(json_object_get(
                          json_object_get(m, "params"), "value"), "kind")), "report");
        assert_false(method && !strcmp(method, "workspace/applyEdit"));
        json_decref(m);
        if (report) return;
    }
    fail_msg("no progress report");
}

/* Answers to a held edit after the given interruption. */
static json_t *await_answer(client *c, int64_t id, int *shows) {
    json_t *m;
    while ((m = client_next(c))) {
        const char *method = client_method(m);
        assert_false(method && !strcmp(method, "workspace/applyEdit"));
        if (method && !strcmp(method, "window/showMessage")) (*shows)++;
        if (client_is_response(m, id)) return m;
        json_decref(m);
    }
    fail_msg("no answer");
    return NULL;
}

static int64_t start_held_edit(client *c, const char *token) {
    return client_request(c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}],s:s}", "command", "sonicboom.edit", "arguments",
        "uri", URI, "instruction", "Shout the second line", "workDoneToken", token));
}

static void test_cancel_busy_and_modified(void **state) {
    (void)state;
    static char hold[] = "--test-hold-edits";
    char *args[] = {hold, NULL};
    client c;
    doc d = {0};
    fixture();
    client_start(&c, NULL, args);
    initialize(&c, false);
    open_and_sync(&c, &d);
    int shows = 0;

    /* $/cancelRequest: -32800, nothing applied */
    int64_t id = start_held_edit(&c, "t1");
    await_report(&c);
    client_notify(&c, "$/cancelRequest", json_pack("{s:I}", "id", (json_int_t)id));
    json_t *r = await_answer(&c, id, &shows);
    assert_int_equal(client_error_code(r), -32800);
    json_decref(r);

    /* window/workDoneProgress/cancel on its token: the same */
    id = start_held_edit(&c, "t2");
    await_report(&c);
    client_notify(&c, "window/workDoneProgress/cancel", json_pack("{s:s}", "token", "t2"));
    r = await_answer(&c, id, &shows);
    assert_int_equal(client_error_code(r), -32800);
    json_decref(r);

    /* a second edit while one runs is refused; then the document changes
     * under the first: -32801 and the user is told */
    id = start_held_edit(&c, "t3");
    await_report(&c);
    int64_t id2 = start_held_edit(&c, "t4");
    r = await_answer(&c, id2, &shows);
    assert_int_equal(client_error_code(r), -32803);
    json_decref(r);
    shows = 0;
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 3,
        "contentChanges", "text", "changed meanwhile\n"));
    r = await_answer(&c, id, &shows);
    assert_int_equal(client_error_code(r), -32801);
    assert_true(shows >= 1);
    json_decref(r);

    /* a change that does not raise the version is refused, and still stops
     * the running edit (-32801, nothing applied: the editor's text moved
     * on); the next edit is refused up front until the whole text comes */
    id = start_held_edit(&c, "t5");
    await_report(&c);
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 3,
        "contentChanges", "text", "replayed\n"));
    r = await_answer(&c, id, &shows);
    assert_int_equal(client_error_code(r), -32801);
    json_decref(r);
    id = start_held_edit(&c, "t6");
    r = await_answer(&c, id, &shows);
    assert_int_equal(client_error_code(r), -32801);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(
        r, "error"), "message")), "versions must increase"));
    json_decref(r);
    free(d.text);
    shutdown_and_exit(&c, 0);
}

/* Runs a command line; its exit status, and its stdout in out. */
static int run_cmd(const char *cmd, char *out, size_t cap) {
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

static void test_replay(void **state) {
    (void)state;
    fixture();
    /* test_conversation made g_log: two edits */
    const char *build = getenv("SB_BUILD");
    build = build && *build ? build : "build";
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "%s/sb replay %s -m %s", build, g_log, g_model);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_int_equal(count(out, "identical"), 2);
    /* one server, one session: its two entries and its summary, chained */
    assert_int_equal(count(out, "3 lines, 2 entries, 1 sessions (1 closed)"), 1);
    assert_int_equal(count(out, "damage"), 0);
    snprintf(cmd, sizeof cmd, "%s/sb replay %s -m %s --speculation off", build,
             g_log, g_model);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_int_equal(count(out, "identical"), 2);

    /* tamper with the second entry's first output id (REPLY -> FENCE) and
     * tear a fourth line: the chain names both, exit status 3 (damage) */
    char bad[160];
    snprintf(bad, sizeof bad, "%s/tampered.jsonl", g_dir);
    snprintf(cmd, sizeof cmd, "awk 'NR==2{sub(/\"output_ids\":\\[300/, "
             "\"\\\"output_ids\\\":[301\")} {print}' %s > %s && printf '{\"format' >> %s",
             g_log, bad, bad);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/sb replay %s -m %s", build, bad, g_model);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 3);
    assert_int_equal(count(out, "identical"), 1);
    /* the changed id no longer hashes to the entry's output_sha256 */
    assert_int_equal(count(out, "output_sha256 is not the SHA-256"), 1);
    assert_int_equal(count(out, "damage at line 2: edited entry"), 1);
    assert_int_equal(count(out, "damage at line 4: truncation"), 1);
}

/* costTable (SB_COST_TABLE, --cost-table): the file's table replaces the
 * default the edits size their drafts by (the chain model's reply is one
 * token no drafter can guess, so this is checked on the config the worker
 * hands to edit_run); a table that cannot be read is refused naming the
 * line, and stops the server before it starts. */
static void test_cost_table(void **state) {
    (void)state;
    fixture();
    char path[160];
    snprintf(path, sizeof path, "%s/costs.txt", g_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# made-up costs\n1 1\n2 1000\n", f);
    fclose(f);
    lsp_config cfg;
    lsp_config_defaults(&cfg);
    stepcost_table def;
    stepcost_table_default(&def);
    assert_memory_equal(cfg.costs.listed, def.listed, sizeof def.listed);
    sb_err err = {0};
    assert_int_equal(lsp_config_set(&cfg, "costTable", path, &err), 0);
    assert_string_equal(cfg.costs.source, path);
    assert_true(stepcost_table_cost(&cfg.costs, 2) == 1000);
    assert_int_equal(stepcost_table_max_rows(&cfg.costs), 2);

    f = fopen(path, "w");
    fputs("1 1\n2 -5\n", f);
    fclose(f);
    assert_int_equal(lsp_config_set(&cfg, "costTable", path, &err), -1);
    assert_non_null(strstr(err.msg, "line 2"));
    assert_true(stepcost_table_cost(&cfg.costs, 2) == 1000); /* kept */
    lsp_config_free(&cfg);
    const char *build = getenv("SB_BUILD");
    char cmd[512], out[2048];
    snprintf(cmd, sizeof cmd, "SB_COST_TABLE=%s %s/sb-lsp --stdio 2>&1 "
             "</dev/null", path, build && *build ? build : "build");
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "line 2"));
}

/* The model file replaced under a running server (a re-download, a
 * re-quantize to the same path): the next edit loads it again and
 * succeeds, instead of every edit being refused until a restart. */
static void test_model_file_replaced(void **state) {
    (void)state;
    client c;
    doc d = {0};
    start_server(&c, NULL);
    initialize(&c, false);
    open_and_sync(&c, &d);
    json_t *arg = json_pack("{s:s,s:s,s:i}", "uri", URI, "instruction",
                            "Shout the second line", "version", 2);
    json_incref(arg);
    outcome o = run_edit(&c, &d, arg, NULL);
    assert_int_equal(client_error_code(o.response), 0);
    assert_int_equal(o.applies, 1);
    json_decref(o.response);

    /* a new file at the same path: new inode, new times */
    char fresh[160];
    snprintf(fresh, sizeof fresh, "%s/chain-new.gguf", g_dir);
    sb_err err = {0};
    if (chain_model_write(fresh, REPLY, &err)) fail_msg("%s", err.msg);
    assert_int_equal(rename(fresh, g_model), 0);

    doc_set(&d, SYNCED);
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 3,
        "contentChanges", "text", SYNCED));
    json_object_set_new(arg, "version", json_integer(3));
    o = run_edit(&c, &d, arg, NULL);
    assert_int_equal(client_error_code(o.response), 0);
    assert_int_equal(o.applies, 1);
    assert_string_equal(d.text, REPLY);
    json_decref(o.response);
    free(d.text);
    shutdown_and_exit(&c, 0);
}

/* An edit finished, its job released, its answer not yet sent, and then
 * (round 0) the document closed and opened again at the same version with
 * other text (VS Code restarts a reopened document at version 1); (round
 * 1) the same for a client without documentChanges, whose edit would carry
 * no version at all; (round 2) a didChange refused (its version not above
 * the document's), which leaves the document out of sync. The answer must
 * be -32801, never an applyEdit. The window is held open without timing:
 * the test holds the session log's lock, which the server takes after the
 * progress ends and before the answer, until the change has been read.
 * Before: applyEdit in every round. */
static void reopen_round(int round) {
    client c;
    doc d = {0};
    start_server(&c, NULL);
    initialize_with(&c, true, round != 1, NULL);
    open_and_sync(&c, &d);
    int lock = open(g_log, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    assert_true(lock >= 0);
    assert_int_equal(flock(lock, LOCK_EX), 0);
    int64_t id = client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}],s:s}", "command", "sonicboom.edit", "arguments",
        "uri", URI, "instruction", "Shout the second line", "workDoneToken",
        "reopen"));
    json_t *m;
    bool ended = false;
    while (!ended && (m = client_next(&c))) {
        const char *method = client_method(m);
        assert_false(client_is_response(m, id));
        assert_false(method && !strcmp(method, "workspace/applyEdit"));
        ended = method && !strcmp(method, "$/progress") &&
                !strcmp(json_string_value(json_object_get(json_object_get(
                    json_object_get(m, "params"), "value"), "kind")), "end");
        json_decref(m);
    }
    assert_true(ended);
    if (round < 2) {
        client_notify(&c, "textDocument/didClose", json_pack(
            "{s:{s:s}}", "textDocument", "uri", URI));
        client_notify(&c, "textDocument/didOpen", json_pack(
            "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId",
            "plaintext", "version", 2, "text", "another text\nentirely\n"));
    } else {
        client_notify(&c, "textDocument/didChange", json_pack(
            "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 2,
            "contentChanges", "text", "replayed\n"));
    }
    /* answered only once both notifications before it were handled */
    json_decref(action_range(&c, URI, 0, 0));
    assert_int_equal(flock(lock, LOCK_UN), 0);
    close(lock);
    int shows = 0;
    json_t *r = await_answer(&c, id, &shows); /* fails on an applyEdit */
    assert_int_equal(client_error_code(r), -32801);
    json_decref(r);
    free(d.text);
    shutdown_and_exit(&c, 0);
}

/* SIGTERM (editors, process managers and `timeout` send it) ends the
 * server like the end of its input: the session gets its summary, so the
 * log's last line is one and replay does not call it truncated. Before:
 * killed, no summary, `sb replay` said DAMAGED (exit 3). */
static void test_sigterm_writes_summary(void **state) {
    (void)state;
    client c;
    doc d = {0};
    start_server(&c, NULL);
    initialize(&c, false);
    open_and_sync(&c, &d);
    json_t *arg = json_pack("{s:s,s:s}", "uri", URI, "instruction",
                            "Shout the second line");
    outcome o = run_edit(&c, &d, arg, NULL);
    assert_int_equal(client_error_code(o.response), 0);
    json_decref(o.response);
    assert_int_equal(kill(c.pid, SIGTERM), 0);
    /* stdin stays open: the signal alone must end it */
    json_t *m;
    while ((m = client_next(&c))) json_decref(m);
    int status = 0;
    assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
    close(c.to);
    close(c.from);
    lsp_reader_destroy(c.reader);
    size_t cap = 0;
    char *line = NULL, *last = NULL;
    FILE *f = fopen(g_log, "rb");
    assert_non_null(f);
    while (getline(&line, &cap, f) > 0) {
        free(last);
        last = strdup(line);
    }
    fclose(f);
    assert_non_null(last);
    assert_non_null(strstr(last, "\"kind\":\"summary\""));
    free(last);
    free(line);
    free(d.text);
}

/* A file size limit (ulimit -f) the session log has passed: the append
 * fails with EFBIG, the user is warned, the edit is answered and the
 * server goes on and exits 0. Before: SIGXFSZ killed it mid-session. */
static void test_file_size_limit(void **state) {
    (void)state;
    client c;
    doc d = {0};
    fixture();
    struct rlimit was, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    small = (struct rlimit){64, was.rlim_max}; /* the log is larger already */
    FILE *f = fopen(g_log, "ab"); /* make sure of that */
    assert_non_null(f);
    fclose(f);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    start_server(&c, NULL);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    initialize(&c, false);
    open_and_sync(&c, &d);
    json_t *arg = json_pack("{s:s,s:s}", "uri", URI, "instruction",
                            "Shout the second line");
    outcome o = run_edit(&c, &d, arg, NULL);
    assert_int_equal(client_error_code(o.response), 0);
    assert_true(o.shows >= 1); /* the log's warning */
    json_decref(o.response);
    free(d.text);
    shutdown_and_exit(&c, 0);
}

static void test_reopened_document(void **state) {
    (void)state;
    for (int round = 0; round < 3; round++) reopen_round(round);
}

/* The prefix cache through the server: a second edit of a document
 * prefills only what follows the prefix its prompt shares with the first
 * (prompt v2: the system turn and the document); a document edited
 * after another keeps its own session while the memory budget allows (cacheMemoryMB 0: one session,
 * handed from document to document); and the outputs are the same with
 * the cache off. Returns the cached tokens of each of four edits. */
static void cache_run(json_t *more, int64_t cached[4], char sha[4][65]) {
    client c;
    doc d = {0}, other = {0};
    start_server(&c, NULL);
    initialize_with(&c, false, true, more);
    open_and_sync(&c, &d);
    static const char OTHER[] = "file:///tmp/sb-lsp-test/other.txt";
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", OTHER, "languageId",
        "plaintext", "version", 1, "text", "one\ntwo\nthree\n"));
    doc_set(&other, "one\ntwo\nthree\n");
    const char *uris[4] = {URI, URI, OTHER, URI};
    const int versions[4] = {2, 2, 1, 2}; /* no didChange follows an applied edit here */
    for (int i = 0; i < 4; i++) {
        json_t *arg = json_pack("{s:s,s:s,s:i,s:{s:{s:i,s:i},s:{s:i,s:i}}}", "uri",
                                uris[i], "instruction", i % 2 ? "Shout" : "Shout it",
                                "version", versions[i], "range", "start", "line",
                                i == 1 ? 3 : 1, "character", 0, "end", "line",
                                i == 1 ? 4 : 2, "character", 0);
        outcome o = run_edit(&c, uris[i] == URI ? &d : &other, arg, NULL);
        json_t *res = json_object_get(o.response, "result");
        if (!res) fail_msg("edit %d failed", i);
        cached[i] = json_integer_value(json_object_get(res, "cached_tokens"));
        assert_true(cached[i] < json_integer_value(json_object_get(res, "prompt_tokens")));
        assert_string_equal(json_string_value(json_object_get(res, "prompt_version")),
                            "sb-edit-prompt-v2");
        snprintf(sha[i], 65, "%s", json_string_value(json_object_get(res, "sha256")));
        json_decref(o.response);
    }
    shutdown_and_exit(&c, 0);
    free(d.text);
    free(other.text);
}

static void test_prefix_cache(void **state) {
    (void)state;
    int64_t on[4], small[4], off[4];
    char sha_on[4][65], sha_small[4][65], sha_off[4][65];
    cache_run(NULL, on, sha_on);
    cache_run(json_pack("{s:i}", "cacheMemoryMB", 0), small, sha_small);
    cache_run(json_pack("{s:b}", "prefixCache", 0), off, sha_off);
    assert_int_equal(on[0], 0);
    /* the system turn and the document at least (the client here sends no
     * didChange after an applied edit): 100 ids of the byte vocabulary */
    assert_true(on[1] > 100);
    /* the other document shares the system turn with the session handed
     * over (budget 0) and nothing with a fresh one */
    assert_int_equal(on[2], 0);
    assert_true(small[2] > 100);
    /* back to the first document: its own session kept its prompt */
    assert_true(on[3] > small[3]);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(off[i], 0);
        assert_string_equal(sha_on[i], sha_off[i]);
        assert_string_equal(sha_small[i], sha_off[i]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversation),
        cmocka_unit_test(test_code_action_enclosing_node),
        cmocka_unit_test(test_cancel_busy_and_modified),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_cost_table),
        cmocka_unit_test(test_model_file_replaced),
        cmocka_unit_test(test_reopened_document),
        cmocka_unit_test(test_sigterm_writes_summary),
        cmocka_unit_test(test_file_size_limit),
        cmocka_unit_test(test_prefix_cache),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cleanup();
    return rc;
}
