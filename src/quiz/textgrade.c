/* Text answers graded: what the answer states (quiz/statement.h) against the key ideas
 * and the misconceptions, then the verdict, what was found, stated wrongly and missing,
 * and the reference answer.
 *
 * The verdict:
 *   - an empty answer is malformed (not an attempt);
 *   - an answer that only says "I don't know" is wrong, and one that takes back what it
 *     stated ("no, the opposite") is wrong; one that corrects itself is graded on what
 *     it ends on, and is a review when the grader cannot follow the correction;
 *   - text that cannot be read (struck out, a character lost, cut off) is malformed
 *     unless what can be read is right;
 *   - the key ideas are complete when at least min_concepts of them (all when not
 *     given) are stated, every `required` one among them;
 *   - a misconception, or a key idea denied ("Q does not come from the decoder"), is
 *     never correct. The key ideas it states wrongly (its `replaces`; a denied idea
 *     itself) earn nothing; an answer that also states one of them of the same
 *     subjects contradicts itself and is wrong ("K from the encoder, V from the
 *     decoder" states one part wrongly, it does not contradict itself). A misconception
 *     makes the whole answer wrong, beside right parts too ("Q from the decoder, K and V
 *     from the encoder; it hides the future tokens", "... the gradients explode"), as 12
 *     of the 18 blind teachers whose policies are on record mark it. Only a `minor` one
 *     (one asked part answered wrongly or weakly: a choice turned round, "K and V from
 *     the decoder", the last token's output) or a denied key idea leaves the answer
 *     partly right (half of their share at most) when other key ideas are stated right
 *     and the wrong claims take the place of no more than half of the rubric's key
 *     ideas. Otherwise it is wrong: roles reversed, the direction turned round, a
 *     misconception instead of the answer. An off-point misconception (true but not the
 *     answer, e.g. speed for Q1) costs nothing beside key ideas; alone it is wrong,
 *     or partly right when it is `partial_alone` ("attention runs in parallel, an RNN
 *     one step after another");
 *   - otherwise complete is correct (1), some key ideas partly right (their share of
 *     min_concepts, below 1 while a required one is missing);
 *   - nothing recognised, neither a key idea nor a misconception: review (the student
 *     grades it after reading the reference), except a keyword salad (terms listed,
 *     nothing stated) or the question said again, which are wrong. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/rubric.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unictype.h>
#include <unistr.h>

#include "quiz/garble.h"
#include "quiz/compiled.h"
#include "quiz/internal.h"
#include "quiz/statement.h"

void qz_result_self_assess(qz_result *r, qz_verdict v)
{
    r->self_assessed = 1;
    r->self_verdict = v;
    r->self_score = v == QZ_CORRECT ? 1 : v == QZ_PARTIAL ? 0.5 : 0;
}

/* No word and no number in it: white space, punctuation, dashes and the numbers of its
 * parts ("(1) ——— (2) ———", "？", "…") */
static int blank(const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, (const uint8_t *)s + i, len - i);
        if (uc_is_general_category(c, UC_CATEGORY_L))
            return 0;
        if (uc_is_general_category(c, UC_CATEGORY_N)) {   /* "(1)", "2." number a part */
            size_t j = i;
            while (j < len && s[j] >= '0' && s[j] <= '9')
                j++;
            int numbered = j > i && j < len && (s[j] == ')' || s[j] == '.' || !strncmp(s + j, "）", 3) ||
                                                !strncmp(s + j, "、", 3));
            if (!numbered)
                return 0;
            n = (int)(j - i);
        }
        i += (size_t)(n > 0 ? n : 1);
    }
    return 1;
}

/* Does s hold one of the words w (NULL-ended)? An English word counts only as a word of
 * its own ("um", not "umbrella"; "lol", not "lollipop"); with laughter, "hahaha" is one
 * and digits ("233") match anywhere; Chinese ones match anywhere. */
