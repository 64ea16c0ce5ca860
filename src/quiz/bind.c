/* Lesson questions → qz_question. See quiz/bind.h. */
#include "quiz/bind.h"

#include <stdlib.h>
#include <string.h>

static int cells_to_doubles(char *const *cells, unsigned n, double **out, const char *what,
                            at_error *err)
{
    *out = malloc((n ? n : 1) * sizeof **out);
    if (!*out)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (unsigned i = 0; i < n; i++)
        if (at_parse_cell(cells[i], &(*out)[i]))
            return at_error_set(err, AT_EINVAL, "%s: '%s' is not a number", what, cells[i]);
    return AT_OK;
}

/* rows of cells → a dense matrix; every row must have the same length. */
static int rows_to_matrix(const at_rows *r, double **out, size_t *n_rows, size_t *n_cols,
                          const char *what, at_error *err)
{
    *n_rows = r->rows_count;
    *n_cols = r->rows_count ? r->rows[0].cells_count : 0;
    if (!*n_rows || !*n_cols)
        return at_error_set(err, AT_EINVAL, "%s is missing or empty", what);
    *out = malloc(*n_rows * *n_cols * sizeof **out);
    if (!*out)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t i = 0; i < *n_rows; i++) {
        if (r->rows[i].cells_count != *n_cols)
            return at_error_set(err, AT_EINVAL, "%s: row %zu has %u numbers, row 1 has %zu", what,
                                i + 1, r->rows[i].cells_count, *n_cols);
        for (size_t j = 0; j < *n_cols; j++)
            if (at_parse_cell(r->rows[i].cells[j], &(*out)[i * *n_cols + j]))
                return at_error_set(err, AT_EINVAL, "%s: '%s' is not a number", what,
                                    r->rows[i].cells[j]);
    }
    return AT_OK;
}

static int bind_softmax(const at_question *src, qz_bound *b, at_error *err)
{
    qz_question *q = &b->q;
    if (!src->tokens_count || src->scores_count != src->tokens_count)
        return at_error_set(err, AT_EINVAL, "a softmax question needs as many scores as tokens");
    int rc = cells_to_doubles(src->scores, src->scores_count, &b->scores, "scores", err);
    if (rc)
        return rc;
    b->ask = malloc((src->ask_count ? src->ask_count : 1) * sizeof *b->ask);
    if (!b->ask)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (unsigned i = 0; i < src->ask_count; i++) {
        long k = at_token_index((const char *const *)src->tokens, src->tokens_count, src->ask[i]);
        if (k < 0)
            return at_error_set(err, AT_EINVAL, "asked token '%s' is not among the tokens", src->ask[i]);
        b->ask[i] = (size_t)k;
    }
    q->tokens = (const char *const *)src->tokens;
    q->n_tokens = src->tokens_count;
    q->scores = b->scores;
    q->ask = b->ask;
    q->n_ask = src->ask_count;
    return AT_OK;
}

/* `glosses`: one qz_gloss per word, naming its token by index. */
static int bind_glosses(const at_question *src, qz_bound *b, at_error *err)
{
    size_t n = 0;
    for (unsigned g = 0; g < src->glosses_count; g++)
        n += src->glosses[g].words_count;
    if (!n)
        return AT_OK;
    b->glosses = malloc(n * sizeof *b->glosses);
    if (!b->glosses)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    n = 0;
    for (unsigned g = 0; g < src->glosses_count; g++) {
        long k = at_token_index((const char *const *)src->tokens, src->tokens_count, src->glosses[g].token);
        if (k < 0)
            return at_error_set(err, AT_EINVAL, "`glosses` names '%s', which is not one of the tokens",
                                src->glosses[g].token);
        for (unsigned w = 0; w < src->glosses[g].words_count; w++)
            b->glosses[n++] = (qz_gloss){(size_t)k, src->glosses[g].words[w]};
    }
    b->q.glosses = b->glosses;
    b->q.n_glosses = n;
    return AT_OK;
}

