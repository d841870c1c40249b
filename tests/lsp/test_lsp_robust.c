/*
 * Tests of sb-lsp against bad input, over pipes: each malformed message
 * gets the right JSON-RPC error (or, for a notification, nothing that
 * changes state), the server never crashes, open documents are never
 * disturbed, and the process exits with the code the specification asks.
 *
 * The document is observed through codeAction: an empty selection edits the
 * whole document, so the action's range ends at the document's end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lsp_client.h"

static char no_model[] = "SB_MODEL=";
static char *const clean_env[] = {no_model, NULL};
static const char *const URI = "file:///tmp/robust.txt";

/* The next message that is a response (has no method). */
static json_t *next_response(client *c) {
    json_t *m;
    while ((m = client_next(c))) {
        if (!client_method(m)) return m;
        json_decref(m);
    }
    fail_msg("the server ended without a response");
    return NULL;
}

/* Sends one framed body as given. */
static void send_body(client *c, const char *body) {
    char head[64];
    int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    client_raw(c, head, (size_t)n);
    client_raw(c, body, strlen(body));
}

/* The next response's error code; it must carry id (NULL: JSON null). */
static int expect_error(client *c, json_t *id) {
    json_t *r = next_response(c);
    json_t *rid = json_object_get(r, "id");
    if (id) assert_true(json_equal(rid, id));
    else assert_true(json_is_null(rid));
    int code = client_error_code(r);
    json_decref(r);
    json_decref(id);
    return code;
}

static void initialize(client *c, json_t *opts) {
    int64_t id = client_request(c, "initialize", json_pack(
        "{s:{},s:o}", "capabilities", "initializationOptions",
        opts ? opts : json_object()));
    json_t *r = next_response(c);
    assert_true(client_is_response(r, id));
    assert_non_null(json_object_get(r, "result"));
    json_decref(r);
    client_notify(c, "initialized", NULL);
}

/* The end of the document as the empty-selection code action sees it;
 * line -1 when no action was offered (the document is not open). */
static lsp_pos doc_end(client *c, const char *uri) {
    int64_t id = client_request(c, "textDocument/codeAction", json_pack(
        "{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}", "textDocument", "uri",
        uri, "range", "start", "line", 0, "character", 0, "end", "line", 0,
        "character", 0, "context", "diagnostics"));
    json_t *r = next_response(c);
    assert_true(client_is_response(r, id));
    json_t *act = json_array_get(json_object_get(r, "result"), 0);
    lsp_pos p = {-1, -1};
    if (act) {
        json_t *end = json_object_get(json_object_get(json_array_get(json_object_get(
            json_object_get(act, "command"), "arguments"), 0), "range"), "end");
        p.line = json_integer_value(json_object_get(end, "line"));
        p.character = json_integer_value(json_object_get(end, "character"));
    }
    json_decref(r);
    return p;
}

static void test_before_initialize_and_framing(void **state) {
    (void)state;
    client c;
    client_start(&c, clean_env, NULL);
    /* a request before initialize */
    client_request(&c, "textDocument/codeAction", json_object());
    assert_int_equal(expect_error(&c, json_integer(1)), -32002);
    /* invalid JSON */
    send_body(&c, "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": ");
    assert_int_equal(expect_error(&c, NULL), -32700);
    /* malformed headers: no Content-Length, a non-number, a huge line */
    client_raw(&c, "Content-Type: x\r\n\r\n", 19);
    assert_int_equal(expect_error(&c, NULL), -32700);
    client_raw(&c, "Content-Length: 12abc\r\n\r\n", 25);
    assert_int_equal(expect_error(&c, NULL), -32700);
    char big[3000];
    memset(big, 'x', sizeof big);
    client_raw(&c, big, sizeof big);
    client_raw(&c, ": 1\r\n\r\n", 7);
    assert_int_equal(expect_error(&c, NULL), -32700);
    /* not a request object: a batch, a bad id, a wrong jsonrpc */
    send_body(&c, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}]");
    assert_int_equal(expect_error(&c, NULL), -32600);
    send_body(&c, "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"shutdown\"}");
    assert_int_equal(expect_error(&c, NULL), -32600);
    send_body(&c, "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"shutdown\"}");
    assert_int_equal(expect_error(&c, json_integer(3)), -32600);
    send_body(&c, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":17}");
    assert_int_equal(expect_error(&c, json_integer(4)), -32600);
    /* a message over the cap is answered at once; the input then ends in
     * the middle of its body: a clean exit, status 1 */
    client_raw(&c, "Content-Length: 100000000\r\n\r\n{", 30);
    assert_int_equal(expect_error(&c, NULL), -32600);
    assert_int_equal(client_finish(&c), 1);
}