static int holds_word(const char *s, const char *const *w, int laughter)
{
    for (size_t i = 0; w[i]; i++) {
        size_t l = strlen(w[i]);
        int word = (unsigned char)w[i][0] < 0x80 && !(w[i][0] >= '0' && w[i][0] <= '9');
        for (const char *p = s; (p = strcasestr(p, w[i])); p += l)
            if (!word || ((p == s || !isalnum((unsigned char)p[-1])) &&
                          (!isalnum((unsigned char)p[l]) || (laughter && !strncasecmp(p + l, "ha", 2)))))
                return 1;
    }
    return 0;
}

/* Does the answer stop in the middle: no mark at its end and its last word one that needs
 * more ("… if not the soft max it will", "不然的话会", "读出那"), or a word said twice
 * ("the the")? With nothing recognised in it, it is a fragment, not an answer. */
static int cut_off(const char *s)
{
    /* not the words a sentence may end on ("…that's what it is", 是…的, "and so on") */
    static const char *const en[] = {"the", "a", "an", "to", "from", "of", "will", "would",
                                     "for", "and", "or", "with", "by", "if", "its", "frm", NULL};
    /* (not 和, 在, 对, 会 alone: 饱和, 存在, 不对, 学会 end words) */
    static const char *const zh[] = {"从", "把", "让", "被", "话会", "就会", "将会", "也会", "还会",
                                     "都会", "那个", NULL};
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        n--;
    for (size_t i = 0; zh[i]; i++) {
        size_t l = strlen(zh[i]);
        if (n >= l && !memcmp(s + n - l, zh[i], l))
            return 1;
    }
    size_t w = n;
    while (w && isalpha((unsigned char)s[w - 1]))
        w--;
    for (size_t i = 0; en[i] && w < n; i++)
        if (strlen(en[i]) == n - w && !strncasecmp(s + w, en[i], n - w) &&
            (w == 0 || s[w - 1] == ' '))
            return 1;
    for (const char *p = s; (p = strcasestr(p, "the the")); p++)
        if ((p == s || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[7]))
            return 1;
    return 0;
}

/* Does the answer open as a chat assistant's reply does ("Sure! Here's a concise answer…",
 * "Great question!", 好的！以下是…)? With nothing recognised after it, it is the opening
 * of an answer pasted without the answer. */
static int assistant_opening(const char *s)
{
    static const char *const w[] = {"sure", "certainly", "of course", "great question",
                                    "good question", "here's", "here is", "below is",
                                    "好的", "当然", "以下是", "下面是", "下面我", "好问题",
                                    "这是一个好问题", NULL};
    s += strspn(s, " \n#*");
    for (size_t i = 0; w[i]; i++)
        if (!strncasecmp(s, w[i], strlen(w[i])) &&
            ((unsigned char)*w[i] >= 0x80 || !isalpha((unsigned char)s[strlen(w[i])])))
            return 1;
    return 0;
}

/* Is the answer short guesses, each with a question mark ("enc？dec？", "Q - enc/dec?
 * K V - dec/enc?")? With nothing recognised, no choice was made. */
static int guesses(const char *s)
{
    size_t marks = 0;
    for (const char *p = s; *p; p++)
        marks += *p == '?' || !strncmp(p, "？", strlen("？"));
    return marks >= 2 && u8_mbsnlen((const uint8_t *)s, strlen(s)) <= 80;
}

/* Does the answer hesitate (嗯, 呃, um, uh, hmm, emm)? With nothing recognised in it, it is
 * fragments, not an answer a teacher could mark ("呃 这个 就是 那个 注意 ……"). */