static int bind_attention(const at_question *src, qz_bound *b, at_error *err)
{
    qz_question *q = &b->q;
    size_t kq, nk2, dk2;
    int rc = rows_to_matrix(&src->q, &b->mq, &q->n_q, &q->d_k, "q", err);
    if (!rc)
        rc = rows_to_matrix(&src->k, &b->mk, &q->n_k, &dk2, "k", err);
    if (!rc)
        rc = rows_to_matrix(&src->v, &b->mv, &nk2, &q->d_v, "v", err);
    if (rc)
        return rc;
    kq = dk2;
    if (kq != q->d_k || nk2 != q->n_k)
        return at_error_set(err, AT_EINVAL, "q, k and v do not fit: q is %zu×%zu, k %zu×%zu, v %zu×%zu",
                            q->n_q, q->d_k, q->n_k, dk2, nk2, q->d_v);
    q->q = b->mq;
    q->k = b->mk;
    q->v = b->mv;
    q->ask_output = src->ask_count && !strcmp(src->ask[0], "output");
    q->row = src->row && *src->row ? *src->row - 1 : 0;
    if (q->row >= q->n_q)
        return at_error_set(err, AT_EINVAL, "row %zu is past the %zu queries", q->row + 1, q->n_q);
    q->scale = src->scale ? *src->scale : 0;
    q->causal = src->mask && !strcmp(src->mask, "causal");
    if (src->mask_rows.rows_count) {
        double *m = NULL;
        size_t r, c;
        if ((rc = rows_to_matrix(&src->mask_rows, &m, &r, &c, "mask", err))) {
            free(m);
            return rc;
        }
        b->allowed = malloc(r * c);
        if (!b->allowed || r != q->n_q || c != q->n_k) {
            free(m);
            return at_error_set(err, b->allowed ? AT_EINVAL : AT_ENOMEM, "the mask must be %zu×%zu",
                                q->n_q, q->n_k);
        }
        for (size_t i = 0; i < r * c; i++)
            b->allowed[i] = m[i] != 0;
        free(m);
        q->allowed = b->allowed;
    }
    if (src->tokens_count == q->n_k) {
        q->tokens = (const char *const *)src->tokens;
        q->n_tokens = src->tokens_count;
    }
    return AT_OK;
}

/* A code question: its lines and the known mistakes (the answers' arrays borrowed). */
static int bind_code(const at_question *src, qz_bound *b, at_error *err)
{
    qz_question *q = &b->q;
    q->canonical = src->canonical;
    q->setup = src->setup;
    q->result = src->result;
    if (!src->mistakes_count)
        return AT_OK;
    b->code_mistakes = calloc(src->mistakes_count, sizeof *b->code_mistakes);
    if (!b->code_mistakes)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (unsigned i = 0; i < src->mistakes_count; i++) {
        const at_code_mistake *m = &src->mistakes[i];
        b->code_mistakes[i] = (qz_code_mistake){m->name, (const char *const *)m->answers,
                                                m->answers_count, m->feedback};
    }
    q->code_mistakes = b->code_mistakes;
    q->n_code_mistakes = src->mistakes_count;
    return AT_OK;
}

static int bind_choice_text(const at_question *src, const at_lesson_doc *doc, qz_bound *b,
                            at_error *err)
{
    qz_question *q = &b->q;
    if (src->kind == AT_Q_CHOICE) {
        b->options = calloc(src->options_count ? src->options_count : 1, sizeof *b->options);
        if (!b->options)
            return at_error_set(err, AT_ENOMEM, "out of memory");
        for (unsigned i = 0; i < src->options_count; i++)
            b->options[i] = (qz_option){src->options[i].text, src->options[i].correct,
                                        src->options[i].feedback};
        q->options = b->options;
        q->n_options = src->options_count;
        q->multiple = src->multiple && *src->multiple;
    } else {
        return qz_bind_rubric(src, doc ? doc->misconceptions : NULL,
                              doc ? doc->misconceptions_count : 0, b, err);
    }
    return AT_OK;
}

/* The lesson's misconceptions as a text question of no key ideas, set as b->q.beside. */
static int bind_beside(const at_lesson_doc *doc, const at_question *src, qz_bound *b, at_error *err)
{
    at_question none = {.id = src->id, .kind = AT_Q_TEXT};
    b->beside = calloc(1, sizeof *b->beside);
    if (!b->beside)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    b->beside->q = qz_question_init(QZ_TEXT);
    b->beside->q.id = src->id;
    int rc = qz_bind_rubric(&none, doc->misconceptions, doc->misconceptions_count, b->beside, err);
    if (!rc)
        b->q.beside = &b->beside->q;
    return rc;
}

/* One question; doc (may be NULL) is its lesson, whose misconceptions a text question
 * reads after its own and a value question reads beside its values. */
