/* The tutor's entry point: model, language, terminal, first screen, event loop. */
#include "ui/tutor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attention.h"
#include "engine/hf/hf.h"
#include "ui/crt.h"
#include "ui/i18n.h"
#include "ui/route.h"

ui_tutor *ui_tutor_of(ui_app *app)
{
    return (ui_tutor *)app->ctx;
}

/* The trained model, else the demo weights with a note saying why. */
static int open_model(ui_tutor *t, const char *path, const char *shipped)
{
    at_error err;
    at_error_clear(&err);
    if (!path)
        path = shipped;
    if (path) {
        if (at_model_load(path, &t->model, &err) == AT_OK) {
            at_model_info info;
            at_model_get_info(t->model, &info);
            t->trained = info.trained;
            return 0;
        }
        snprintf(t->model_note, sizeof t->model_note, _("Model not loaded (%s); showing untrained demo weights."),
                 err.msg);
    } else {
        snprintf(t->model_note, sizeof t->model_note, "%s",
                 _("No trained model found (make model builds it); showing untrained demo weights."));
    }
    if (at_model_demo(1, &t->model, &err) != AT_OK) {
        fprintf(stderr, "attn-tutor: %s\n", err.msg);
        return -1;
    }
    t->trained = 0;
    return 0;
}

static const char *save_cause(const char *msg);

int ui_tutor_save(ui_app *app)
{
    ui_tutor *t = ui_tutor_of(app);
    if (!t->store_open)
        return -1;
    at_error err;
    at_error_clear(&err);
    if (qz_store_save(&t->store, &err) != AT_OK) {
        const char *why = save_cause(err.msg);
        ui_app_message(app, CRT_WRONG, _("Progress not saved: %s"), why);
        snprintf(t->save_error, sizeof t->save_error, "%s", why);
        return -1;
    }
    t->save_error[0] = '\0';
    return 0;
}

/* The store's message without its own "progress not saved: " lead (the tutor says
 * that in its own words, translated). */
static const char *save_cause(const char *msg)
{
    static const char lead[] = "progress not saved: ";
    return strncmp(msg, lead, sizeof lead - 1) ? msg : msg + sizeof lead - 1;
}

/* After the screen is closed: one line on stderr when progress was not saved, with
 * the cause (the retry note of a running session left out). */
static void say_unsaved(const ui_tutor *t)
{
    if (!t->save_error[0])
        return;
    const char *m = t->save_error, *note = strstr(m, QZ_SAVE_RETRY_NOTE);
    int n = note ? (int)(note - m) : (int)strlen(m);
    fprintf(stderr, _("attn-tutor: your progress was not saved: %.*s\n"), n, m);
}

/* The lessons of the chosen language; files with errors are left out (and named).
 * Loaded on first use: the lab alone starts without them. */
void ui_tutor_load_lessons(ui_tutor *t)
{
    if (t->lessons_loaded)
        return;
    t->lessons_loaded = 1;
    at_diag_list diags = {0};
    if (!t->n_lesson_dirs) {
        snprintf(t->lessons_note, sizeof t->lessons_note, "%s",
                 _("No lessons found (use --lessons DIR)."));
        return;
    }
    int rc = at_lesson_set_load_dirs(t->lesson_dirs, t->n_lesson_dirs, t->lang, NULL,
                                     &t->lessons, &diags);
    const at_diag *d = NULL;
    for (size_t i = 0; rc != AT_OK && i < diags.count && !d; i++)
        if (diags.items[i].level == AT_DIAG_ERROR)
            d = &diags.items[i];                  /* the first error, not a warning */
    if (d) {
        snprintf(t->lessons_note, sizeof t->lessons_note, _("Lessons left out: %s:%d: %s"),
                 d->file, d->line, d->msg);
    }
    at_diag_list_free(&diags);
}

static void open_store(ui_tutor *t)
{
    at_error err;
    at_error_clear(&err);
    if (qz_store_open(&t->store, NULL, &err) != AT_OK) {
        snprintf(t->store_note, sizeof t->store_note, _("Progress will not be saved: %s"),
                 save_cause(err.msg));
        snprintf(t->save_error, sizeof t->save_error, "%s", save_cause(err.msg));
        return;
    }
    t->store_open = 1;
    if (t->store.warning[0])
        snprintf(t->store_note, sizeof t->store_note, "%.500s", t->store.warning);
}

/* Index of lesson id in the set, or -1. */
static long lesson_index(const ui_tutor *t, const char *id)
{
    for (size_t i = 0; i < t->lessons.count; i++)
        if (!strcmp(t->lessons.lessons[i]->doc->id, id))
            return (long)i;
    return -1;
}

const at_model *ui_tutor_model(ui_app *app)
{
    return ui_tutor_of(app)->model;
}

int ui_tutor_trained(ui_app *app)
{
    return ui_tutor_of(app)->trained;
}

const char *ui_tutor_model_note(ui_app *app)
{
    return ui_tutor_of(app)->model_note;
}

const char *ui_tutor_lang(ui_app *app)
{
    return ui_tutor_of(app)->lang;
}

const at_lesson_set *ui_tutor_lessons(ui_app *app)
{
    ui_tutor *t = ui_tutor_of(app);
    ui_tutor_load_lessons(t);
    return &t->lessons;
}

