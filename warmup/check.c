/*
 * check.c — a table against this machine: the model must be the table's
 * and the canary's bits the table's; everything else (another GPU, driver,
 * engine version) is told, not refused, because the bits were checked.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "warmup_internal.h"

static void wu__warn(wu_import *imp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void wu__warn(wu_import *imp, const char *fmt, ...) {
    if (imp->n_warnings == WU_MAX_WARNINGS) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(imp->warnings[imp->n_warnings++], sizeof imp->warnings[0], fmt, ap);
    va_end(ap);
}

/* Appends "; " (unless out is empty) and the formatted text to out[cap]. */
static void wu__append(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void wu__append(char *out, size_t cap, const char *fmt, ...) {
    size_t n = strlen(out);
    if (n && n + 2 < cap) {
        memcpy(out + n, "; ", 3);
        n += 2;
    }
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, cap - n, fmt, ap);
    va_end(ap);
}

/* The machine facts that differ, as "device 'A' here, 'B' in the table;
 * ...", into out[cap] ("" when none). */
static void wu__differences(const wu_table *t, const wu_table *h, char *out,
                            size_t cap) {
    const wu_device *a = &h->device, *b = &t->device;
    out[0] = '\0';
    if (strcmp(a->backend, b->backend))
        wu__append(out, cap, "backend %s here, %s in the table", a->backend,
                   b->backend);
    if (strcmp(a->name, b->name))
        wu__append(out, cap, "device '%.60s' here, '%.60s' in the table", a->name,
                   b->name);
    if (strcmp(a->driver, b->driver))
        wu__append(out, cap, "driver %s here, %s in the table",
                   a->driver[0] ? a->driver : "none", b->driver[0] ? b->driver : "none");
    if (a->cuda_runtime != b->cuda_runtime)
        wu__append(out, cap, "CUDA runtime %d here, %d in the table",
                   (int)a->cuda_runtime, (int)b->cuda_runtime);
    if (strcmp(h->engine_version, t->engine_version))
        wu__append(out, cap, "engine %s here, %s in the table", h->engine_version,
                   t->engine_version);
}

/* The first step whose logits differ (the steps' rows agree), or -1. */
static int wu__first_step_differing(const wu_fingerprint *a, const wu_fingerprint *b) {
    for (int k = 0; k < WU_FP_STEPS; k++)
        if (strcmp(a->step_sha256[k], b->step_sha256[k])) return k;
    return -1;
}

static int wu__refuse_model(const wu_table *t, const wu_table *h, sb_err *err) {
    bool same_shape = !memcmp(&t->shape, &h->shape, sizeof t->shape);
    return sb_err_set(err, "warm-up table", "refused: it is for another model "
                      "(SHA-256 %.16s..., this model's %.16s...%s)", t->model_sha256,
                      h->model_sha256, same_shape ? ", of the same shape" : "");
}

/* Warnings for the differences accepted with identical bits. */
static void wu__accepted(const wu_table *t, const wu_table *h, wu_import *imp) {
    if (strcmp(t->device.backend, h->device.backend))
        wu__warn(imp, "the table was made on the %s backend (%.60s); its "
                 "configuration does not apply to the %s backend: bits checked, "
                 "identical", t->device.backend, t->device.name, h->device.backend);
    else if (strcmp(t->device.name, h->device.name))
        wu__warn(imp, "the table was made on another device (%.60s; this is "
                 "%.60s): its configuration is taken, its timings were measured "
                 "there; bits checked, identical", t->device.name, h->device.name);
    if (!strcmp(t->device.backend, h->device.backend) &&
        (strcmp(t->device.driver, h->device.driver) ||
         t->device.cuda_runtime != h->device.cuda_runtime))
        wu__warn(imp, "driver '%s' / CUDA runtime %d made the table, this is "
                 "'%s' / %d: bits checked, identical", t->device.driver,
                 (int)t->device.cuda_runtime, h->device.driver,
                 (int)h->device.cuda_runtime);
    if (strcmp(t->engine_version, h->engine_version))
        wu__warn(imp, "engine %s made the table, this is %s: bits checked, "
                 "identical", t->engine_version, h->engine_version);
}

