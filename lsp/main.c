/*
 * sb-lsp — the SonicBoom language server: `sb-lsp --stdio [options]`.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
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

static const char *lsp__help =
    "usage: sb-lsp --stdio [options]\n"
    "Speaks LSP (JSON-RPC 2.0) on stdin/stdout. Options, also settable as\n"
    "environment variables (second column) and as the client's\n"
    "initializationOptions (third column), which win over both:\n"
    "  -m, --model FILE     SB_MODEL        model        GGUF model (default:\n"
    "                                                    the demo model)\n"
    "      --device D       SB_DEVICE       device       cpu (default) or cuda\n"
    "      --threads N      SB_THREADS      threads      CPU threads (0: all)\n"
    "      --seed S         SB_SEED         seed         sampling seed (0)\n"
    "      --temperature T  SB_TEMPERATURE  temperature  0 = greedy (default)\n"
    "      --log FILE       SB_LOG          log          session log (JSON lines)\n"
    "      --max-tokens N   SB_MAX_TOKENS   maxTokens    output cap (0: auto)\n"
    "      --speculation on|off SB_SPECULATION speculation  (default on)\n"
    "      --warmup FILE    SB_WARMUP       warmup       a warm-up table (sb warmup\n"
    "                                                    --export): its configuration,\n"
    "                                                    fingerprint checked\n"
    "      --cost-table FILE SB_COST_TABLE costTable   step cost by rows that\n"
    "                                                    drafts are sized by\n"
    "                                                    ('ROWS COST' lines;\n"
    "                                                    default: H200 times)\n"
    "      --prompt v1|v2|auto SB_PROMPT_VERSION promptVersion  edit prompt (auto:\n"
    "                                                    the model's; docs/lsp.md)\n"
    "      --context file|region SB_CONTEXT  context      v2: the document shown\n"
    "                                                    before the region (file)\n"
    "      --context-budget N SB_CONTEXT_BUDGET contextBudget  tokens (0: half\n"
    "                                                    the context)\n"
    "      --cache-mb N     SB_CACHE_MB     cacheMemoryMB  sessions kept, one per\n"
    "                                                    document (1024 MiB)\n"
    "      --prefix-cache on|off SB_PREFIX_CACHE prefixCache  (default on)\n";

int main(int argc, char **argv) {
    static const struct option longs[] = {
        {"stdio", 0, 0, 'i'}, {"model", 1, 0, 'm'}, {"device", 1, 0, 'D'},
        {"threads", 1, 0, 't'}, {"seed", 1, 0, 'S'}, {"temperature", 1, 0, 'T'},
        {"log", 1, 0, 'l'}, {"max-tokens", 1, 0, 'n'}, {"speculation", 1, 0, 'P'},
        {"warmup", 1, 0, 'W'}, {"cost-table", 1, 0, 'C'}, {"help", 0, 0, 'h'},
        {"prompt", 1, 0, 'V'}, {"context", 1, 0, 'K'}, {"context-budget", 1, 0, 'B'},
        {"cache-mb", 1, 0, 'M'}, {"prefix-cache", 1, 0, 'R'}, {0, 0, 0, 0}};
    static const char *keys[128] = {
        ['m'] = "model", ['D'] = "device", ['t'] = "threads", ['S'] = "seed",
        ['T'] = "temperature", ['l'] = "log", ['n'] = "maxTokens",
        ['P'] = "speculation", ['W'] = "warmup", ['C'] = "costTable",
        ['V'] = "promptVersion", ['K'] = "context", ['B'] = "contextBudget",
        ['M'] = "cacheMemoryMB", ['R'] = "prefixCache"};
    lsp_config cfg;
    lsp_config_defaults(&cfg);
    sb_err err = {0};
    if (lsp_config_from_env(&cfg, &err)) {
        fprintf(stderr, "sb-lsp: %s\n", err.msg);
        lsp_config_free(&cfg);
        return 2;
    }
    bool stdio = false;
    int c;
    opterr = 0; /* the one line below says it */
    while ((c = getopt_long(argc, argv, "m:h", longs, NULL)) != -1) {
        if (c == 'i') {
            stdio = true;
        } else if (c == 'h') {
            fputs(lsp__help, stdout);
            lsp_config_free(&cfg);
            return 0;
        } else if (c > 0 && c < 128 && keys[c]) {
            if (lsp_config_set(&cfg, keys[c], optarg, &err)) {
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
