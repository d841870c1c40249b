/* Tests of lsp/framing.c: Content-Length framing in and out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../lsp/lsp.h"

/* A source over a string that hands out at most `chunk` bytes per read,
 * so that headers and bodies arrive split anywhere. */
typedef struct mem_src {
    const char *p;
    size_t n, at, chunk;
} mem_src;

static ssize_t mem_read(void *ctx, void *buf, size_t n) {
    mem_src *m = ctx;
    size_t k = m->n - m->at;
    if (k > n) k = n;
    if (k > m->chunk) k = m->chunk;
    memcpy(buf, m->p + m->at, k);
    m->at += k;
    return (ssize_t)k;
}

static lsp_read_status next(lsp_reader *r, const char **body, size_t *len) {
    sb_err err = {0};
    lsp_read_status st = lsp_reader_next(r, body, len, &err);
    if (st != LSP_READ_OK && st != LSP_READ_EOF) assert_true(err.msg[0] != '\0');
    return st;
}

static void test_messages_in_any_chunks(void **state) {
    (void)state;
    static const char in[] =
        "Content-Length: 2\r\n\r\n{}"
        "content-length:3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]"
        "Content-Length: 4\n\n\"ab\"";
    for (size_t chunk = 1; chunk <= sizeof in; chunk *= 3) {
        mem_src m = {in, sizeof in - 1, 0, chunk};
        lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
        const char *b;
        size_t n;
        assert_int_equal(next(r, &b, &n), LSP_READ_OK);
        assert_int_equal(n, 2);
        assert_memory_equal(b, "{}", 2);
        assert_int_equal(next(r, &b, &n), LSP_READ_OK);
        assert_string_equal(b, "[1]");
        assert_int_equal(next(r, &b, &n), LSP_READ_OK);
        assert_string_equal(b, "\"ab\"");
        assert_int_equal(next(r, &b, &n), LSP_READ_EOF);
        lsp_reader_destroy(r);
    }
}

static void test_bad_headers_are_skipped(void **state) {
    (void)state;
    static const char in[] =
        "Garbage\r\n\r\n"                             /* no colon */
        "Content-Length: 1\r\nContent-Length: 1\r\n\r\n" /* twice */
        "Content-Type: x\r\n\r\n"                     /* no length */
        "Content-Length: -5\r\n\r\n"                  /* not a count */
        "Content-Length: 99999999999999999999999\r\n\r\n" /* overflows */
        "Content-Length: 2\r\n\r\nok";
    mem_src m = {in, sizeof in - 1, 0, 7};
    lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
    const char *b;
    size_t n;
    for (int i = 0; i < 5; i++) assert_int_equal(next(r, &b, &n), LSP_READ_BAD);
    assert_int_equal(next(r, &b, &n), LSP_READ_OK);
    assert_string_equal(b, "ok");
    lsp_reader_destroy(r);
}

/* A header block with a bad Content-Length that carries a body, then a
 * good message: the body's bytes must not be glued to the next header
 * (before, every later message got -32700). Each kind of bad length,
 * each body arriving in chunks of every size. */
static void test_bad_length_with_body_resyncs(void **state) {
    (void)state;
    static const char good[] = "Content-Length: 11\r\n\r\n{\"id\":\"ok\"}";
    static const struct {
        const char *head;
        lsp_read_status first; /* what the bad block reads as */
    } kinds[] = {
        {"Content-Length: -5\r\n\r\n", LSP_READ_BAD},        /* negative */
        {"Content-Length: 12abc\r\n\r\n", LSP_READ_BAD},     /* non-numeric */
        {"Content-Type: x\r\n\r\n", LSP_READ_BAD},           /* missing */
        {"Content-Length: 3\r\nContent-Length: 3\r\n\r\n", LSP_READ_BAD},
        {"Content-Length: 3\r\n\r\n", LSP_READ_OK},         /* too short */
    };
    static const char *const bodies[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}",
        "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"exit\"\n}",
        NULL, /* a body longer than a header line may be */
    };
    char big[3000];
    memset(big, ' ', sizeof big - 3);
    memcpy(big, "{\"a\":\"", 6);
    memcpy(big + sizeof big - 4, "\"}", 2);
    big[sizeof big - 2] = '\0';
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        for (size_t b = 0; b < 3; b++) {
            char in[4096];
            int len = snprintf(in, sizeof in, "%s%s%s", kinds[k].head,
                               bodies[b] ? bodies[b] : big, good);
            for (size_t chunk = 1; chunk <= (size_t)len; chunk *= 5) {
                mem_src m = {in, (size_t)len, 0, chunk};
                lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
                const char *body;
                size_t n;
                assert_int_equal(next(r, &body, &n), kinds[k].first);
                assert_int_equal(next(r, &body, &n), LSP_READ_OK);
                assert_string_equal(body, "{\"id\":\"ok\"}");
                assert_int_equal(next(r, &body, &n), LSP_READ_EOF);
                lsp_reader_destroy(r);
            }
        }
    }
}

