/* The statement matcher (internal to src/quiz): what a text answer states, read
 * against a question's key ideas and misconceptions (quiz.h: qz_statement).
 *
 * The answer is normalised once (quiz/textnorm.h), then read sentence by sentence.
 * A sentence ends at . ! ? ; 。, a contrast word (but, while, whereas,
 * however, although; 而, 但, 则, 然而, 反之) and a comma followed by a consequence
 * (so, thus, therefore, because, which; 所以, 因此, 从而, 于是, 导致, 使得), a correction
 * ("no wait", 不对) and a colon after a clause that holds a claim. A sentence ending in a
 * question mark that asks (what, does, 什么, …吗: the question repeated) states nothing;
 * one that hedges (maybe, 可能, 吧) is read.
 *
 * In a sentence the grader finds the rubric's phrases (mentions): subjects, claims, the
 * grader's own words of direction (grow, larger, 变大 / shrink, smaller, 变小 /
 * constant, kept, 不变), and a claim's `with` and `unless` phrases. A phrase inside a
 * longer phrase found at the same place does not count ("one step" inside "one step at
 * a time"); a negation written inside a phrase ("no need", 不需要) is that phrase's.
 *
 *   negation  a negating word (negation.c) denies the first phrase that follows it
 *             within 5 words (10 Han characters), before any punctuation or pronoun
 *             ("without it, …" denies "it"), an object skipped: "does not come from the encoder", "不会饱和", "prevents
 *             the scores from growing", "不会把分数变成概率"
 *   subjects  subjects next to each other ("Q, K and V"; 和 、 / or) form one group; a
 *             subject after "unlike", "like", "compared with", "than" (不像, 像, 相比,
 *             比起) is a foil, a group of its own, passed over in the middle of a
 *             statement ("Self-attention, unlike RNNs, connects directly") and the
 *             owner of a statement it opens ("…，不像 RNN 那样要经过很多步"); one right
 *             after 把 or 将 is an object, never a subject
 *   owner     a claim that holds a subject speaks of it ("one attention step", "hidden-state
 *             updates"); one in the clause after "instead of", "rather than", 而不是
 *             speaks of the subject contrasted there ("… instead of a chain of recurrent
 *             updates": that subject is a foil, and "instead" denies nothing of it); a
 *             claim right after a word of looking ("关注源句", "attend to the source") is
 *             what is looked at, no origin; after "one …, the other …" (一个…一个…) it is
 *             said of neither subject; otherwise a claim is said of the nearest group of
 *             subjects before it; when the
 *             sentence starts with a claim and no pronoun ("the decoder gives Q, the
 *             encoder K and V"), each claim is said of the next group after it instead
 *   carried   a sentence that names no subject and opens with a pronoun, a
 *             connective or after a contrast word is said of the last group of the
 *             sentence before ("Self-attention links them directly. So the distance is
 *             1.", "Q comes not from the encoder but from the decoder")
 *   unless    a claim's `unless` phrases are looked for in the whole period (up to
 *             . ! ? ;), not only its sentence: "its complexity is O(n²), an RNN's O(n)"
 *   parts     a group whose parts are joined by "and" (和, 与) followed by "respectively"
 *             (分别, 各自) gives the claims after it in its clause to its parts in order:
 *             "Q and K, V come from the decoder and the encoder respectively"
 *   polarity  a statement is denied when its claim or its subject is denied (not both)
 *   implied   a pattern with `subject_implied` also matches a claim said of no subject
 *             in its own sentence ("it normalises the scores")
 *   context   a claim's `with` words found only in another clause, inside what another
 *             statement says of its own subject, are that statement's: "K 和 V 来自编码器，
 *             作用是融合信息" says nothing of the source in its purpose
 *   positions a side named with its positions ("目标端每个位置", "all encoder positions",
 *             quiz/lexicon.c) acts or is acted on: no claim of where something comes from,
 *             unless a word of origin stands right before it ("来自编码器每个位置的输出")
 *
 * A key idea whose claim is denied (polarity affirmed, found denied) is stated wrongly,
 * like a misconception, also when the answer states it elsewhere (a contradiction).
 * A key idea and a misconception matched on the same claim phrase: the misconception
 * wins ("it makes the variance larger" is not "the variance grows with dₖ").
 * A sentence that is only rubric terms and list punctuation, three or more of them
 * with no word of its own ("variance softmax gradient"), is a keyword salad: it states
 * nothing; so is a sentence of short names joined by "+" that says nothing the rubric
 * reads ("self-attention + FFN + LayerNorm"). A sign between terms ("Var(q·k) = d_k")
 * says something: no salad. The answer is read in segments, a new one after each
 * correction ("no wait", "sorry, I mean", 不对, 说错了), turn ("the other way round",
 * 反过来) or start over ("scratch that", "I take it back", 算了，我收回): a segment that
 * states a key idea or something wrong keeps the key ideas before it and drops what was
 * wrong before it; one that states only what is beside the point ("…. Actually no, the
 * real difference is just that attention is parallel") is the answer now; after a turn
 * or a start over, it alone counts; a turn that states nothing makes what was right
 * before it retracted and what was wrong unsure; a start over that states nothing takes
 * everything back (retracted); a correction whose words state nothing leaves the reading
 * unsure. An answer that only says it does not know ("I don't
 * know", 不会, 不知道) gave up. */
