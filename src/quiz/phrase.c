/* Phrases in text answers: folding (case, width, punctuation) and matching at word
 * boundaries, for the rubric matcher (quiz/rubric.c). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/phrase.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>

/* Case-folded NFKC text with ASCII punctuation and spaces folded into single
 * spaces, padded with a space at both ends (for word boundaries). nospace: every
 * space removed instead (Chinese phrasings with or without spaces). malloc'd. */
char *qz_fold(const char *s, int nospace)
{
    size_t n = 0;
    uint8_t *f = u8_casefold((const uint8_t *)s, strlen(s), NULL, UNINORM_NFKC, NULL, &n);
    if (!f)
        return NULL;
    char *out = malloc(n + 3);
    size_t o = 0;
    if (out) {
        out[o++] = ' ';
        for (size_t i = 0; i < n; i++) {
            unsigned char c = f[i];
            int blank = c < 0x80 && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && c != '\'' &&
                        c != '%' && c != '+' && c != '=' && c != '<' && c != '>';
            if (!blank)
                out[o++] = (char)c;
            else if (!nospace && out[o - 1] != ' ')
                out[o++] = ' ';
        }
        if (out[o - 1] != ' ')
            out[o++] = ' ';
        out[o] = '\0';
    }
    free(f);
    return out;
}

static int ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

/* After a Latin word: the end of the word, or an inflection and then the end
 * ("align" in "aligns", "aligned", "aligning"). */
static int word_ends(const char *p)
{
    static const char *const endings[] = {"", "s", "es", "d", "ed", "ing"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        size_t l = strlen(endings[i]);
        if (!strncmp(p, endings[i], l) && !ascii_alnum(p[l]))
            return 1;
    }
    return 0;
}

/* The first occurrence of needle (folded, trimmed) in hay at a word boundary, or
 * NULL. Latin words must not be glued to other Latin letters ("one step" is not in
 * "none steps"). */
char *qz_find_word(char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (char *p = hay; n && (p = strstr(p, needle)) != NULL; p++) {
        int left_ok = !ascii_alnum(needle[0]) || p == hay || !ascii_alnum(p[-1]);
        int right_ok = !ascii_alnum(needle[n - 1]) || word_ends(p + n);
        if (left_ok && right_ok)
            return p;
    }
    return NULL;
}

static char *trim(char *t)
{
    while (*t == ' ')
        t++;
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        t[--n] = '\0';
    return t;
}

int qz_phrase_make(qz_phrase *p, const char *text)
{
    p->f = qz_fold(text, 0);
    p->g = qz_fold(text, 1);
    if (!p->f || !p->g)
        return -1;
    p->spaced = trim(p->f);
    p->nospace = trim(p->g);
    p->wide = 0;
    for (const char *c = p->nospace; *c; c++)
        p->wide |= (unsigned char)*c >= 0x80;
    return 0;
}

void qz_phrase_free(qz_phrase *p)
{
    free(p->f);
    free(p->g);
}

/* Does the clause hold the phrase? */
int qz_phrase_in(const qz_clause *c, const char *text)
{
    qz_phrase p;
    int hit = 0;
    if (!qz_phrase_make(&p, text))
        hit = (*p.spaced && qz_find_word(c->hay, p.spaced)) ||
              (p.wide && *p.nospace && strstr(c->hay_ns, p.nospace));
    qz_phrase_free(&p);
    return hit;
}

/* Overwrite every occurrence of the phrase in the clause with '#'. */
void qz_blank_out(qz_clause *c, const char *text)
{
    qz_phrase p;
    if (!qz_phrase_make(&p, text)) {
        size_t n = strlen(p.spaced), m = strlen(p.nospace);
        for (char *at; n && (at = qz_find_word(c->hay, p.spaced)) != NULL;)
            memset(at, '#', n);
        for (char *at; p.wide && m && (at = strstr(c->hay_ns, p.nospace)) != NULL;)
            memset(at, '#', m);
    }
    qz_phrase_free(&p);
}

/* Does the clause hold one of the alternatives of "a | b | c"? */
int qz_group_in(const qz_clause *c, const char *group)
{
    char *copy = strdup(group);
    int hit = 0;
    for (char *save = NULL, *alt = copy ? strtok_r(copy, "|", &save) : NULL; alt && !hit;
         alt = strtok_r(NULL, "|", &save))
        hit = qz_phrase_in(c, alt);
    free(copy);
    return hit;
}

int qz_all_groups_in(const qz_clause *c, const char *const *groups, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!groups[i] || !qz_group_in(c, groups[i]))
            return 0;
    return n > 0;
}

/* A concept's text with its asides in parentheses left out ("RNN 中依赖距离随位置
 * 间隔增长（要逐步传递）" → "RNN 中依赖距离随位置间隔增长"): the core of the idea,
 * as an answer words it. malloc'd; NULL if s is NULL. */
char *qz_concept_head(const char *s)
{
    static const char *const opens[] = {"(", "（"}, *const closes[] = {")", "）"};
    char *out = s ? malloc(strlen(s) + 1) : NULL;
    size_t o = 0;
    for (const char *p = s; out && *p;) {
        size_t l = 0;
        for (size_t i = 0; i < 2 && !l; i++) {
            const char *close = !strncmp(p, opens[i], strlen(opens[i])) ? strstr(p, closes[i]) : NULL;
            if (close)
                l = (size_t)(close - p) + strlen(closes[i]);
        }
        if (l) {
            p += l;
            continue;
        }
        out[o++] = *p++;
    }
    if (out)
        out[o] = '\0';
    return out;
}
