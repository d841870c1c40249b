/*
 * sb-lsp — the SonicBoom language server: `sb-lsp --stdio [options]`.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp.h"

/* ---- ending on a signal -------------------------------------------------- */

/* SIGTERM (what editors, process managers and `timeout` send), SIGINT and
 * SIGHUP end the server the way the end of its input does: the edit in
 * progress is cancelled and the session log gets its session's summary,
 * so `sb replay` does not call an intact log truncated. The signals are
 * blocked in every thread and taken by one thread of their own, which
 * may lock, join and write (a handler may not). */
typedef struct main__signals {
    sigset_t set;
    lsp_server *server;
    pthread_mutex_t lock; /* held while the server is finished or freed */
    bool done;            /* main is destroying the server itself */
} main__signals;

static void *main__signal_thread(void *arg) {
    main__signals *g = arg;
    int sig = 0;
    if (sigwait(&g->set, &sig) != 0) return NULL;
    pthread_mutex_lock(&g->lock);
    if (!g->done) {
        lsp_server_finish(g->server);
        _exit(128 + sig); /* the shell's code for "ended by sig" */
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

static void main__help(void) {
    fputs("usage: sb-lsp --stdio [options]\n"
          "Speaks LSP (JSON-RPC 2.0) on stdin/stdout. Each option is also an\n"
          "environment variable (second column) and a key of the client's\n"
          "initializationOptions (third column), which wins over both; a flag\n"
          "wins over the variable (docs/environment.md):\n", stdout);
    lsp_options_help(stdout);
    fputs("      --test-hold-edits\n"
          "        for tests: an edit waits after its first progress report\n"
          "        until it is cancelled\n"
          "      --test-report-steps\n"
          "        for tests: a progress report after every step of an edit\n"
          "        (not at most 10 a second)\n", stdout);
}

/* getopt_long's table: --stdio, --help, the two test flags, then every
 * option of lsp_option_at (val MAIN__OPTION + its index). */
enum { MAIN__STDIO = 1, MAIN__HELP, MAIN__HOLD, MAIN__STEPS, MAIN__OPTION = 256,
       MAIN__MAX_OPTIONS = 64 };

static void main__longs(struct option *longs) {
    int n = 0;
    longs[n++] = (struct option){"stdio", 0, 0, MAIN__STDIO};
    longs[n++] = (struct option){"help", 0, 0, MAIN__HELP};
    longs[n++] = (struct option){"test-hold-edits", 0, 0, MAIN__HOLD};
    longs[n++] = (struct option){"test-report-steps", 0, 0, MAIN__STEPS};
    for (int i = 0; i < lsp_option_count() && i < MAIN__MAX_OPTIONS; i++)
        longs[n++] = (struct option){lsp_option_at(i).flag, 1, 0,
                                     MAIN__OPTION + i};
    longs[n] = (struct option){0, 0, 0, 0};
}

/* The option a getopt value sets, or NULL: -m is --model. */
static const char *main__key(int c) {
    if (c == 'm') return "model";
    if (c >= MAIN__OPTION && c < MAIN__OPTION + lsp_option_count())
        return lsp_option_at(c - MAIN__OPTION).key;
    return NULL;
}

int main(int argc, char **argv) {
    static struct option longs[MAIN__MAX_OPTIONS + 5];
    main__longs(longs);
    lsp_config cfg;
    lsp_config_defaults(&cfg);
    sb_err err = {0};
    if (lsp_config_from_env(&cfg, &err) ||
        krn_tuning_from_env(&cfg.tuning, getenv, &err)) {
        fprintf(stderr, "sb-lsp: %s\n", err.msg);
        lsp_config_free(&cfg);
        return 2;
    }
    bool stdio = false;
    int c;
    opterr = 0; /* the one line below says it */
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        const char *key = main__key(c);
        if (c == MAIN__STDIO) {
            stdio = true;
        } else if (c == MAIN__HOLD) {
            cfg.test_hold = true;
        } else if (c == MAIN__STEPS) {
            cfg.test_report_steps = true;
        } else if (c == 'h' || c == MAIN__HELP) {
            main__help();
            lsp_config_free(&cfg);
            return 0;
        } else if (key) {
            if (lsp_config_set(&cfg, key, optarg, &err)) {
                fprintf(stderr, "sb-lsp: %s\n", err.msg);
                lsp_config_free(&cfg);
                return 2;
            }
        } else {
            fprintf(stderr, "sb-lsp: option '%s': unknown, or given without "
                    "its value (see sb-lsp --help)\n", argv[optind - 1]);
            lsp_config_free(&cfg);
            return 2;
        }
    }
    if (!stdio || optind < argc) {
        fprintf(stderr, "sb-lsp: %s (see sb-lsp --help)\n", !stdio
                ? "only --stdio is supported: give --stdio"
                : "unexpected argument");
        lsp_config_free(&cfg);
        return 2;
    }
    /* A client that goes away must not kill us mid-write: the write fails
     * instead, and the loop ends at the next read. */
    signal(SIGPIPE, SIG_IGN);
    /* Likewise a file size limit (ulimit -f) reached by the session log:
     * the append fails with EFBIG and the user is told, the session goes
     * on (docs/limits.md, "Files"). */
    signal(SIGXFSZ, SIG_IGN);
    static main__signals g = {.lock = PTHREAD_MUTEX_INITIALIZER};
    sigemptyset(&g.set);
    sigaddset(&g.set, SIGTERM);
    sigaddset(&g.set, SIGINT);
    sigaddset(&g.set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &g.set, NULL); /* before any thread starts */
    lsp_server *s = lsp_server_create(&cfg, 1, &err);
    lsp_config_free(&cfg);
    if (!s) {
        fprintf(stderr, "sb-lsp: %s\n", err.msg);
        return 1;
    }
    g.server = s;
    pthread_t sig_thread;
    bool sig_started = pthread_create(&sig_thread, NULL, main__signal_thread,
                                      &g) == 0;
    int code = lsp_server_run(s, 0);
    pthread_mutex_lock(&g.lock);
    g.done = true;
    pthread_mutex_unlock(&g.lock);
    if (sig_started) pthread_detach(sig_thread);
    lsp_server_destroy(s);
    return code;
}