#ifndef AT_QUIZ_STATEMENT_H
#define AT_QUIZ_STATEMENT_H

#include <stddef.h>

#include "engine/error.h"
#include "quiz/quiz.h"
#include "quiz/textnorm.h"

/* A question's rubric made ready for matching (every phrase normalised). */
typedef struct qz_rubric_c qz_rubric_c;

/* Compile q's rubric and misconceptions (the older `contradicts` become
 * misconceptions after the question's own). Returns AT_OK, AT_EINVAL (a claim that
 * is neither a phrase, a direction nor a denied subject; err names it), AT_ENOMEM.
 * Free with qz_rubric_c_free. */
int qz_rubric_compile(const qz_question *q, qz_rubric_c **out, at_error *err);
void qz_rubric_c_free(qz_rubric_c *r);

/* The misconceptions of a compiled rubric: the question's own, then one per older
 * `contradicts` entry. */
typedef struct qz_misc_info {
    const char *name;         /* may be NULL (older form) */
    const char *feedback;     /* may be NULL */
    int off_point;
    long concept;             /* the key idea an older contradiction belongs to, or -1 */
    unsigned long replaces;   /* bit i: it states key idea i wrongly (qz_misconception) */
    int lesson_wide;          /* qz_misconception.lesson_wide */
    int minor;                /* qz_misconception.minor */
    int partial_alone;        /* qz_misconception.partial_alone */
} qz_misc_info;
size_t qz_rubric_c_n_misc(const qz_rubric_c *r);
qz_misc_info qz_rubric_c_misc(const qz_rubric_c *r, size_t i);

/* What an answer states. */
typedef struct qz_reading {
    unsigned char *idea;      /* [n_rubric] 1: the key idea is stated */
    unsigned char *misc;      /* [qz_rubric_c_n_misc] 1: the misconception is stated */
    unsigned char *denied;    /* [n_rubric] 1: the key idea is denied ("Q does not come
                               * from the decoder") and nowhere stated: a wrong statement */
    unsigned char *split;     /* [n_rubric] 1: the key idea is stated right of some
                               * subjects and wrongly of others only ("K from the
                               * encoder, V from the decoder"): one part wrong, no
                               * contradiction */
    unsigned long *misc_part; /* [qz_rubric_c_n_misc] key ideas the misconception states
                               * wrongly in part (said of K alone where the idea needs K
                               * and V), in place of its `replaces`; 0: its `replaces` */
    size_t n_idea, n_misc;
    size_t mentions;          /* rubric phrases recognised, stated or not */
    int salad;                /* a sentence listed terms and stated nothing */
    int retracted;            /* the answer took back what it had stated ("no wait, the
                               * other way round") and ends on nothing else */
    int unsure;               /* the answer corrected itself with words the grader
                               * cannot read, or turned a wrong statement round */
    int gave_up;              /* the answer says only that the student does not know */
    int opens_not_knowing;    /* it opens by saying so ("I don't know, ...", "不知道，…") */
    int restated;             /* its words are nearly all the question's own ("the
                               * difference is the dependency distance") */
    int garbled;              /* part of it cannot be read: struck out (~~n~~), a letter
                               * lost ("?coder", ▯), cut off mid-phrase ("from the …") */
} qz_reading;

/* Read answer (UTF-8, checked here: AT_EUTF8) against r. Returns AT_OK or AT_ENOMEM.
 * Free with qz_reading_free. */
int qz_rubric_read(const qz_rubric_c *r, const char *answer, qz_reading *out, at_error *err);
void qz_reading_free(qz_reading *r);

/* What kind of answer it is (textform.c). Are the answer's content words (four or more)
 * at least three quarters the prompt's own (r holds the normalised prompt)? */
int qz_answer_restates(const qz_rubric_c *r, const qz_text *t);
/* A short answer that states a word and denies it of the case without ("divides the
 * scores; without it the scores are not divided", 不除就不缩放): 1, a tautology. */
int qz_answer_tautology(const qz_text *t);
/* Han terms with spaces between them and nothing else ("归一化 方差 softmax 梯度")? */
int qz_answer_spaced_terms(const char *answer);
/* Three or more terms of a word or two (or up to four Han characters) between commas or
 * 、 and nothing else ("variance, saturation, gradients", 方差、饱和、梯度)? */
int qz_answer_comma_terms(const char *answer);
/* Four or more terms of a word or two between semicolons and nothing else ("variance;
 * softmax; saturation; gradients")? */
int qz_answer_semicolon_terms(const char *answer);
/* Does the answer (UTF-8) hold text that cannot be read: struck out (~~), a character
 * lost (▯, □, U+FFFD, "?coder"), keys hit at random (@#), doubled ?? or ;;, or a cut after
 * a word that needs more ("from the ...", 从 ……)? */
int qz_answer_garbled(const char *answer);

/* Negation cue at token i of t: how many tokens it spans, 0 if none (negation.c). */
size_t qz_neg_cue_at(const qz_text *t, size_t i);
/* Is the negation cue at token i one that prevents (prevent, avoid, 防止, 避免)? A wrong
 * danger prevented is still said: "√dₖ prevents exploding gradients" states the
 * misconception. */
int qz_neg_prevents(const qz_text *t, size_t i);
/* How many tokens from i spell the Han word w, 0 if they do not. */
size_t qz_han_at(const qz_text *t, size_t i, const char *w);

#endif
