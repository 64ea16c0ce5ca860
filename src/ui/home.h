/* The home screen: the lessons in order with progress marks, "continue where I left
 * off", the lab and the self-test. */
#ifndef AT_UI_HOME_H
#define AT_UI_HOME_H

#include "ui/screen.h"

/* Returns NULL when out of memory. */
ui_screen *ui_home_new(ui_app *app);

#endif