static int bind_question(const at_question *src, const at_lesson_doc *doc, qz_bound *b,
                         at_error *err)
{
    static const qz_kind kinds[] = {QZ_SOFTMAX, QZ_SOFTMAX, QZ_NUMERIC, QZ_ATTENTION, QZ_CHOICE,
                                    QZ_FORMULA, QZ_TEXT, QZ_CODE};
    memset(b, 0, sizeof *b);
    if (src->kind < AT_Q_SOFTMAX || src->kind > AT_Q_CODE)
        return at_error_set(err, AT_EINVAL, "question %s: unknown kind", src->id ? src->id : "?");
    qz_question *q = &b->q;
    *q = qz_question_init(kinds[src->kind]);
    q->id = src->id;
    q->explanation = src->explanation;
    q->decimals = src->decimals ? (int)*src->decimals : -1;
    q->tolerance = src->tolerance ? *src->tolerance : -1;
    q->relative = src->relative ? *src->relative : -1;
    int rc = AT_OK;
    switch (src->kind) {
    case AT_Q_SOFTMAX:
        rc = bind_softmax(src, b, err);
        if (!rc)
            rc = bind_glosses(src, b, err);
        break;
    case AT_Q_ATTENTION:
        rc = bind_attention(src, b, err);
        if (!rc && b->q.tokens)
            rc = bind_glosses(src, b, err);
        break;
    case AT_Q_NUMERIC:
        if (!src->value)
            return at_error_set(err, AT_EINVAL, "a numeric question needs a value");
        b->values = malloc(sizeof *b->values);
        if (!b->values)
            return at_error_set(err, AT_ENOMEM, "out of memory");
        b->values[0] = *src->value;
        q->values = b->values;
        q->n_values = 1;
        if (src->slips_count) {
            b->slips = calloc(src->slips_count, sizeof *b->slips);
            if (!b->slips)
                return at_error_set(err, AT_ENOMEM, "out of memory");
            for (unsigned i = 0; i < src->slips_count; i++)
                b->slips[i] = (qz_slip){src->slips[i].value, src->slips[i].feedback};
            q->slips = b->slips;
            q->n_slips = src->slips_count;
        }
        break;
    case AT_Q_FORMULA: q->canonical = src->canonical; break;
    case AT_Q_CODE: rc = bind_code(src, b, err); break;
    default: rc = bind_choice_text(src, doc, b, err);
    }
    if (!rc && doc && doc->misconceptions_count &&
        (src->kind == AT_Q_SOFTMAX || src->kind == AT_Q_NUMERIC || src->kind == AT_Q_ATTENTION ||
         src->kind == AT_Q_FORMULA))
        rc = bind_beside(doc, src, b, err);
    if (rc) {
        char msg[sizeof err->msg];
        if (err) {
            snprintf(msg, sizeof msg, "%s", err->msg);
            at_error_set(err, rc, "question %s: %s", src->id ? src->id : "?", msg);
        }
        qz_bound_free(b);
    }
    return rc;
}

int qz_bind_question(const at_question *src, qz_bound *b, at_error *err)
{
    return bind_question(src, NULL, b, err);
}

int qz_bind_lesson_question(const at_lesson *lesson, const at_question *src, qz_bound *b,
                            at_error *err)
{
    int rc = bind_question(src, lesson ? lesson->doc : NULL, b, err);
    if (rc || !lesson || src->kind != AT_Q_FORMULA || !src->follow_up)
        return rc;
    const at_question *fq = at_lesson_find_question(lesson, src->follow_up, NULL);
    if (!fq || fq->kind != AT_Q_TEXT || fq == src) {
        qz_bound_free(b);
        return at_error_set(err, AT_EINVAL, "question %s: `follow_up` '%s' is not a text question of "
                            "this lesson", src->id ? src->id : "?", src->follow_up);
    }
    b->follow_up = calloc(1, sizeof *b->follow_up);
    if (!b->follow_up) {
        qz_bound_free(b);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    if ((rc = bind_question(fq, lesson->doc, b->follow_up, err))) {
        qz_bound_free(b);
        return rc;
    }
    b->q.follow_up = &b->follow_up->q;
    return AT_OK;
}

void qz_bound_free(qz_bound *b)
{
    if (b->follow_up) {
        qz_bound_free(b->follow_up);
        free(b->follow_up);
    }
    if (b->beside) {
        qz_bound_free(b->beside);
        free(b->beside);
    }
    free(b->scores);
    free(b->values);
    free(b->slips);
    free(b->mq);
    free(b->mk);
    free(b->mv);
    free(b->ask);
    free(b->allowed);
    free(b->options);
    free(b->glosses);
    free(b->code_mistakes);
    qz_bind_rubric_free(b);
    memset(b, 0, sizeof *b);
}

int qz_split_id(const char *id, char *lesson, char *question, size_t cap)
{
    const char *colon = strchr(id, ':');
    const char *l = colon ? id : QZ_SELF_TEST_LESSON, *qid = colon ? colon + 1 : id;
    size_t ll = colon ? (size_t)(colon - id) : strlen(l);
    if (!ll || !*qid || ll >= cap || strlen(qid) >= cap)
        return -1;
    memcpy(lesson, l, ll);
    lesson[ll] = '\0';
    snprintf(question, cap, "%s", qid);
    return 0;
}

const at_question *qz_find_question(const at_lesson_set *set, const char *id,
                                    const at_lesson **lesson)
{
    char l[256], qid[256];
    if (qz_split_id(id, l, qid, sizeof l))
        return NULL;
    const at_lesson *found = at_lesson_set_find(set, l);
    const at_question *q = found ? at_lesson_find_question(found, qid, NULL) : NULL;
    if (!q && !strchr(id, ':')) {   /* code-bug-4: the one lesson that has it */
        for (size_t i = 0; set && i < set->count; i++) {
            const at_question *x = at_lesson_find_question(set->lessons[i], id, NULL);
            if (x && q)
                return NULL;   /* in two lessons: LESSON:QID tells them apart */
            if (x) {
                q = x;
                found = set->lessons[i];
            }
        }
    }
    if (lesson)
        *lesson = q ? found : at_lesson_set_find(set, l);
    return q;
}
