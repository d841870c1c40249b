/*
 * plots.c — the harness's three PNG plots, drawn by gnuplot (Debian:
 * gnuplot-nox) fed one script on a pipe with the numbers inline as
 * datablocks (bench.h). gnuplot writes into temporaries made beside each
 * NAME.png by base's sb_out; only when it exits cleanly are they renamed
 * into place, so a failed run never leaves a half-drawn plot under the
 * real name, and a link or device at NAME.png is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_internal.h"

static const char *const plots__names[] = {"step_cost", "tok_s",
                                           "accept_hist"};
enum { PLOTS__N = sizeof plots__names / sizeof *plots__names };

/* True when an executable `name` is on $PATH. */
static bool plots__on_path(const char *name) {
    const char *path = getenv("PATH");
    if (!path) return false;
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && n + strlen(name) + 2 < sizeof dir) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, name);
            if (access(dir, X_OK) == 0) return true;
        }
        p += n + (p[n] == ':');
    }
    return false;
}

/* A name gnuplot's single-quoted strings can hold: no quote, no newline. */
static bool plots__quotable(const char *s) {
    return !strpbrk(s, "'\n\r");
}

static void plots__steps(FILE *g, const char *out, const bench_engine *e) {
    fprintf(g, "$steps << EOD\nrows");
    for (int i = 0; i < e->n_depths; i++)
        fprintf(g, " \"KV depth %d\"", (int)e->depths[i]);
    for (int j = 0; j < BENCH_N_BUCKETS; j++) {
        fprintf(g, "\n%d", bench_bucket_rows[j]);
        for (int i = 0; i < e->n_depths; i++) fprintf(g, " %.4f", e->step_ms[i][j]);
    }
    fprintf(g, "\nEOD\nset output '%s'\n"
            "set title 'Step cost per row bucket, %s'\n"
            "set xlabel 'rows per step (1 + drafts)'\nset ylabel 'ms per step'\n"
            "set key left top autotitle columnhead\nset grid\nset yrange [0:*]\n"
            "plot for [i=2:%d] $steps using 1:i with linespoints lw 2",
            out, e->device_name, e->n_depths + 1);
    if (e->floor_ms > 0)
        fprintf(g, ", %.5f with lines dt 2 lw 2 title 'memory floor (1 read "
                "of the weights)'", e->floor_ms);
    fprintf(g, "\nunset grid\nset yrange [*:*]\nset key noautotitle\n");
}

static void plots__tok_s(FILE *g, const char *out, const bench_task_result *r,
                         int n) {
    fprintf(g, "$tasks << EOD\n");
    for (int i = 0; i < n; i++)
        if (!r[i].skipped)
            fprintf(g, "\"%s\" %.3f %.3f %.3f\n", r[i].task->name,
                    r[i].off.tok_s, r[i].on.tok_s, r[i].projected_tok_s);
    fprintf(g, "EOD\nset output '%s'\n"
            "set title 'Output tok/s per task'\nset xlabel ''\n"
            "set ylabel 'decode tokens per second'\n"
            "set key outside top center horizontal\n"
            "set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\nset xtics rotate by -40 "
            "scale 0\nset grid ytics\nset yrange [0:*]\n"
            "plot $tasks using 2:xtic(1) title 'speculation off', "
            "'' using 3 title 'speculation on', "
            "'' using 4 title 'drafter ceiling (projected)'\n"
            "unset grid\nset xtics norotate\nset yrange [*:*]\n"
            "set key inside\n", out);
}

static void plots__accept(FILE *g, const char *out, const bench_task_result *r,
                          int n, const bench_totals *t) {
    int64_t ceiling[ENG_MAX_DRAFT + 1] = {0};
    for (int i = 0; i < n; i++)
        for (int k = 0; !r[i].skipped && k <= ENG_MAX_DRAFT; k++)
            ceiling[k] += r[i].ceiling_copy.accept_hist[k];
    fprintf(g, "$accept << EOD\n");
    for (int k = 0; k <= ENG_MAX_DRAFT; k++)
        fprintf(g, "%d %d %lld\n", k, (int)t->accept_hist[k],
                (long long)ceiling[k]);
    fprintf(g, "EOD\nset output '%s'\n"
            "set title 'Accepted draft tokens per step, all tasks'\n"
            "set xlabel 'draft tokens accepted in a step'\n"
            "set ylabel 'steps (log scale)'\nset logscale y\nset key right top\n"
            "set xrange [-1:64]\nset style fill solid 0.6 border -1\n"
            "set boxwidth 0.4\nset grid ytics\n"
            "plot $accept using ($1-0.2):($2 > 0 ? $2 : 1/0) with boxes "
            "title 'measured, speculation on', "
            "'' using ($1+0.2):($3 > 0 ? $3 : 1/0) with boxes "
            "title 'copy drafter ceiling (expected answers)'\n", out);
}

/* Commits every plot's temporary (renamed over NAME.png) when keep, else
 * removes them all. */
static int plots__commit(sb_out *out, bool keep, sb_err *err) {
    int rc = 0;
    for (int i = 0; i < PLOTS__N; i++) {
        if (!keep || rc) sb_out_abort(&out[i]);
        else rc = sb_out_commit(&out[i], err);
    }
    return rc;
}

int bench_plots(const char *dir, const bench_engine *e,
                const bench_task_result *r, int n, const bench_totals *t,
                char *why, size_t why_cap, sb_err *err) {
    if (!plots__on_path("gnuplot")) {
        snprintf(why, why_cap, "gnuplot is not installed (Debian: apt-get "
                 "install gnuplot-nox); no plots made");
        return 1;
    }
    if (strlen(dir) > 4000 || !plots__quotable(dir))
        return sb_err_set(err, "plots", "the plots folder '%s' has a quote "
                          "or newline in its name, or is too long", dir);
    for (int i = 0; i < n; i++)
        if (!plots__quotable(r[i].task->name) || strchr(r[i].task->name, '"'))
            return sb_err_set(err, "plots", "task name '%s' cannot be "
                              "plotted", r[i].task->name);
    if (mkdir(dir, 0777) && errno != EEXIST)
        return sb_err_set(err, "plots", "cannot make '%s': %s", dir,
                          strerror(errno));
    /* Each plot's temporary is made here, exclusively (base.h, sb_out);
     * gnuplot only writes into it, and it is renamed into place when
     * gnuplot exits cleanly. */
    sb_out out[PLOTS__N];
    for (int i = 0; i < PLOTS__N; i++) out[i] = (sb_out){.fd = -1};
    for (int i = 0; i < PLOTS__N; i++) {
        char png[4200];
        snprintf(png, sizeof png, "%s/%s.png", dir, plots__names[i]);
        if (sb_out_create(&out[i], png, err)) {
            plots__commit(out, false, NULL);
            return -1;
        }
    }
    fflush(NULL);
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        plots__commit(out, false, NULL);
        return sb_err_set(err, "plots", "cannot run gnuplot: %s",
                          strerror(errno));
    }
    fprintf(g, "set terminal pngcairo size 1000,560 noenhanced font ',10'\n");
    plots__steps(g, out[0].tmp, e);
    plots__tok_s(g, out[1].tmp, r, n);
    plots__accept(g, out[2].tmp, r, n, t);
    fprintf(g, "set output\n");
    int status = pclose(g);
    bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (plots__commit(out, ok, err)) return -1;
    if (!ok)
        return sb_err_set(err, "plots", "gnuplot failed (status %d); no "
                          "plots made", status);
    return 0;
}
