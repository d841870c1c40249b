/*
 * pool.c — a persistent thread pool with a parallel-for whose workers join
 * when they can.
 *
 * A run publishes (fn, ctx), opens the run under a new generation and wakes
 * the workers; the caller works as thread 0. Tasks claim their work items
 * from a shared counter (forward.c, matmul.c), so the items are done
 * whoever runs them; when the caller's task returns, every item has been
 * claimed. The caller then closes the run and waits only for the workers
 * that joined it. A worker that was not running (the OS gave its core to
 * another process) never holds a step up: it finds the run closed and
 * skips it. A barrier that waited for every worker cost a whole scheduler
 * time slice whenever the second core was busy (bench/programs/pool_rtt.c:
 * 119 µs median round trip instead of 1.2 µs; bench/RESULTS.md).
 *
 * Workers and the waiting caller spin briefly before sleeping on a
 * condition variable: a forward step issues a few hundred runs, each often
 * only microseconds long, and a sleep/wake round trip per run would cost
 * more than the work. The spin is bounded so that idle workers do not burn
 * a core between steps.
 *
 * Invariants: fn/ctx are written before the run is opened and read by a
 * worker only after it has counted itself active and seen its run still
 * open; the caller closes the run, then waits for `active` to reach 0, so
 * it sees every write of every worker that joined, and never rewrites
 * fn/ctx while one of them may read it. (A worker counts itself active
 * before checking `open`, the caller closes before reading `active`, and
 * the atomics are sequentially consistent: either the worker sees the run
 * closed or the caller sees it active.) One caller at a time: a backend's
 * steps are not run concurrently. Which thread computes an item never
 * changes a bit (docs/determinism.md, "Threads").
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

enum { KRN_CPU__SPIN = 4000 };

typedef struct krn_cpu__worker {
    krn_cpu_pool *pool;
    int tid;
    pthread_t thread;
} krn_cpu__worker;

struct krn_cpu_pool {
    int n_threads;
    int n_started;                /* workers actually running */
    krn_cpu__worker *workers;     /* n_threads - 1 entries, owned */
    krn_cpu_task fn;
    void *ctx;
    atomic_uint gen;              /* bumped once per run */
    atomic_uint open;             /* the generation that may be joined; 0: none */
    atomic_int active;            /* workers inside a run's task */
    atomic_bool stop;
    pthread_mutex_t mu;
    pthread_cond_t start_cv;      /* gen changed or stop */
    pthread_cond_t done_cv;       /* active reached 0 */
};

static inline void krn_cpu__relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Waits for a generation other than seen (or stop); returns the new one. */
static unsigned krn_cpu__wait_gen(krn_cpu_pool *p, unsigned seen) {
    for (int i = 0; i < KRN_CPU__SPIN; i++) {
        unsigned g = atomic_load(&p->gen);
        if (g != seen || atomic_load(&p->stop))
            return g;
        krn_cpu__relax();
    }
    pthread_mutex_lock(&p->mu);
    unsigned g;
    while ((g = atomic_load(&p->gen)) == seen &&
           !atomic_load(&p->stop))
        pthread_cond_wait(&p->start_cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *krn_cpu__worker_main(void *arg) {
    krn_cpu__worker *w = arg;
    krn_cpu_pool *p = w->pool;
    unsigned seen = 0;
    for (;;) {
        seen = krn_cpu__wait_gen(p, seen);
        if (atomic_load(&p->stop)) break;
        atomic_fetch_add(&p->active, 1);
        if (atomic_load(&p->open) == seen) /* else: closed, or a later run */
            p->fn(p->ctx, w->tid, p->n_threads);
        if (atomic_fetch_sub(&p->active, 1) == 1) {
            /* Taking the lock orders this wake after the caller's check. */
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done_cv);
            pthread_mutex_unlock(&p->mu);
        }
    }
    return NULL;
}

static void krn_cpu__stop_workers(krn_cpu_pool *p) {
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stop, true);
    pthread_cond_broadcast(&p->start_cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n_started; i++)
        pthread_join(p->workers[i].thread, NULL);
    p->n_started = 0;
}

krn_cpu_pool *krn_cpu_pool_create(int n_threads, sb_err *err) {
    if (n_threads < 1) n_threads = 1;
    if (n_threads > KRN_CPU_MAX_THREADS) n_threads = KRN_CPU_MAX_THREADS;
    krn_cpu_pool *p = calloc(1, sizeof *p);
    if (!p) goto oom;
    p->n_threads = n_threads;
    atomic_init(&p->gen, 0);
    atomic_init(&p->open, 0);
    atomic_init(&p->active, 0);
    atomic_init(&p->stop, false);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->start_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    if (n_threads > 1) {
        p->workers = calloc((size_t)n_threads - 1, sizeof *p->workers);
        if (!p->workers) goto oom;
    }
    for (int i = 0; i < n_threads - 1; i++) {
        krn_cpu__worker *w = &p->workers[i];
        w->pool = p;
        w->tid = i + 1;
        int rc = pthread_create(&w->thread, NULL, krn_cpu__worker_main, w);
        if (rc != 0) {
            sb_err_set(err, __func__, "cannot start worker thread %d of %d "
                       "(pthread_create: %s)", i + 1, n_threads, strerror(rc));
            goto fail;
        }
        p->n_started++;
    }
    return p;
oom:
    sb_err_set(err, __func__, "out of memory for a pool of %d threads",
               n_threads);
fail:
    krn_cpu_pool_destroy(p);
    return NULL;
}

int krn_cpu_pool_threads(const krn_cpu_pool *p) { return p->n_threads; }

/* Waits until no worker is inside a task. */
static void krn_cpu__wait_done(krn_cpu_pool *p) {
    for (int i = 0; i < KRN_CPU__SPIN; i++) {
        if (atomic_load(&p->active) == 0) return;
        krn_cpu__relax();
    }
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->active) != 0)
        pthread_cond_wait(&p->done_cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void krn_cpu_pool_run(krn_cpu_pool *p, krn_cpu_task fn, void *ctx) {
    if (p->n_threads == 1) {
        fn(ctx, 0, 1);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    unsigned g = atomic_load(&p->gen) + 1;
    if (g == 0) g = 1; /* 0 means "no run open" */
    atomic_store(&p->open, g);
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->gen, g);
    pthread_cond_broadcast(&p->start_cv);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->n_threads);
    atomic_store(&p->open, 0);
    krn_cpu__wait_done(p);
}

void krn_cpu_pool_destroy(krn_cpu_pool *p) {
    if (!p) return;
    krn_cpu__stop_workers(p);
    pthread_cond_destroy(&p->done_cv);
    pthread_cond_destroy(&p->start_cv);
    pthread_mutex_destroy(&p->mu);
    free(p->workers);
    free(p);
}
