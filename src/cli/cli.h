/* Subcommands of the attn-tutor binary. Each takes argc/argv starting at the
 * command name and returns the process exit status:
 *   0 success, 1 the task failed (or a graded answer was wrong), 2 bad usage or input. */
#ifndef AT_CLI_H
#define AT_CLI_H

#include <stdio.h>

int cli_softmax(int argc, char **argv);

/* setlocale(LC_ALL, "") for the terminal, LC_NUMERIC kept "C" (numbers always use a
 * dot); falls back to C.UTF-8 for LC_CTYPE when the locale is missing or not UTF-8. */
void cli_setup_locale(void);

void cli_print_version(void);

/* Parse a float in C notation (the whole string); 0 on success, -1 otherwise. */
int cli_parse_float(const char *s, float *out);

int cli_parse_double(const char *s, double *out);

/* Print a float with up to 7 significant digits, never NaN (JSON-safe: non-finite
 * values print as null when json is set). */
void cli_print_number(FILE *f, double x, int json);

#endif
