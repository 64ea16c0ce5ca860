/* UI strings in the language the student chose (--lang, else the locale strings): the
 * English text in the code, its translation from the gettext catalogue po/<lang>.po,
 * looked up as the grader's and the commands' messages are (quiz/lang.h: qz_tr), so
 * the choice does not depend on the process locale or on which locales are installed
 * (only C.UTF-8 may exist). */
#ifndef AT_UI_I18N_H
#define AT_UI_I18N_H

#include "quiz/lang.h"

/* A UI string in the UI's language (xgettext keywords _, N_, _n:1,2). */
#define _(s) qz_tr(ui_qz_lang(), s)
#define N_(s) (s)
/* The form of a plural message for n. */
#define _n(singular, plural, n) qz_ntr(ui_qz_lang(), singular, plural, n)

/* Make the UI speak lang ("zh" or "en"). Call once, before the first _(). */
void ui_i18n_init(const char *lang);

/* The language in use: "zh" or "en". */
const char *ui_lang(void);

/* The same as the grader's qz_lang. */
qz_lang ui_qz_lang(void);

#endif
