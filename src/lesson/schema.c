/* libcyaml schema of the lesson format, built bottom-up as in libcyaml's
 * examples/planner: strings and values first, then each mapping's fields (the
 * YAML key beside each), then the top level. Keys that hold a list of lists are
 * CYAML_IGNORE here (libcyaml 1.3.1 has no sequence of sequences) and listed in
 * `specials`: the loader fills them from the libyaml events of the same file. */
#define _GNU_SOURCE
#include "lesson/schema.h"

#include <string.h>

#define OPT CYAML_FLAG_OPTIONAL

/* ---- value schemas shared by several fields */
static const cyaml_schema_value_t uint_entry = {
    CYAML_VALUE_UINT(CYAML_FLAG_DEFAULT, unsigned),
};
static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_strval_t lang_strings[] = {
    {"zh", AT_LANG_ZH},
    {"en", AT_LANG_EN},
};
static const cyaml_strval_t onoff_strings[] = {
    {"on", AT_ON},
    {"off", AT_OFF},
};
static const cyaml_strval_t lab_mask_strings[] = {
    {"none", AT_LAB_MASK_NONE},
    {"causal", AT_LAB_MASK_CAUSAL},
};
static const cyaml_strval_t question_kind_strings[] = {
    {"softmax", AT_Q_SOFTMAX},     {"numeric", AT_Q_NUMERIC}, {"attention", AT_Q_ATTENTION},
    {"choice", AT_Q_CHOICE},       {"formula", AT_Q_FORMULA}, {"text", AT_Q_TEXT},
    {"code", AT_Q_CODE},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- table: {header, rows} */
static const cyaml_schema_field_t table_fields[] = {
    CYAML_FIELD_SEQUENCE("header", OPT | CYAML_FLAG_POINTER, at_table, header, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_IGNORE("rows", CYAML_FLAG_DEFAULT),                /* at_rows, filled later */
    CYAML_FIELD_END,
};

/* ---- code: {lang, source} */
static const cyaml_schema_field_t code_fields[] = {
    CYAML_FIELD_STRING_PTR("lang", OPT, at_code, lang, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("source", CYAML_FLAG_DEFAULT, at_code, source, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};

/* ---- expect: [{top | weight | output}] */
static const cyaml_schema_field_t expect_value_fields[] = {
    CYAML_FIELD_STRING_PTR("from", OPT, at_expect_value, from, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("to", OPT, at_expect_value, to, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("row", OPT, at_expect_value, row),
    CYAML_FIELD_UINT_PTR("col", OPT, at_expect_value, col),
    CYAML_FIELD_FLOAT_PTR("value", OPT | CYAML_FLAG_STRICT, at_expect_value, value),
    CYAML_FIELD_FLOAT_PTR("tolerance", OPT | CYAML_FLAG_STRICT, at_expect_value, tolerance),
    CYAML_FIELD_FLOAT_PTR("at_least", OPT | CYAML_FLAG_STRICT, at_expect_value, at_least),
    CYAML_FIELD_FLOAT_PTR("at_most", OPT | CYAML_FLAG_STRICT, at_expect_value, at_most),
    CYAML_FIELD_END,
};
static const cyaml_schema_field_t expect_fields[] = {
    CYAML_FIELD_STRING_PTR("top", OPT, at_expect, top, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("from", OPT, at_expect, from, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("row", OPT, at_expect, row),
    CYAML_FIELD_MAPPING_PTR("weight", OPT, at_expect, weight, expect_value_fields),
    CYAML_FIELD_MAPPING_PTR("output", OPT, at_expect, output, expect_value_fields),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t expect_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_expect, expect_fields),
};

/* ---- options (choice questions and predictions) */
static const cyaml_schema_field_t option_fields[] = {
    CYAML_FIELD_STRING_PTR("text", CYAML_FLAG_DEFAULT, at_option, text, 1, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("correct", OPT, at_option, correct),
    CYAML_FIELD_STRING_PTR("feedback", OPT, at_option, feedback, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t option_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_option, option_fields),
};

/* ---- predict: asked before a compute or lab step shows its result */
static const cyaml_strval_t predict_kind_strings[] = {
    {"choice", AT_PREDICT_CHOICE},
    {"number", AT_PREDICT_NUMBER},
    {"token", AT_PREDICT_TOKEN},
};
static const cyaml_strval_t variance_strings[] = {
    {"raw", AT_VARIANCE_RAW},
    {"scaled", AT_VARIANCE_SCALED},
};
static const cyaml_schema_field_t predict_fields[] = {
    CYAML_FIELD_STRING_PTR("prompt", CYAML_FLAG_DEFAULT, at_predict, prompt, 1, CYAML_UNLIMITED),
    CYAML_FIELD_ENUM("kind", CYAML_FLAG_STRICT, at_predict, kind, predict_kind_strings,
                     COUNT(predict_kind_strings)),
    CYAML_FIELD_SEQUENCE("options", OPT | CYAML_FLAG_POINTER, at_predict, options, &option_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("weight", OPT, at_predict, weight, expect_value_fields),
    CYAML_FIELD_MAPPING_PTR("output", OPT, at_predict, output, expect_value_fields),
    CYAML_FIELD_ENUM("variance", OPT | CYAML_FLAG_STRICT, at_predict, variance, variance_strings,
                     COUNT(variance_strings)),
    CYAML_FIELD_STRING_PTR("from", OPT, at_predict, from, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("row", OPT, at_predict, row),
    CYAML_FIELD_FLOAT_PTR("tolerance", OPT | CYAML_FLAG_STRICT, at_predict, tolerance),
    CYAML_FIELD_STRING_PTR("explanation", OPT, at_predict, explanation, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};

/* ---- lab */
const cyaml_schema_field_t at_lab_fields[] = {
    CYAML_FIELD_STRING_PTR("sentence", CYAML_FLAG_DEFAULT, at_lab, sentence, 1, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("layer", OPT, at_lab, layer),
    CYAML_FIELD_STRING_PTR("head", OPT, at_lab, head, 1, CYAML_UNLIMITED),
    CYAML_FIELD_ENUM("mask", OPT | CYAML_FLAG_STRICT, at_lab, mask, lab_mask_strings,
                     COUNT(lab_mask_strings)),
    CYAML_FIELD_ENUM("scale", OPT | CYAML_FLAG_STRICT, at_lab, scale, onoff_strings,
                     COUNT(onoff_strings)),
    CYAML_FIELD_STRING_PTR("focus", OPT, at_lab, focus, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("expect", OPT | CYAML_FLAG_POINTER, at_lab, expect, &expect_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("predict", OPT, at_lab, predict, predict_fields),
    CYAML_FIELD_END,
};

/* ---- compute */
static const cyaml_schema_field_t random_fields[] = {
    CYAML_FIELD_UINT("n", CYAML_FLAG_DEFAULT, at_random, n),
    CYAML_FIELD_UINT("d_k", CYAML_FLAG_DEFAULT, at_random, d_k),
    CYAML_FIELD_UINT_PTR("d_v", OPT, at_random, d_v),
    CYAML_FIELD_UINT_PTR("seed", OPT, at_random, seed),
    CYAML_FIELD_END,
};
const cyaml_schema_field_t at_compute_fields[] = {
    CYAML_FIELD_SEQUENCE("tokens", OPT | CYAML_FLAG_POINTER, at_compute, tokens, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("key_tokens", OPT | CYAML_FLAG_POINTER, at_compute, key_tokens,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_IGNORE("q", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("k", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("v", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("scores", OPT),                             /* at_rows */
    CYAML_FIELD_MAPPING_PTR("random", OPT, at_compute, random, random_fields),
    CYAML_FIELD_IGNORE("mask", OPT),                               /* word or at_rows */
    CYAML_FIELD_FLOAT_PTR("scale", OPT | CYAML_FLAG_STRICT, at_compute, scale),
    CYAML_FIELD_UINT_PTR("heads", OPT, at_compute, heads),
    CYAML_FIELD_BOOL_PTR("time", OPT, at_compute, time),
    CYAML_FIELD_SEQUENCE("expect", OPT | CYAML_FLAG_POINTER, at_compute, expect, &expect_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("predict", OPT, at_compute, predict, predict_fields),
    CYAML_FIELD_END,
};

/* ---- question */
static const cyaml_schema_field_t gloss_fields[] = {
    CYAML_FIELD_STRING_PTR("token", CYAML_FLAG_DEFAULT, at_gloss, token, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("words", CYAML_FLAG_POINTER, at_gloss, words, &string_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t gloss_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_gloss, gloss_fields),
};
static const cyaml_schema_field_t slip_fields[] = {
    CYAML_FIELD_FLOAT("value", CYAML_FLAG_STRICT, at_slip, value),
    CYAML_FIELD_STRING_PTR("feedback", CYAML_FLAG_DEFAULT, at_slip, feedback, 1, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t slip_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_slip, slip_fields),
};
static const cyaml_schema_field_t code_mistake_fields[] = {
    CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_DEFAULT, at_code_mistake, name, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("answers", CYAML_FLAG_POINTER, at_code_mistake, answers, &string_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("feedback", CYAML_FLAG_DEFAULT, at_code_mistake, feedback, 1,
                           CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t code_mistake_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_code_mistake, code_mistake_fields),
};
static const cyaml_schema_field_t contradiction_fields[] = {
    CYAML_FIELD_SEQUENCE("phrases", OPT | CYAML_FLAG_POINTER, at_contradiction, phrases,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("together", OPT | CYAML_FLAG_POINTER, at_contradiction, together,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("feedback", OPT, at_contradiction, feedback, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t contradiction_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_contradiction, contradiction_fields),
};
static const cyaml_strval_t direction_strings[] = {
    {"up", AT_DIR_UP},
    {"down", AT_DIR_DOWN},
    {"same", AT_DIR_SAME},
};
static const cyaml_strval_t polarity_strings[] = {
    {"affirmed", AT_POL_AFFIRMED},
    {"denied", AT_POL_DENIED},
    {"either", AT_POL_EITHER},
};
static const cyaml_schema_field_t claim_fields[] = {
    CYAML_FIELD_SEQUENCE("subject", OPT | CYAML_FLAG_POINTER, at_claim, subject, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("phrases", OPT | CYAML_FLAG_POINTER, at_claim, phrases, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_ENUM("direction", OPT | CYAML_FLAG_STRICT, at_claim, direction, direction_strings,
                     COUNT(direction_strings)),
    CYAML_FIELD_ENUM("polarity", OPT | CYAML_FLAG_STRICT, at_claim, polarity, polarity_strings,
                     COUNT(polarity_strings)),
    CYAML_FIELD_SEQUENCE("with", OPT | CYAML_FLAG_POINTER, at_claim, with, &string_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("unless", OPT | CYAML_FLAG_POINTER, at_claim, unless, &string_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("subject_implied", OPT, at_claim, subject_implied),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t claim_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_claim, claim_fields),
};
static const cyaml_schema_field_t misconception_fields[] = {
    CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_DEFAULT, at_misconception, name, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("feedback", CYAML_FLAG_DEFAULT, at_misconception, feedback, 1,
                           CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("off_point", OPT, at_misconception, off_point),
    CYAML_FIELD_BOOL("minor", OPT, at_misconception, minor),
    CYAML_FIELD_BOOL("partial_alone", OPT, at_misconception, partial_alone),
    CYAML_FIELD_SEQUENCE("replaces", OPT | CYAML_FLAG_POINTER, at_misconception, replaces,
                         &uint_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("subject", OPT | CYAML_FLAG_POINTER, at_misconception, subject,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("subject_implied", OPT, at_misconception, subject_implied),
    CYAML_FIELD_SEQUENCE("claims", CYAML_FLAG_POINTER, at_misconception, claims, &claim_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t misconception_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_misconception, misconception_fields),
};
static const cyaml_schema_field_t concept_fields[] = {
    CYAML_FIELD_STRING_PTR("concept", CYAML_FLAG_DEFAULT, at_concept, concept, 1, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("required", OPT, at_concept, required),
    CYAML_FIELD_SEQUENCE("subject", OPT | CYAML_FLAG_POINTER, at_concept, subject, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("subject_implied", OPT, at_concept, subject_implied),
    CYAML_FIELD_SEQUENCE("claims", OPT | CYAML_FLAG_POINTER, at_concept, claims, &claim_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("synonyms", OPT | CYAML_FLAG_POINTER, at_concept, synonyms,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("together", OPT | CYAML_FLAG_POINTER, at_concept, together,
                         &string_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("contradicts", OPT | CYAML_FLAG_POINTER, at_concept, contradicts,
                         &contradiction_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t concept_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_concept, concept_fields),
};
const cyaml_schema_field_t at_question_fields[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_DEFAULT, at_question, id, 1, CYAML_UNLIMITED),
    CYAML_FIELD_ENUM("kind", CYAML_FLAG_STRICT, at_question, kind, question_kind_strings,
                     COUNT(question_kind_strings)),
    CYAML_FIELD_STRING_PTR("prompt", CYAML_FLAG_DEFAULT, at_question, prompt, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("hints", OPT | CYAML_FLAG_POINTER, at_question, hints, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("explanation", OPT, at_question, explanation, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("decimals", OPT, at_question, decimals),
    CYAML_FIELD_SEQUENCE("tokens", OPT | CYAML_FLAG_POINTER, at_question, tokens, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("scores", OPT | CYAML_FLAG_POINTER, at_question, scores, &string_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_IGNORE("ask", OPT),                                /* string or list */
    CYAML_FIELD_SEQUENCE("glosses", OPT | CYAML_FLAG_POINTER, at_question, glosses, &gloss_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_FLOAT_PTR("value", OPT | CYAML_FLAG_STRICT, at_question, value),
    CYAML_FIELD_FLOAT_PTR("tolerance", OPT | CYAML_FLAG_STRICT, at_question, tolerance),
    CYAML_FIELD_FLOAT_PTR("relative", OPT | CYAML_FLAG_STRICT, at_question, relative),
    CYAML_FIELD_SEQUENCE("slips", OPT | CYAML_FLAG_POINTER, at_question, slips, &slip_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_IGNORE("q", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("k", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("v", OPT),                                  /* at_rows */
    CYAML_FIELD_IGNORE("mask", OPT),                               /* word or at_rows */
    CYAML_FIELD_FLOAT_PTR("scale", OPT | CYAML_FLAG_STRICT, at_question, scale),
    CYAML_FIELD_UINT_PTR("row", OPT, at_question, row),
    CYAML_FIELD_SEQUENCE("options", OPT | CYAML_FLAG_POINTER, at_question, options, &option_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL_PTR("multiple", OPT, at_question, multiple),
    CYAML_FIELD_STRING_PTR("canonical", OPT, at_question, canonical, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("follow_up", OPT, at_question, follow_up, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("setup", OPT, at_question, setup, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("result", OPT, at_question, result, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("mistakes", OPT | CYAML_FLAG_POINTER, at_question, mistakes,
                         &code_mistake_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("rubric", OPT | CYAML_FLAG_POINTER, at_question, rubric, &concept_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("misconceptions", OPT | CYAML_FLAG_POINTER, at_question, misconceptions,
                         &misconception_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("reference", OPT, at_question, reference, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("min_concepts", OPT, at_question, min_concepts),
    CYAML_FIELD_END,
};

/* ---- step: exactly one of these keys (checked after loading) */
const cyaml_schema_field_t at_step_fields[] = {
    CYAML_FIELD_STRING_PTR("text", OPT, at_step, text, 0, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("table", OPT, at_step, table, table_fields),
    CYAML_FIELD_STRING_PTR("formula", OPT, at_step, formula, 1, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("code", OPT, at_step, code, code_fields),
    CYAML_FIELD_MAPPING_PTR("lab", OPT, at_step, lab, at_lab_fields),
    CYAML_FIELD_MAPPING_PTR("compute", OPT, at_step, compute, at_compute_fields),
    CYAML_FIELD_MAPPING_PTR("question", OPT, at_step, question, at_question_fields),
    CYAML_FIELD_END,
};
static const cyaml_schema_value_t step_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, at_step, at_step_fields),
};

/* ---- lesson (top level) */
static const cyaml_schema_field_t lesson_fields[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_DEFAULT, at_lesson_doc, id, 1, CYAML_UNLIMITED),
    CYAML_FIELD_ENUM("lang", CYAML_FLAG_STRICT, at_lesson_doc, lang, lang_strings,
                     COUNT(lang_strings)),
    CYAML_FIELD_UINT_PTR("order", OPT, at_lesson_doc, order),
    CYAML_FIELD_STRING_PTR("title", CYAML_FLAG_DEFAULT, at_lesson_doc, title, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("summary", OPT, at_lesson_doc, summary, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("misconceptions", OPT | CYAML_FLAG_POINTER, at_lesson_doc, misconceptions,
                         &misconception_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_POINTER, at_lesson_doc, steps, &step_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END,
};
const cyaml_schema_value_t at_lesson_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, at_lesson_doc, lesson_fields),
};
const cyaml_schema_value_t at_compute_file_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, at_compute, at_compute_fields),
};

/* ---- keys libcyaml skips and the loader fills */
#define SPECIAL(f, key, kind, type, m1, m2) {f, key, kind, offsetof(type, m1), offsetof(type, m2)}
static const at_special_field specials[] = {
    SPECIAL(table_fields, "rows", AT_SPECIAL_TEXT_ROWS, at_table, rows, rows),
    SPECIAL(at_compute_fields, "q", AT_SPECIAL_MATRIX, at_compute, q, q),
    SPECIAL(at_compute_fields, "k", AT_SPECIAL_MATRIX, at_compute, k, k),
    SPECIAL(at_compute_fields, "v", AT_SPECIAL_MATRIX, at_compute, v, v),
    SPECIAL(at_compute_fields, "scores", AT_SPECIAL_MATRIX, at_compute, scores, scores),
    SPECIAL(at_compute_fields, "mask", AT_SPECIAL_MASK, at_compute, mask, mask_rows),
    SPECIAL(at_question_fields, "q", AT_SPECIAL_MATRIX, at_question, q, q),
    SPECIAL(at_question_fields, "k", AT_SPECIAL_MATRIX, at_question, k, k),
    SPECIAL(at_question_fields, "v", AT_SPECIAL_MATRIX, at_question, v, v),
    SPECIAL(at_question_fields, "mask", AT_SPECIAL_MASK, at_question, mask, mask_rows),
    SPECIAL(at_question_fields, "ask", AT_SPECIAL_ASK, at_question, ask, ask_count),
};

const at_special_field *at_schema_special(const cyaml_schema_field_t *fields, const char *key)
{
    for (size_t i = 0; i < COUNT(specials); i++)
        if (specials[i].fields == fields && !strcmp(specials[i].key, key))
            return &specials[i];
    return NULL;
}

void at_schema_config(cyaml_config_t *cfg, void *log_ctx,
                      void (*log_fn)(cyaml_log_t, void *, const char *, va_list))
{
    memset(cfg, 0, sizeof *cfg);
    cfg->log_fn = log_fn;
    cfg->log_ctx = log_ctx;
    cfg->mem_fn = cyaml_mem;
    cfg->log_level = CYAML_LOG_ERROR;
    cfg->flags = CYAML_CFG_NO_ALIAS;
}
