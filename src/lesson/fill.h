/* Filling and freeing the members libcyaml 1.3.1 cannot hold (private). */
#ifndef AT_LESSON_FILL_H
#define AT_LESSON_FILL_H

#include "lesson/schema.h"
#include "lesson/ytree.h"

/* Walk the schema, the loaded struct at data and the node tree together and fill
 * every special member (at_rows, mask word, ask list) from the nodes.
 * Returns AT_OK or AT_ENOMEM (what was filled is freed by at_fill_free). */
int at_fill_specials(const ynode *n, const cyaml_schema_value_t *schema, void *data);
/* Free what at_fill_specials allocated (call before cyaml_free). NULL-safe. */
void at_fill_free(const cyaml_schema_value_t *schema, void *data);

#endif