static void test_after_initialize(void **state) {
    (void)state;
    client c;
    client_start(&c, clean_env, NULL);
    /* a missing model and a mistyped option: told, and the server stays up */
    int64_t init = client_request(&c, "initialize", json_pack(
        "{s:{},s:{s:s,s:s}}", "capabilities", "initializationOptions", "model",
        "/nonexistent/model.gguf", "threads", "many"));
    client_notify(&c, "initialized", NULL);
    bool answered = false, option_told = false, model_told = false;
    json_t *m;
    while (!(answered && option_told && model_told) && (m = client_next(&c))) {
        const char *method = client_method(m);
        answered |= client_is_response(m, init) && json_object_get(m, "result");
        if (method && !strcmp(method, "window/showMessage")) {
            const char *text = json_string_value(json_object_get(
                json_object_get(m, "params"), "message"));
            option_told |= strstr(text, "threads") != NULL;
            model_told |= strstr(text, "/nonexistent/model.gguf") != NULL;
        }
        json_decref(m);
    }
    assert_true(answered && option_told && model_told);

    /* initialize again, unknown methods, wrong parameter types */
    client_request(&c, "initialize", json_pack("{s:{}}", "capabilities"));
    assert_int_equal(expect_error(&c, json_integer(2)), -32600);
    client_notify(&c, "$/unknownNotification", NULL); /* ignored: no answer */
    client_request(&c, "textDocument/hover", json_object());
    assert_int_equal(expect_error(&c, json_integer(3)), -32601);
    client_request(&c, "textDocument/codeAction", json_pack(
        "{s:{s:s},s:s}", "textDocument", "uri", URI, "range", "x"));
    assert_int_equal(expect_error(&c, json_integer(4)), -32602);
    send_body(&c, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"shutdown\",\"params\":3}");
    assert_int_equal(expect_error(&c, json_integer(5)), -32602);
    c.next_id = 6;
    client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:s}", "command", "sonicboom.edit", "arguments", "x"));
    assert_int_equal(expect_error(&c, json_integer(6)), -32602);
    client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[]}", "command", "rm -rf", "arguments"));
    assert_int_equal(expect_error(&c, json_integer(7)), -32602);

    /* a notification carrying an id is refused and not acted on */
    client_send(&c, json_pack("{s:i,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "id", 50,
                              "method", "textDocument/didOpen", "params",
                              "textDocument", "uri", URI, "languageId", "text",
                              "version", 1, "text", "zzz\n"));
    assert_int_equal(expect_error(&c, json_integer(50)), -32600);
    assert_int_equal(doc_end(&c, URI).line, -1);

    /* a good open, then bad changes that must leave it as it is */
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "text",
        "version", 1, "text", "a\nbb\n"));
    lsp_pos end = doc_end(&c, URI);
    assert_int_equal(end.line, 2);
    assert_int_equal(end.character, 0);
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s},{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}]}",
        "textDocument", "uri", URI, "version", 2, "contentChanges",
        "text", "a whole new text\nwith\nlines\n",
        "range", "start", "line", 1, "character", 0, "end", "line", 0,
        "character", 0, "text", "reversed"));
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:s}", "textDocument", "uri", URI, "version", 3,
        "contentChanges", "not an array"));
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:i}]}", "textDocument", "uri", URI, "version", 4,
        "contentChanges", "text", 5));
    client_notify(&c, "textDocument/didOpen", json_pack("{s:i}", "textDocument", 3));
    end = doc_end(&c, URI);
    assert_int_equal(end.line, 2);
    assert_int_equal(end.character, 0);
    /* the editor went on from texts we refused: no edit runs on ours
     * (ContentModified) until it sends the whole text again */
    int64_t sid = client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}]}", "command", "sonicboom.edit", "arguments", "uri",
        URI, "instruction", "x"));
    json_t *sr = next_response(&c);
    assert_true(client_is_response(sr, sid));
    assert_int_equal(client_error_code(sr), -32801);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(
        sr, "error"), "message")), "out of sync"));
    json_decref(sr);
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", 5,
        "contentChanges", "text", "a\nbb\n"));
    /* an edit without a model: a clear failure, the user told again */
    int64_t id = client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}]}", "command", "sonicboom.edit", "arguments", "uri",
        URI, "instruction", "x"));
    json_t *r = next_response(&c);
    assert_true(client_is_response(r, id));
    assert_int_equal(client_error_code(r), -32803);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(r, "error"),
                                                             "message")), "model"));
    json_decref(r);
    /* a stale version is refused up front */
    client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s,s:i}]}", "command", "sonicboom.edit", "arguments", "uri",
        URI, "instruction", "x", "version", 9));
    assert_int_equal(expect_error(&c, json_integer(id + 1)), -32801);

    /* after shutdown requests are refused; exit after shutdown: status 0 */
    id = client_request(&c, "shutdown", NULL);
    r = next_response(&c);
    assert_true(client_is_response(r, id));
    json_decref(r);
    client_request(&c, "textDocument/codeAction", json_object());
    assert_int_equal(expect_error(&c, json_integer(id + 1)), -32600);
    client_notify(&c, "exit", NULL);
    assert_int_equal(client_finish(&c), 0);
}

