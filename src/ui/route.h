/* Navigation's one home: the tutor's screens by name. A screen that opens another asks
 * here (ui_open(app, UI_SCREEN_LAB, &arg)) instead of including it; the table in
 * route.c, like commands[] in main.c, is the only place that knows every screen, so the
 * screens no longer include each other in a circle. */
#ifndef AT_UI_ROUTE_H
#define AT_UI_ROUTE_H

#include <stddef.h>
#include "ui/screen.h"

typedef enum ui_screen_id {
    UI_SCREEN_HOME,     /* the lessons, "continue", the lab, the self-test */
    UI_SCREEN_LESSON,   /* arg: lesson (index in the tutor's set) and step */
    UI_SCREEN_LAB,      /* arg: sentence and the lab's settings */
    UI_SCREEN_QUIZ,     /* the self-test */
    UI_SCREENS
} ui_screen_id;

/* What a screen opens on. Zero-initialised means: lesson 0 at step 0; the lab on its
 * example sentence, at the model's coreference head, no mask, scaled, the cursor on the
 * pronoun it was trained at. */
typedef struct ui_open_arg {
    size_t lesson;          /* UI_SCREEN_LESSON: index in the tutor's lesson set */
    unsigned step;          /* UI_SCREEN_LESSON: 0-based step (clamped) */
    const char *sentence;   /* UI_SCREEN_LAB: NULL = the example; "" = type one */
    int has_lab_view;       /* UI_SCREEN_LAB: 1 = the settings below, else the defaults */
    int layer, head;        /* 0-based; head -2 = all heads (as ui_lab_opts) */
    int causal, unscaled;
    int focus;              /* 0-based query row, -1 = the default */
} ui_open_arg;

/* The screen `id` opened on arg (NULL: the defaults). NULL when out of memory or when
 * the lesson does not exist. */
ui_screen *ui_screen_new(ui_app *app, ui_screen_id id, const ui_open_arg *arg);

/* ui_screen_new, then on top of the stack. Returns 0, or -1 when nothing was opened. */
int ui_open(ui_app *app, ui_screen_id id, const ui_open_arg *arg);

/* "home", "lesson", "lab", "quiz". */
const char *ui_screen_name(ui_screen_id id);

#endif
