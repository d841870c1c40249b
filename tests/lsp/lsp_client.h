/*
 * lsp_client.h — test support for tests/lsp: a minimal LSP client that runs
 * $SB_BUILD/sb-lsp --stdio on pipes, sends messages, and reads the
 * server's messages back through lsp/'s own framing reader. Included by
 * one test file each (static functions).
 *
 * A read waits at most CLIENT_WAIT_S seconds: a guard against a hung
 * server (the test then fails), never a measurement.
 */
#ifndef SB_TESTS_LSP_CLIENT_H
#define SB_TESTS_LSP_CLIENT_H

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../lsp/lsp.h"

enum { CLIENT_WAIT_S = 120 };

typedef struct client {
    pid_t pid;
    int to, from;        /* our ends of the server's stdin and stdout */
    lsp_reader *reader;
    int64_t next_id;
} client;

static ssize_t client__read(void *ctx, void *buf, size_t n) {
    int fd = *(int *)ctx;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc;
    do rc = poll(&p, 1, CLIENT_WAIT_S * 1000);
    while (rc < 0 && errno == EINTR);
    if (rc == 0) {
        fprintf(stderr, "client: no answer from sb-lsp in %d s\n", CLIENT_WAIT_S);
        errno = ETIMEDOUT;
        return -1;
    }
    return read(fd, buf, n);
}

/* Starts sb-lsp --stdio with `env` (NULL-terminated "K=V" list, added to
 * ours; may be NULL) and extra argv entries (may be NULL). */
static void client_start(client *c, char *const *env, char *const *args) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) abort();
    signal(SIGPIPE, SIG_IGN);
    const char *build = getenv("SB_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/sb-lsp", build && *build ? build : "build");
    c->pid = fork();
    if (c->pid < 0) abort();
    if (c->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        for (int i = 0; env && env[i]; i++) putenv(env[i]);
        char *argv[16] = {path, "--stdio"};
        int n = 2;
        for (int i = 0; args && args[i] && n < 15; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(path, argv);
        perror(path);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    c->reader = lsp_reader_create(client__read, &c->from, 0);
    c->next_id = 1;
}

/* Writes raw bytes to the server. */
static void client_raw(client *c, const void *p, size_t n) {
    const char *b = p;
    while (n > 0) {
        ssize_t k = write(c->to, b, n);
        if (k <= 0) return; /* the server may already be gone */
        b += k;
        n -= (size_t)k;
    }
}

/* Frames and sends msg (takes the reference). */
static void client_send(client *c, json_t *msg) {
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(text));
    client_raw(c, head, (size_t)hn);
    client_raw(c, text, strlen(text));
    free(text);
}

static int64_t client_request(client *c, const char *method, json_t *params) {
    int64_t id = c->next_id++;
    client_send(c, json_pack("{s:I,s:s,s:o}", "id", (json_int_t)id, "method",
                             method, "params", params ? params : json_object()));
    return id;
}

static void client_notify(client *c, const char *method, json_t *params) {
    client_send(c, json_pack("{s:s,s:o}", "method", method,
                             "params", params ? params : json_object()));
}

/* The next message from the server, or NULL at its end of output. */
static json_t *client_next(client *c) {
    const char *body;
    size_t len;
    sb_err err = {0};
    lsp_read_status st = lsp_reader_next(c->reader, &body, &len, &err);
    if (st != LSP_READ_OK) return NULL;
    return json_loadb(body, len, 0, NULL);
}

/* True when msg is the response to request id. */
static bool client_is_response(json_t *msg, int64_t id) {
    json_t *v = json_object_get(msg, "id");
    return !json_object_get(msg, "method") && json_is_integer(v) &&
           json_integer_value(v) == id;
}

static const char *client_method(json_t *msg) {
    return json_string_value(json_object_get(msg, "method"));
}

/* The error code of a response, or 0 when it has none. */
static int client_error_code(json_t *msg) {
    json_t *e = json_object_get(msg, "error");
    return e ? (int)json_integer_value(json_object_get(e, "code")) : 0;
}

/* Closes our end of its stdin and waits for the server; its exit status
 * (-1 when it did not exit normally). */
static int client_finish(client *c) {
    close(c->to);
    /* drain whatever it still says, so it never blocks writing */
    json_t *m;
    while ((m = client_next(c))) json_decref(m);
    int status = 0;
    waitpid(c->pid, &status, 0);
    close(c->from);
    lsp_reader_destroy(c->reader);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