/* Junk is only what cannot be a header name: "X-Content-Length" is a
 * header of its own (ignored), not a Content-Length with junk before it. */
static void test_named_header_is_not_junk(void **state) {
    (void)state;
    static const char in[] =
        "X-Content-Length: 99\r\nContent-Length: 2\r\n\r\nok";
    mem_src m = {in, sizeof in - 1, 0, 4};
    lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
    const char *b;
    size_t n;
    assert_int_equal(next(r, &b, &n), LSP_READ_OK);
    assert_string_equal(b, "ok");
    lsp_reader_destroy(r);
}

static void test_caps(void **state) {
    (void)state;
    char in[4096];
    /* a header line over LSP_MAX_HEADER_LINE, a body over the cap (10) */
    size_t k = 0;
    memset(in, 'h', 2000);
    k = 2000;
    k += (size_t)sprintf(in + k, ": v\r\n\r\n");
    k += (size_t)sprintf(in + k, "Content-Length: 11\r\n\r\n01234567890");
    k += (size_t)sprintf(in + k, "Content-Length: 10\r\n\r\n0123456789");
    mem_src m = {in, k, 0, 100};
    lsp_reader *r = lsp_reader_create(mem_read, &m, 10);
    const char *b;
    size_t n;
    assert_int_equal(next(r, &b, &n), LSP_READ_BAD);
    assert_int_equal(next(r, &b, &n), LSP_READ_TOO_LARGE);
    assert_int_equal(next(r, &b, &n), LSP_READ_OK); /* the big body skipped */
    assert_string_equal(b, "0123456789");
    lsp_reader_destroy(r);
}

static void test_truncated(void **state) {
    (void)state;
    static const char *const cases[] = {"Content-Len", "Content-Length: 5\r\n",
                                        "Content-Length: 5\r\n\r\nab"};
    for (int i = 0; i < 3; i++) {
        mem_src m = {cases[i], strlen(cases[i]), 0, 3};
        lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
        const char *b;
        size_t n;
        assert_int_equal(next(r, &b, &n), LSP_READ_TRUNCATED);
        lsp_reader_destroy(r);
    }
}

static void test_writer_round_trip(void **state) {
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    lsp_writer *w = lsp_writer_create(fds[1]);
    sb_err err = {0};
    assert_int_equal(lsp_writer_send(w, "{\"a\":1}", 7, &err), 0);
    assert_int_equal(lsp_writer_send(w, "", 0, &err), 0);
    close(fds[1]);
    lsp_reader *r = lsp_reader_from_fd(fds[0], 0);
    const char *b;
    size_t n;
    assert_int_equal(next(r, &b, &n), LSP_READ_OK);
    assert_string_equal(b, "{\"a\":1}");
    assert_int_equal(next(r, &b, &n), LSP_READ_OK);
    assert_int_equal(n, 0);
    assert_int_equal(next(r, &b, &n), LSP_READ_EOF);
    lsp_reader_destroy(r);
    close(fds[0]);
    /* a writer whose peer is gone fails, and keeps failing */
    assert_int_equal(pipe(fds), 0);
    close(fds[0]);
    lsp_writer_destroy(w);
    w = lsp_writer_create(fds[1]);
    sb_err e2 = {0};
    assert_int_equal(lsp_writer_send(w, "x", 1, &e2), -1);
    assert_true(e2.msg[0] != '\0');
    assert_int_equal(lsp_writer_send(w, "x", 1, &e2), -1);
    lsp_writer_destroy(w);
    close(fds[1]);
}

/* A NUL in a header line: "Content-Length: 2\0junk" was read as the C
 * string "Content-Length: 2" and accepted. It is a malformed header now
 * (-32700 in the server), and the next message reads as usual. */
static void test_nul_in_header(void **state) {
    (void)state;
    static const char in[] = "Content-Length: 2\0junk\r\n\r\n{}"
                             "Content-Length: 11\r\n\r\n{\"id\":\"ok\"}";
    mem_src m = {in, sizeof in - 1, 0, sizeof in};
    lsp_reader *r = lsp_reader_create(mem_read, &m, 0);
    const char *body;
    size_t n;
    sb_err err = {0};
    assert_int_equal(lsp_reader_next(r, &body, &n, &err), LSP_READ_BAD);
    assert_non_null(strstr(err.msg, "NUL"));
    assert_int_equal(next(r, &body, &n), LSP_READ_OK);
    assert_string_equal(body, "{\"id\":\"ok\"}");
    assert_int_equal(next(r, &body, &n), LSP_READ_EOF);
    lsp_reader_destroy(r);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nul_in_header),
        cmocka_unit_test(test_messages_in_any_chunks),
        cmocka_unit_test(test_bad_headers_are_skipped),
        cmocka_unit_test(test_bad_length_with_body_resyncs),
        cmocka_unit_test(test_named_header_is_not_junk),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_writer_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