qz_store *ui_tutor_store(ui_app *app)
{
    ui_tutor *t = ui_tutor_of(app);
    return t->store_open ? &t->store : NULL;
}

const char *ui_tutor_position(ui_app *app, unsigned *step)
{
    ui_tutor *t = ui_tutor_of(app);
    if (!t->store_open || !t->store.p->lesson)
        return NULL;
    if (step)
        *step = t->store.p->step;
    return t->store.p->lesson;
}

const char *ui_tutor_note(ui_app *app)
{
    ui_tutor *t = ui_tutor_of(app);
    return t->store_note[0] ? t->store_note : t->lessons_note[0] ? t->lessons_note : NULL;
}

ui_screen *ui_tutor_first_screen(ui_app *app, ui_start start, const char *arg)
{
    ui_tutor *t = ui_tutor_of(app);
    ui_open_arg a = {.sentence = arg, .layer = -1, .head = -1, .focus = -1};
    switch (start) {
    case UI_START_LAB: return ui_screen_new(app, UI_SCREEN_LAB, &a);
    case UI_START_QUIZ: return ui_screen_new(app, UI_SCREEN_QUIZ, NULL);
    case UI_START_LESSON: {
        long i = lesson_index(t, arg);
        const qz_lesson_rec *r = t->store_open ? qz_store_lesson(&t->store, arg) : NULL;
        unsigned step = 0;
        if (t->store_open && t->store.p->lesson && !strcmp(t->store.p->lesson, arg))
            step = t->store.p->step;
        else if (r && !r->done)
            step = r->step;
        a.lesson = (size_t)i;
        a.step = step;
        return ui_screen_new(app, UI_SCREEN_LESSON, &a);
    }
    default: return ui_screen_new(app, UI_SCREEN_HOME, NULL);
    }
}

static void tutor_free(ui_tutor *t)
{
    if (t->store_open)
        qz_store_close(&t->store);
    at_lesson_set_free(&t->lessons);
    at_model_free(t->model);
    at_hf_free(t->hf);
}

int ui_tutor_open(ui_tutor *t, const char *lang, const char *model_path,
                  const char *const *lesson_dirs, size_t n_lesson_dirs,
                  const char *shipped_model)
{
    memset(t, 0, sizeof *t);
    t->lang = lang;
    t->lesson_dirs = lesson_dirs;
    t->n_lesson_dirs = n_lesson_dirs;
    ui_i18n_init(lang);
    if (model_path && at_hf_is_folder(model_path)) {
        at_error err;
        if (at_hf_open(model_path, &t->hf, &err) != AT_OK) {
            fprintf(stderr, "attn-tutor: %s\n", err.msg);
            tutor_free(t);
            return -2;
        }
        model_path = NULL;   /* lessons keep the shipped model */
    }
    if (open_model(t, model_path, shipped_model) < 0) {
        tutor_free(t);
        return -1;
    }
    open_store(t);
    return 0;
}

void ui_tutor_close(ui_tutor *t)
{
    tutor_free(t);
}

int ui_tutor_main(ui_start start, const char *arg, const char *lang, const char *model_path,
                  const char *const *lesson_dirs, size_t n_lesson_dirs,
                  const char *shipped_model)
{
    /* One BLAS thread in the tutor: its matrices are small (a sentence of up to 256
     * tokens, d_model 48: a fraction of a millisecond on one core), and OpenBLAS's
     * worker threads, once woken, spin for some 0.1 s of CPU after each product while
     * the tutor waits for a key (tests/e2e/idle_cpu.sh). */
    at_blas_set_max_threads(1);
    ui_tutor t;
    int opened = ui_tutor_open(&t, lang, model_path, lesson_dirs, n_lesson_dirs, shipped_model);
    if (opened < 0)
        return opened == -2 ? 2 : 1;
    if (start == UI_START_LESSON)
        ui_tutor_load_lessons(&t);
    if (start == UI_START_LESSON && lesson_index(&t, arg) < 0) {
        fprintf(stderr, "attn-tutor lesson: no lesson '%s' for %s", arg, lang);
        for (size_t i = 0; i < t.lessons.count; i++)
            fprintf(stderr, "%s %s", i ? "," : "; there are:", t.lessons.lessons[i]->doc->id);
        fprintf(stderr, "\nlooked in:\n");
        for (size_t i = 0; i < n_lesson_dirs; i++)
            fprintf(stderr, "  %s/%s\n", lesson_dirs[i], lang);
        ui_tutor_close(&t);
        return 2;
    }
    const char *why = crt_unusable();
    if (why) {
        fprintf(stderr, "%s\n", why);
        ui_tutor_close(&t);
        return 1;
    }
    ui_app app = {0};
    app.ctx = &t;
    if (crt_init() < 0) {
        fprintf(stderr, "attn-tutor: could not start the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        ui_tutor_close(&t);
        return 1;
    }
    int rc = 0;
    ui_screen *s = ui_tutor_first_screen(&app, start, arg);
    if (!s || ui_app_push(&app, s) < 0)
        rc = 1;
    else
        ui_app_run(&app);
    crt_done();
    say_unsaved(&t);
    ui_tutor_close(&t);
    return rc;
}
