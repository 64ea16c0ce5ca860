/* attn-tutor lint [FILE|DIR …]
 * Checks lesson files and prints GCC-style diagnostics (FILE:LINE:COL: error: …)
 * on stderr, then a one-line summary on stdout. A folder holding zh/ and en/ is a
 * lesson root: each language is loaded as a set and the two are compared. */
#include "cli/cli.h"
#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/code.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor lint [--lessons DIR] [--model FILE] [FILE|DIR …]\n"
               "  Checks lesson files. Default: every folder the tutor takes lessons from\n"
               "  (~/.local/share/attn-tutor/lessons, $XDG_DATA_DIRS/attn-tutor/lessons, the\n"
               "  shipped lessons; or --lessons DIR). A folder with zh/ and en/ is checked as\n"
               "  a whole: ids unique, both languages in step.\n"
               "  Lab expectations are checked on the trained model (--model FILE, else the\n"
               "  shipped mini-model). Both languages are checked whatever --lang says.\n"
               "  Exit status: 0 clean (warnings allowed), 1 errors found, 2 bad usage or a\n"
               "  file that is not a regular file (a FIFO, a device, a socket, a folder\n"
               "  named *.yaml): it is named and not read.\n\n"
               CLI_GLOBAL_FLAGS_HELP);
    return f == stdout ? 0 : 2;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Question ids unique across a language; lesson ids unique. */
static void check_set(const at_lesson_set *s, at_diag_list *d)
{
    for (size_t i = 0; i < s->count; i++) {
        const at_lesson *a = s->lessons[i];
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s->lessons[j]->doc->id, a->doc->id))
                at_diag_add(d, AT_DIAG_ERROR, a->path, a->id_line, a->id_col,
                            "lesson id '%s' is also used by %s", a->doc->id, s->lessons[j]->path);
        for (unsigned k = 0; k < a->doc->steps_count; k++) {
            const at_question *q = a->doc->steps[k].question;
            const at_lesson *other;
            size_t at;
            if (!q)
                continue;
            for (size_t j = 0; j < i; j++)
                if (at_lesson_find_question(s->lessons[j], q->id, &at)) {
                    other = s->lessons[j];
                    at_diag_add(d, AT_DIAG_WARNING, a->path, a->calc[k].line, a->calc[k].col,
                                "question id '%s' is also used in %s:%d (`attn-tutor check` "
                                "then needs LESSON:%s to tell them apart)", q->id,
                                other->path, other->calc[at].line, q->id);
                }
        }
    }
}

/* A code question's lines run by the grader's own evaluator (quiz/code.h): the setup
 * and the canonical lines run and give `result`, every mistake computes something else.
 * Each problem is an error at the field it is in. */
static void check_code(const at_lesson *l, at_diag_list *d)
{
    for (unsigned k = 0; k < l->doc->steps_count; k++) {
        const at_question *q = l->doc->steps[k].question;
        const at_code_where *w = l->calc[k].code;
        if (!q || q->kind != AT_Q_CODE || !w)
            continue;
        qz_bound b;
        at_error err;
        if (qz_bind_question(q, &b, &err)) {
            at_diag_add(d, AT_DIAG_ERROR, l->path, l->calc[k].line, l->calc[k].col, "%s", err.msg);
            continue;
        }
        qz_code_problem p[16];
        int n = qz_code_check_question(&b.q, p, 16);
        if (n < 0)
            at_diag_add(d, AT_DIAG_ERROR, l->path, l->calc[k].line, l->calc[k].col,
                        "question %s: out of memory while its code ran", q->id);
        for (int i = 0; i < n && i < 16; i++) {
            int line = w->canonical_line, col = w->canonical_col;
            if (p[i].field == QZ_CODE_FIELD_SETUP) {
                line = w->setup_line;
                col = w->setup_col;
            } else if (p[i].field == QZ_CODE_FIELD_RESULT) {
                line = w->result_line;
                col = w->result_col;
            } else if (p[i].field == QZ_CODE_FIELD_MISTAKE) {
                unsigned at = (unsigned)p[i].answer;
                for (size_t m = 0; m < p[i].mistake; m++)
                    at += q->mistakes[m].answers_count;
                if (at < w->n_answers) {
                    line = w->answer_line[at];
                    col = w->answer_col[at];
                }
            }
            at_diag_add(d, AT_DIAG_ERROR, l->path, line, col, "%s", p[i].msg);
        }
        qz_bound_free(&b);
    }
}

