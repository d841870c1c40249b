/*
 * pool.c — a persistent thread pool with a barrier-style parallel-for.
 *
 * A run publishes (fn, ctx), bumps a generation counter and wakes the
 * workers; the caller works as thread 0, then waits until every worker has
 * counted itself done. Workers and the waiting caller spin briefly before
 * sleeping on a condition variable: a forward step issues a few hundred runs,
 * each often only microseconds long, and a sleep/wake round trip per run
 * would cost more than the work. The spin is bounded so that idle workers
 * do not burn a core between steps.
 *
 * Invariants: fn/ctx are written before the generation is published and
 * read after it is observed; `pending` reaches 0 only after every worker
 * has returned from the task, so the caller sees all of their writes. The
 * atomics are sequentially consistent: a few hundred of them per step cost
 * nothing measurable, and ThreadSanitizer then checks the pool cleanly.
 * One caller at a time: a backend's steps are not run concurrently.
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
    atomic_int pending;           /* workers not yet done with this run */
    atomic_bool stop;
    pthread_mutex_t mu;
    pthread_cond_t start_cv;      /* gen changed or stop */
    pthread_cond_t done_cv;       /* pending reached 0 */
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
        p->fn(p->ctx, w->tid, p->n_threads);
        if (atomic_fetch_sub(&p->pending, 1) == 1) {
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
    atomic_init(&p->pending, 0);
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

static void krn_cpu__wait_done(krn_cpu_pool *p) {
    for (int i = 0; i < KRN_CPU__SPIN; i++) {
        if (atomic_load(&p->pending) == 0) return;
        krn_cpu__relax();
    }
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->pending) != 0)
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
    atomic_store(&p->pending, p->n_threads - 1);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->gen, 1);
    pthread_cond_broadcast(&p->start_cv);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->n_threads);
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
