/*
 * util.c — what the SBOM tool's sources share: running a command, hashing
 * a file, normalising a path, reading "Key: value" fields, the package
 * list, the licence table.
 */
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbom.h"

char *sbom_run(char *const argv[]) {
    int fd[2];
    if (pipe(fd)) return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0, cap = 4096;
    char *out = malloc(cap);
    ssize_t k;
    while (out && (k = read(fd[0], out + n, cap - n - 1)) > 0) {
        n += (size_t)k;
        if (cap - n < 2) {
            char *more = realloc(out, cap *= 2);
            if (!more) free(out);
            out = more;
        }
    }
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (!out || !WIFEXITED(st) || WEXITSTATUS(st)) {
        free(out);
        return NULL;
    }
    out[n] = '\0';
    return out;
}

static void sbom__hex(const unsigned char *b, unsigned n, char *hex) {
    for (unsigned i = 0; i < n; i++) snprintf(hex + 2 * i, 3, "%02x", b[i]);
}

int sbom_hash_file(const char *path, char sha1[41], char sha256[65]) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = EVP_MD_CTX_new();
    int rc = -1;
    if (!a || !b || EVP_DigestInit_ex(a, EVP_sha1(), NULL) != 1 ||
        EVP_DigestInit_ex(b, EVP_sha256(), NULL) != 1)
        goto done;
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        EVP_DigestUpdate(a, buf, n);
        EVP_DigestUpdate(b, buf, n);
    }
    if (ferror(f)) goto done;
    unsigned len;
    EVP_DigestFinal_ex(a, md, &len);
    sbom__hex(md, len, sha1);
    EVP_DigestFinal_ex(b, md, &len);
    sbom__hex(md, len, sha256);
    rc = 0;
done:
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
    fclose(f);
    return rc;
}

char *sbom_normal_path(const char *path) {
    size_t n = strlen(path);
    char *out = malloc(n + 2), *copy = strdup(path);
    if (!out || !copy) {
        free(out);
        free(copy);
        return NULL;
    }
    size_t len = 0;
    bool absolute = path[0] == '/';
    char *save = NULL;
    for (char *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, ".")) continue;
        if (!strcmp(part, "..")) {
            while (len > 0 && out[len - 1] != '/') len--;
            if (len > 0) len--; /* the slash before it */
            continue;
        }
        if (len > 0 || absolute) out[len++] = '/';
        memcpy(out + len, part, strlen(part));
        len += strlen(part);
    }
    if (len == 0 && absolute) out[len++] = '/';
    out[len] = '\0';
    free(copy);
    return out;
}

char *sbom_field(const char *text, const char *key) {
    size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, k) || p[k] != ':') continue;
        const char *v = p + k + 1;
        while (*v == ' ') v++;
        return strndup(v, strcspn(v, "\n"));
    }
    return NULL;
}

static char *sbom__dup(const char *s) { return s ? strdup(s) : NULL; }

int sbom_add_pkg(sbom_doc *d, const sbom_pkg *p) {
    for (int i = 0; i < d->n_pkgs; i++)
        if (!strcmp(d->pkgs[i].name, p->name) && !strcmp(d->pkgs[i].version, p->version))
            return i;
    sbom_pkg *more = realloc(d->pkgs, (size_t)(d->n_pkgs + 1) * sizeof *more);
    if (!more) return -1;
    d->pkgs = more;
    sbom_pkg *q = &d->pkgs[d->n_pkgs];
    *q = (sbom_pkg){sbom__dup(p->name), sbom__dup(p->version), sbom__dup(p->license),
                    sbom__dup(p->supplier), sbom__dup(p->download), sbom__dup(p->purl),
                    sbom__dup(p->algo), sbom__dup(p->digest), p->role};
    return d->n_pkgs++;
}

void sbom_doc_free(sbom_doc *d) {
    for (int i = 0; i < d->n_pkgs; i++) {
        sbom_pkg *p = &d->pkgs[i];
        free(p->name), free(p->version), free(p->license), free(p->supplier);
        free(p->download), free(p->purl), free(p->algo), free(p->digest);
    }
    for (int i = 0; i < d->n_files; i++) free(d->files[i].path);
    free(d->pkgs);
    free(d->files);
}

char *sbom_license_of(const sbom_doc *d, const char *key, char **keyword) {
    if (keyword) *keyword = NULL;
    FILE *f = fopen(d->licenses, "r");
    if (!f) return NULL;
    char line[512];
    size_t k = strlen(key);
    char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || strncmp(line, key, k) || line[k] != '|') continue;
        char *a = line + k + 1, *bar = strchr(a, '|');
        if (bar) { /* deb lines: KEYWORD|SPDX */
            *bar = '\0';
            if (keyword) *keyword = strdup(a);
            a = bar + 1;
        }
        found = strdup(a);
    }
    fclose(f);
    return found;
}
