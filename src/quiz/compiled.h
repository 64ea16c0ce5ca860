/* A rubric compiled for the statement matcher (internal to rubric.c, statement.c and
 * lexicon.c): every phrase normalised into tokens once. */
#ifndef AT_QUIZ_COMPILED_H
#define AT_QUIZ_COMPILED_H

#include <stddef.h>

#include "quiz/statement.h"
#include "quiz/textnorm.h"

/* Alternatives of one phrase list, normalised; self[i]: alternative i holds a subject of
 * its own statement (a claim phrase such as "variance is dk" needs no other subject). */
typedef struct qz_alts {
    qz_text *v;
    unsigned char *self;
    size_t n;
} qz_alts;

typedef struct qz_cclaim {
    qz_alts phrases;
    qz_direction dir;
    qz_polarity pol;
    qz_alts *with;            /* [n_with] groups */
    size_t n_with;
    qz_alts unless;
    int bare;                 /* neither phrases nor direction: the subject itself, denied */
} qz_cclaim;

/* One subject and the claims said of it; a key idea or misconception whose claims
 * have subjects of their own is several patterns with the same owner. */
typedef struct qz_cpattern {
    size_t owner;             /* the key idea or misconception it states */
    qz_alts subject;          /* n = 0: any subject */
    int subject_implied;
    qz_cclaim *claims;
    size_t n_claims;
} qz_cpattern;

struct qz_rubric_c {
    qz_norm norm;
    qz_vocab vocab;
    qz_cpattern *ideas;       /* [n_ideas] patterns of the key ideas */
    size_t n_ideas, n_idea_owners;      /* patterns; key ideas (the rubric's concepts) */
    qz_cpattern *miscs;       /* [n_miscs] patterns of the misconceptions */
    size_t n_miscs, n_misc_owners;
    qz_misc_info *misc_info;  /* [n_misc_owners] */
    qz_alts dir[4];           /* the grader's words per qz_direction (dir[0]: words that
                               * hold one and say none, 大小, 多远) */
    qz_alts glue, foil_before, foil_after, pronoun, object, destination, neutral, consequence,
        retract, give_up, dont_know, correct_strong, correct_weak, restart, filler, question, hedge,
        looked_at, indefinite, respectively, part_glue, versus, side, positions, origin, ability, thought, turn,
        change, joins, reply_yes, reply_no, quote_label, drawn, reject_open, report, reject_tail;
    qz_text prompt;           /* the question's prompt, normalised (n = 0: none) */
};

/* The grader's own words (lexicon.c), NULL-terminated. */
extern const char *const qz_lex_up[], *const qz_lex_down[], *const qz_lex_same[],
    *const qz_lex_no_direction[],
    *const qz_lex_glue[], *const qz_lex_foil_before[], *const qz_lex_foil_after[],
    *const qz_lex_pronoun[], *const qz_lex_object[], *const qz_lex_destination[],
    *const qz_lex_neutral[], *const qz_lex_consequence[],
    *const qz_lex_retract[], *const qz_lex_give_up[], *const qz_lex_dont_know[],
    *const qz_lex_purpose[], *const qz_lex_the_difference[], *const qz_lex_correct_strong[],
    *const qz_lex_correct_weak[], *const qz_lex_restart[], *const qz_lex_disown[], *const qz_lex_filler[],
    *const qz_lex_question[], *const qz_lex_hedge[], *const qz_lex_looked_at[],
    *const qz_lex_indefinite[], *const qz_lex_respectively[], *const qz_lex_part_glue[],
    *const qz_lex_versus[],
    *const qz_lex_side[], *const qz_lex_positions[], *const qz_lex_origin[], *const qz_lex_ability[],
    *const qz_lex_reject_open[], *const qz_lex_report[], *const qz_lex_reject_tail[],
    *const qz_lex_thought[], *const qz_lex_turn[], *const qz_lex_change[], *const qz_lex_joins[],
    *const qz_lex_reply_yes[], *const qz_lex_reply_no[], *const qz_lex_quote_label[],
    *const qz_lex_drawn[];

/* Does the text s hold one of the NULL-terminated words w, anywhere and in any case (a plain
 * substring: "divid" finds "divided")? The first such word of w, or NULL. (lexicon.c) */
const char *qz_lex_find(const char *s, const char *const *w);

/* Does alternative p occur in t at token i (all its tokens, in order; inside it the text
 * may hold a word that adds nothing: "any", a pronoun before 自己)? The tokens of t it
 * spans, 0 if it does not occur. */
size_t qz_alt_at(const qz_text *t, size_t i, const qz_text *p);
/* The longest alternative of a occurring at token i: the tokens of t it spans, 0 if none;
 * *which (may be NULL) gets its index. */
size_t qz_alts_at(const qz_text *t, size_t i, const qz_alts *a, size_t *which);

#endif
