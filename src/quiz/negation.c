/* Negation in text answers: the words that deny what follows them in a clause, and
 * "not X but Y" / "不是X而是Y" read as Y alone. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quiz/internal.h"

static int latin(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'';
}

/* Is the word w[0, n) (lower case) a negation? */
static int en_cue(const char *w, size_t n, const char *next)
{
    static const char *const words[] = {"not", "no", "never", "without", "neither", "nor",
                                        "cannot", "none", "nothing", "nobody"};
    if ((n == 3 && !strncmp(w, "not", 3) && !strncmp(next, "only", 4) && !latin(next[4])) ||
        (n == 2 && !strncmp(w, "no", 2) && !strncmp(next, "matter", 6) && !latin(next[6])) ||
        (n == 2 && !strncmp(w, "no", 2) && !strncmp(next, "doubt", 5) && !latin(next[5])))
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && !strncmp(w, words[i], n))
            return 1;
    if (n > 3 && !strncmp(w + n - 3, "n't", 3))
        return 1;
    return n > 5 && !strncmp(w + n - 5, "n\xe2\x80\x99t", 5);   /* n’t */
}

size_t qz_neg_cue_en(const char *s)
{
    for (size_t i = 0; s[i];) {
        if (!latin(s[i]) && (unsigned char)s[i] != 0xe2) {
            i++;
            continue;
        }
        size_t n = 0;
        while (s[i + n] && (latin(s[i + n]) || !strncmp(s + i + n, "\xe2\x80\x99", 3)))
            n += latin(s[i + n]) ? 1 : 3;
        if (!n) {
            i++;
            continue;
        }
        const char *next = s + i + n;
        while (*next == ' ')
            next++;
        if (en_cue(s + i, n, next))
            return i;
        i += n;
    }
    return SIZE_MAX;
}

size_t qz_neg_cue_zh(const char *s)
{
    static const char *const cues[] = {"不", "没", "非", "无", "未", "甭"};
    /* words that hold a cue but deny nothing: no matter, very, different, constantly… */
    static const char *const not_cues[] = {"不管", "不论", "无论", "非常", "不同", "不断", "不仅",
                                           "不过", "除非", "不久", "不少", "无数", "未来"};
    for (size_t i = 0; s[i]; i++) {
        for (size_t k = 0; k < sizeof cues / sizeof cues[0]; k++) {
            size_t l = strlen(cues[k]);
            if (strncmp(s + i, cues[k], l))
                continue;
            int skip = 0;
            for (size_t m = 0; !skip && m < sizeof not_cues / sizeof not_cues[0]; m++) {
                size_t ml = strlen(not_cues[m]);
                skip = !strncmp(s + i, not_cues[m], ml) ||
                       (i >= 3 && !strncmp(s + i - 3, not_cues[m], ml) && !strncmp(not_cues[m] + 3, cues[k], l));
            }
            if (!skip)
                return i;
        }
    }
    return SIZE_MAX;
}

/* Length of a sentence end at s (where "not X but Y" cannot reach past), 0 if none. */
static size_t sentence_end(const char *s)
{
    static const char *const marks[] = {"。", "；", "！", "？"};
    if (strchr(";!?", *s) || (*s == '.' && !(s[1] >= '0' && s[1] <= '9')))
        return 1;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (!strncmp(s, marks[i], strlen(marks[i])))
            return strlen(marks[i]);
    return 0;
}

/* The end of the "but" that answers a "not" at s, or NULL. */
static const char *but_after(const char *s, int zh)
{
    for (const char *p = s; *p && !sentence_end(p); p++) {
        if (zh) {
            static const char *const buts[] = {"而是", "而", "但是", "却是"};
            for (size_t i = 0; i < sizeof buts / sizeof buts[0]; i++)
                if (!strncmp(p, buts[i], strlen(buts[i])))
                    return p + strlen(buts[i]);
        } else if (!strncasecmp(p, "but", 3) && !latin(p[3]) && (p == s || !latin(p[-1]))) {
            return p + 3;
        }
    }
    return NULL;
}

/* Where a "not" of "not X but Y" starts at s (0 if none); *zh set for 不是/并非. */
static size_t not_at(const char *text, const char *s, int *zh)
{
    static const char *const zh_nots[] = {"并不是", "不是", "并非"};
    for (size_t i = 0; i < sizeof zh_nots / sizeof zh_nots[0]; i++)
        if (!strncmp(s, zh_nots[i], strlen(zh_nots[i]))) {
            *zh = 1;
            return strlen(zh_nots[i]);
        }
    *zh = 0;
    if (s > text && latin(s[-1]))
        return 0;
    size_t n = 0;
    while (latin(s[n]))
        n++;
    char w[32];
    if (!n || n >= sizeof w)
        return 0;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    const char *next = s + n;
    while (*next == ' ')
        next++;
    int is_not = (n == 3 && !strncmp(w, "not", 3)) || (n > 3 && !strncmp(w + n - 3, "n't", 3));
    return is_not && strncasecmp(next, "only", 4) ? n : 0;
}

char *qz_neg_not_but(const char *answer)
{
    size_t len = strlen(answer), o = 0;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    for (const char *s = answer; *s;) {
        int zh = 0;
        const char *end = not_at(answer, s, &zh) ? but_after(s, zh) : NULL;
        if (end) {
            out[o++] = ' ';
            s = end;
        } else {
            out[o++] = *s++;
        }
    }
    out[o] = '\0';
    return out;
}
