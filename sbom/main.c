/*
 * main.c — `sbom`, the tool behind `make sbom` and `make sbom-check`
 * (sbom/sbom.h says what it reads). Usage:
 *
 *   sbom -o OUT [--licenses FILE] [--cuda DIR] [--trace ROLE:FILE]...
 *        [--npm ROLE:LOCK]... [--sources SUMS:ROOT]...
 *   sbom --check SBOM (the same inputs)
 *
 * ROLE: product (sb and sb-lsp), test, build or editor. SUMS: a sha256sum
 * listing (grammars/SHA256SUMS) of the sources compiled in, relative to
 * ROOT (grammars/node_modules).
 */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../engine/engine.h"
#include "sbom.h"

typedef struct sbom_args {
    const char *out, *check, *cuda;
    char **traces, **npms, **sources;
    int n_traces, n_npms, n_sources;
} sbom_args;

/* ==== inputs ================================================================ */

static int sbom__role(const char *s, sbom_role *r) {
    static const char *const names[] = {"product", NULL, "test", "build", "editor"};
    for (int i = 0; i < 5; i++)
        if (names[i] && !strcmp(names[i], s)) {
            *r = (sbom_role)i;
            return 0;
        }
    return -1;
}

/* "ROLE:PATH" into its role and path. */
static int sbom__split(const char *arg, sbom_role *role, const char **path) {
    const char *colon = strchr(arg, ':');
    char name[32];
    if (!colon || colon - arg >= (ptrdiff_t)sizeof name) return -1;
    memcpy(name, arg, (size_t)(colon - arg));
    name[colon - arg] = '\0';
    *path = colon + 1;
    return sbom__role(name, role);
}

/* True for the build's own files: relative paths and paths under the
 * working directory. */
static bool sbom__ours(const char *path) {
    static char cwd[PATH_MAX];
    if (!cwd[0] && !getcwd(cwd, sizeof cwd)) return false;
    size_t n = strlen(cwd);
    return path[0] != '/' || (!strncmp(path, cwd, n) && path[n] == '/');
}

/* True when path lies under the CUDA toolkit (as given, or resolved). */
static bool sbom__in_cuda(const char *cuda, const char *path) {
    if (!cuda) return false;
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(cuda, a) || !realpath(path, b)) return false;
    size_t n = strlen(a);
    return !strncmp(a, b, n) && b[n] == '/';
}

/* Adds the file at path (normalised) to package pkg, once. */
static int sbom__add_file(sbom_doc *d, const char *path, int pkg, sb_err *err) {
    for (int i = 0; i < d->n_files; i++)
        if (!strcmp(d->files[i].path, path)) return 0;
    sbom_file f = {.pkg = pkg};
    if (sbom_hash_file(path, f.sha1, f.sha256))
        return sb_err_set(err, "sbom", "cannot read %s", path);
    sbom_file *more = realloc(d->files, (size_t)(d->n_files + 1) * sizeof *more);
    if (!more || !(f.path = strdup(path)))
        return sb_err_set(err, "sbom", "out of memory");
    d->files = more;
    d->files[d->n_files++] = f;
    return 0;
}

/* Every file a linker trace names, with its package. */
static int sbom__trace(sbom_doc *d, const sbom_args *a, const char *arg, sb_err *err) {
    sbom_role role;
    const char *path;
    if (sbom__split(arg, &role, &path))
        return sb_err_set(err, "sbom", "--trace '%s': expected ROLE:FILE", arg);
    FILE *f = fopen(path, "r");
    if (!f) return sb_err_set(err, "sbom", "cannot read the trace %s", path);
    char line[PATH_MAX];
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || sbom__ours(line)) continue;
        char *p = sbom_normal_path(line);
        const char *ext = strrchr(p, '.');
        sbom_role r = role != SBOM_STATIC ? role
                      : ext && strstr(p, ".so") ? SBOM_DYNAMIC : SBOM_STATIC;
        int pkg = sbom__in_cuda(a->cuda, p) ? sbom_cuda_pkg(d, a->cuda, p, r, err)
                                           : sbom_deb_pkg(d, p, r, err);
        rc = pkg < 0 ? -1 : sbom__add_file(d, p, pkg, err);
        free(p);
    }
    fclose(f);
    return rc;
}

/* Every source a SUMS:ROOT listing names, with its npm package. */
static int sbom__sources(sbom_doc *d, const char *arg, sb_err *err) {
    const char *colon = strchr(arg, ':');
    if (!colon) return sb_err_set(err, "sbom", "--sources '%s': expected SUMS:ROOT", arg);
    char sums[PATH_MAX], line[PATH_MAX], path[2 * PATH_MAX];
    snprintf(sums, sizeof sums, "%.*s", (int)(colon - arg), arg);
    FILE *f = fopen(sums, "r");
    if (!f) return sb_err_set(err, "sbom", "cannot read %s", sums);
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *name = strstr(line, "  "); /* sha256sum: HASH, two spaces, NAME */
        if (line[0] == '#' || !name) continue;
        snprintf(path, sizeof path, "%s/%s", colon + 1, name + 2);
        int pkg = sbom_npm_pkg_of(d, path);
        if (pkg < 0) {
            rc = sb_err_set(err, "sbom", "%s: no npm package of the locks given "
                            "holds it", path);
            break;
        }
        d->pkgs[pkg].role = SBOM_STATIC; /* compiled into libsb */
        rc = sbom__add_file(d, path, pkg, err);
    }
    fclose(f);
    return rc;
}

