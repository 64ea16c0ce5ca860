/* The language of the grader's messages and feedback (the lessons' zh / en), and the
 * messages themselves: every message is written once, in English, in the code
 * (qz_tr(lang, "Correct.\n")), and its translations live in the gettext catalogue
 * po/<catalogue>.po, the one the UI's strings use too. The catalogue is chosen by the
 * lang of each call (an answer's language), never by the process locale, so one process
 * can grade a Chinese answer and an English one side by side, on a system that has only
 * the C.UTF-8 locale installed. A new language is one more .po file (and its qz_lang).
 *
 * The messages are extracted with xgettext (`make po`, keywords qz_tr:2, qz_trc:2c,3,
 * qz_ntr:2,3, QZ_N_, QZ_NC_:1c,2, the parser's fail_at:3 / qz_lex_fail:3 and the code
 * evaluator's ce_raise:2 / ce_unread:2 / read_fail:3); tests/cli/messages.sh
 * fails when one has no Chinese translation. */
#ifndef AT_QUIZ_LANG_H
#define AT_QUIZ_LANG_H

#include <stddef.h>
#include <stdint.h>

typedef enum qz_lang { QZ_EN = 0, QZ_ZH = 1 } qz_lang;
#define QZ_LANGS 2

/* "zh…" → QZ_ZH, anything else (NULL included) → QZ_EN. */
qz_lang qz_lang_from(const char *code);

/* The catalogue of lang: "zh_CN" (po/zh_CN.po), or NULL for English (the msgids are
 * the English texts). */
const char *qz_lang_catalogue(qz_lang lang);

/* msgid (an English message; often a printf format, checked by the compiler against the
 * arguments through format_arg) in lang: its translation from lang's catalogue, or msgid
 * itself for English and when the catalogue or the entry is missing. Never NULL; the
 * string lives as long as the process. Safe from several threads. */
/* Does an option's own feedback (lesson text) open with its verdict — "Right:", "Yes.",
 * "Correct,", "Not quite:", "对：", "不对。" — so that "right" is not said twice? */
int qz_feedback_has_verdict(const char *feedback);

const char *qz_tr(qz_lang lang, const char *msgid) __attribute__((format_arg(2)));

/* qz_tr of msgid in a context (msgctxt), for one English text that other languages
 * must say in two ways ("wrong" as a verdict and as the mark of a chosen option). */
const char *qz_trc(qz_lang lang, const char *context, const char *msgid)
    __attribute__((format_arg(3)));

/* The plural form for n of a message: the catalogue's form for n under its
 * Plural-Forms rule, or in English singular when n == 1, else plural. */
const char *qz_ntr(qz_lang lang, const char *singular, const char *plural, unsigned long n)
    __attribute__((format_arg(2), format_arg(3)));

/* Marks a message in a table for extraction; it is translated where it is used
 * (qz_tr(lang, table[i])). */
#define QZ_N_(msgid) (msgid)
/* The same for a message of a context (translated with qz_trc(lang, context, table[i])). */
#define QZ_NC_(context, msgid) (msgid)

/* Is c a character of a script written without spaces between words: Han (the CJK
 * ideographs of every block, compatibility ideographs included), Hiragana, Katakana or
 * Hangul, by Unicode's Script property (libunistring's uc_script); code points not yet
 * assigned in the CJK blocks count too. */
int qz_is_han(uint32_t c);

/* The length in bytes of the character at s when it is one of qz_is_han's, else 0 (also
 * at the end of s, at a continuation byte or at invalid UTF-8). s is NUL-terminated. */
size_t qz_han_len(const char *s);

/* Is s (UTF-8) written in Chinese: at least one Chinese character and as many as Latin
 * letters at least (an English term or two among Chinese words is still Chinese)? */
int qz_written_in_chinese(const char *s);

/* Where lang's catalogue was read from (the .mo path), or NULL when there is none
 * (English) or it could not be read; then *err (may be NULL) says why, e.g. "no
 * attn-tutor.mo for zh_CN in build/locale, /usr/local/share/locale". Loads the catalogue
 * when no message has asked for it yet. */
const char *qz_lang_catalogue_path(qz_lang lang, char *err, size_t err_size);

#endif
