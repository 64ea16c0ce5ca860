/* UI strings through gettext (text domain "attn-tutor"), in the language the student
 * chose with --lang or through the locale strings, even when that locale is not
 * installed (only C.UTF-8 may exist: see ui_i18n_init). */
#ifndef AT_UI_I18N_H
#define AT_UI_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)

/* Make gettext answer in lang ("zh" or "en"): binds the domain to the compiled
 * catalogues (build/locale beside the executable in a checkout, else the install
 * prefix's share/locale), with UTF-8 output; when LC_MESSAGES is the plain C locale
 * (the wanted locale is not installed) it switches LC_MESSAGES to C.UTF-8 and sets
 * LANGUAGE, so the catalogue is used. Call once, before the first _(). */
void ui_i18n_init(const char *lang);

/* The language in use: "zh" or "en". */
const char *ui_lang(void);

#endif