static int sbom__gather(sbom_doc *d, const sbom_args *a, sb_err *err) {
    for (int i = 0; i < a->n_npms; i++) {
        sbom_role role;
        const char *lock;
        if (sbom__split(a->npms[i], &role, &lock))
            return sb_err_set(err, "sbom", "--npm '%s': expected ROLE:LOCK", a->npms[i]);
        if (sbom_npm_lock(d, lock, role, err)) return -1;
    }
    for (int i = 0; i < a->n_sources; i++)
        if (sbom__sources(d, a->sources[i], err)) return -1;
    for (int i = 0; i < a->n_traces; i++)
        if (sbom__trace(d, a, a->traces[i], err)) return -1;
    return 0;
}

/* ==== the SPDX document ====================================================== */

static const char *sbom__relation(sbom_role r, bool *reversed) {
    *reversed = r >= SBOM_TEST;
    switch (r) {
    case SBOM_STATIC: return "STATIC_LINK";
    case SBOM_DYNAMIC: return "DYNAMIC_LINK";
    case SBOM_TEST: return "TEST_DEPENDENCY_OF";
    case SBOM_BUILD: return "BUILD_DEPENDENCY_OF";
    case SBOM_EDITOR: return "RUNTIME_DEPENDENCY_OF";
    }
    return "OTHER";
}

static json_t *sbom__pkg_json(const sbom_pkg *p, int i) {
    char id[32];
    snprintf(id, sizeof id, "SPDXRef-Package-%d", i);
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b}", "SPDXID", id, "name",
                          p->name, "versionInfo", p->version, "supplier", p->supplier,
                          "downloadLocation", p->download ? p->download : "NOASSERTION",
                          "licenseConcluded", p->license, "licenseDeclared",
                          p->license, "filesAnalyzed", 0);
    json_object_set_new(o, "copyrightText", json_string("NOASSERTION"));
    if (p->digest)
        json_object_set_new(o, "checksums", json_pack("[{s:s,s:s}]", "algorithm",
                                                      p->algo, "checksumValue",
                                                      p->digest));
    if (p->purl)
        json_object_set_new(o, "externalRefs", json_pack(
            "[{s:s,s:s,s:s}]", "referenceCategory", "PACKAGE-MANAGER",
            "referenceType", "purl", "referenceLocator", p->purl));
    return o;
}

static json_t *sbom__file_json(const sbom_file *f, int i) {
    char id[32];
    snprintf(id, sizeof id, "SPDXRef-File-%d", i);
    return json_pack("{s:s,s:s,s:[{s:s,s:s},{s:s,s:s}],s:s,s:s}", "SPDXID", id,
                     "fileName", f->path, "checksums", "algorithm", "SHA1",
                     "checksumValue", f->sha1, "algorithm", "SHA256", "checksumValue",
                     f->sha256, "licenseConcluded", "NOASSERTION", "copyrightText",
                     "NOASSERTION");
}

static json_t *sbom__relations(const sbom_doc *d) {
    json_t *r = json_array();
    json_array_append_new(r, json_pack("{s:s,s:s,s:s}", "spdxElementId",
                                       "SPDXRef-DOCUMENT", "relationshipType",
                                       "DESCRIBES", "relatedSpdxElement",
                                       "SPDXRef-sonicboom"));
    for (int i = 0; i < d->n_pkgs; i++) {
        char id[32];
        bool rev;
        snprintf(id, sizeof id, "SPDXRef-Package-%d", i);
        const char *kind = sbom__relation(d->pkgs[i].role, &rev);
        json_array_append_new(r, json_pack("{s:s,s:s,s:s}", "spdxElementId",
                                           rev ? id : "SPDXRef-sonicboom",
                                           "relationshipType", kind,
                                           "relatedSpdxElement",
                                           rev ? "SPDXRef-sonicboom" : id));
    }
    for (int i = 0; i < d->n_files; i++) {
        char pid[32], fid[32];
        snprintf(pid, sizeof pid, "SPDXRef-Package-%d", d->files[i].pkg);
        snprintf(fid, sizeof fid, "SPDXRef-File-%d", i);
        json_array_append_new(r, json_pack("{s:s,s:s,s:s}", "spdxElementId", pid,
                                           "relationshipType", "CONTAINS",
                                           "relatedSpdxElement", fid));
    }
    return r;
}