/* The result of a codeAction request: proof that a message after a broken
 * one is read and answered. */
static void expect_answered(client *c) {
    int64_t id = client_request(c, "textDocument/codeAction", json_pack(
        "{s:{s:s},s:{s:{s:i,s:i},s:{s:i,s:i}},s:{s:[]}}", "textDocument", "uri",
        URI, "range", "start", "line", 0, "character", 0, "end", "line", 0,
        "character", 0, "context", "diagnostics"));
    json_t *r = next_response(c);
    assert_true(client_is_response(r, id));
    assert_non_null(json_object_get(r, "result"));
    json_decref(r);
}

/* Each kind of bad Content-Length carrying a body, glued to a good request:
 * one -32700 for the bad message, then the good one answered (before,
 * every later message, shutdown included, got -32700). */
static void test_framing_recovers(void **state) {
    (void)state;
    static const char *const heads[] = {
        "Content-Length: -5\r\n\r\n",                       /* negative */
        "Content-Length: 1x\r\n\r\n",                       /* non-numeric */
        "Content-Type: x\r\n\r\n",                          /* missing */
        "Content-Length: 9\r\nContent-Length: 9\r\n\r\n",   /* duplicated */
        "Content-Length: 9\r\n\r\n",                        /* too short */
    };
    static const char body[] = "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":"
                               "\"textDocument/codeAction\",\"params\":{}}";
    client c;
    client_start(&c, clean_env, NULL);
    initialize(&c, NULL);
    for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++) {
        client_raw(&c, heads[k], strlen(heads[k]));
        client_raw(&c, body, strlen(body));
        assert_int_equal(expect_error(&c, NULL), -32700);
        expect_answered(&c);
    }
    /* the last kind again, glued to shutdown itself */
    client_raw(&c, heads[0], strlen(heads[0]));
    client_raw(&c, body, strlen(body));
    assert_int_equal(expect_error(&c, NULL), -32700);
    int64_t id = client_request(&c, "shutdown", NULL);
    json_t *r = next_response(&c);
    assert_true(client_is_response(r, id));
    assert_null(json_object_get(r, "error"));
    json_decref(r);
    client_notify(&c, "exit", NULL);
    assert_int_equal(client_finish(&c), 0);
}

/* A NUL inside a string: "shutdown\u0000anything" is not shutdown, and a
 * URI with a NUL is not its prefix. */
