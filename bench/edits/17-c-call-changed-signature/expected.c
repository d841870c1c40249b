/*
 * kvfile.c - read "key = value" settings files into a small table.
 *
 * A line holds one setting, a comment (from '#' to the end of the line) or
 * nothing. Keys are letters, digits, '_' and '.'; values run to the end of
 * the line with surrounding blanks removed. Later settings of a key
 * replace earlier ones.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KV_MAX_ENTRIES 128
#define KV_MAX_KEY 64
#define KV_MAX_VALUE 256

struct kv_entry {
    char key[KV_MAX_KEY];
    char value[KV_MAX_VALUE];
};

struct kv_table {
    struct kv_entry entries[KV_MAX_ENTRIES];
    size_t count;
};

/* Where a problem was found, for messages. */
struct kv_where {
    const char *path;
    unsigned line;
};

static int is_key_char(int c) {
    return isalnum(c) || c == '_' || c == '.';
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/*
 * Splits one line into key and value. The line is changed in place: the
 * comment is cut off and the two parts are NUL-terminated. Returns 1 for a
 * setting, 0 for a blank or comment line, and -1 (with a message naming
 * `where`) for anything else.
 */
static int parse_line(char *line, const struct kv_where *where,
                      char **key, char **value) {
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *s = trim(line);
    if (*s == '\0')
        return 0;
    char *eq = strchr(s, '=');
    if (!eq) {
        fprintf(stderr, "%s:%u: expected key = value\n", where->path, where->line);
        return -1;
    }
    *eq = '\0';
    *key = trim(s);
    *value = trim(eq + 1);
    if (**key == '\0') {
        fprintf(stderr, "%s:%u: empty key\n", where->path, where->line);
        return -1;
    }
    for (const char *k = *key; *k; k++) {
        if (!is_key_char((unsigned char)*k)) {
            fprintf(stderr, "%s:%u: bad character in key '%s'\n", where->path,
                    where->line, *key);
            return -1;
        }
    }
    return 1;
}

static struct kv_entry *kv_find(struct kv_table *t, const char *key) {
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->entries[i].key, key) == 0)
            return &t->entries[i];
    return NULL;
}

static int kv_set(struct kv_table *t, const char *key, const char *value) {
    if (strlen(key) >= KV_MAX_KEY || strlen(value) >= KV_MAX_VALUE)
        return -1;
    struct kv_entry *e = kv_find(t, key);
    if (!e) {
        if (t->count == KV_MAX_ENTRIES)
            return -1;
        e = &t->entries[t->count++];
        strcpy(e->key, key);
    }
    strcpy(e->value, value);
    return 0;
}

/* Reads every setting of the file at path into t. Returns 0, or -1 after a
 * message on stderr. */
static int kv_load(struct kv_table *t, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    char buf[512];
    unsigned lineno = 0;
    int rc = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        struct kv_where where = {path, lineno};
        char *key, *value;
        int got = parse_line(buf, &where, &key, &value);
        if (got < 0) {
            rc = -1;
            continue;
        }
        if (got == 0)
            continue;
        if (kv_set(t, key, value) != 0) {
            fprintf(stderr, "%s:%u: setting '%s' does not fit\n", path, lineno, key);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

static const char *kv_get(const struct kv_table *t, const char *key,
                          const char *fallback) {
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->entries[i].key, key) == 0)
            return t->entries[i].value;
    return fallback;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [KEY...]\n", argv[0]);
        return 2;
    }
    static struct kv_table table;
    if (kv_load(&table, argv[1]) != 0)
        return 1;
    if (argc == 2) {
        for (size_t i = 0; i < table.count; i++)
            printf("%s = %s\n", table.entries[i].key, table.entries[i].value);
        return 0;
    }
    for (int i = 2; i < argc; i++)
        printf("%s = %s\n", argv[i], kv_get(&table, argv[i], "(unset)"));
    return 0;
}
