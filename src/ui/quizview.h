/* The self-test screen: the questions of the self-test lesson one at a time, an
 * answer line, the grader's feedback, hints, the reference answer after an attempt,
 * and a score summary after the last question. */
#ifndef AT_UI_QUIZVIEW_H
#define AT_UI_QUIZVIEW_H

#include "ui/screen.h"

/* Returns NULL when out of memory; a screen saying so when there is no self-test. */
ui_screen *ui_quiz_new(ui_app *app);

#endif
