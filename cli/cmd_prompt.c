/*
 * sb prompt: edit prompts as token ids, through the engine's own code path
 * (edit_prompt_tokens), so that a model trained on them sees exactly
 * what `sb edit` will show it. tools/train/ tokenizes its training set with
 * the --tasks form.
 *
 * The answer a model should give for an edited file is edit/edit.h's
 * edit_reply_ids: the reply text (the edited file, its closing fence) as
 * one piece of plain text, then <|im_end|> — what a model generating after
 * the prompt produces, since a token never straddles the prompt's end.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../edit/edit.h"
#include "cli.h"

static const char cli__prompt_help[] =
    "usage: sb prompt [-m MODEL] -i INSTRUCTION -f FILE [--language L]\n"
    "                 [--edited FILE] [--text]\n"
    "       sb prompt [-m MODEL] --tasks TASKS.jsonl --out IDS.bin\n"
    "The edit prompt for applying INSTRUCTION to FILE, as token ids on one\n"
    "line (--text: the prompt's text instead). With --edited, a second line\n"
    "holds the ids of the answer a model should give: the edited file, the\n"
    "closing fence and <|im_end|> (an edited file with a line that would\n"
    "close the fence early is refused).\n"
    "The fence is tagged as sb edit tags it: --language (a fence tag or an\n"
    "LSP languageId), else FILE's extension.\n"
    "-m MODEL: the GGUF model whose tokenizer to use (default: $SB_MODEL,\n"
    "else the demo model beside sb).\n"
    "--tasks reads one JSON object a line, {\"instruction\", \"file\",\n"
    "\"edited\", \"lang\" (or \"language\"; optional)}, and writes IDS.bin\n"
    "(atomically): \"SBTOK001\", then per task u32 n_prompt, u32 n_answer and\n"
    "n_prompt + n_answer int32 ids, all little-endian. A task is prompted\n"
    "with v1 unless it has \"prompt\": \"v2\": then \"file\" is the document,\n"
    "\"lines\": [A, B] (1-based, inclusive; optional, default all) the region\n"
    "to rewrite, and \"edited\" the rewritten region.\n";

typedef struct cli__prompt_opts {
    const char *model, *instruction, *file, *language, *edited, *tasks, *out;
    bool text;
} cli__prompt_opts;

/* Returns -1 to go on, else the exit code. */
static int cli__prompt_parse(int argc, char **argv, cli__prompt_opts *o) {
    static const struct option longs[] = {
        {"model", 1, 0, 'm'}, {"instruction", 1, 0, 'i'}, {"file", 1, 0, 'f'},
        {"language", 1, 0, 'l'}, {"edited", 1, 0, 'e'}, {"text", 0, 0, 'T'},
        {"tasks", 1, 0, 't'}, {"out", 1, 0, 'o'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:i:f:o:h", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'i': o->instruction = optarg; break;
        case 'f': o->file = optarg; break;
        case 'l': o->language = optarg; break;
        case 'e': o->edited = optarg; break;
        case 'T': o->text = true; break;
        case 't': o->tasks = optarg; break;
        case 'o': o->out = optarg; break;
        case 'h': fputs(cli__prompt_help, stdout); return CLI_OK;
        default: return cli_bad_option("prompt");
        }
    }
    if (optind < argc)
        return cli_usage("prompt", "unexpected argument '%s'", argv[optind]);
    if (o->tasks ? (!o->out || o->instruction || o->file || o->edited)
                 : (!o->instruction || !*o->instruction || !o->file || o->out))
        return cli_usage("prompt", "expected -i INSTRUCTION -f FILE, or "
                         "--tasks FILE --out FILE");
    return -1;
}

/* ---- one edit on the command line ---- */

static void cli__print_line(const int32_t *ids, int64_t n) {
    for (int64_t i = 0; i < n; i++) printf("%s%d", i ? " " : "", (int)ids[i]);
    putchar('\n');
}

