/*
 * What the editor plugins (editors/) rely on in sb-lsp:
 *
 * - The free-text code action (lsp/actions.c): a client that says
 *   experimental.sonicboom.instructionPrompt is offered "Edit with an
 *   instruction…" first, a command sonicboom.editWithInstruction whose one
 *   argument holds the region and version but no instruction (the plugin
 *   asks the user for it); other clients are not offered it; and the server
 *   refuses to run that command itself, saying who does. (No model is
 *   loaded there: `initialized` is never sent, and no edit runs.)
 * - Back to back: once the progress of an edit has ended, the server takes
 *   the next edit (the plugins finish a cancel at that end, since Neovim
 *   drops the -32800 answer); it must never answer "already running".
 *   With sb-lsp --test-hold-edits and the chain model (chain_model.h), so the
 *   edit is cancelled at a known point.
 * - previewStreaming: progress reports carry the edit's text so far, in
 *   bounded pieces, a prefix of the final text, which is unchanged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "chain_model.h"
#include "lsp_client.h"

static const char *const URI = "file:///tmp/sb-lsp-prompt/a.c";
static const char *const TEXT = "int a;\nint b;\nint c;\nint d;\n";

static json_t *await_response(client *c, int64_t id) {
    json_t *m;
    while ((m = client_next(c))) {
        if (client_is_response(m, id)) return m;
        /* no edit is ever started here */
        const char *method = client_method(m);
        assert_false(method && !strcmp(method, "workspace/applyEdit"));
        json_decref(m);
    }
    fail_msg("the server ended without answering request %lld", (long long)id);
    return NULL;
}

/* Starts a server, initializes it (with the plugin's capability when
 * `plugin`) with `model`, and opens TEXT at version 4. */
static void start_with(client *c, bool plugin, char *const *args, const char *model) {
    client_start(c, NULL, args);
    json_t *caps = json_object();
    if (plugin)
        json_object_set_new(caps, "experimental", json_pack(
            "{s:{s:b}}", "sonicboom", "instructionPrompt", 1));
    json_t *opts = json_pack("{s:s,s:i}", "model", model, "threads", 1);
    int64_t id = client_request(c, "initialize", json_pack(
        "{s:i,s:o,s:o}", "processId", (int)getpid(), "capabilities", caps,
        "initializationOptions", opts));
    json_decref(await_response(c, id));
    client_notify(c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "c",
        "version", 4, "text", TEXT));
}

static void start(client *c, bool plugin) {
    start_with(c, plugin, NULL, "/nonexistent/model.gguf");
}

/* The code actions for lines 1..2 (a selection ending at column 0 of 3). */
static json_t *actions(client *c) {
    int64_t id = client_request(c, "textDocument/codeAction", json_pack(
        "{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}", "textDocument", "uri",
        URI, "range", "start", "line", 1, "character", 0, "end", "line", 3,
        "character", 0, "context", "diagnostics"));
    json_t *r = await_response(c, id);
    json_t *list = json_incref(json_object_get(r, "result"));
    json_decref(r);
    assert_true(json_is_array(list));
    return list;
}

static const char *command_of(json_t *action) {
    return json_string_value(json_object_get(json_object_get(action, "command"),
                                             "command"));
}

static void shut(client *c) {
    json_decref(await_response(c, client_request(c, "shutdown", NULL)));
    client_notify(c, "exit", NULL);
    assert_int_equal(client_finish(c), 0);
}

static void test_plugin_is_offered_the_prompt(void **state) {
    (void)state;
    client c;
    start(&c, true);
    json_t *list = actions(&c);
    assert_true(json_array_size(list) >= 2);
    json_t *first = json_array_get(list, 0);
    assert_string_equal(command_of(first), "sonicboom.editWithInstruction");
    assert_string_equal(json_string_value(json_object_get(first, "kind")),
                        "refactor.rewrite");
    json_t *arg = json_array_get(json_object_get(json_object_get(first, "command"),
                                                 "arguments"), 0);
    assert_string_equal(json_string_value(json_object_get(arg, "uri")), URI);
    assert_int_equal(json_integer_value(json_object_get(arg, "version")), 4);
    assert_null(json_object_get(arg, "instruction"));
    json_t *range = json_object_get(arg, "range");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(range, "start"), "line")), 1);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(range, "end"), "line")), 3);
    /* the presets follow, each with its instruction */
    for (size_t i = 1; i < json_array_size(list); i++) {
        json_t *a = json_array_get(list, i);
        assert_string_equal(command_of(a), "sonicboom.edit");
        json_t *pa = json_array_get(json_object_get(json_object_get(a, "command"),
                                                    "arguments"), 0);
        assert_true(json_is_string(json_object_get(pa, "instruction")));
    }
    json_decref(list);

    /* the server never runs it itself */
    int64_t id = client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:i}]}", "command", "sonicboom.editWithInstruction",
        "arguments", "uri", URI, "version", 4));
    json_t *r = await_response(&c, id);
    assert_int_equal(client_error_code(r), -32602);
    const char *msg = json_string_value(json_object_get(json_object_get(r, "error"),
                                                        "message"));
    assert_non_null(strstr(msg, "plugin"));
    json_decref(r);
    shut(&c);
}

