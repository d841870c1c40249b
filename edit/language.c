/*
 * language.c — which language a file is in, as one name: the fence tag the
 * prompt shows and the grammar sb-lsp's code actions parse with
 * (lsp/syntax.c). One table decides both, so the two can never disagree;
 * an id it does not know is still a fine fence tag.
 */
#include <string.h>
#include <strings.h>

#include "edit.h"

/* One row per grammar (lsp/syntax.c has one for each name): its name, the
 * LSP languageIds it parses besides its name, and file extensions
 * (lowercase, without the dot). Lists end with NULL. */
typedef struct language__row {
    const char *name;
    const char *ids[4];
    const char *exts[10];
} language__row;

static const language__row language__rows[] = {
    {"c", {NULL}, {"c", "h", NULL}},
    {"cpp", {"c++", "cuda-cpp", NULL},
     {"cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "cu"}},
    {"python", {NULL}, {"py", "pyi", "pyw", NULL}},
    {"javascript", {"javascriptreact", NULL},
     {"js", "mjs", "cjs", "jsx", NULL}},
    {"typescript", {NULL}, {"ts", "mts", "cts", NULL}},
    {"tsx", {"typescriptreact", NULL}, {"tsx", NULL}},
    {"rust", {NULL}, {"rs", NULL}},
    {"go", {NULL}, {"go", NULL}},
    {"java", {NULL}, {"java", NULL}},
    {"json", {"jsonc", NULL}, {"json", NULL}},
    {"bash", {"shellscript", "sh", NULL},
     {"sh", "bash", NULL}},
    {"lua", {NULL}, {"lua", NULL}},
    {"yaml", {NULL}, {"yaml", "yml", NULL}},
    {"markdown", {NULL}, {"md", "markdown", NULL}},
};
enum { LANGUAGE__N_ROWS = sizeof language__rows / sizeof *language__rows };

static const language__row *language__find(const char *id) {
    if (!id) return NULL;
    for (int i = 0; i < LANGUAGE__N_ROWS; i++) {
        const language__row *l = &language__rows[i];
        if (!strcasecmp(id, l->name)) return l;
        for (int k = 0; k < 4 && l->ids[k]; k++)
            if (!strcasecmp(id, l->ids[k])) return l;
    }
    return NULL;
}

const char *edit_language_for_id(const char *language_id) {
    const language__row *l = language__find(language_id);
    return l ? l->name : NULL;
}

const char *edit_language_for_path(const char *path) {
    if (!path) return NULL;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) return NULL; /* no extension, or a dotfile */
    for (int i = 0; i < LANGUAGE__N_ROWS; i++)
        for (int k = 0; k < 10 && language__rows[i].exts[k]; k++)
            if (!strcasecmp(dot + 1, language__rows[i].exts[k]))
                return language__rows[i].name;
    return NULL;
}

const char *edit_language(const char *language, const char *path) {
    if (language && *language) {
        const char *grammar = edit_language_for_id(language);
        return grammar ? grammar : language;
    }
    return path && *path ? edit_language_for_path(path) : NULL;
}