static int hesitates(const char *s)
{
    static const char *const w[] = {"嗯", "呃", "um", "umm", "uh", "uhh", "erm", "hmm", "hmmm",
                                    "emm", "emmm", NULL};
    if (holds_word(s, w, 0))
        return 1;
    /* 唔 alone ("唔……") hesitates; before a Han character it is Cantonese's 不 (唔係, 唔俾,
     * 唔使: "唔俾啲分數太誇張" is an answer) */
    for (const char *p = s; (p = strstr(p, "唔")); p += strlen("唔")) {
        const unsigned char *n = (const unsigned char *)p + strlen("唔");
        if (!(n[0] >= 0xe4 && n[0] <= 0xe9))
            return 1;
    }
    return 0;
}

/* Text without trailing newlines and spaces: its length. */
static int trimmed(const char *s)
{
    int n = s ? (int)strlen(s) : 0;
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    return n;
}

typedef struct tally {
    size_t found, need, wrong, off_point, required_missing;
    size_t lesson_wide;       /* of `wrong`: the lesson's false claims beside the answer */
    size_t major;             /* of `wrong`: misconceptions that are not `minor` */
    size_t half_alone;        /* of `off_point`: those `partial_alone` */
    size_t credited;          /* key ideas stated and not stated wrongly elsewhere */
    size_t n_ideas;           /* the rubric's key ideas */
    size_t replaced;          /* key ideas a stated misconception or a denial takes */
    size_t contradicted;      /* key ideas stated and also stated wrongly (a misconception
                               * that replaces them): the answer contradicts itself */
    size_t split_right;       /* key ideas of several subjects stated right of some and
                               * wrongly of others ("K from the encoder, V from the decoder") */
    unsigned long wrong_ideas;   /* bit i: key idea i stated wrongly */
    size_t required, required_credited;   /* required key ideas, and those credited */
    int complete;
} tally;

static int idea_wrong(const tally *t, size_t i)
{
    return i < 32 && (t->wrong_ideas >> i & 1);
}

/* A lesson-wide false claim the question has its own wording of (a misconception of the
 * same name) is counted as that one: its feedback, its place (off the point, the key
 * ideas it replaces), once. The question's wording may be narrower than the lesson's
 * ("positional info is unnecessary" is the lesson's phrasing, not q1's). */
static void shadowed(const qz_rubric_c *rc, qz_reading *rd)
{
    for (size_t m = 0; m < rd->n_misc; m++) {
        qz_misc_info wide = qz_rubric_c_misc(rc, m);
        if (!rd->misc[m] || !wide.lesson_wide || !wide.name)
            continue;
        for (size_t o = 0; o < rd->n_misc; o++) {
            qz_misc_info own = qz_rubric_c_misc(rc, o);
            if (!own.lesson_wide && own.name && !strcmp(own.name, wide.name)) {
                rd->misc[m] = 0;
                rd->misc[o] = 1;
                break;
            }
        }
    }
}

static tally count(const qz_question *q, const qz_rubric_c *rc, const qz_reading *rd)
{
    tally t = {0};
    t.need = q->min_concepts && q->min_concepts <= q->n_rubric ? q->min_concepts : q->n_rubric;
    t.n_ideas = q->n_rubric;
    for (size_t i = 0; i < q->n_rubric; i++) {
        t.found += rd->idea[i];
        t.wrong += rd->denied[i];
        t.required_missing += q->rubric[i].required && !rd->idea[i];
    }
    for (size_t m = 0; m < rd->n_misc; m++) {
        if (!rd->misc[m])
            continue;
        qz_misc_info info = qz_rubric_c_misc(rc, m);
        if (info.off_point) {
            t.off_point++;
            t.half_alone += info.partial_alone != 0;
        } else {
            t.wrong++;
            t.lesson_wide += info.lesson_wide != 0;
            t.major += !info.minor;
            t.wrong_ideas |= rd->misc_part[m] ? rd->misc_part[m] : info.replaces;
        }
    }
    for (size_t i = 0; i < q->n_rubric && i < 32; i++)
        if (rd->denied[i])
            t.wrong_ideas |= 1ul << i;
    for (size_t i = 0; i < q->n_rubric; i++) {
        t.replaced += idea_wrong(&t, i);
        t.credited += rd->idea[i] && !idea_wrong(&t, i);
        t.required += q->rubric[i].required != 0;
        t.required_credited += q->rubric[i].required && rd->idea[i] && !idea_wrong(&t, i);
        t.contradicted += rd->idea[i] && idea_wrong(&t, i) && !rd->split[i];
        t.split_right += rd->idea[i] && idea_wrong(&t, i) && rd->split[i];
    }
    t.complete = t.found >= t.need && !t.required_missing;
    return t;
}

