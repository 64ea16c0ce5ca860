/* Phrases in text answers (internal to src/quiz): text folded for matching, and
 * phrases found at word boundaries, with or without spaces for Chinese. */
#ifndef AT_QUIZ_PHRASE_H
#define AT_QUIZ_PHRASE_H

#include <stddef.h>

/* Case-folded NFKC text with ASCII punctuation and spaces folded into single spaces,
 * padded with a space at both ends (for word boundaries). nospace: every space removed
 * instead (Chinese phrasings with or without spaces). malloc'd; NULL on ENOMEM. */
char *qz_fold(const char *s, int nospace);

/* The first occurrence of needle (folded, trimmed) in the folded hay at a word
 * boundary, or NULL. Latin words are not glued to other Latin letters ("one step" is
 * not in "none steps"); an inflection may follow ("align" in "aligned"). */
char *qz_find_word(char *hay, const char *needle);

/* A phrase folded both ways (f: spaces kept, g: spaces removed; spaced and nospace
 * point into them, trimmed); wide: it has non-Latin text, so it also matches with
 * the spaces left out. Fill with qz_phrase_make (0, or -1 on ENOMEM), free with
 * qz_phrase_free (also after a failed make). */
typedef struct qz_phrase {
    char *f, *g;
    const char *spaced, *nospace;
    int wide;
} qz_phrase;

int qz_phrase_make(qz_phrase *p, const char *text);
void qz_phrase_free(qz_phrase *p);

/* One clause of an answer, folded both ways (hay = qz_fold(text, 0), hay_ns =
 * qz_fold(text, 1)); owned by whoever made it. */
typedef struct qz_clause {
    char *hay, *hay_ns;
} qz_clause;

/* Does the clause hold the phrase (as written in a rubric, folded here)? */
int qz_phrase_in(const qz_clause *c, const char *text);
/* Overwrite every occurrence of the phrase in the clause with '#'. */
void qz_blank_out(qz_clause *c, const char *text);
/* Does the clause hold one of the alternatives of "a | b | c"? */
int qz_group_in(const qz_clause *c, const char *group);
/* Does it hold one alternative of every group (n > 0; a NULL group never holds)? */
int qz_all_groups_in(const qz_clause *c, const char *const *groups, size_t n);

/* A concept's text with its asides in parentheses left out ("RNN 中依赖距离随位置间隔
 * 增长（要逐步传递）" → "RNN 中依赖距离随位置间隔增长"). malloc'd; NULL if s is NULL
 * or on ENOMEM. */
char *qz_concept_head(const char *s);

#endif
