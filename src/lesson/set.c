/* All lessons of one language, and lookups in them. */
#define _GNU_SOURCE
#include "lesson/lesson.h"
#include "engine/file.h"

#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static int has_yaml_suffix(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && ((n > 5 && !strcmp(name + n - 5, ".yaml")) ||
                              (n > 4 && !strcmp(name + n - 4, ".yml")));
}

static int by_order(const void *a, const void *b)
{
    const at_lesson *x = *(const at_lesson *const *)a, *y = *(const at_lesson *const *)b;
    unsigned ox = x->doc->order ? *x->doc->order : 1000000u;
    unsigned oy = y->doc->order ? *y->doc->order : 1000000u;
    if (ox != oy)
        return ox < oy ? -1 : 1;
    return strcmp(x->doc->id, y->doc->id);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.yaml names of a folder, sorted (caller frees each and the array). */
static int list_yaml(const char *dir, char ***names, size_t *count)
{
    DIR *d = opendir(dir);
    *names = NULL;
    *count = 0;
    if (!d)
        return AT_EIO;
    size_t cap = 0;
    int rc = AT_OK;
    for (struct dirent *e; (e = readdir(d));) {
        if (!has_yaml_suffix(e->d_name))
            continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            char **p = realloc(*names, cap * sizeof *p);
            if (!p) {
                rc = AT_ENOMEM;
                break;
            }
            *names = p;
        }
        if (!((*names)[*count] = strdup(e->d_name))) {
            rc = AT_ENOMEM;
            break;
        }
        (*count)++;
    }
    closedir(d);
    if (*count)
        qsort(*names, *count, sizeof **names, by_name);
    return rc;
}

int at_lesson_set_load(const char *dir, const char *lang, at_lesson_set *out,
                       at_diag_list *diags)
{
    return at_lesson_set_load_checked(dir, lang, NULL, out, diags);
}

/* Add the lessons of dir/lang to out (kept sorted by the caller). A lesson whose id is
 * already in out (from a folder earlier in the list) is left out with a warning.
 * AT_EIO when the folder cannot be read (a diagnostic only if report_missing). */
static int load_folder(const char *dir, const char *lang, const at_model *m, int report_missing,
                       at_lesson_set *out, at_diag_list *diags)
{
    char path[4096], **names = NULL;
    size_t count = 0;
    int rc = AT_OK;
    snprintf(path, sizeof path, "%s/%s", dir, lang);
    if (list_yaml(path, &names, &count) == AT_EIO) {
        if (report_missing)
            at_diag_add(diags, AT_DIAG_ERROR, path, 0, 0, "cannot read the lesson folder");
        return AT_EIO;
    }
    out->files += count;
    at_lesson **grown = count ? realloc(out->lessons, (out->count + count) * sizeof *grown)
                              : out->lessons;
    if (count && !grown)
        rc = AT_ENOMEM;
    else
        out->lessons = grown;
    for (size_t i = 0; i < count && rc != AT_ENOMEM; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, lang, names[i]);
        at_lesson *l;
        int r = at_lesson_load_checked(path, m, &l, diags);
        if (r) {   /* a refused file (a FIFO, a folder…) counts above other errors */
            rc = r == AT_ENOTREG || rc == AT_ENOTREG ? AT_ENOTREG : AT_EINVAL;
            continue;
        }
        const at_lesson *first = at_lesson_set_find(out, l->doc->id);
        if (l->doc->lang != out->lang) {
            at_diag_add(diags, AT_DIAG_ERROR, path, l->lang_line, l->lang_col, "`lang` says %s "
                        "but the file is in the %s folder (move it to %s/, or change `lang`)",
                        l->doc->lang == AT_LANG_ZH ? "zh" : "en", lang,
                        l->doc->lang == AT_LANG_ZH ? "zh" : "en");
            rc = rc == AT_ENOTREG ? rc : AT_EINVAL;
        } else if (first) {
            at_diag_add(diags, AT_DIAG_WARNING, path, l->id_line, l->id_col,
                        "lesson '%s' is also in %s, which comes first: this copy is not used",
                        l->doc->id, first->path);
        } else {
            out->lessons[out->count++] = l;
            continue;
        }
        at_lesson_free(l);
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return rc;
}

