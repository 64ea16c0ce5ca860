/* What the commands print goes through the one filter for text from outside
 * (engine/visible.h): lesson text, titles, ids, hints, explanations, answers quoted in
 * feedback, tokens, file names and arguments quoted in messages. */
#ifndef AT_CLI_OUTPUT_H
#define AT_CLI_OUTPUT_H

#include <stdio.h>

/* From now on every byte written to stderr (stdout) is filtered before it reaches file
 * descriptor 2 (1): controls, escape sequences, bidi overrides and invalid UTF-8 print
 * as "�"; the newline and the tab stay. stdout stays line-buffered on a terminal and
 * fully buffered otherwise, stderr unbuffered; at exit all is flushed. Not stdout for
 * the tutor's screens: ncurses needs the real one (and draws through ui/draw.c, which
 * filters the same way). Call before anything is printed; a second call does nothing.
 * 0, or -1 when the stream cannot be made (the output then stays unfiltered). */
int cli_guard_stderr(void);
int cli_guard_stdout(void);

/* s as a JSON string, quotes included: " and \ escaped, and every code point the filter
 * refuses written as \u001b (JSON's escape, so a script reads the real text), invalid
 * UTF-8 as \ufffd. s NULL: "". */
void cli_json_string(FILE *f, const char *s);

/* JSON text (cJSON_Print's, which escapes only U+0000–U+001F) with DEL, the C1 and the
 * bidi controls escaped the same way and invalid UTF-8 as \ufffd, then a newline. */
void cli_print_json(FILE *f, const char *json);

#endif