/* Compares this machine's table h with the table t: 0 when the bits and
 * the model match (differences of device, driver or engine version go to
 * imp's warnings), else -1 with err naming what differs. */
static int wu__check(const wu_table *t, const wu_table *h, wu_import *imp, sb_err *err) {
    if (strcmp(t->model_sha256, h->model_sha256)) return wu__refuse_model(t, h, err);
    if (memcmp(t->fp.rows, h->fp.rows, sizeof t->fp.rows))
        return sb_err_set(err, "warm-up table", "refused: its canary ran steps of "
                          "other row counts (%d, %d, ... rows; this engine's %d, "
                          "%d, ...): made by another version", (int)t->fp.rows[0],
                          (int)t->fp.rows[1], (int)h->fp.rows[0], (int)h->fp.rows[1]);
    int k = wu__first_step_differing(&t->fp, &h->fp);
    if (k >= 0 || strcmp(t->fp.sha256, h->fp.sha256)) {
        char diff[400], step[64] = "";
        wu__differences(t, h, diff, sizeof diff);
        if (k >= 0)
            snprintf(step, sizeof step, " at step %d (%d row%s, the first to differ)", k + 1,
                     (int)h->fp.rows[k], h->fp.rows[k] == 1 ? "" : "s");
        return sb_err_set(err, "warm-up table", "refused: the bits differ: the "
                          "canary's logits%s are not the table's (fingerprint "
                          "%.16s... here, %.16s... in the table); %s%s", step,
                          h->fp.sha256, t->fp.sha256,
                          diff[0] ? "what differs: " : "same device, driver and "
                          "engine", diff);
    }
    memcpy(imp->fingerprint, h->fp.sha256, sizeof imp->fingerprint);
    wu__accepted(t, h, imp);
    return 0;
}

eng_session *wu_session_import(eng_model *m, const eng_options *opt,
                               const char *path, wu_import *imp, sb_err *err) {
    memset(imp, 0, sizeof *imp);
    wu_table t, here = {0};
    if (wu_table_load(path, &t, imp->table_sha256, err)) return NULL;
    eng_session *s = NULL;
    if (strcmp(t.model_sha256, eng_model_sha256(m))) {
        snprintf(here.model_sha256, sizeof here.model_sha256, "%s",
                 eng_model_sha256(m));
        wu__shape_of(m, &here.shape);
        wu__refuse_model(&t, &here, err);
        goto fail;
    }
    eng_options o = *opt;
    /* the canary needs its positions, whatever the caller's context */
    const int32_t model_ctx = eng_model_n_ctx(m);
    if (o.n_ctx > 0 && o.n_ctx < WU_CANARY_LEN)
        o.n_ctx = model_ctx < WU_CANARY_LEN ? model_ctx : WU_CANARY_LEN;
    const bool same_backend =
        !strcmp(t.device.backend, opt->device == ENG_DEVICE_CUDA ? "cuda" : "cpu");
    o.choices = same_backend ? t.choices : NULL;
    o.n_choices = same_backend ? t.n_choices : 0;
    if (!(s = eng_session_create(m, &o, err))) goto fail;
    imp->n_choices = o.n_choices;
    imp->measurements = eng_session_measurements(s);
    if (wu__table_describe(s, m, &here, err) || wu__check(&t, &here, imp, err)) goto fail;
    /* step costs are this machine's only when it is the table's device */
    if (!strcmp(t.device.backend, here.device.backend) &&
        !strcmp(t.device.name, here.device.name))
        imp->costs = t.costs;
    if (imp->measurements)
        wu__warn(imp, "the backend still ran %d measurements: the table lacks "
                 "choices it needed", imp->measurements);
    wu_table_free(&t);
    wu_table_free(&here);
    return s;
fail:
    eng_session_destroy(s);
    wu_table_free(&t);
    wu_table_free(&here);
    return NULL;
}