static void test_generic_client_gets_presets_only(void **state) {
    (void)state;
    client c;
    start(&c, false);
    json_t *list = actions(&c);
    assert_true(json_array_size(list) >= 1);
    for (size_t i = 0; i < json_array_size(list); i++)
        assert_string_equal(command_of(json_array_get(list, i)), "sonicboom.edit");
    json_decref(list);
    shut(&c);
}

/* The $/progress kind of msg for token, or NULL. */
static const char *progress_kind(json_t *msg, const char *token) {
    const char *method = client_method(msg);
    json_t *params = json_object_get(msg, "params");
    const char *t = json_string_value(json_object_get(params, "token"));
    if (!method || strcmp(method, "$/progress") || !t || strcmp(t, token))
        return NULL;
    return json_string_value(json_object_get(json_object_get(params, "value"), "kind"));
}

static int64_t held_edit(client *c, const char *token) {
    return client_request(c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}],s:s}", "command", "sonicboom.edit", "arguments",
        "uri", URI, "instruction", "Make it louder", "workDoneToken", token));
}

/* Reads until token's progress reaches `kind`; fails on an answer to id
 * before that (e.g. "an edit is already running"). */
static void await_progress(client *c, int64_t id, const char *token, const char *kind) {
    json_t *m;
    while ((m = client_next(c))) {
        if (client_is_response(m, id))
            fail_msg("edit %s answered before its progress %s: %s", token, kind,
                     json_dumps(m, JSON_COMPACT));
        const char *k = progress_kind(m, token);
        bool found = k && !strcmp(k, kind);
        json_decref(m);
        if (found) return;
    }
    fail_msg("the server ended before %s's progress %s", token, kind);
}

static void test_next_edit_right_after_progress_end(void **state) {
    (void)state;
    char dir[] = "/tmp/sb-lsp-plugins-XXXXXX", model[64];
    assert_non_null(mkdtemp(dir));
    snprintf(model, sizeof model, "%s/chain.gguf", dir);
    sb_err err = {0};
    if (chain_model_write(model, "int A;\nint B;\nint C;\nint D;\n", &err))
        fail_msg("%s", err.msg);
    static char hold[] = "--test-hold-edits";
    char *args[] = {hold, NULL};
    client c;
    start_with(&c, true, args, model);
    client_notify(&c, "initialized", NULL);
    char token[16];
    int64_t id = 0;
    for (int round = 0; round < 5; round++) {
        snprintf(token, sizeof token, "t%d", round);
        id = held_edit(&c, token);
        await_progress(&c, id, token, "report"); /* held there */
        client_notify(&c, "window/workDoneProgress/cancel", json_pack("{s:s}", "token",
                                                                      token));
        /* the next edit goes out as soon as this progress ends, before the
         * -32800 answer: the server must already be free for it */
        await_progress(&c, id, token, "end");
    }
    /* the last one is answered -32800, nothing applied */
    json_t *r = await_response(&c, id);
    assert_int_equal(client_error_code(r), -32800);
    json_decref(r);
    shut(&c);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* ==== previewStreaming ==================================================== */

/* What one edit sent back: the reports' partial texts joined, checked
 * piece by piece, the applyEdit's edit and the result's sha256. */
typedef struct streamed {
    char *joined;       /* every report's sonicboom.text, in order */
    size_t joined_len;
    int pieces;         /* reports that carried text */
    size_t first_len;   /* bytes of the first piece */
    bool any_key;       /* a report had a "sonicboom" member at all */
    json_t *edit;       /* the applyEdit's params.edit (owned) */
    char sha256[80];
} streamed;

static void streamed_take_report(streamed *st, json_t *value) {
    json_t *partial = json_object_get(value, "sonicboom");
    if (!partial) return;
    st->any_key = true;
    json_t *text = json_object_get(partial, "text");
    assert_true(json_is_string(text));
    /* each piece continues the last: its offset is what came before */
    assert_int_equal(json_integer_value(json_object_get(partial, "offset")),
                     (json_int_t)st->joined_len);
    size_t n = json_string_length(text);
    assert_true(n > 0 && n <= LSP_MAX_PARTIAL_REPORT);
    if (st->pieces++ == 0) st->first_len = n;
    st->joined = realloc(st->joined, st->joined_len + n + 1);
    assert_non_null(st->joined);
    memcpy(st->joined + st->joined_len, json_string_value(text), n);
    st->joined_len += n;
    st->joined[st->joined_len] = '\0';
}

/* Runs one edit of TEXT (the whole document) with the chain model at
 * `model`, previewStreaming as given, and collects what came back. */
static void streamed_edit(const char *model, bool streaming, streamed *st) {
    memset(st, 0, sizeof *st);
    client c;
    client_start(&c, NULL, NULL);
    json_t *opts = json_pack("{s:s,s:i,s:b}", "model", model, "threads", 1,
                             "previewStreaming", streaming);
    int64_t init = client_request(&c, "initialize", json_pack(
        "{s:i,s:{},s:o}", "processId", (int)getpid(), "capabilities",
        "initializationOptions", opts));
    json_decref(await_response(&c, init));
    client_notify(&c, "initialized", NULL);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "c",
        "version", 4, "text", TEXT));
    int64_t id = held_edit(&c, "p");
    json_t *m;
    while ((m = client_next(&c))) {
        const char *method = client_method(m);
        json_t *params = json_object_get(m, "params");
        const char *kind = progress_kind(m, "p");
        if (kind && !strcmp(kind, "report")) {
            streamed_take_report(st, json_object_get(params, "value"));
        } else if (method && !strcmp(method, "workspace/applyEdit")) {
            st->edit = json_incref(json_object_get(params, "edit"));
            client_send(&c, json_pack("{s:O,s:{s:b}}", "id", json_object_get(m, "id"),
                                      "result", "applied", 1));
        } else if (client_is_response(m, id)) {
            const char *sha = json_string_value(json_object_get(
                json_object_get(m, "result"), "sha256"));
            assert_non_null(sha);
            snprintf(st->sha256, sizeof st->sha256, "%s", sha);
            json_decref(m);
            break;
        }
        json_decref(m);
    }
    assert_non_null(st->edit);
    shut(&c);
}

