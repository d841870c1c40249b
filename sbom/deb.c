/*
 * deb.c — a file the linker opened, mapped to the Debian package that
 * installed it: name, version, source, licence (sbom/licenses.txt, checked
 * against the package's copyright file), and the .deb's SHA-256 from apt's
 * index where apt has one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbom.h"

/* The package owning path as dpkg records it ("libjansson-dev:amd64"), or
 * NULL. With the /usr merge a file may be known as /lib/... or /usr/lib/...:
 * both are tried. */
static char *sbom__owner(const char *path) {
    char alt[4096];
    const char *tries[3] = {path, NULL, NULL};
    if (!strncmp(path, "/usr/lib/", 9)) snprintf(alt, sizeof alt, "%s", path + 4);
    else if (!strncmp(path, "/lib", 4)) snprintf(alt, sizeof alt, "/usr%s", path);
    else alt[0] = '\0';
    if (alt[0]) tries[1] = alt;
    for (int i = 0; i < 3 && tries[i]; i++) {
        char *out = sbom_run((char *const[]){"dpkg-query", "-S", (char *)tries[i], NULL});
        if (!out) continue;
        char *colon = strstr(out, ": ");
        if (colon) { /* "pkg:arch: /path"; several owners: the first */
            *colon = '\0';
            char *comma = strchr(out, ',');
            if (comma) *comma = '\0';
            return out;
        }
        free(out);
    }
    return NULL;
}

/* True when the text contains word, in any case. */
static bool sbom__mentions(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = text; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)word[i]))
            i++;
        if (i == n) return true;
    }
    return false;
}

/* The licence of source package `src` from the table, checked against the
 * binary package's copyright file where it has one. */
static char *sbom__deb_license(const sbom_doc *d, const char *src, const char *bin,
                               sb_err *err) {
    char key[256], *keyword = NULL;
    snprintf(key, sizeof key, "deb:%s", src);
    char *license = sbom_license_of(d, key, &keyword);
    if (!license) {
        sb_err_set(err, "sbom", "no licence known for Debian package %s (source "
                   "%s): add a line 'deb:%s|KEYWORD|SPDX' to %s", bin, src, src,
                   d->licenses);
        free(keyword);
        return NULL;
    }
    char path[512];
    snprintf(path, sizeof path, "/usr/share/doc/%s/copyright", bin);
    FILE *f = fopen(path, "r");
    if (f && keyword) {
        static char text[1 << 20];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        if (!sbom__mentions(text, keyword)) {
            sb_err_set(err, "sbom", "%s does not mention '%s': %s's licence may "
                       "have changed; check the 'deb:%s' line of %s", path,
                       keyword, bin, src, d->licenses);
            free(license);
            license = NULL;
        }
    }
    if (f) fclose(f);
    free(keyword);
    return license;
}

/* The .deb's SHA-256 and pool path from apt's index, where it has them. */
static void sbom__apt_digest(const char *pkg, const char *version, char **sha,
                             char **url) {
    char spec[512];
    snprintf(spec, sizeof spec, "%s=%s", pkg, version);
    char *out = sbom_run((char *const[]){"apt-cache", "show", "--no-all-versions",
                                         spec, NULL});
    *sha = out ? sbom_field(out, "SHA256") : NULL;
    char *file = out ? sbom_field(out, "Filename") : NULL;
    *url = NULL;
    if (file) {
        size_t n = strlen(file) + 64;
        *url = malloc(n);
        if (*url) snprintf(*url, n, "https://deb.debian.org/debian/%s", file);
    }
    free(file);
    free(out);
}

int sbom_deb_pkg(sbom_doc *d, const char *path, sbom_role role, sb_err *err) {
    char *owner = sbom__owner(path);
    if (!owner) {
        sb_err_set(err, "sbom", "no Debian package owns %s", path);
        return -1;
    }
    char *bin = strndup(owner, strcspn(owner, ":"));
    char *info = sbom_run((char *const[]){"dpkg-query", "-W", "-f",
                                          "Version: ${Version}\nSource: ${source:Package}\n"
                                          "Arch: ${Architecture}\n",
                                          owner, NULL});
    char *version = info ? sbom_field(info, "Version") : NULL;
    char *src = info ? sbom_field(info, "Source") : NULL;
    char *arch = info ? sbom_field(info, "Arch") : NULL;
    int at = -1;
    char *license = version && src ? sbom__deb_license(d, src, bin, err) : NULL;
    if (!version || !src) sb_err_set(err, "sbom", "dpkg-query cannot describe %s", owner);
    if (license) {
        char *sha = NULL, *url = NULL, purl[512];
        sbom__apt_digest(bin, version, &sha, &url);
        snprintf(purl, sizeof purl, "pkg:deb/debian/%s@%s?arch=%s", bin, version,
                 arch ? arch : "amd64");
        sbom_pkg p = {.name = bin, .version = version, .license = license,
                      .supplier = "Organization: Debian", .download = url,
                      .purl = purl, .algo = sha ? "SHA256" : NULL, .digest = sha,
                      .role = role};
        at = sbom_add_pkg(d, &p);
        if (at >= 0 && role < d->pkgs[at].role) d->pkgs[at].role = role;
        free(sha);
        free(url);
    }
    free(owner), free(bin), free(info), free(version), free(src), free(arch);
    free(license);
    return at;
}
