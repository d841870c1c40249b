/*
 * cuda.c — a library under the CUDA toolkit, mapped to its component: from
 * the wheel's dist-info that lists it (name, version, licence, the wheel's
 * SHA-256), else from the toolkit's version.json (a runfile or .deb
 * install; NVIDIA's EULA).
 */
#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbom.h"

/* True when the dist-info folder's RECORD lists a file named base. */
/* Path buffers: the toolkit's path is at most SBOM__HOME_MAX bytes. */
enum { SBOM__HOME_MAX = 1024, SBOM__PATH_MAX = SBOM__HOME_MAX + 600 };

static bool sbom__record_has(const char *dir, const char *base) {
    char path[SBOM__PATH_MAX];
    snprintf(path, sizeof path, "%s/RECORD", dir);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[4096];
    size_t n = strlen(base);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        char *comma = strchr(line, ',');
        if (!comma || (size_t)(comma - line) < n + 1) continue;
        found = !strncmp(comma - n, base, n) && comma[-(ptrdiff_t)n - 1] == '/';
    }
    fclose(f);
    return found;
}

static char *sbom__read(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

/* The component from a dist-info folder. */
static int sbom__from_dist_info(sbom_doc *d, const char *dir, sbom_role role,
                                sb_err *err) {
    char path[SBOM__PATH_MAX];
    snprintf(path, sizeof path, "%s/METADATA", dir);
    char *meta = sbom__read(path);
    char *name = meta ? sbom_field(meta, "Name") : NULL;
    char *version = meta ? sbom_field(meta, "Version") : NULL;
    char *license = meta ? sbom_field(meta, "License-Expression") : NULL;
    if (!license && meta) license = sbom_field(meta, "License");
    snprintf(path, sizeof path, "%s/direct_url.json", dir);
    json_t *du = json_load_file(path, 0, NULL);
    const char *sha = json_string_value(json_object_get(
        json_object_get(json_object_get(du, "archive_info"), "hashes"), "sha256"));
    int at = -1;
    if (!name || !version || !license) {
        sb_err_set(err, "sbom", "%s: METADATA lacks Name, Version or a licence", dir);
    } else {
        char purl[512];
        snprintf(purl, sizeof purl, "pkg:pypi/%s@%s", name, version);
        sbom_pkg p = {.name = name, .version = version, .license = license,
                      .supplier = "Organization: NVIDIA Corporation", .purl = purl,
                      .algo = sha ? "SHA256" : NULL, .digest = (char *)sha,
                      .role = role};
        at = sbom_add_pkg(d, &p);
        if (at >= 0 && role < d->pkgs[at].role) d->pkgs[at].role = role;
    }
    json_decref(du);
    free(meta), free(name), free(version), free(license);
    return at;
}

/* The component from the toolkit's version.json, by the library's name. */
static int sbom__from_version_json(sbom_doc *d, const char *home, const char *base,
                                   sbom_role role, sb_err *err) {
    static const struct { const char *prefix, *key; } map[] = {
        {"libcudart", "cuda_cudart"}, {"libcublasLt", "libcublas"},
        {"libcublas", "libcublas"}};
    char path[SBOM__PATH_MAX];
    snprintf(path, sizeof path, "%.1024s/version.json", home);
    json_t *v = json_load_file(path, 0, NULL);
    int at = -1;
    for (size_t i = 0; v && at < 0 && i < sizeof map / sizeof map[0]; i++) {
        if (strncmp(base, map[i].prefix, strlen(map[i].prefix))) continue;
        json_t *c = json_object_get(v, map[i].key);
        const char *version = json_string_value(json_object_get(c, "version"));
        if (!version) break;
        sbom_pkg p = {.name = (char *)map[i].key, .version = (char *)version,
                      .license = "LicenseRef-NVIDIA-CUDA-EULA",
                      .supplier = "Organization: NVIDIA Corporation", .role = role};
        at = sbom_add_pkg(d, &p);
    }
    json_decref(v);
    if (at < 0)
        sb_err_set(err, "sbom", "%s: no dist-info lists it and %s names no "
                   "component for it", base, path);
    return at;
}

int sbom_cuda_pkg(sbom_doc *d, const char *home, const char *path, sbom_role role,
                  sb_err *err) {
    char real[PATH_MAX]; /* libcublas.so -> libcublas.so.13, as RECORD lists it */
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    if (strlen(home) > SBOM__HOME_MAX)
        return sb_err_set(err, "sbom", "the CUDA toolkit's path is too long");
    char dir[SBOM__HOME_MAX + 16];
    snprintf(dir, sizeof dir, "%.1024s/dist-info", home);
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd))) {
        if (e->d_name[0] == '.') continue;
        char sub[SBOM__HOME_MAX + 300];
        snprintf(sub, sizeof sub, "%s/%.255s", dir, e->d_name);
        if (!sbom__record_has(sub, base)) continue;
        closedir(dd);
        return sbom__from_dist_info(d, sub, role, err);
    }
    if (dd) closedir(dd);
    return sbom__from_version_json(d, home, base, role, err);
}
