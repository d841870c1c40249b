/*
 * model_default.c — where the default model lives when no -m is given.
 *
 * The demo model trained by tools/train/ is committed as
 * models/sonicboom-demo.gguf. Rather than linking 24 MB into every binary
 * (and into the one carried to the GPU machine), the programs find it
 * beside themselves: build/sb looks in build/../models/, an installed
 * PREFIX/bin/sb in PREFIX/share/sonicboom/. SB_MODEL overrides both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"

/* Candidates relative to the directory holding the executable, in order. */
static const char *const default_model__beside_exe[] = {
    "../models/" ENG_DEFAULT_MODEL_NAME,          /* a build tree: build/sb */
    "../share/sonicboom/" ENG_DEFAULT_MODEL_NAME, /* installed: PREFIX/bin */
};
enum {
    DEFAULT_MODEL_N_CANDIDATES =
        sizeof default_model__beside_exe / sizeof default_model__beside_exe[0]
};

static bool default_model__is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The executable's directory, with a trailing '/', into dir[cap]. */
static int default_model__exe_dir(char *dir, size_t cap, sb_err *err) {
    ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1)
        return sb_err_set(err, __func__, "cannot find this program's own path "
                          "(/proc/self/exe: %s); pass -m MODEL or set SB_MODEL",
                          n < 0 ? strerror(errno) : "too long");
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash) return sb_err_set(err, __func__, "odd program path '%s'", dir);
    slash[1] = '\0';
    return 0;
}

int eng_default_model_path(char *path, size_t cap, sb_err *err) {
    const char *env = getenv("SB_MODEL");
    if (env && *env) {
        if (strlen(env) >= cap)
            return sb_err_set(err, __func__, "SB_MODEL is longer than %zu bytes",
                              cap - 1);
        if (!default_model__is_file(env))
            return sb_err_set(err, __func__, "SB_MODEL names '%s', which is not "
                              "a file", env);
        snprintf(path, cap, "%s", env);
        return 0;
    }
    char dir[4096], first[4096 + 64] = "";
    if (default_model__exe_dir(dir, sizeof dir, err)) return -1;
    for (int i = 0; i < DEFAULT_MODEL_N_CANDIDATES; i++) {
        char cand[sizeof first];
        snprintf(cand, sizeof cand, "%s%s", dir, default_model__beside_exe[i]);
        if (i == 0) snprintf(first, sizeof first, "%s", cand);
        if (default_model__is_file(cand)) {
            /* without the "bin/.." detour: the path goes into logs */
            char *real = realpath(cand, NULL);
            const char *use = real ? real : cand;
            int rc = strlen(use) < cap ? 0
                     : sb_err_set(err, __func__, "default model path '%s' is "
                                  "too long", use);
            if (!rc) snprintf(path, cap, "%s", use);
            free(real);
            return rc;
        }
    }
    /* name the expected place without the "bin/.." detour when possible */
    char up[4096 + 4];
    snprintf(up, sizeof up, "%s..", dir);
    char *real = realpath(up, NULL);
    if (real) snprintf(first, sizeof first, "%s/models/%s", real,
                       ENG_DEFAULT_MODEL_NAME);
    free(real);
    return sb_err_set(err, __func__, "no model given (-m MODEL) and the default "
                      "model is not at %s (train it: tools/train/README.md; or "
                      "set SB_MODEL)", first);
}
