/*
 * npm.c — the packages of an npm lock file (lockfileVersion 2 or 3): name,
 * version, licence (the lock's, else sbom/licenses.txt), the registry
 * tarball and its integrity digest (sha512, as hex).
 */
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbom.h"

/* "sha512-BASE64" as ("SHA512", hex); false for anything else. */
static bool sbom__integrity(const char *s, char **algo, char **hex) {
    if (!s || strncmp(s, "sha512-", 7)) return false;
    unsigned char raw[96];
    int n = EVP_DecodeBlock(raw, (const unsigned char *)s + 7, (int)strlen(s + 7));
    if (n < 64) return false; /* 64 bytes, padded to a multiple of 3 */
    *hex = malloc(129);
    if (!*hex) return false;
    for (int i = 0; i < 64; i++) snprintf(*hex + 2 * i, 3, "%02x", raw[i]);
    *algo = "SHA512";
    return true;
}

/* "node_modules/a/node_modules/@s/b" -> "@s/b". */
static const char *sbom__npm_name(const char *key) {
    const char *last = strstr(key, "node_modules/"), *p;
    while (last && (p = strstr(last + 1, "node_modules/"))) last = p;
    return last ? last + strlen("node_modules/") : NULL;
}

static int sbom__npm_entry(sbom_doc *d, const char *key, json_t *e, sbom_role role,
                           const char *lock, sb_err *err) {
    const char *name = sbom__npm_name(key);
    const char *version = json_string_value(json_object_get(e, "version"));
    if (!name || !version) return 0; /* a link or the root: not a package */
    char over[256], *license = NULL;
    const char *lic = json_string_value(json_object_get(e, "license"));
    if (!lic) {
        snprintf(over, sizeof over, "npm:%s", name);
        lic = license = sbom_license_of(d, over, NULL);
    }
    if (!lic)
        return sb_err_set(err, "sbom", "%s: %s@%s states no licence: add a line "
                          "'npm:%s|SPDX' to %s", lock, name, version, name, d->licenses);
    const char *slash = strrchr(name, '/');
    char url[1024], purl[512], *hex = NULL, *algo = NULL;
    snprintf(url, sizeof url, "https://registry.npmjs.org/%s/-/%s-%s.tgz", name,
             slash ? slash + 1 : name, version);
    snprintf(purl, sizeof purl, "pkg:npm/%s%s@%s", name[0] == '@' ? "%40" : "",
             name[0] == '@' ? name + 1 : name, version);
    sbom__integrity(json_string_value(json_object_get(e, "integrity")), &algo, &hex);
    /* an editor extension's devDependencies build it; they do not ship */
    if (role == SBOM_EDITOR && json_is_true(json_object_get(e, "dev"))) role = SBOM_BUILD;
    sbom_pkg p = {.name = (char *)name, .version = (char *)version, .license = (char *)lic,
                  .supplier = "NOASSERTION", .download = url,
                  .purl = purl, .algo = algo, .digest = hex, .role = role};
    int at = sbom_add_pkg(d, &p);
    free(hex);
    free(license);
    return at < 0 ? sb_err_set(err, "sbom", "out of memory") : 0;
}

int sbom_npm_lock(sbom_doc *d, const char *lock, sbom_role role, sb_err *err) {
    json_error_t je;
    json_t *o = json_load_file(lock, 0, &je);
    json_t *pkgs = json_object_get(o, "packages");
    if (!json_is_object(pkgs)) {
        json_decref(o);
        return sb_err_set(err, "sbom", "%s: not an npm lock file with \"packages\" "
                          "(lockfileVersion 2 or 3)", lock);
    }
    const char *key;
    json_t *e;
    int rc = 0;
    json_object_foreach(pkgs, key, e)
        if (!rc) rc = sbom__npm_entry(d, key, e, role, lock, err);
    json_decref(o);
    return rc;
}

int sbom_npm_pkg_of(const sbom_doc *d, const char *path) {
    const char *name = sbom__npm_name(path);
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; name && i < d->n_pkgs; i++) {
        if (!d->pkgs[i].purl || strncmp(d->pkgs[i].purl, "pkg:npm/", 8)) continue;
        size_t n = strlen(d->pkgs[i].name);
        if (n > best_len && !strncmp(name, d->pkgs[i].name, n) && name[n] == '/') {
            best = i;
            best_len = n;
        }
    }
    return best;
}
