/* The language of the grader's messages and feedback (the lessons' zh / en). */
#ifndef AT_QUIZ_LANG_H
#define AT_QUIZ_LANG_H

typedef enum qz_lang { QZ_EN = 0, QZ_ZH = 1 } qz_lang;

/* "zh…" → QZ_ZH, anything else (NULL included) → QZ_EN. */
qz_lang qz_lang_from(const char *code);

/* Pick the English or the Chinese text (both literals, so printf formats stay checked). */
#define QZ_TR(lang, en, zh) ((lang) == QZ_ZH ? (zh) : (en))

#endif