static int cli__prompt_one(const eng_model *m, const cli__prompt_opts *o) {
    char *file = NULL, *edited = NULL, *text = NULL;
    int32_t *ids = NULL, *ans = NULL, n_ans = 0;
    int64_t file_len = 0, edited_len = 0, n = 0, text_len = 0;
    sb_err err = {0};
    int rc = CLI_FAIL;
    if (cli_read_file(o->file, CLI_INPUT_MAX, &file, &file_len)) {
        cli_read_fail("prompt", "the file", o->file, CLI_INPUT_MAX, false);
        goto done;
    }
    if (o->edited && cli_read_file(o->edited, CLI_INPUT_MAX, &edited,
                                   &edited_len)) {
        cli_read_fail("prompt", "the edited file", o->edited, CLI_INPUT_MAX,
                      false);
        goto done;
    }
    /* the fence's tag as sb edit picks it: the flag, else FILE's extension */
    edit_request r = {.file = file, .file_len = file_len,
                      .instruction = o->instruction,
                      .instruction_len = (int64_t)strlen(o->instruction),
                      .language = o->language,
                      .path = strcmp(o->file, "-") ? o->file : NULL};
    if (o->text ? edit_prompt_text(&r, &text, &text_len, &err)
                : edit_prompt_tokens(m, &r, &ids, &n, &err)) {
        cli_fail("prompt", "%s", err.msg);
        goto done;
    }
    if (o->text) fwrite(text, 1, (size_t)text_len, stdout);
    else cli__print_line(ids, n);
    if (edited) {
        if (edit_reply_ids(m, file, file_len, edited, edited_len, &ans, &n_ans,
                           &err)) {
            cli_fail("prompt", "%s", err.msg);
            goto done;
        }
        cli__print_line(ans, n_ans);
    }
    rc = CLI_OK;
done:
    free(file);
    free(edited);
    free(text);
    free(ids);
    free(ans);
    return rc;
}

/* ---- a task file ---- */