/* The LicenseRef-... identifiers the packages use, each explained. */
static json_t *sbom__license_refs(const sbom_doc *d) {
    json_t *refs = json_array();
    for (int i = 0; i < d->n_pkgs; i++) {
        const char *l = d->pkgs[i].license, *r = strstr(l, "LicenseRef-");
        if (!r) continue;
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)strcspn(r, " ()"), r);
        bool seen = false;
        size_t k;
        json_t *v;
        json_array_foreach(refs, k, v) seen = seen || !strcmp(
            json_string_value(json_object_get(v, "licenseId")), id);
        if (!seen)
            json_array_append_new(refs, json_pack(
                "{s:s,s:s,s:s}", "licenseId", id, "name", id, "extractedText",
                "NVIDIA's licence for the CUDA Toolkit and its libraries, as shipped "
                "with them (License.txt; https://docs.nvidia.com/cuda/eula/)"));
    }
    return refs;
}

/* The creation time: SOURCE_DATE_EPOCH when set (a reproducible build),
 * else now. */
static void sbom__created(char out[32]) {
    const char *e = getenv("SOURCE_DATE_EPOCH");
    time_t t = e && *e ? (time_t)strtoll(e, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *sbom__document(const sbom_doc *d) {
    sb_sha256 *h = sb_sha256_begin();
    for (int i = 0; h && i < d->n_files; i++) sb_sha256_update(h, d->files[i].sha256, 64);
    char digest[65] = "0", ns[256], created[32];
    if (h) sb_sha256_final(h, digest);
    snprintf(ns, sizeof ns, "https://sonicboom.invalid/spdx/sonicboom-%s-%.16s",
             eng_version(), digest);
    sbom__created(created);
    json_t *pkgs = json_array(), *files = json_array();
    json_array_append_new(pkgs, json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b}", "SPDXID", "SPDXRef-sonicboom", "name",
        "sonicboom", "versionInfo", eng_version(), "downloadLocation", "NOASSERTION",
        "licenseConcluded", "NOASSERTION", "licenseDeclared", "NOASSERTION",
        "copyrightText", "NOASSERTION", "filesAnalyzed", 0));
    for (int i = 0; i < d->n_pkgs; i++) json_array_append_new(pkgs, sbom__pkg_json(&d->pkgs[i], i));
    for (int i = 0; i < d->n_files; i++) json_array_append_new(files, sbom__file_json(&d->files[i], i));
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:{s:s,s:[s]},s:o,s:o,s:o,s:o}",
                     "spdxVersion", "SPDX-2.3", "dataLicense", "CC0-1.0", "SPDXID",
                     "SPDXRef-DOCUMENT", "name", "sonicboom", "documentNamespace", ns,
                     "creationInfo", "created", created, "creators",
                     "Tool: sonicboom-sbom", "packages", pkgs, "files", files,
                     "relationships", sbom__relations(d), "hasExtractedLicensingInfos",
                     sbom__license_refs(d));
}

/* ==== main ==================================================================== */

static int sbom__parse(int argc, char **argv, sbom_args *a, const char **licenses) {
    static const struct option longs[] = {
        {"check", 1, 0, 'c'}, {"licenses", 1, 0, 'l'}, {"cuda", 1, 0, 'C'},
        {"trace", 1, 0, 't'}, {"npm", 1, 0, 'n'}, {"sources", 1, 0, 's'},
        {0, 0, 0, 0}};
    a->traces = calloc((size_t)argc, sizeof *a->traces);
    a->npms = calloc((size_t)argc, sizeof *a->npms);
    a->sources = calloc((size_t)argc, sizeof *a->sources);
    if (!a->traces || !a->npms || !a->sources) return -1;
    int c;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case 'c': a->check = optarg; break;
        case 'l': *licenses = optarg; break;
        case 'C': a->cuda = *optarg ? optarg : NULL; break;
        case 't': a->traces[a->n_traces++] = optarg; break;
        case 'n': a->npms[a->n_npms++] = optarg; break;
        case 's': a->sources[a->n_sources++] = optarg; break;
        default: return -1;
        }
    }
    return optind == argc && (!a->out != !a->check) ? 0 : -1;
}

int main(int argc, char **argv) {
    sbom_args a = {0};
    sbom_doc d = {.licenses = "sbom/licenses.txt"};
    int rc = 1;
    if (sbom__parse(argc, argv, &a, &d.licenses)) {
        fprintf(stderr, "usage: sbom (-o OUT | --check SBOM) [--licenses FILE] "
                "[--cuda DIR] [--trace ROLE:FILE]... [--npm ROLE:LOCK]... "
                "[--sources SUMS:ROOT]...\n");
        rc = 2;
        goto done;
    }
    sb_err err = {0};
    if (sbom__gather(&d, &a, &err) || (a.check && sbom_check(a.check, &d, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        goto done;
    }
    if (a.out) {
        json_t *doc = sbom__document(&d);
        if (!doc || json_dump_file(doc, a.out, JSON_INDENT(1))) {
            fprintf(stderr, "sbom: cannot write %s\n", a.out);
            json_decref(doc);
            goto done;
        }
        json_decref(doc);
        printf("sbom: %s: %d packages, %d files\n", a.out, d.n_pkgs, d.n_files);
    }
    rc = 0;
done:
    sbom_doc_free(&d);
    free(a.traces), free(a.npms), free(a.sources);
    return rc;
}