/* Does the answer hold one of lex's words (Latin ones whole words)? With qz_lex_purpose:
 * does it say what something is for, however vaguely ("it mixes the two", 作用是融合两边)?
 * A part right of some of its subjects and wrong of others is half of an answer only
 * beside such a statement: teachers mark "Q from the decoder, K from the encoder, V from
 * the decoder, it connects the two" partly right, and the bare split wrong. */
static int said_of(const char *answer, const char *const *lex)
{
    for (size_t i = 0; lex[i]; i++) {
        const char *w = lex[i];
        size_t l = strlen(w);
        for (const char *p = strcasestr(answer, w); p; p = strcasestr(p + 1, w)) {
            int latin = isalpha((unsigned char)*w);
            if (!latin || ((p == answer || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[l])))
                return 1;
        }
    }
    return 0;
}

static void verdict(const tally *t, const qz_reading *rd, qz_result *out)
{
    double share = t->need ? (double)(t->found < t->need ? t->found : t->need) / (double)t->need : 0;
    if (share >= 1 && t->required_missing)
        share = t->need > 1 ? (double)(t->need - 1) / (double)t->need : 0.5;
    if (rd->unsure && !rd->retracted) {
        out->verdict = QZ_REVIEW;
        out->score = 0;
    } else if (rd->gave_up || rd->retracted) {
        out->verdict = QZ_WRONG;
        out->score = 0;
    } else if (t->wrong && !t->major && t->credited && !t->contradicted && 2 * t->replaced <= t->n_ideas &&
               (!t->required || t->required_credited) && 2 * (t->credited + (t->wrong == 1 && !t->off_point ? t->split_right : 0)) >= t->need) {
        /* (a misconception beside only what the question does not require, "a decoder is
         * needed; feed the attention weights to an MLP", earns nothing; nor beside less
         * than half of what it needs: "Q and K from the decoder, V from the encoder" has
         * one of the three parts of cross-attention. A part right of some of its subjects
         * counts towards that half when it is the one thing stated wrongly and a purpose,
         * however vague, is said beside it: "Q from the decoder, K from the encoder, V from
         * the decoder; it mixes the two" is half right, as teachers mark it; bare, or with
         * a false purpose beside it, it is not) */
        size_t c = t->credited < t->need ? t->credited : t->need;
        out->verdict = QZ_PARTIAL;
        out->score = 0.5 * (double)c / (double)t->need;
        out->mistake = t->lesson_wide == t->wrong ? QZ_M_FALSE_CLAIM : QZ_M_MISCONCEPTION;
    } else if (t->wrong) {
        out->verdict = QZ_WRONG;
        out->score = 0;
        out->mistake = t->lesson_wide == t->wrong ? QZ_M_FALSE_CLAIM : QZ_M_MISCONCEPTION;
    } else if (t->complete) {
        out->verdict = QZ_CORRECT;
        out->score = 1;
    } else if (t->found) {
        out->verdict = QZ_PARTIAL;
        out->score = share;
    } else if (t->off_point && t->half_alone == t->off_point && !rd->salad && !rd->opens_not_knowing) {
        /* "attention runs in parallel, an RNN one step after another": the RNN's side of
         * the contrast without the distance, partly right, as most teachers mark it; with
         * "so it is faster" beside it (speed, not partial_alone) it is wrong */
        out->verdict = QZ_PARTIAL;
        out->score = t->need ? 0.5 / (double)t->need : 0.25;
        out->mistake = QZ_M_MISCONCEPTION;
    } else if (t->off_point || rd->salad || rd->opens_not_knowing) {
        /* "I don't know, we never covered it": no key idea, and the student says so */
        out->verdict = QZ_WRONG;
        out->score = 0;
    } else {
        out->verdict = QZ_REVIEW;
        out->score = 0;
    }
}