static void check_code_set(const at_lesson_set *s, at_diag_list *d)
{
    for (size_t i = 0; i < s->count; i++)
        check_code(s->lessons[i], d);
}

/* Every lesson and question of a in b too. */
static void check_in_step(const at_lesson_set *a, const at_lesson_set *b, const char *bname,
                          int compare_order, at_diag_list *d)
{
    for (size_t i = 0; i < a->count; i++) {
        const at_lesson *l = a->lessons[i];
        const at_lesson *m = at_lesson_set_find(b, l->doc->id);
        if (!m) {
            at_diag_add(d, AT_DIAG_ERROR, l->path, l->id_line, l->id_col,
                        "lesson '%s' has no %s version (same id under %s/)", l->doc->id, bname,
                        bname);
            continue;
        }
        const unsigned *oa = l->doc->order, *ob = m->doc->order;
        if (compare_order && (!oa != !ob || (oa && *oa != *ob)))
            at_diag_add(d, AT_DIAG_WARNING, l->path, l->id_line, l->id_col,
                        "`order` differs from the %s version %s: the home screen lists the "
                        "languages differently", bname, m->path);
        for (unsigned k = 0; k < l->doc->steps_count; k++) {
            const at_question *q = l->doc->steps[k].question;
            if (q && !at_lesson_find_question(m, q->id, NULL))
                at_diag_add(d, AT_DIAG_ERROR, l->path, l->calc[k].line, l->calc[k].col,
                            "question '%s' is missing from the %s version %s", q->id, bname,
                            m->path);
        }
    }
}

/* A lesson root (zh/ and en/). One language alone is allowed, with a warning: the
 * tutor then shows those lessons in that language only. -1 when a file in it is not
 * a regular file (reported in d), else 0. */
static int lint_root(const char *dir, const at_model *m, at_diag_list *d, size_t *files)
{
    at_lesson_set zh = {0}, en = {0};
    char sub[4096];
    int has_zh = (snprintf(sub, sizeof sub, "%s/zh", dir), is_dir(sub));
    int has_en = (snprintf(sub, sizeof sub, "%s/en", dir), is_dir(sub));
    if (!has_zh || !has_en)
        at_diag_add(d, AT_DIAG_WARNING, dir, 0, 0, "no %s/ folder: these lessons are in %s "
                    "only, and the tutor in %s does not show them", has_zh ? "en" : "zh",
                    has_zh ? "zh" : "en", has_zh ? "English" : "Chinese");
    int rz = has_zh ? at_lesson_set_load_checked(dir, "zh", m, &zh, d) : AT_EIO;
    int re = has_en ? at_lesson_set_load_checked(dir, "en", m, &en, d) : AT_EIO;
    check_set(&zh, d);
    check_set(&en, d);
    check_code_set(&zh, d);
    check_code_set(&en, d);
    /* Only compare when both languages loaded completely: a broken file is
     * reported once, not again as "missing". */
    if (rz == AT_OK && re == AT_OK) {
        check_in_step(&zh, &en, "en", 1, d);
        check_in_step(&en, &zh, "zh", 0, d);
    }
    *files += zh.files + en.files;   /* checked, loaded or not */
    at_lesson_set_free(&zh);
    at_lesson_set_free(&en);
    return rz == AT_ENOTREG || re == AT_ENOTREG ? -1 : 0;
}

