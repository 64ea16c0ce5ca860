/* The tutor as a whole: the state every screen shares and the entry point the command
 * line calls (attn-tutor with no command, lesson ID, lab [SENTENCE], quiz). */
#ifndef AT_UI_TUTOR_H
#define AT_UI_TUTOR_H

#include "engine/model.h"
#include "lesson/lesson.h"
#include "quiz/progress.h"
#include "ui/screen.h"

struct at_hf_model;

typedef struct ui_tutor {
    at_model *model;          /* owned: the trained model, else the demo weights */
    struct at_hf_model *hf;   /* owned: --model DIR, a real checkpoint the lab shows (NULL:
                                 the lab shows `model`; lessons always do) */
    int trained;
    char model_note[512];     /* why the demo weights are in use ("" otherwise) */
    const char *lang;         /* "zh" or "en" */
    const char *const *lesson_dirs; /* the lesson folders (each holding zh/ and en/), */
    size_t n_lesson_dirs;           /* in priority order: at_lesson_set_load_dirs */
    at_lesson_set lessons;    /* owned: the lessons of `lang`, in order (ui_tutor_load_lessons) */
    int lessons_loaded;
    char lessons_note[512];   /* lessons that failed to load ("" = none) */
    qz_store store;           /* owned: the progress store */
    int store_open;           /* 1 when store is usable */
    char store_note[512];     /* a save or load problem to show once ("" = none) */
    char save_error[512];     /* why the last save failed, or why there is no store
                               * ("" = saved): said on stderr when the tutor ends */
} ui_tutor;

/* Load the lessons if not done yet (screens that show lessons call it). */
void ui_tutor_load_lessons(ui_tutor *t);

/* Save the progress store now; on failure the message goes to the status bar.
 * Returns 0 or -1. */
int ui_tutor_save(ui_app *app);

typedef enum ui_start {
    UI_START_HOME,
    UI_START_LESSON,   /* arg: lesson id */
    UI_START_LAB,      /* arg: sentence, or NULL */
    UI_START_QUIZ,     /* arg: NULL */
} ui_start;

/* The tutor of an app (from any screen). Screens read what they share through the
 * accessors below, not through the struct. */
ui_tutor *ui_tutor_of(ui_app *app);

/* The model the screens run: the trained mini-model (or --model), else the untrained
 * demo weights. Borrowed for the tutor's life. */
const at_model *ui_tutor_model(ui_app *app);
/* 1 when that model is trained. */
int ui_tutor_trained(ui_app *app);
/* Why the demo weights are in use, "" when the model is trained. */
const char *ui_tutor_model_note(ui_app *app);
/* "zh" or "en". */
const char *ui_tutor_lang(ui_app *app);
/* The lessons of the tutor's language, in order (loaded on first use). */
const at_lesson_set *ui_tutor_lessons(ui_app *app);
/* The progress store, or NULL when there is none (it could not be opened). */
qz_store *ui_tutor_store(ui_app *app);
/* Where the student left off: the lesson id (NULL when none) and its 0-based step. */
const char *ui_tutor_position(ui_app *app, unsigned *step);
/* A problem with the progress store or the lessons to show once, or NULL. */
const char *ui_tutor_note(ui_app *app);

/* Load what the tutor needs (language, lessons, model, progress store) without
 * touching the terminal. model_path may be a Hugging Face model folder (engine/hf/hf.h):
 * the lab shows it, lessons keep the shipped model. Returns 0, -1 when no model could
 * be made, -2 when the model folder is bad (message on stderr, one line). Release with
 * ui_tutor_close. */
int ui_tutor_open(ui_tutor *t, const char *lang, const char *model_path,
                  const char *const *lesson_dirs, size_t n_lesson_dirs,
                  const char *shipped_model);
void ui_tutor_close(ui_tutor *t);

/* The screen the tutor starts on (app->ctx must be the tutor). NULL when out of
 * memory or the lesson id is unknown. */
ui_screen *ui_tutor_first_screen(ui_app *app, ui_start start, const char *arg);

/* Run the tutor in this terminal, starting at `start`. lang is "zh" or "en";
 * model_path is --model (NULL: use shipped_model, the model shipped with attn-tutor,
 * NULL when none was found: then the untrained demo weights, with a note);
 * lesson_dirs[0 .. n_lesson_dirs) the folders to take lessons from, first wins (the
 * caller keeps them alive while the tutor runs; none: a note, no lessons). Returns the process exit status: 0, 1
 * when the tutor could not start (message on stderr: no terminal, TERM=dumb), 2 for
 * bad input (an unknown lesson). */
int ui_tutor_main(ui_start start, const char *arg, const char *lang, const char *model_path,
                  const char *const *lesson_dirs, size_t n_lesson_dirs,
                  const char *shipped_model);

#endif