static void cli__put_u32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                          (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

/* A string member of a task, or NULL (with err naming it) when missing. */
static const char *cli__member(json_t *task, const char *key, bool required,
                               int64_t *len, long line, sb_err *err) {
    json_t *v = json_object_get(task, key);
    if (!v && !required) return NULL;
    if (!json_is_string(v)) {
        sb_err_set(err, __func__, "task on line %ld: \"%s\" is missing or not "
                   "a string", line, key);
        return NULL;
    }
    *len = (int64_t)json_string_length(v);
    return json_string_value(v);
}

/* The task's prompt version and region: with "prompt": "v2", the request
 * shows "file" as the document (edit_request_set_context, with sb edit's
 * default budget) and rewrites the lines "lines": [A, B] of it (1-based,
 * inclusive; the whole file without it), and "edited" is the rewritten
 * region. Without "prompt" (or "v1"), r is left as it is. */
static int cli__prompt_task_region(json_t *task, const eng_model *m,
                                   const char *file, int64_t fl,
                                   edit_request *r, long lineno, sb_err *err) {
    json_t *pv = json_object_get(task, "prompt"), *lines = json_object_get(task, "lines");
    int version = 1;
    if (pv && (!json_is_string(pv) ||
               edit_prompt_version_parse(json_string_value(pv), &version)))
        return sb_err_set(err, __func__, "task on line %ld: \"prompt\" must be "
                          "\"v1\" or \"v2\"", lineno);
    if (version < 2)
        return lines ? sb_err_set(err, __func__, "task on line %ld: \"lines\" "
                                  "needs \"prompt\": \"v2\"", lineno) : 0;
    int64_t from = 0, to = fl;
    if (lines) {
        json_t *ja = json_array_get(lines, 0), *jb = json_array_get(lines, 1);
        if (json_array_size(lines) != 2 || !json_is_integer(ja) || !json_is_integer(jb) ||
            json_integer_value(ja) < 1 || json_integer_value(jb) < json_integer_value(ja))
            return sb_err_set(err, __func__, "task on line %ld: \"lines\" must be "
                              "[A, B] with 1 <= A <= B", lineno);
        const int64_t a = json_integer_value(ja), b = json_integer_value(jb);
        bool past = false;
        from = cli_line_start(file, fl, a, &past);
        to = cli_line_start(file, fl, b + 1, &(bool){false});
        if (past)
            return sb_err_set(err, __func__, "task on line %ld: \"lines\" [%lld, %lld]: "
                              "the file has fewer than %lld lines", lineno,
                              (long long)a, (long long)b, (long long)a);
    }
    const int32_t ctx = eng_model_n_ctx(m) < 4096 ? eng_model_n_ctx(m) : 4096;
    sb_err e = {0};
    if (edit_request_set_context(r, m, file, fl, from, to,
                                 edit_context_budget_default(ctx), &e))
        return sb_err_set(err, __func__, "task on line %ld: %s", lineno, e.msg);
    return 0;
}

/* Encodes the task on one line and appends its record to out. */
static int cli__prompt_task(const eng_model *m, const char *line, size_t len,
                            long lineno, FILE *out, sb_err *err) {
    json_error_t je;
    json_t *task = json_loadb(line, len, 0, &je);
    if (!json_is_object(task)) {
        json_decref(task);
        return sb_err_set(err, __func__, "line %ld is not a JSON object (%s)",
                          lineno, task ? "another JSON value" : je.text);
    }
    int64_t il = 0, fl = 0, el = 0, ll = 0, n = 0;
    int32_t *ids = NULL, *ans = NULL, n_ans = 0;
    int rc = -1;
    const char *instr = cli__member(task, "instruction", true, &il, lineno, err);
    const char *file = cli__member(task, "file", true, &fl, lineno, err);
    const char *edited = cli__member(task, "edited", true, &el, lineno, err);
    const char *lang = cli__member(task, "lang", false, &ll, lineno, err);
    if (!lang) lang = cli__member(task, "language", false, &ll, lineno, err);
    if (!instr || !file || !edited || err->msg[0]) goto done;
    edit_request r = {.file = file, .file_len = fl, .instruction = instr,
                      .instruction_len = il, .language = lang};
    if (cli__prompt_task_region(task, m, file, fl, &r, lineno, err)) goto done;
    sb_err e = {0};
    if (edit_prompt_tokens(m, &r, &ids, &n, &e) ||
        edit_reply_ids(m, r.file, r.file_len, edited, el, &ans, &n_ans, &e)) {
        sb_err_set(err, __func__, "task on line %ld: %s", lineno, e.msg);
        goto done;
    }
    cli__put_u32(out, (uint32_t)n);
    cli__put_u32(out, (uint32_t)n_ans);
    for (int64_t i = 0; i < n; i++) cli__put_u32(out, (uint32_t)ids[i]);
    for (int32_t i = 0; i < n_ans; i++) cli__put_u32(out, (uint32_t)ans[i]);
    rc = 0;
done:
    free(ids);
    free(ans);
    json_decref(task);
    return rc;
}

static int cli__prompt_tasks(const eng_model *m, const cli__prompt_opts *o) {
    FILE *in = fopen(o->tasks, "r");
    if (!in) return cli_fail("prompt", "cannot open '%s': %m", o->tasks);
    sb_out file;
    sb_err err = {0};
    FILE *out = NULL;
    if (sb_out_create(&file, o->out, &err) || !(out = sb_out_stream(&file))) {
        fclose(in);
        sb_out_abort(&file);
        return cli_fail("prompt", "%s", err.msg[0] ? err.msg : "out of memory");
    }
    fwrite("SBTOK001", 1, 8, out);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, n_tasks = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        lineno++;
        if (len == 1 && line[0] == '\n') continue;
        if (cli__prompt_task(m, line, (size_t)len, lineno, out, &err)) break;
        n_tasks++;
    }
    bool read_error = ferror(in);
    free(line);
    fclose(in);
    if (err.msg[0] || read_error) {
        sb_out_abort(&file);
        return err.msg[0] ? cli_fail("prompt", "%s", err.msg)
                          : cli_fail("prompt", "cannot read '%s'", o->tasks);
    }
    if (sb_out_commit(&file, &err)) return cli_fail("prompt", "%s", err.msg);
    fprintf(stderr, "sb prompt: %ld tasks -> %s\n", n_tasks, o->out);
    return CLI_OK;
}

int cli_prompt(int argc, char **argv) {
    cli__prompt_opts o = {0};
    int rc = cli__prompt_parse(argc, argv, &o);
    if (rc >= 0) return rc;
    char default_model[4096];
    eng_model *m = cli_model_open("prompt", &o.model, default_model,
                                  sizeof default_model);
    if (!m) return CLI_FAIL;
    rc = o.tasks ? cli__prompt_tasks(m, &o) : cli__prompt_one(m, &o);
    eng_model_free(m);
    return rc;
}