static void test_nul_in_strings(void **state) {
    (void)state;
    client c;
    client_start(&c, clean_env, NULL);
    initialize(&c, NULL);
    send_body(&c, "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"shutdown\\u0000x\"}");
    assert_int_equal(expect_error(&c, json_integer(40)), -32600);
    expect_answered(&c); /* not shut down: a request still runs */
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "text",
        "version", 1, "text", "a\nbb\n"));
    /* the same URI with a NUL and more: refused, the document unchanged */
    char msg[512];
    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\","
             "\"params\":{\"textDocument\":{\"uri\":\"%s\\u0000.evil\",\"languageId\":"
             "\"text\",\"version\":1,\"text\":\"x\"}}}", URI);
    send_body(&c, msg);
    lsp_pos end = doc_end(&c, URI);
    assert_int_equal(end.line, 2);
    assert_int_equal(end.character, 0);
    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":"
             "\"workspace/executeCommand\",\"params\":{\"command\":\"sonicboom.edit\","
             "\"arguments\":[{\"uri\":\"%s\\u0000.evil\",\"instruction\":\"x\"}]}}", URI);
    send_body(&c, msg);
    assert_int_equal(expect_error(&c, json_integer(41)), -32602);
    /* a document's text may hold a NUL: it is kept whole */
    send_body(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":"
              "{\"textDocument\":{\"uri\":\"file:///tmp/robust.txt\",\"version\":2},"
              "\"contentChanges\":[{\"text\":\"a\\u0000b\\nzz\"}]}}");
    end = doc_end(&c, URI);
    assert_int_equal(end.line, 1);
    assert_int_equal(end.character, 2);
    assert_int_equal(client_finish(&c), 1);
}

/* Asserts that the server logged (window/logMessage) something containing
 * needle for the messages sent so far: a request sent after them is a
 * barrier, since the server handles messages in order and logs from the
 * handler, so the log comes before the barrier's answer. */
static void expect_log(client *c, const char *needle) {
    int64_t barrier = client_request(c, "sonicboom/barrier", NULL);
    bool seen = false;
    json_t *m;
    while ((m = client_next(c))) {
        const char *method = client_method(m);
        const char *text = json_string_value(json_object_get(
            json_object_get(m, "params"), "message"));
        seen |= method && !strcmp(method, "window/logMessage") && text &&
                strstr(text, needle);
        bool done = client_is_response(m, barrier);
        json_decref(m);
        if (done) break;
    }
    if (!seen) fail_msg("no log message containing '%s'", needle);
}

/* An edit request's error code and whether its message holds needle. */
static int edit_error(client *c, const char *needle) {
    int64_t id = client_request(c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}]}", "command", "sonicboom.edit", "arguments", "uri",
        URI, "instruction", "x"));
    json_t *r = next_response(c);
    assert_true(client_is_response(r, id));
    int code = client_error_code(r);
    const char *msg = json_string_value(json_object_get(json_object_get(r, "error"),
                                                        "message"));
    assert_non_null(msg);
    assert_non_null(strstr(msg, needle));
    json_decref(r);
    return code;
}

static void change_whole(client *c, int version, const char *text) {
    client_notify(c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:s}]}", "textDocument", "uri", URI, "version", version,
        "contentChanges", "text", text));
}

/* A didChange whose version does not increase is refused and told, the
 * document is out of sync (no edit runs on it) until the whole text comes
 * again (versions were once not checked). */
static void test_versions(void **state) {
    (void)state;
    client c;
    client_start(&c, clean_env, NULL);
    initialize(&c, NULL);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "text",
        "version", 3, "text", "a\nbb\n"));
    change_whole(&c, 3, "replayed\n");
    expect_log(&c, "versions must increase");
    assert_int_equal(doc_end(&c, URI).line, 2); /* not applied */
    assert_int_equal(edit_error(&c, "out of sync"), -32801);
    change_whole(&c, 4, "one\ntwo\nthree\n");
    assert_int_equal(doc_end(&c, URI).line, 3);
    assert_int_equal(edit_error(&c, "model"), -32803); /* in sync: runs */
    assert_int_equal(client_finish(&c), 1);
}

