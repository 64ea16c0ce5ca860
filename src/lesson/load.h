/* Shared by the loaders of src/lesson (private). */
#ifndef AT_LESSON_LOAD_H
#define AT_LESSON_LOAD_H

#include "lesson/schema.h"
#include "lesson/ytree.h"

/* Read path ("-" = stdin) into a NUL-terminated buffer (caller frees), at most
 * AT_LESSON_MAX_BYTES; problems go to diags. A path that is not a regular file (a
 * FIFO, a device, a socket, a folder) is refused without blocking: "is a FIFO (named
 * pipe), not WHAT" (what: "a lesson file"). AT_OK, AT_EIO, AT_ENOTREG, AT_ERANGE,
 * AT_ENOMEM. */
int at_read_capped(const char *path, const char *what, char **data, size_t *len,
                   at_diag_list *diags);

/* Node tree + position pass + libcyaml load + specials filled. On AT_OK, *tree
 * (ynode_free) and *out (at_yaml_free) are the caller's. */
int at_yaml_load(const char *name, const char *data, size_t len,
                 const cyaml_schema_value_t *schema, int is_lesson, ynode **tree, void **out,
                 at_diag_list *diags);
void at_yaml_free(const cyaml_schema_value_t *schema, void *data);

#endif