static void set_begin(at_lesson_set *out, const char *lang)
{
    memset(out, 0, sizeof *out);
    out->lang = lang && !strcmp(lang, "zh") ? AT_LANG_ZH : AT_LANG_EN;
}

static void set_finish(at_lesson_set *out)
{
    if (out->count > 1)
        qsort(out->lessons, out->count, sizeof *out->lessons, by_order);
}

int at_lesson_set_load_checked(const char *dir, const char *lang, const at_model *m,
                               at_lesson_set *out, at_diag_list *diags)
{
    set_begin(out, lang);
    int rc = load_folder(dir, lang, m, 1, out, diags);
    set_finish(out);
    return rc;
}

int at_lesson_set_load_dirs(const char *const *dirs, size_t n_dirs, const char *lang,
                            const at_model *m, at_lesson_set *out, at_diag_list *diags)
{
    set_begin(out, lang);
    int rc = AT_OK, readable = 0;
    for (size_t i = 0; i < n_dirs; i++) {
        int r = load_folder(dirs[i], lang, m, 0, out, diags);
        readable += r != AT_EIO;
        if (r == AT_ENOMEM || (r == AT_ENOTREG && rc != AT_ENOMEM) || (r == AT_EINVAL && rc == AT_OK))
            rc = r;
    }
    set_finish(out);
    if (!readable) {
        at_diag_add(diags, AT_DIAG_ERROR, n_dirs ? dirs[0] : "lessons", 0, 0,
                    "no lesson folder for '%s' found (looked in %zu place%s)", out->lang ==
                    AT_LANG_ZH ? "zh" : "en", n_dirs, n_dirs == 1 ? "" : "s");
        return AT_EIO;
    }
    return rc;
}

int at_lesson_dirs_check_files(const char *const *dirs, size_t n_dirs, const char *lang,
                               at_diag_list *diags)
{
    int rc = AT_OK;
    for (size_t i = 0; i < n_dirs && rc != AT_ENOMEM; i++) {
        char path[4096], **names = NULL;
        size_t count = 0;
        snprintf(path, sizeof path, "%s/%s", dirs[i], lang);
        if (list_yaml(path, &names, &count) == AT_ENOMEM)
            rc = AT_ENOMEM;
        for (size_t k = 0; k < count; k++) {
            at_error err;
            int fd;
            size_t size;
            snprintf(path, sizeof path, "%s/%s/%s", dirs[i], lang, names[k]);
            if (at_file_open(path, "a lesson file", &fd, &size, &err) == AT_OK)
                close(fd);
            else if (err.code == AT_ENOTREG) {
                at_diag_add(diags, AT_DIAG_ERROR, path, 0, 0, "%s", err.msg);
                rc = rc == AT_ENOMEM ? rc : AT_ENOTREG;
            }
            free(names[k]);
        }
        free(names);
    }
    return rc;
}

void at_lesson_set_free(at_lesson_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        at_lesson_free(s->lessons[i]);
    free(s->lessons);
    memset(s, 0, sizeof *s);
}

const at_lesson *at_lesson_set_find(const at_lesson_set *s, const char *id)
{
    for (size_t i = 0; s && id && i < s->count; i++)
        if (!strcmp(s->lessons[i]->doc->id, id))
            return s->lessons[i];
    return NULL;
}

const at_question *at_lesson_set_find_question(const at_lesson_set *s, const char *id,
                                               const at_lesson **lesson, size_t *step_index)
{
    for (size_t i = 0; s && i < s->count; i++) {
        const at_question *q = at_lesson_find_question(s->lessons[i], id, step_index);
        if (q) {
            if (lesson)
                *lesson = s->lessons[i];
            return q;
        }
    }
    return NULL;
}
