/*
 * extract.c — reading the edited file out of the model's fenced reply, and
 * writing the reply a given file makes (edit.h states the format).
 *
 * The prompt opened the fence with F backticks, F longer than any backtick
 * run of the original file, so a line of F or more backticks at column 0
 * can only be the model closing the fence. CommonMark lets a closing fence
 * be longer than the opening one and be followed by spaces; it also lets it
 * be indented by up to three spaces, which we do not: the prompt's fences
 * sit at column 0, and an indented run is far likelier to be code (a
 * Markdown snippet inside a docstring) than a closing fence.
 */
#include <stdlib.h>
#include <string.h>

#include "edit.h"

bool edit_adds_newline(const char *file, int64_t file_len) {
    return file_len > 0 && file[file_len - 1] != '\n';
}

/* True when the line starting at answer[at] closes a fence of fence_len. */
static bool extract__closes(const char *answer, int64_t len, int64_t at,
                            int64_t fence_len) {
    int64_t i = at;
    while (i < len && answer[i] == '`') i++;
    if (i - at < fence_len) return false;
    while (i < len && (answer[i] == ' ' || answer[i] == '\t' ||
                       answer[i] == '\r'))
        i++;
    return i == len || answer[i] == '\n';
}

/* Offset of the first closing line, or -1. */
static int64_t extract__find_closing(const char *answer, int64_t len,
                                     int64_t fence_len) {
    for (int64_t at = 0; at < len;) {
        if (extract__closes(answer, len, at, fence_len)) return at;
        const char *nl = memchr(answer + at, '\n', (size_t)(len - at));
        if (!nl) break;
        at = nl - answer + 1;
    }
    return -1;
}

int edit_extract(const char *answer, int64_t answer_len, int64_t fence_len,
                 bool added_newline, int64_t *file_len, int64_t *closing_at,
                 sb_err *err) {
    if (answer_len < 0 || (answer_len > 0 && !answer) || fence_len < 3)
        return sb_err_set(err, __func__, "bad arguments: answer of %lld bytes, "
                          "fence of %lld backticks (expected >= 3)",
                          (long long)answer_len, (long long)fence_len);
    int64_t at = extract__find_closing(answer, answer_len, fence_len);
    if (at < 0)
        return sb_err_set(err, __func__, "the answer has no closing fence (a "
                          "line of %lld backticks) after %lld bytes",
                          (long long)fence_len, (long long)answer_len);
    /* The closing line starts the answer or follows a "\n" that belongs to
     * the file unless the prompt added it. */
    int64_t n = at;
    if (added_newline && n > 0) n--;
    *file_len = n;
    if (closing_at) *closing_at = at;
    return 0;
}

edit_partial edit_partial_start(int64_t fence_len, bool added_newline) {
    return (edit_partial){.fence_len = fence_len, .added_newline = added_newline};
}

void edit_partial_update(edit_partial *p, const char *answer, int64_t len) {
    while (!p->closed && p->scanned < len) {
        const char *nl = memchr(answer + p->scanned, '\n',
                                (size_t)(len - p->scanned));
        if (!nl) return; /* the last line may go on */
        if (extract__closes(answer, len, p->scanned, p->fence_len)) {
            /* as edit_extract finds it: every line before was looked at */
            p->closed = true;
            p->known_len = p->added_newline && p->scanned > 0 ? p->scanned - 1
                                                              : p->scanned;
            return;
        }
        p->scanned = nl - answer + 1;
        p->known_len = p->scanned - 1;
    }
}

int edit_answer_text(const char *file, int64_t file_len, int64_t fence_len,
                     bool added_newline, char **text, int64_t *text_len,
                     sb_err *err) {
    if (file_len < 0 || (file_len > 0 && !file) || fence_len < 3 ||
        fence_len > INT32_MAX)
        return sb_err_set(err, __func__, "bad arguments: file of %lld bytes, "
                          "fence of %lld backticks", (long long)file_len,
                          (long long)fence_len);
    bool newline = file_len > 0 &&
                   (added_newline || file[file_len - 1] != '\n');
    uint64_t total;
    if (!sb_add_u64((uint64_t)file_len, (uint64_t)fence_len + 2, &total) ||
        total > (uint64_t)INT64_MAX)
        return sb_err_set(err, __func__, "a file of %lld bytes is too long",
                          (long long)file_len);
    char *t = malloc((size_t)total);
    if (!t) return sb_err_set(err, __func__, "out of memory for %llu bytes",
                              (unsigned long long)total);
    int64_t n = file_len;
    if (file_len > 0) memcpy(t, file, (size_t)file_len);
    if (newline) t[n++] = '\n';
    memset(t + n, '`', (size_t)fence_len);
    n += fence_len;
    t[n] = '\0';
    *text = t;
    *text_len = n;
    return 0;
}
