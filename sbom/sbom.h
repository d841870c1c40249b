/*
 * sbom.h — private to sbom/, the build tool behind `make sbom`: an SPDX 2.3
 * JSON document of every dependency of SonicBoom, with its version,
 * licence and checksums, drawn from what the build really uses:
 *
 *   - the files the linker opened for sb, a test binary and (with CUDA) the
 *     cuBLAS oracle test (`ld --trace`), each mapped to the Debian package
 *     that installed it (dpkg), or to the CUDA component (its wheel's
 *     dist-info, or the toolkit's version.json);
 *   - the tree-sitter grammar sources compiled into libsb, mapped to their
 *     npm packages, and every package of the npm lock files (grammars,
 *     tests, editors);
 *   - licences from the package metadata, else sbom/licenses.txt.
 *
 * `sbom --check` reads a document back and proves it lists every file the
 * traces name, with the file's current SHA-256, and that every package has
 * a version, a licence and a checksum. The document describes this build
 * machine's libraries, so it is made here (build/sbom.spdx.json), never
 * committed.
 */
#ifndef SB_SBOM_H
#define SB_SBOM_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/base.h"

/* How the product uses a package. */
typedef enum sbom_role {
    SBOM_STATIC,   /* linked into sb and sb-lsp (an archive) */
    SBOM_DYNAMIC,  /* loaded by sb and sb-lsp at run time (a shared library) */
    SBOM_TEST,     /* used by the tests only (cmocka, the tokenizer reference,
                      cuBLAS for the GPU oracle) */
    SBOM_BUILD,    /* fetched to build (npm packages grammars depend on) */
    SBOM_EDITOR,   /* a dependency of an editor extension (editors/) */
} sbom_role;

typedef struct sbom_pkg {
    char *name, *version, *license; /* license: an SPDX expression */
    char *supplier;                 /* "Organization: Debian", ... */
    char *download;                 /* a URL, or NULL (NOASSERTION) */
    char *purl;                     /* a package URL, or NULL */
    char *algo, *digest;            /* the package file's checksum ("SHA256",
                                       hex), or NULL when unknown */
    sbom_role role;
} sbom_pkg;

typedef struct sbom_file {
    char *path;            /* as the build used it */
    char sha1[41], sha256[65];
    int pkg;               /* index of its package */
} sbom_file;

typedef struct sbom_doc {
    sbom_pkg *pkgs;
    int n_pkgs;
    sbom_file *files;
    int n_files;
    const char *licenses;  /* sbom/licenses.txt's path */
} sbom_doc;

/* ---- util.c ---- */

/* Runs argv (no shell) and returns its stdout, malloc'd; NULL when it
 * cannot run or exits non-zero. */
char *sbom_run(char *const argv[]);
/* SHA-1 and SHA-256 of a file as hex; -1 when it cannot be read. */
int sbom_hash_file(const char *path, char sha1[41], char sha256[65]);
/* path with "." and ".." resolved lexically, malloc'd. */
char *sbom_normal_path(const char *path);
/* The value of "Key: value" lines (dpkg, apt, METADATA), malloc'd, or NULL. */
char *sbom_field(const char *text, const char *key);
/* Adds a package (its strings copied; NULLs allowed) and returns its
 * index, or the index of the package of the same name and version. */
int sbom_add_pkg(sbom_doc *d, const sbom_pkg *p);
void sbom_doc_free(sbom_doc *d);
/* A licence line of licenses.txt: the SPDX expression for `key` ("deb:X",
 * "npm:Y"), malloc'd, and the keyword after it (deb lines), or NULL. */
char *sbom_license_of(const sbom_doc *d, const char *key, char **keyword);

/* ---- deb.c ---- */

/* The Debian package that installed path (trying the path as dpkg may
 * know it under the /usr merge), added to d with role; its index, or -1
 * with err when no package owns it or its licence is unknown. */
int sbom_deb_pkg(sbom_doc *d, const char *path, sbom_role role, sb_err *err);

/* ---- cuda.c ---- */

/* The CUDA component that ships path (a library under cuda_home), added
 * with role; its index, or -1 with err. */
int sbom_cuda_pkg(sbom_doc *d, const char *cuda_home, const char *path,
                  sbom_role role, sb_err *err);

/* ---- npm.c ---- */

/* Every package of an npm lock file (v2/v3), added with role. -1 with err
 * for an unreadable lock or a package without a licence. */
int sbom_npm_lock(sbom_doc *d, const char *lock, sbom_role role, sb_err *err);
/* The package of a file under a node_modules folder (the lock's entry for
 * the longest node_modules/NAME prefix of path): its index, or -1. */
int sbom_npm_pkg_of(const sbom_doc *d, const char *path);

/* ---- check.c ---- */

/* Reads the SPDX document at path and checks it against `now` (gathered
 * from this build's traces, sources and locks): every file listed with its
 * current SHA-256, every package listed, and every package in it with a
 * version, a licence and a checksum (its own or a file's). -1 with err
 * naming the first problem (all of them go to stderr). */
int sbom_check(const char *path, const sbom_doc *now, sb_err *err);

#endif /* SB_SBOM_H */