static const char *headline(const tally *t, const qz_reading *rd, qz_verdict v, qz_lang lang)
{
    if (v == QZ_CORRECT)
        return qz_tr(lang, "Correct: the key ideas are there.\n");
    if (v == QZ_PARTIAL)
        return qz_tr(lang, "Partly right.\n");
    if (v == QZ_REVIEW && rd->unsure)
        return qz_tr(lang, "Needs your review: the answer offers two answers, or doubts or corrects "
                           "itself in a way the grader cannot follow.\n");
    if (v == QZ_REVIEW)
        return qz_tr(lang, "Needs your review: the grader recognised neither a key idea nor a known "
                           "mistake in this answer.\n");
    if (rd->gave_up || (rd->opens_not_knowing && !t->found && !t->wrong && !t->off_point))
        return qz_tr(lang, "No answer yet: read the reference answer, then try again.\n");
    if (rd->restated && !t->found && !t->wrong && !t->off_point && !rd->salad)
        return qz_tr(lang, "Not right: the answer says the question again; it does not answer it.\n");
    if (rd->retracted)
        return qz_tr(lang, "Not right: the answer takes back what it first stated.\n");
    if (t->wrong || t->off_point)
        return qz_tr(lang, "Not right: the answer states something wrong.\n");
    return qz_tr(lang, "Not right: the answer lists terms but states nothing about them.\n");
}

/* The key ideas found, the misconceptions stated (with why), and what is missing. */
static void print_ideas(const qz_question *q, const qz_rubric_c *rc, const qz_reading *rd,
                        const tally *t, qz_lang lang, FILE *fb)
{
    if (t->credited) {
        fprintf(fb, qz_tr(lang, "Key ideas found (%zu of %zu, %zu needed):\n"),
                t->credited, q->n_rubric, t->need);
        for (size_t i = 0; i < q->n_rubric; i++)
            if (rd->idea[i] && !idea_wrong(t, i))
                fprintf(fb, "  ✓ %s\n", q->rubric[i].concept);
    }
    if (t->wrong || t->off_point) {
        /* only off-point claims: true, but not what the question asks */
        fprintf(fb, t->wrong ? qz_tr(lang, "Stated wrongly:\n")
                             : qz_tr(lang, "Beside the question:\n"));
        for (size_t i = 0; i < q->n_rubric; i++)
            if (rd->denied[i])
                fprintf(fb, qz_tr(lang, "  ✗ you wrote the opposite of: %s\n"),
                        q->rubric[i].concept);
        for (size_t m = 0; m < rd->n_misc; m++) {
            if (!rd->misc[m])
                continue;
            qz_misc_info info = qz_rubric_c_misc(rc, m);
            int n = trimmed(info.feedback), said = 0;
            /* two mistakes of one feedback (a narrow and a broad wording) are said once */
            for (size_t o = 0; o < m && n && !said; o++) {
                qz_misc_info before = qz_rubric_c_misc(rc, o);
                said = rd->misc[o] && before.concept == info.concept &&
                       trimmed(before.feedback) == n && !strncmp(before.feedback, info.feedback, (size_t)n);
            }
            if (said)
                continue;
            if (info.concept >= 0)
                fprintf(fb, "  ✗ %s%s%.*s\n", q->rubric[info.concept].concept,
                        n ? qz_tr(lang, " — ") : "", n, n ? info.feedback : "");
            else
                fprintf(fb, "  ✗ %.*s\n", n, n ? info.feedback : (info.name ? info.name : "?"));
        }
    }
}

