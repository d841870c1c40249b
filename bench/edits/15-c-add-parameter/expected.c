/*
 * logfmt2csv - turn logfmt lines into CSV for a spreadsheet.
 *
 *   $ logfmt2csv -c time,level,msg,duration < app.log > app.csv
 *
 * Each input line is a sequence of key=value pairs; values containing
 * spaces are double-quoted, with \" and \\ escapes.  The columns to keep
 * are named on the command line; a key missing from a line gives an
 * empty cell.  Output follows RFC 4180: CRLF line ends, fields quoted
 * only when they must be.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PAIRS 64
#define MAX_COLUMNS 32

struct pair {
    char *key;
    char *value;
};

struct line {
    struct pair pairs[MAX_PAIRS];
    int count;
};

/* Parses one logfmt line in place: keys and values end up pointing into
 * buf, NUL-terminated.  Returns false on a malformed line (unterminated
 * quote, key without '=', too many pairs). */
static bool parse_line(char *buf, struct line *out)
{
    char *p = buf;

    out->count = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '\n')
            return true;
        if (out->count == MAX_PAIRS)
            return false;

        struct pair *pair = &out->pairs[out->count++];
        pair->key = p;
        while (*p != '=' && *p != ' ' && *p != '\0' && *p != '\n')
            p++;
        if (*p != '=')
            return false;
        *p++ = '\0';

        if (*p == '"') {
            /* Unescape in place: w trails r, so the value only shrinks. */
            char *r = ++p, *w = p;
            pair->value = w;
            while (*r != '"') {
                if (*r == '\0' || *r == '\n')
                    return false;
                if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
                    r++;
                *w++ = *r++;
            }
            p = r + 1;
            *w = '\0';
        } else {
            pair->value = p;
            while (*p != ' ' && *p != '\t' && *p != '\0' && *p != '\n')
                p++;
            if (*p != '\0')
                *p++ = '\0';
        }
    }
}

static const char *lookup(const struct line *line, const char *key)
{
    for (int i = 0; i < line->count; i++) {
        if (strcmp(line->pairs[i].key, key) == 0)
            return line->pairs[i].value;
    }
    return "";
}

/* A field needs quotes when it contains the delimiter, a quote or a line
 * break, or starts or ends with a space some spreadsheets would trim. */
static bool needs_quoting(const char *field, char delim)
{
    size_t len = strlen(field);

    if (len > 0 && (field[0] == ' ' || field[len - 1] == ' '))
        return true;
    return strchr(field, delim) != NULL || strpbrk(field, "\"\r\n") != NULL;
}

static void csv_write_field(FILE *out, const char *field, char delim)
{
    if (!needs_quoting(field, delim)) {
        fputs(field, out);
        return;
    }
    fputc('"', out);
    for (const char *c = field; *c != '\0'; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

static void csv_write_row(FILE *out, const char *const *fields, int count, char delim)
{
    for (int i = 0; i < count; i++) {
        if (i > 0)
            fputc(delim, out);
        csv_write_field(out, fields[i], delim);
    }
    fputs("\r\n", out);
}

/* Splits the -c argument on commas, in place. */
static int split_columns(char *spec, const char **columns)
{
    int count = 0;

    for (char *tok = strtok(spec, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (count == MAX_COLUMNS)
            return -1;
        columns[count++] = tok;
    }
    return count;
}

static int convert(FILE *in, FILE *out, const char **columns, int ncolumns, char delim)
{
    char *buf = NULL;
    size_t cap = 0;
    long lineno = 0, skipped = 0;
    struct line line;
    const char *cells[MAX_COLUMNS];

    csv_write_row(out, columns, ncolumns, delim);
    while (getline(&buf, &cap, in) != -1) {
        lineno++;
        if (!parse_line(buf, &line)) {
            fprintf(stderr, "logfmt2csv: line %ld: malformed, skipped\n", lineno);
            skipped++;
            continue;
        }
        for (int i = 0; i < ncolumns; i++)
            cells[i] = lookup(&line, columns[i]);
        csv_write_row(out, cells, ncolumns, delim);
    }
    free(buf);
    if (ferror(in)) {
        perror("logfmt2csv: read");
        return 1;
    }
    return skipped > 0 ? 3 : 0;
}

static void usage(FILE *to)
{
    fputs("usage: logfmt2csv -c COL[,COL...] [-d DELIM] [FILE]\n", to);
}

int main(int argc, char **argv)
{
    const char *columns[MAX_COLUMNS];
    int ncolumns = 0, opt, status;
    char delim = ',';
    FILE *in = stdin;

    while ((opt = getopt(argc, argv, "c:d:h")) != -1) {
        switch (opt) {
        case 'c':
            ncolumns = split_columns(optarg, columns);
            if (ncolumns < 0) {
                fprintf(stderr, "logfmt2csv: more than %d columns\n", MAX_COLUMNS);
                return 2;
            }
            break;
        case 'd':
            if (strlen(optarg) != 1 || strchr("\"\r\n", optarg[0]) != NULL) {
                fprintf(stderr, "logfmt2csv: -d needs one character other than a quote or line break\n");
                return 2;
            }
            delim = optarg[0];
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (ncolumns == 0) {
        usage(stderr);
        return 2;
    }
    if (optind < argc && (in = fopen(argv[optind], "r")) == NULL) {
        perror(argv[optind]);
        return 1;
    }
    status = convert(in, stdout, columns, ncolumns, delim);
    if (in != stdin)
        fclose(in);
    return status;
}
