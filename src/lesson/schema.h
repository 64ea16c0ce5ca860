/* libcyaml schema of the lesson format (private to src/lesson).
 * The same static tables drive the libcyaml load and the libyaml position pass
 * of lint (check.c), so the two cannot disagree about keys or types. */
#ifndef AT_LESSON_SCHEMA_H
#define AT_LESSON_SCHEMA_H

#include <cyaml/cyaml.h>

#include "lesson/lesson.h"

/* Top-level schemas: a lesson file, and a file holding one compute block. */
extern const cyaml_schema_value_t at_lesson_schema;
extern const cyaml_schema_value_t at_compute_file_schema;

/* What a key that libcyaml 1.3.1 cannot hold (CYAML_IGNORE in the tables) holds;
 * the position pass checks these and the loader fills them from the events. */
typedef enum at_special {
    AT_SPECIAL_NONE = 0,
    AT_SPECIAL_MATRIX,      /* rows of numbers: at_rows */
    AT_SPECIAL_TEXT_ROWS,   /* rows of strings (table rows): at_rows */
    AT_SPECIAL_MASK,        /* none | causal, or rows of 1/0: char* + at_rows */
    AT_SPECIAL_ASK,         /* a string or a list of strings: char** + count */
} at_special;

typedef struct at_special_field {
    const cyaml_schema_field_t *fields;  /* the mapping it belongs to */
    const char *key;
    at_special kind;
    size_t offset;          /* of the at_rows / char** member in the struct */
    size_t offset2;         /* MASK: at_rows; ASK: the count */
} at_special_field;

/* The special field for key in the mapping `fields`, or NULL. */
const at_special_field *at_schema_special(const cyaml_schema_field_t *fields, const char *key);

/* The mapping fields of a step (for the "exactly one kind" rule) and of a question. */
extern const cyaml_schema_field_t at_step_fields[];
extern const cyaml_schema_field_t at_question_fields[];
extern const cyaml_schema_field_t at_compute_fields[];
extern const cyaml_schema_field_t at_lab_fields[];

/* One config for every load: aliases refused, warnings and errors to log_fn. */
void at_schema_config(cyaml_config_t *cfg, void *log_ctx,
                      void (*log_fn)(cyaml_log_t, void *, const char *, va_list));

#endif
