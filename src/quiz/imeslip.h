/* Input-method slips in Chinese answers (internal to src/quiz): a word of the field typed
 * with other characters of the same or a near sound, as a pinyin input method offers them
 * (跟号 for 根号, 专置 for 转置, 为度 for 维度, 愿句 for 原句, 解吗器 for 解码器). The text
 * grader and the formula reader read the word meant. */
#ifndef AT_QUIZ_IMESLIP_H
#define AT_QUIZ_IMESLIP_H

#include <stddef.h>

/* A slip at s (UTF-8, NUL-terminated): its length in bytes (the longest slip that starts
 * there), and *word the word meant (static); 0 if none. */
size_t qz_ime_slip_at(const char *s, const char **word);

/* Pinyin left unconverted at s, which starts a word ("zhuanzhi", "jie ma qi"): its
 * length in bytes, and *word the word meant (static); 0 if none. */
size_t qz_ime_pinyin_at(const char *s, const char **word);
/* s with every slip replaced by the word meant, malloc'd (NULL when out of memory). */
char *qz_ime_fix(const char *s);

#endif