/* -1 when path is not a regular file (reported in d), else 0. */
static int lint_file(const char *path, const at_model *m, at_diag_list *d, size_t *files)
{
    at_lesson *l;
    int rc = at_lesson_load_checked(path, m, &l, d);
    if (rc == AT_OK) {
        check_code(l, d);
        at_lesson_free(l);
    }
    (*files)++;
    return rc == AT_ENOTREG ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each *.yaml (and *.yml) of a folder that is not a lesson root, in name order; -1
 * when one is not a regular file (reported in d). */
static int lint_folder(const char *dir, const at_model *m, at_diag_list *d, size_t *files)
{
    DIR *dp = opendir(dir);
    char *names[4096];
    size_t n = 0;
    if (!dp)
        return -1;
    for (struct dirent *e; (e = readdir(dp)) && n < 4096;) {
        size_t len = strlen(e->d_name);   /* *.yaml and *.yml, as lesson folders take */
        if (e->d_name[0] != '.' && ((len > 5 && !strcmp(e->d_name + len - 5, ".yaml")) ||
                                    (len > 4 && !strcmp(e->d_name + len - 4, ".yml"))))
            names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        if (names[i]) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            rc |= lint_file(path, m, d, files);
        }
        free(names[i]);
    }
    return rc;
}

static int lint_target(const char *t, const at_model *m, at_diag_list *d, size_t *files)
{
    char zh[4096], en[4096];
    if (!is_dir(t)) {
        struct stat st;
        if (stat(t, &st) != 0) {
            fprintf(stderr, "attn-tutor lint: %s: no such file or folder\n", t);
            return -1;
        }
        return lint_file(t, m, d, files);
    }
    snprintf(zh, sizeof zh, "%s/zh", t);
    snprintf(en, sizeof en, "%s/en", t);
    if (is_dir(zh) || is_dir(en))
        return lint_root(t, m, d, files);
    return lint_folder(t, m, d, files);
}

/* The trained mini-model for lab expectations, or NULL (with a note): untrained
 * demo weights cannot be held to "it attends to animal". */
static at_model *open_trained_model(void)
{
    at_error err;
    at_model *m = NULL;
    at_model_info info;
    const char *path = cli_g.model_path ? cli_g.model_path
                                        : cli_data_path("models/mini.safetensors");
    if (path && at_model_load(path, &m, &err) != AT_OK)
        fprintf(stderr, "attn-tutor lint: note: %s\n", err.msg);
    if (m) {
        at_model_get_info(m, &info);
        if (info.trained)
            return m;
        at_model_free(m);
    }
    fprintf(stderr, "attn-tutor lint: note: no trained model (make model): lab expectations "
                    "not checked\n");
    return NULL;
}

int cli_lint(int argc, char **argv)
{
    at_diag_list d = {0};
    size_t files = 0;
    int targets = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return usage(stdout);
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "attn-tutor lint: unknown option '%s'\n", argv[i]);
            return usage(stderr);
        }
        argv[targets++] = argv[i];   /* targets gather at the front (argv[0] is done) */
    }
    /* A lesson file that is not a regular file is reported with the others, below. */
    if (cli_refuse_special_files("lint", "en", CLI_FILES_MODEL | CLI_FILES_LESSONS_DIR))
        return 2;
    at_model *m = open_trained_model();
    for (int i = 0; i < targets; i++)
        bad |= lint_target(argv[i], m, &d, &files) != 0;
    if (!targets) {   /* every lessons folder the tutor reads: yours, then the shipped */
        static char dirs[8][CLI_PATH_MAX];
        size_t n = cli_lesson_dirs(dirs, 8);
        if (!n) {
            fprintf(stderr, "attn-tutor lint: no lessons folder found (give FILE or DIR, "
                            "or --lessons DIR)\n");
            at_model_free(m);
            return 2;
        }
        for (size_t i = 0; i < n; i++)
            bad |= lint_target(dirs[i], m, &d, &files) != 0;
    }
    at_diag_sort(&d);
    at_diag_print(&d, stderr);
    printf("lint: %zu file%s, %zu error%s, %zu warning%s\n", files, files == 1 ? "" : "s",
           d.errors, d.errors == 1 ? "" : "s", d.warnings, d.warnings == 1 ? "" : "s");
    int rc = bad ? 2 : d.errors ? 1 : 0;
    at_diag_list_free(&d);
    at_model_free(m);
    return rc;
}
