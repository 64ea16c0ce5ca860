/* The tutor's screens by name (see route.h). */
#include "ui/route.h"

#include "ui/home.h"
#include "ui/lab.h"
#include "ui/lessonview.h"
#include "ui/quizview.h"

static ui_screen *open_home(ui_app *app, const ui_open_arg *a)
{
    (void)a;
    return ui_home_new(app);
}

static ui_screen *open_lesson(ui_app *app, const ui_open_arg *a)
{
    return ui_lesson_new(app, a->lesson, a->step);
}

static ui_screen *open_lab(ui_app *app, const ui_open_arg *a)
{
    ui_lab_opts o = {a->layer, a->head, a->causal, a->unscaled, a->focus};
    return ui_lab_new(app, a->sentence, a->has_lab_view ? &o : NULL);
}

static ui_screen *open_quiz(ui_app *app, const ui_open_arg *a)
{
    (void)a;
    return ui_quiz_new(app);
}

static const struct route {
    const char *name;
    ui_screen *(*open)(ui_app *app, const ui_open_arg *a);
} routes[UI_SCREENS] = {
    [UI_SCREEN_HOME] = {"home", open_home},
    [UI_SCREEN_LESSON] = {"lesson", open_lesson},
    [UI_SCREEN_LAB] = {"lab", open_lab},
    [UI_SCREEN_QUIZ] = {"quiz", open_quiz},
};

ui_screen *ui_screen_new(ui_app *app, ui_screen_id id, const ui_open_arg *arg)
{
    static const ui_open_arg defaults = {.focus = -1, .layer = -1, .head = -1};
    if ((unsigned)id >= UI_SCREENS)
        return NULL;
    return routes[id].open(app, arg ? arg : &defaults);
}

int ui_open(ui_app *app, ui_screen_id id, const ui_open_arg *arg)
{
    ui_screen *s = ui_screen_new(app, id, arg);
    return s ? ui_app_push(app, s) : -1;
}

const char *ui_screen_name(ui_screen_id id)
{
    return (unsigned)id < UI_SCREENS ? routes[id].name : "?";
}
