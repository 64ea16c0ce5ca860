/* Subcommands of the attn-tutor binary. Each takes argc/argv starting at the
 * command name and returns the process exit status:
 *   0 success, 1 the task failed (or a graded answer was wrong), 2 bad usage or input. */
#ifndef AT_CLI_H
#define AT_CLI_H

#include <stdio.h>

#include "lesson/lesson.h"
#include "quiz/lang.h"

int cli_softmax(int argc, char **argv);
int cli_attend(int argc, char **argv);
/* The full-screen tutor (src/cli/tutor.c): no command, lesson ID, lab [SENTENCE], quiz. */
int cli_tutor(int argc, char **argv);
int cli_lesson(int argc, char **argv);
int cli_lab(int argc, char **argv);
int cli_quiz(int argc, char **argv);
int cli_lint(int argc, char **argv);
int cli_compute(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_practice(int argc, char **argv);
int cli_tokenize(int argc, char **argv);

/* Flags every command accepts, before or after the command name and its arguments
 * (read by cli_parse_args in cli/args.h; the commands never see them). */
typedef struct cli_globals {
    const char *lang;         /* "zh" or "en": --lang, else from the locale strings */
    int lang_asked;           /* --lang was given (else a command may follow the answer's) */
    const char *lessons_dir;  /* --lessons DIR (the only lessons folder), or NULL */
    const char *model_path;   /* --model FILE, else cli_data_path("models/…") */
} cli_globals;
extern cli_globals cli_g;

/* The global flags as --help lines (each command's --help lists them). */
#define CLI_GLOBAL_FLAGS_HELP \
    "global flags (anywhere: before or after the command and its arguments):\n" \
    "  --lang zh|en     language of the lessons and messages (default: LANGUAGE, LC_ALL,\n" \
    "                   LC_MESSAGES, LANG, the first one set; zh… is Chinese)\n" \
    "  --lessons DIR    only the lessons in DIR (DIR/zh, DIR/en), not the usual folders\n" \
    "  --model FILE     this safetensors model instead of the shipped mini-model\n" \
    "  --model DIR      attend, tokenize: a Hugging Face model folder (GPT-2, BERT)\n"

/* The language from the first of LANGUAGE / LC_ALL / LC_MESSAGES / LANG that is set
 * ("zh" if it starts with "zh", else "en"), used when --lang is not given. */
const char *cli_default_lang(void);

/* When lang ("zh", "en") has a message catalogue and it cannot be read (not installed,
 * not built, broken), say so on stderr once: "attn-tutor: messages stay in English: …"
 * with where it was looked for or what is wrong with it. */
void cli_warn_missing_catalogue(const char *lang);

/* Path of a data file or folder shipped with attn-tutor (e.g. "lessons",
 * "models/mini.safetensors"). Looks, in order, in $ATTN_TUTOR_DATA, in
 * <bin>/../share/attn-tutor beside the executable (an install, also under DESTDIR or
 * moved), in the checkout the executable was built in (build/attn-tutor,
 * build/asan/attn-tutor), then the configured DATADIR. Returns a static buffer (valid
 * until the next call), or NULL when nothing exists there. */
const char *cli_data_path(const char *rel);

/* setlocale(LC_ALL, "") for the terminal, LC_NUMERIC kept "C" (numbers always use a
 * dot); falls back to C.UTF-8 for LC_CTYPE when the locale is missing or not UTF-8. */
void cli_setup_locale(void);

/* Folders that hold lessons (each with zh/ and en/ inside), most specific first: only
 * --lessons DIR when given; else $XDG_DATA_HOME/attn-tutor/lessons (default
 * ~/.local/share/attn-tutor/lessons: an instructor's own lessons), each
 * $XDG_DATA_DIRS entry's attn-tutor/lessons (default /usr/local/share:/usr/share),
 * then cli_data_path("lessons"). Only existing folders, each once (real paths),
 * written into dirs[0 .. max); returns how many. A lesson id found in an earlier
 * folder hides the same id in a later one. */
#define CLI_PATH_MAX 4096
size_t cli_lesson_dirs(char (*dirs)[CLI_PATH_MAX], size_t max);

/* The lessons of `lang` from every folder of cli_lesson_dirs (see
 * at_lesson_set_load_dirs: earlier folders win; m may be NULL). */
int cli_load_lessons(const char *lang, const at_model *m, at_lesson_set *out,
                     at_diag_list *diags);
/* The folders cli_load_lessons looks in, "  DIR/lang" a line, for messages. */
void cli_print_lesson_dirs(FILE *f, const char *lang);

/* Before a command reads anything, the files it will read must be what they claim
 * (a FIFO would block the reader, /dev/zero never end; see engine/file.h):
 * CLI_FILES_MODEL: --model, when given, a regular file; CLI_FILES_LESSONS_DIR:
 * --lessons, when given, a folder; CLI_FILES_LESSONS: that, and every *.yaml of the
 * lessons folders (cli_lesson_dirs, in `lang`) a regular file. Each one that is not
 * goes to stderr as one line naming it and what it is ("attn-tutor CMD: PATH: is a
 * FIFO (named pipe), not a lesson file"); then returns 2 (the exit status), else 0.
 * Nothing is read. cmd "" is the tutor. */
enum { CLI_FILES_MODEL = 1, CLI_FILES_LESSONS_DIR = 2, CLI_FILES_LESSONS = 2 | 4,
       CLI_FILES_MODEL_DIR = 8 };
/* CLI_FILES_MODEL_DIR (with CLI_FILES_MODEL): --model may also be a Hugging Face model
 * folder (one holding config.json; see engine/hf/hf.h); a folder without it is refused
 * with what a folder must hold. */
int cli_refuse_special_files(const char *cmd, const char *lang, int which);

/* The model's kind (at_model_kind: "trained", "untrained demo weights") in the
 * language of the output; a static string. */
const char *cli_model_kind(const at_model *m, qz_lang lang);

/* The mini-model's scope in words (scope.c), in the language of the output.
 * cli_scope_pronouns: the pronouns it was trained at, "it/它/他" ("" when not recorded).
 * cli_scope_trained_on: one line on what it was trained on, from the model file's
 * metadata; returns 0 when the file does not record it (buf then says so).
 * cli_scope_note: when s->reasons is set, the note that the weights are not learned
 * meaning and why; returns 1, else 0 with buf "". */
struct at_scope;
void cli_scope_pronouns(const at_model *m, char *buf, size_t cap);
int cli_scope_trained_on(const at_model *m, qz_lang lang, char *buf, size_t cap);
int cli_scope_note(const at_model *m, const struct at_scope *s, qz_lang lang, char *buf,
                   size_t cap);

void cli_print_version(void);

/* Parse a float or a double in C notation (the whole string, finite). 0 on success, else
 * one of CLI_NUM_* (all negative): not a number at all, a number beyond the type's range
 * (1e400), one too close to 0 for it (1e-400), or inf/nan written out. */
enum { CLI_NUM_NOT_A_NUMBER = -1, CLI_NUM_TOO_LARGE = -2, CLI_NUM_TOO_SMALL = -3,
       CLI_NUM_NOT_FINITE = -4 };
int cli_parse_float(const char *s, float *out);
int cli_parse_double(const char *s, double *out);
/* What is wrong with a number cli_parse_* refused, to follow "'1e400' ": e.g. "is too
 * large (out of range: a double holds at most about 1.8e308)". */
const char *cli_number_problem(int rc, int is_float);

/* Print a float with up to 7 significant digits, never NaN (JSON-safe: non-finite
 * values print as null when json is set). */
void cli_print_number(FILE *f, double x, int json);

/* A computed attention block as aligned text tables (scores, scaled scores,
 * weights, output) or as one JSON object; shared by compute and show (compute.c). */
struct at_compute_result;
void cli_print_compute_text(FILE *f, const struct at_compute_result *r);
void cli_print_compute_json(FILE *f, const struct at_compute_result *r);

#endif
