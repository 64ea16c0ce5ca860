/* The tutor's entry point: model, language, terminal, first screen, event loop. */
#include "ui/tutor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/crt.h"
#include "ui/home.h"
#include "ui/i18n.h"
#include "ui/lab.h"

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

static ui_screen *first_screen(ui_app *app, ui_start start, const char *arg)
{
    switch (start) {
    case UI_START_LAB: return ui_lab_new(app, arg, NULL);
    default: return ui_home_new(app);
    }
}

int ui_tutor_main(ui_start start, const char *arg, const char *lang, const char *model_path,
                  const char *lessons_dir, const char *shipped_model)
{
    const char *why = crt_unusable();
    if (why) {
        fprintf(stderr, "%s\n", why);
        return 1;
    }
    ui_tutor t = {0};
    t.lang = lang;
    t.lessons_dir = lessons_dir;
    ui_i18n_init(lang);
    if (open_model(&t, model_path, shipped_model) < 0)
        return 1;
    ui_app app = {0};
    app.ctx = &t;
    if (crt_init() < 0) {
        fprintf(stderr, "attn-tutor: could not start the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        at_model_free(t.model);
        return 1;
    }
    int rc = 0;
    ui_screen *s = first_screen(&app, start, arg);
    if (!s || ui_app_push(&app, s) < 0)
        rc = 1;
    else
        ui_app_run(&app);
    crt_done();
    at_model_free(t.model);
    return rc;
}
