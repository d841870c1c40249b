/*
 * check.c — `sbom --check`: a written SBOM against what this build links.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "sbom.h"

/* The string o[key], or `none` when it is not one. */
static const char *sbom__str(json_t *o, const char *key, const char *none) {
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : none;
}

/* The SHA-256 the document states for a file, or NULL. */
static const char *sbom__doc_sha(json_t *files, const char *path) {
    size_t i, k;
    json_t *f, *c;
    json_array_foreach(files, i, f) {
        if (strcmp(sbom__str(f, "fileName", ""), path)) continue;
        json_array_foreach(json_object_get(f, "checksums"), k, c)
            if (!strcmp(sbom__str(c, "algorithm", ""), "SHA256"))
                return json_string_value(json_object_get(c, "checksumValue"));
    }
    return NULL;
}

static bool sbom__doc_has_pkg(json_t *pkgs, const sbom_pkg *p) {
    size_t i;
    json_t *o;
    json_array_foreach(pkgs, i, o)
        if (!strcmp(sbom__str(o, "name", ""), p->name) &&
            !strcmp(sbom__str(o, "versionInfo", ""), p->version))
            return true;
    return false;
}

/* True when a CONTAINS relationship gives package id a file. */
static bool sbom__contains_file(json_t *rels, const char *id) {
    size_t i;
    json_t *r;
    json_array_foreach(rels, i, r)
        if (!strcmp(sbom__str(r, "spdxElementId", ""), id) &&
            !strcmp(sbom__str(r, "relationshipType", ""),
                    "CONTAINS"))
            return true;
    return false;
}

/* Version, licence and a checksum for every package but the product's. */
static int sbom__check_pkgs(json_t *doc) {
    json_t *pkgs = json_object_get(doc, "packages"), *p;
    size_t i;
    int bad = 0;
    json_array_foreach(pkgs, i, p) {
        const char *id = sbom__str(p, "SPDXID", "?");
        const char *name = sbom__str(p, "name", "?");
        if (!strcmp(id, "SPDXRef-sonicboom")) continue;
        const char *v = json_string_value(json_object_get(p, "versionInfo"));
        const char *l = json_string_value(json_object_get(p, "licenseDeclared"));
        bool sum = json_array_size(json_object_get(p, "checksums")) > 0 ||
                   sbom__contains_file(json_object_get(doc, "relationships"), id);
        if (!v || !*v || !l || !*l || !strcmp(l, "NOASSERTION") || !sum) {
            fprintf(stderr, "sbom: package %s lacks a%s\n", name,
                    !v || !*v ? " version" : !sum ? " checksum" : " licence");
            bad++;
        }
    }
    return bad;
}

int sbom_check(const char *path, const sbom_doc *now, sb_err *err) {
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return sb_err_set(err, "sbom", "%s: not a JSON document (%s); run make sbom",
                          path, je.text);
    }
    if (strcmp(sbom__str(doc, "spdxVersion", ""), "SPDX-2.3")) {
        json_decref(doc);
        return sb_err_set(err, "sbom", "%s: not SPDX-2.3", path);
    }
    int bad = sbom__check_pkgs(doc);
    json_t *files = json_object_get(doc, "files"), *pkgs = json_object_get(doc, "packages");
    for (int i = 0; i < now->n_files; i++) {
        const char *sha = sbom__doc_sha(files, now->files[i].path);
        if (sha && !strcmp(sha, now->files[i].sha256)) continue;
        fprintf(stderr, "sbom: %s, which the build uses, is %s\n", now->files[i].path,
                sha ? "listed with another SHA-256 (changed since)" : "not listed");
        bad++;
    }
    for (int i = 0; i < now->n_pkgs; i++) {
        if (sbom__doc_has_pkg(pkgs, &now->pkgs[i])) continue;
        fprintf(stderr, "sbom: package %s %s is not listed\n", now->pkgs[i].name,
                now->pkgs[i].version);
        bad++;
    }
    json_decref(doc);
    if (bad)
        return sb_err_set(err, "sbom", "%s: %d problems (above); run make sbom "
                          "again, or fix what it names", path, bad);
    printf("sbom: %s lists the %d files and %d packages this build uses, each with "
           "version, licence and checksum\n", path, now->n_files, now->n_pkgs);
    return 0;
}