/* The key ideas the answer does not state: the answer itself, so it comes after
 * qz_result.reveal_at for a wrong or partly right try. */
static void print_missing(const qz_question *q, const qz_reading *rd, const tally *t,
                          qz_lang lang, FILE *fb)
{
    if (t->found < q->n_rubric) {
        fprintf(fb, qz_tr(lang, "Missing:\n"));
        for (size_t i = 0; i < q->n_rubric; i++)
            if (!rd->idea[i])
                fprintf(fb, "  ✗ %s%s\n", q->rubric[i].concept,
                        q->rubric[i].required ? qz_tr(lang, " (needed for a full answer)")
                                              : "");
    }
}

static void print_reference(const qz_question *q, qz_verdict v, qz_lang lang, FILE *fb)
{
    if (q->reference) {
        fprintf(fb, qz_tr(lang, "\nReference answer:\n%s"), q->reference);
        if (*q->reference && q->reference[strlen(q->reference) - 1] != '\n')
            fprintf(fb, "\n");
    }
    if (v == QZ_REVIEW)
        fprintf(fb, qz_tr(lang, "Grade your answer yourself against the reference: y (right), p (partly), "
                                "n (not yet) in the tutor, or attn-tutor check --self correct|partial|wrong. "
                                "It is not counted as a wrong attempt.\n"));
    else
        fprintf(fb, qz_tr(lang, "(Graded by the key ideas stated; you may grade it yourself after reading "
                                "the reference.)\n"));
}

void qz_print_stated_wrongly(const qz_result *r, FILE *fb)
{
    if ((r->verdict != QZ_WRONG && r->verdict != QZ_PARTIAL) ||
        (r->mistake != QZ_M_MISCONCEPTION && r->mistake != QZ_M_FALSE_CLAIM) || !r->feedback)
        return;
    int printed = 0;
    for (const char *line = strchr(r->feedback, '\n'); line && *++line;) {
        size_t n = strcspn(line, "\n");
        if (strncmp(line, "  ", 2)) {
            if (printed)
                break;
        } else if (!strncmp(line, "  ✗", strlen("  ✗"))) {
            fprintf(fb, "%.*s\n", (int)n, line);
            printed = 1;
        }
        line = line[n] ? line + n : NULL;
    }
}

/* Does the answer laugh at itself (lol, haha, 哈哈, 233, 😂)? With nothing recognised in
 * it, it is a joke, not an answer a teacher would review. */
static int laughs(const char *s)
{
    static const char *const w[] = {"lol", "lmao", "rofl", "haha", "hehe", "jk", "xd", "哈哈",
                                    "嘿嘿", "嘻嘻", "233", "😂", "🤣", "😆", "😜", "😄", "😁", "😅",
                                    "😹", "🙃", "😏", "😛", "😝", NULL};
    return holds_word(s, w, 1);
}

