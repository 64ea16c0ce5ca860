/* A gettext message catalogue (a .mo file compiled by msgfmt from po/<lang>.po), read
 * whole into memory and looked up by msgid, with msgctxt and plural forms. This is how
 * the grader, the commands and the UI get a message in the language of each call
 * (quiz/lang.h: qz_tr), whatever the process locale and whichever locales the system
 * has installed: the catalogue is chosen per call, not through setlocale / LANGUAGE.
 *
 * The format is GNU gettext's (info gettext, "MO Files"): a header (magic 0x950412de in
 * either byte order, revision 0 or 1, count N, offsets of the original and translation
 * tables), then N (length, offset) pairs for each table; every string ends with a NUL;
 * a plural entry holds its forms NUL-separated; a context is "ctxt\004msgid". The entry
 * with the empty msgid is the header: its charset must be UTF-8, its Plural-Forms gives
 * nplurals and the C expression that picks a form (quiz/plural.c). */
#ifndef AT_QUIZ_CATALOGUE_H
#define AT_QUIZ_CATALOGUE_H

#include <stddef.h>

#include "engine/error.h"

typedef struct qz_catalogue qz_catalogue;

/* Read the .mo at path. AT_OK and *out (free with qz_catalogue_free); AT_EIO / AT_ENOTREG
 * when it cannot be read (engine/file.h), AT_ERANGE over 16 MiB, AT_EINVAL when it is
 * not a well-formed .mo (err says what: "not a .mo file (bad magic number)", "entry 3
 * lies outside the file", "charset is ISO-8859-1, not UTF-8" …). Nothing of a refused
 * file is used. */
int qz_catalogue_open(const char *path, qz_catalogue **out, at_error *err);

/* The translation of msgid (in context ctxt when not NULL), or NULL when the catalogue
 * has none (or an empty one). For a plural message pass plural_id and n: the form that
 * the catalogue's Plural-Forms picks for n (form 0 when the expression is missing or
 * cannot be evaluated); for a singular one plural_id is NULL. The string belongs to the
 * catalogue (valid until qz_catalogue_free). */
const char *qz_catalogue_get(const qz_catalogue *c, const char *ctxt, const char *msgid,
                             const char *plural_id, unsigned long n);

/* How many messages the catalogue holds (the header not counted). */
size_t qz_catalogue_count(const qz_catalogue *c);

/* NULL-safe. */
void qz_catalogue_free(qz_catalogue *c);

/* The value of a gettext Plural-Forms expression (a C expression in n: "n != 1",
 * "n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2")
 * for n. AT_OK and *form, or AT_EINVAL when the expression is malformed, nests deeper
 * than 64 or divides by zero. (quiz/plural.c) */
int qz_plural_eval(const char *expr, unsigned long n, unsigned long *form);

#endif
