/* Loading a lesson file: size cap, node tree and position pass, libcyaml load,
 * the lists of lists filled in, then the numbers computed and checked. */
#define _GNU_SOURCE
#include "lesson/check.h"
#include "lesson/fill.h"
#include "lesson/rules.h"
#include "lesson/load.h"
#include "lesson/verify.h"
#include "engine/file.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read a whole file (or stdin for "-"), refusing more than AT_LESSON_MAX_BYTES and
 * anything that is not a regular file (a FIFO, a device, a socket, a folder). */
int at_read_capped(const char *path, const char *what, char **data, size_t *len,
                   at_diag_list *diags)
{
    *data = NULL;
    *len = 0;
    if (strcmp(path, "-")) {
        at_error err;
        int rc = at_file_read(path, what, AT_LESSON_MAX_BYTES, data, len, &err);
        if (rc == AT_ERANGE)
            at_diag_add(diags, AT_DIAG_ERROR, path, 1, 1, "file is larger than %d bytes (1 MiB), "
                        "the limit for %s: split it", AT_LESSON_MAX_BYTES, what);
        else if (rc)
            at_diag_add(diags, AT_DIAG_ERROR, path, 0, 0, "%s", err.msg);
        return rc;
    }
    char *buf = malloc(AT_LESSON_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, AT_LESSON_MAX_BYTES + 1, stdin) : 0;
    if (!buf) {
        at_diag_add(diags, AT_DIAG_ERROR, path, 0, 0, "out of memory");
        return AT_ENOMEM;
    }
    if (ferror(stdin)) {
        free(buf);
        at_diag_add(diags, AT_DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
        return AT_EIO;
    }
    if (n > AT_LESSON_MAX_BYTES) {
        free(buf);
        at_diag_add(diags, AT_DIAG_ERROR, path, 1, 1, "file is larger than %d bytes (1 MiB), the "
                    "limit for %s: split it", AT_LESSON_MAX_BYTES, what);
        return AT_ERANGE;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return AT_OK;
}

/* libcyaml's log, kept as the first error line and the last position it names. */
typedef struct cyaml_log_buf {
    char first[300];
    int line, col;
} cyaml_log_buf;

static void cyaml_log_capture(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    cyaml_log_buf *b = ctx;
    char line[300];
    vsnprintf(line, sizeof line, fmt, args);
    line[strcspn(line, "\n")] = '\0';
    int l, c;
    const char *pos = strstr(line, "(line: ");
    if (pos && sscanf(pos, "(line: %d, column: %d)", &l, &c) == 2 && !b->line) {
        b->line = l;
        b->col = c;
    }
    if (level >= CYAML_LOG_ERROR && !b->first[0] && !strstr(line, "Backtrace") && !pos)
        snprintf(b->first, sizeof b->first, "%s", strncmp(line, "Load: ", 6) ? line : line + 6);
}

int at_yaml_load(const char *name, const char *data, size_t len,
                 const cyaml_schema_value_t *schema, int is_lesson, ynode **tree, void **out,
                 at_diag_list *diags)
{
    at_checker chk = {diags, name};
    size_t errors_before = diags->errors;
    at_error err;
    int rc;
    *out = NULL;
    *tree = NULL;
    if ((rc = ytree_parse(data, len, AT_LESSON_MAX_DEPTH, tree, &err))) {
        at_diag_add(diags, AT_DIAG_ERROR, name, err.line, err.col, "%s", err.msg);
        return rc;
    }
    if (!*tree) {
        at_diag_add(diags, AT_DIAG_ERROR, name, 1, 1, is_lesson
                    ? "empty file: a lesson needs `id`, `lang`, `title` and `steps`"
                    : "empty input: a compute block needs `q`, `k` and `v` (or `scores`)");
        return AT_EINVAL;
    }
    at_check_value(&chk, *tree, schema, is_lesson ? "lesson" : "compute");
    if (is_lesson)
        at_check_lesson_rules(&chk, *tree);
    else
        at_check_compute_rules(&chk, *tree);
    if (diags->errors > errors_before)
        return AT_EINVAL;
    cyaml_config_t cfg;
    cyaml_log_buf log = {{0}, 0, 0};
    at_schema_config(&cfg, &log, cyaml_log_capture);
    cyaml_err_t ce = cyaml_load_data((const uint8_t *)data, len, &cfg, schema, out, NULL);
    if (ce != CYAML_OK) {
        at_diag_add(diags, AT_DIAG_ERROR, name, log.line ? log.line : 1, log.line ? log.col : 1,
                    "%s%s%s", cyaml_strerror(ce), log.first[0] ? ": " : "", log.first);
        *out = NULL;
        return AT_EINVAL;
    }
    if (at_fill_specials(*tree, schema, *out)) {
        at_fill_free(schema, *out);
        cyaml_free(&cfg, schema, *out, 0);
        *out = NULL;
        at_diag_add(diags, AT_DIAG_ERROR, name, 0, 0, "out of memory");
        return AT_ENOMEM;
    }
    return AT_OK;
}

void at_yaml_free(const cyaml_schema_value_t *schema, void *data)
{
    if (!data)
        return;
    cyaml_config_t cfg;
    at_schema_config(&cfg, NULL, NULL);
    cfg.log_fn = NULL;
    at_fill_free(schema, data);
    cyaml_free(&cfg, schema, data, 0);
}

static int load_data(const char *name, const char *data, size_t len, const at_model *m,
                     at_lesson **out, at_diag_list *diags)
{
    ynode *tree = NULL;
    void *doc = NULL;
    at_lesson *l = NULL;
    size_t errors_before = diags ? diags->errors : 0;
    *out = NULL;
    /* Numbers parse as in the "C" locale whatever the program set (libcyaml uses strtod). */
    locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", duplocale(LC_GLOBAL_LOCALE));
    locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
    int rc = at_yaml_load(name, data, len, &at_lesson_schema, 1, &tree, &doc, diags);
    if (rc)
        goto out;
    rc = AT_ENOMEM;
    if (!(l = calloc(1, sizeof *l)) || !(l->path = strdup(name)))
        goto out;
    l->doc = doc;
    doc = NULL;
    if (!(l->calc = calloc(l->doc->steps_count ? l->doc->steps_count : 1, sizeof *l->calc)))
        goto out;
    at_verify_lesson(l, tree, data, len, m, diags);
    rc = diags && diags->errors > errors_before ? AT_EINVAL : AT_OK;
out:
    if (old)
        uselocale(old);
    if (c_loc)
        freelocale(c_loc);
    at_yaml_free(&at_lesson_schema, doc);
    ynode_free(tree);
    if (rc) {
        if (rc == AT_ENOMEM)
            at_diag_add(diags, AT_DIAG_ERROR, name, 0, 0, "out of memory");
        at_lesson_free(l);
        return rc;
    }
    *out = l;
    return AT_OK;
}

int at_lesson_load_data(const char *name, const char *data, size_t len, at_lesson **out,
                        at_diag_list *diags)
{
    at_diag_list local = {0};
    int rc = load_data(name, data, len, NULL, out, diags ? diags : &local);
    at_diag_list_free(&local);
    return rc;
}

int at_lesson_load_checked(const char *path, const at_model *m, at_lesson **out,
                           at_diag_list *diags)
{
    char *data;
    size_t len;
    at_diag_list local = {0};
    *out = NULL;
    if (!diags)
        diags = &local;
    int rc = at_read_capped(path, "a lesson file", &data, &len, diags);
    if (!rc)
        rc = load_data(path, data, len, m, out, diags);
    free(data);
    at_diag_list_free(&local);
    return rc;
}

int at_lesson_load(const char *path, at_lesson **out, at_diag_list *diags)
{
    return at_lesson_load_checked(path, NULL, out, diags);
}

void at_lesson_free(at_lesson *l)
{
    if (!l)
        return;
    for (unsigned i = 0; l->calc && l->doc && i < l->doc->steps_count; i++) {
        if (l->calc[i].compute) {
            at_compute_result_free(l->calc[i].compute);
            free(l->calc[i].compute);
        }
        if (l->calc[i].question) {
            at_question_calc_free(l->calc[i].question);
            free(l->calc[i].question);
        }
        if (l->calc[i].code) {
            free(l->calc[i].code->answer_line);
            free(l->calc[i].code->answer_col);
            free(l->calc[i].code);
        }
    }
    free(l->calc);
    at_yaml_free(&at_lesson_schema, l->doc);
    free(l->path);
    free(l);
}

const at_question *at_lesson_find_question(const at_lesson *l, const char *id,
                                           size_t *step_index)
{
    for (unsigned i = 0; l && id && i < l->doc->steps_count; i++) {
        const at_question *q = l->doc->steps[i].question;
        if (q && q->id && !strcmp(q->id, id)) {
            if (step_index)
                *step_index = i;
            return q;
        }
    }
    return NULL;
}

const at_question *at_lesson_part_of(const at_lesson *l, const at_question *q)
{
    for (unsigned i = 0; q && q->id && i < l->doc->steps_count; i++) {
        const at_question *p = l->doc->steps[i].question;
        if (p && p != q && p->follow_up && !strcmp(p->follow_up, q->id))
            return p;
    }
    return NULL;
}

at_step_kind at_step_kind_of(const at_step *s)
{
    return s->text ? AT_STEP_TEXT : s->table ? AT_STEP_TABLE : s->formula ? AT_STEP_FORMULA
         : s->code ? AT_STEP_CODE : s->lab ? AT_STEP_LAB : s->compute ? AT_STEP_COMPUTE
         : s->question ? AT_STEP_QUESTION : AT_STEP_NONE;
}

const char *at_step_kind_name(at_step_kind k)
{
    static const char *names[] = {"none", "text", "table", "formula", "code",
                                  "lab", "compute", "question"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *at_question_kind_name(at_question_kind k)
{
    static const char *names[] = {"?", "softmax", "numeric", "attention",
                                  "choice", "formula", "text", "code"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* ---- a file holding one compute block */

struct at_compute_file {
    at_compute *block;
};

int at_compute_file_load(const char *path, at_compute_file **out, at_diag_list *diags)
{
    char *data;
    size_t len;
    ynode *tree = NULL;
    void *block = NULL;
    at_diag_list local = {0};
    *out = NULL;
    if (!diags)
        diags = &local;
    int rc = at_read_capped(path, "a compute file", &data, &len, diags);
    if (rc) {
        at_diag_list_free(&local);
        return rc;
    }
    locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", duplocale(LC_GLOBAL_LOCALE));
    locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
    rc = at_yaml_load(path, data, len, &at_compute_file_schema, 0, &tree, &block, diags);
    if (old)
        uselocale(old);
    if (c_loc)
        freelocale(c_loc);
    ynode_free(tree);
    free(data);
    at_diag_list_free(&local);
    if (rc)
        return rc;
    if (!(*out = malloc(sizeof **out))) {
        at_yaml_free(&at_compute_file_schema, block);
        return AT_ENOMEM;
    }
    (*out)->block = block;
    return AT_OK;
}

const at_compute *at_compute_file_block(const at_compute_file *f)
{
    return f ? f->block : NULL;
}

void at_compute_file_free(at_compute_file *f)
{
    if (!f)
        return;
    at_yaml_free(&at_compute_file_schema, f->block);
    free(f);
}