int qz_grade_text(const qz_question *q, const char *answer, qz_lang lang, qz_result *out,
                  FILE *fb, at_error *err)
{
    /* no key ideas but misconceptions: the words beside a value answer (qz_question.beside) */
    if ((!q->n_rubric || !q->rubric) && !q->n_misconceptions)
        return at_error_set(err, AT_EINVAL, "question %s: a text question needs a rubric",
                            q->id ? q->id : "?");
    out->expected = q->reference ? strdup(q->reference) : NULL;
    if (blank(answer)) {
        out->verdict = QZ_MALFORMED;
        fprintf(fb, qz_tr(lang, "Write an answer first (a sentence or two).\n"));
        return AT_OK;
    }
    qz_rubric_c *rc = NULL;
    int code = qz_rubric_compile(q, &rc, err);
    if (code)
        return code;
    qz_reading rd;
    at_error e2;
    if ((code = qz_rubric_read(rc, answer, &rd, &e2)) != AT_OK) {
        qz_rubric_c_free(rc);
        if (code == AT_ENOMEM)
            return at_error_set(err, AT_ENOMEM, "out of memory");
        out->verdict = QZ_MALFORMED;
        fprintf(fb, "%s\n", e2.msg);
        return AT_OK;
    }
    shadowed(rc, &rd);
    tally t = count(q, rc, &rd);
    if (t.split_right && !said_of(answer, qz_lex_purpose))
        t.split_right = 0;   /* "Q from the decoder, K from the encoder, V from the decoder." */
    if (t.half_alone && said_of(answer, qz_lex_the_difference))
        t.half_alone = 0;    /* "the essential difference is that attention runs in parallel" */
    verdict(&t, &rd, out);
    /* nothing recognised, or terms that state nothing, in hesitations or cut off */
    int nothing = out->verdict == QZ_REVIEW || (out->verdict == QZ_WRONG && rd.salad && !t.found && !t.wrong);
    const char *unread = rd.garbled && out->verdict != QZ_CORRECT
        ? qz_tr(lang, "Part of the answer cannot be read (struck out, a letter lost, or cut off): "
                      "write it again in full.\n")
        : nothing && !rd.unsure && !rd.gave_up && (hesitates(answer) || cut_off(answer))
        ? qz_tr(lang, "This cannot be read as an answer: only hesitations and fragments. "
                      "Nothing was counted: write the answer in a sentence or two.\n")
        : nothing && !rd.gave_up && assistant_opening(answer)
        ? qz_tr(lang, "This is only the opening of an answer (\"Sure! Here is …\"): nothing "
                      "after it answers the question. Nothing was counted: write the answer "
                      "itself.\n")
        : nothing && !rd.gave_up && guesses(answer)
        ? qz_tr(lang, "This cannot be read as an answer: only guesses with question marks, no "
                      "choice made. Nothing was counted: write what you think in a sentence.\n")
        : nothing && !rd.unsure && !rd.gave_up && qz_answer_mostly_noise(answer)
        ? qz_tr(lang, "This cannot be read as an answer: it is mostly keys hit at random, "
                      "sounds or marks. Nothing was counted: write the answer in a sentence or "
                      "two.\n")
        : NULL;
    if (unread) {
        out->verdict = QZ_MALFORMED;
        out->score = 0;
        out->mistake = QZ_M_NONE;
        fprintf(fb, "%s", unread);
        qz_reading_free(&rd);
        qz_rubric_c_free(rc);
        return AT_OK;
    }
    if (out->verdict == QZ_REVIEW && rd.restated && !rd.unsure)
        out->verdict = QZ_WRONG;   /* the question said again is no answer */
    if (out->verdict == QZ_REVIEW && !rd.unsure && laughs(answer)) {
        out->verdict = QZ_WRONG;   /* "attention is all you need lol": no answer meant */
        fprintf(fb, qz_tr(lang, "Not right: the answer is a joke, not an answer to the question.\n"));
    } else {
        fprintf(fb, "%s", headline(&t, &rd, out->verdict, lang));
    }
    if (out->verdict == QZ_PARTIAL)   /* the other headlines say more than the verdict */
        out->body_at = qz_fb_pos(fb);
    if (out->verdict != QZ_REVIEW && !rd.gave_up)
        print_ideas(q, rc, &rd, &t, lang, fb);
    /* A wrong or partly right try is told what it stated and what it stated wrongly;
     * what is missing and the reference answer give the answer away, and come with a
     * second try, r in the tutor or --reveal. A review shows the reference at once: the
     * student grades against it. */
    if (out->verdict == QZ_WRONG || out->verdict == QZ_PARTIAL)
        out->reveal_at = qz_fb_pos(fb);
    if (out->verdict != QZ_REVIEW && !rd.gave_up)
        print_missing(q, &rd, &t, lang, fb);
    print_reference(q, out->verdict, lang, fb);
    qz_reading_free(&rd);
    qz_rubric_c_free(rc);
    return AT_OK;
}