/* previewStreaming on: the reports carry the edit's text as it comes, in
 * pieces of at most LSP_MAX_PARTIAL_REPORT bytes cut between characters,
 * each continuing the last, together a prefix of the final text; the
 * edit itself is the same bits as with it off, whose reports carry
 * nothing new. The reply is one token (the chain model), so the first
 * report holds all of it that is sure: every line but the last "\n"
 * (the fence follows it) and no more than a report's cap, which falls
 * inside a two-byte character here (3-byte lines: 16384 = 3 * 5461 + 1). */
static void test_preview_streaming(void **state) {
    (void)state;
    char dir[] = "/tmp/sb-lsp-stream-XXXXXX", model[64];
    assert_non_null(mkdtemp(dir));
    snprintf(model, sizeof model, "%s/chain.gguf", dir);
    enum { LINES = 6000 };
    char *reply = malloc(3 * LINES + 1);
    assert_non_null(reply);
    for (int i = 0; i < LINES; i++) memcpy(reply + 3 * i, "\xc3\xa9\n", 3);
    reply[3 * LINES] = '\0';
    sb_err err = {0};
    if (chain_model_write(model, reply, &err)) fail_msg("%s", err.msg);

    streamed on, off;
    streamed_edit(model, true, &on);
    streamed_edit(model, false, &off);

    assert_true(on.pieces >= 1);
    assert_int_equal(on.first_len, 3 * (LSP_MAX_PARTIAL_REPORT / 3)); /* 16383 */
    assert_true(on.joined_len <= strlen(reply) - 1);
    assert_memory_equal(on.joined, reply, on.joined_len);
    /* the final result: unchanged, and the document made the reply */
    assert_false(off.any_key);
    assert_true(json_equal(on.edit, off.edit));
    assert_string_equal(on.sha256, off.sha256);
    json_t *edits = json_object_get(json_array_get(json_object_get(on.edit,
                                                   "documentChanges"), 0), "edits");
    if (!edits) edits = json_object_get(json_object_get(on.edit, "changes"), URI);
    /* one hunk: all of TEXT but its final "\n" (line 3, column 6), which
     * the reply ends with too, becomes the rest of the reply */
    assert_int_equal(json_array_size(edits), 1);
    json_t *e = json_array_get(edits, 0), *end = json_object_get(json_object_get(e, "range"), "end");
    assert_int_equal(json_integer_value(json_object_get(end, "line")), 3);
    assert_int_equal(json_integer_value(json_object_get(end, "character")), 6);
    json_t *new_text = json_object_get(e, "newText");
    assert_int_equal(json_string_length(new_text), strlen(reply) - 1);
    assert_memory_equal(json_string_value(new_text), reply, strlen(reply) - 1);
    free(on.joined);
    json_decref(on.edit);
    json_decref(off.edit);
    free(reply);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_is_offered_the_prompt),
        cmocka_unit_test(test_generic_client_gets_presets_only),
        cmocka_unit_test(test_next_edit_right_after_progress_end),
        cmocka_unit_test(test_preview_streaming),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