/* Each limit gives a clear error, and the server keeps answering. */
static void test_limits(void **state) {
    (void)state;
    client c;
    client_start(&c, clean_env, NULL);
    initialize(&c, NULL);
    client_notify(&c, "textDocument/didOpen", json_pack(
        "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", URI, "languageId", "text",
        "version", 1, "text", "a\nbb\n"));
    /* changes per didChange */
    json_t *many = json_array();
    for (int i = 0; i <= LSP_MAX_CHANGES; i++)
        json_array_append_new(many, json_pack("{s:s}", "text", "x"));
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:o}", "textDocument", "uri", URI, "version", 2,
        "contentChanges", many));
    expect_log(&c, "at most 65536 in one didChange");
    assert_int_equal(doc_end(&c, URI).line, 2);
    change_whole(&c, 3, "a\nbb\n");
    /* the instruction's length */
    char *instr = malloc(LSP_MAX_INSTRUCTION + 2);
    memset(instr, 'i', LSP_MAX_INSTRUCTION + 1);
    instr[LSP_MAX_INSTRUCTION + 1] = '\0';
    int64_t id = client_request(&c, "workspace/executeCommand", json_pack(
        "{s:s,s:[{s:s,s:s}]}", "command", "sonicboom.edit", "arguments", "uri",
        URI, "instruction", instr));
    free(instr);
    json_t *r = next_response(&c);
    assert_true(client_is_response(r, id));
    assert_int_equal(client_error_code(r), -32602);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(
        r, "error"), "message")), "expected 1..65536 bytes"));
    json_decref(r);
    /* open documents */
    for (int i = 1; i <= LSP_MAX_DOCUMENTS; i++) {
        char uri[40];
        snprintf(uri, sizeof uri, "file:///tmp/limit-%d.txt", i);
        client_notify(&c, "textDocument/didOpen", json_pack(
            "{s:{s:s,s:s,s:i,s:s}}", "textDocument", "uri", uri, "languageId",
            "text", "version", 1, "text", "x\n"));
    }
    expect_log(&c, "at most 1024 open at once");
    assert_int_equal(doc_end(&c, "file:///tmp/limit-1024.txt").line, -1);
    assert_int_equal(doc_end(&c, "file:///tmp/limit-1023.txt").line, 1);
    /* the document's size: 5/8 of the limit, then a change adding 1/2 more
     * (each message under the message limit) */
    const int64_t base = LSP_MAX_DOCUMENT / 8 * 5, more = LSP_MAX_DOCUMENT / 2;
    char *big = malloc((size_t)base + 1);
    memset(big, 'h', (size_t)base);
    big[base] = '\0';
    change_whole(&c, 4, big);
    big[more] = '\0';
    client_notify(&c, "textDocument/didChange", json_pack(
        "{s:{s:s,s:i},s:[{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}]}",
        "textDocument", "uri", URI, "version", 5, "contentChanges",
        "range", "start", "line", 0, "character", 0, "end", "line", 0,
        "character", 0, "text", big));
    free(big);
    expect_log(&c, "would make the document");
    lsp_pos end = doc_end(&c, URI);
    assert_int_equal(end.line, 0);
    assert_int_equal(end.character, base);
    /* a message over the limit: refused at once, its body dropped as it
     * comes, and the next message read as usual */
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %d\r\n\r\n",
                      LSP_MAX_MESSAGE + 1);
    client_raw(&c, head, (size_t)hn);
    assert_int_equal(expect_error(&c, NULL), -32600);
    char *chunk = malloc(1 << 20);
    memset(chunk, ' ', 1 << 20);
    for (int k = 0; k < LSP_MAX_MESSAGE >> 20; k++) client_raw(&c, chunk, 1 << 20);
    client_raw(&c, "}", 1);
    free(chunk);
    assert_int_equal(doc_end(&c, URI).line, 0);
    /* still answering, and shuts down cleanly */
    id = client_request(&c, "shutdown", NULL);
    r = next_response(&c);
    assert_true(client_is_response(r, id));
    json_decref(r);
    client_notify(&c, "exit", NULL);
    assert_int_equal(client_finish(&c), 0);
}

static void test_exit_codes(void **state) {
    (void)state;
    client c;
    /* exit without shutdown: 1 */
    client_start(&c, clean_env, NULL);
    initialize(&c, NULL);
    client_notify(&c, "exit", NULL);
    assert_int_equal(client_finish(&c), 1);
    /* the input ends inside a header: 1, no crash */
    client_start(&c, clean_env, NULL);
    client_raw(&c, "Content-Len", 11);
    assert_int_equal(client_finish(&c), 1);
    /* the input ends inside a body: 1 */
    client_start(&c, clean_env, NULL);
    client_raw(&c, "Content-Length: 50\r\n\r\n{\"jsonrpc\"", 32);
    assert_int_equal(client_finish(&c), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_before_initialize_and_framing),
        cmocka_unit_test(test_after_initialize),
        cmocka_unit_test(test_framing_recovers),
        cmocka_unit_test(test_nul_in_strings),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_exit_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
