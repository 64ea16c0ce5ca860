/* The command line read in one place (args.h): the commands and the global flags. */
#include "cli/args.h"

#include <stdlib.h>
#include <string.h>

static const char *const attend_values[] = {"--layer", "--head", "--mask", "--format", NULL};
static const char *const check_values[] = {"--format", "--self", NULL};
static const char *const compute_values[] = {"--format", NULL};
static const char *const practice_values[] = {"--answer", "--seed", "--kind", "--count",
                                              "--format", NULL};
static const char *const softmax_values[] = {"--scale", "--format", NULL};
static const char *const tokenize_values[] = {"--format", NULL};

const cli_command cli_commands[] = {
    {"softmax", cli_softmax, "a softmax worked step by step (exp, sum, divide)", softmax_values, 0},
    {"attend", cli_attend, "tokens of a sentence and the mini-model's attention weights",
     attend_values, 0},
    {"lesson", cli_lesson, "open one lesson in the tutor", NULL, 1},
    {"lab", cli_lab, "open the attention lab (type a sentence, see its attention)", NULL, 1},
    {"quiz", cli_quiz, "open the self-test in the tutor", NULL, 1},
    {"compute", cli_compute, "attention on explicit small Q, K, V from a YAML block",
     compute_values, 0},
    {"show", cli_show, "a lesson as plain text with every computed number", NULL, 0},
    {"lint", cli_lint, "check lesson files (FILE:LINE:COL diagnostics)", NULL, 0},
    {"check", cli_check, "grade one answer (q1 … q5, q2b, or LESSON:QID); exit 0/1/3, 2 malformed",
     check_values, 0},
    {"practice", cli_practice, "generated exercises with new numbers, graded by the engine",
     practice_values, 0},
    {"tokenize", cli_tokenize, "a model folder's own tokens of a sentence (ids, pieces, spans)",
     tokenize_values, 0},
};
const size_t cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

void cli_usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor [--lang zh|en] [--lessons DIR] [--model FILE] "
               "[COMMAND [ARGS…]]\n\n" CLI_GLOBAL_FLAGS_HELP "\n"
               "Without a command, starts the tutor. Commands:\n");
    for (size_t i = 0; i < cli_n_commands; i++)
        fprintf(f, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
    fprintf(f, "\n`attn-tutor COMMAND --help` describes one command.\n");
}

/* If argv[*i] is --lang X, --lessons DIR, --model FILE (or --flag=value), store it in
 * *g, move *i onto its value and return 1; -1 with a message if the value is missing
 * or bad; else 0. */
static int take_global(int argc, char **argv, int *i, cli_globals *g)
{
    static const char *const names[] = {"--lang", "--lessons", "--model"};
    const char **slots[] = {&g->lang, &g->lessons_dir, &g->model_path};
    const char *a = argv[*i];
    for (size_t k = 0; k < 3; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(a, names[k], len) != 0 || (a[len] != '\0' && a[len] != '='))
            continue;
        const char *val = a[len] == '=' ? a + len + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!val || !*val) {
            fprintf(stderr, "attn-tutor: %s needs a value\n", names[k]);
            return -1;
        }
        if (k == 0 && strcmp(val, "zh") && strcmp(val, "en")) {
            fprintf(stderr, "attn-tutor: --lang is zh or en, not '%s'\n", val);
            return -1;
        }
        *slots[k] = val;
        return 1;
    }
    return 0;
}

static int takes_value(const cli_command *c, const char *a)
{
    for (const char *const *v = c->value_options; v && *v; v++)
        if (!strcmp(a, *v))
            return 1;
    return 0;
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < cli_n_commands; i++)
        if (!strcmp(name, cli_commands[i].name))
            return &cli_commands[i];
    return NULL;
}

int cli_parse_args(int argc, char **argv, cli_args *out)
{
    *out = (cli_args){.action = CLI_RUN};
    if (!(out->argv = calloc((size_t)(argc > 0 ? argc : 1) + 1, sizeof *out->argv)))
        return 1;
    int only_args = 0;   /* after "--": every word is the command's */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args) {
            int g = take_global(argc, argv, &i, &out->g);
            if (g < 0)
                return 2;
            if (g > 0)
                continue;
            int meta = !strcmp(a, "--help") || !strcmp(a, "-h") ? CLI_HELP
                       : !strcmp(a, "--version")                ? CLI_VERSION
                                                                : CLI_RUN;
            if (meta != CLI_RUN) {
                if (out->action == CLI_RUN)
                    out->action = meta;
                continue;
            }
        }
        if (!out->command) {   /* the first other word names the command */
            if (!(out->command = find_command(a))) {
                fprintf(stderr, "attn-tutor: unknown command '%s' (see attn-tutor --help)\n", a);
                return 2;
            }
            out->argv[out->argc++] = argv[i];
            continue;
        }
        if (!only_args && !strcmp(a, "--"))
            only_args = 1;   /* kept: the command reads it too */
        else if (!only_args && takes_value(out->command, a) && i + 1 < argc)
            out->argv[out->argc++] = argv[i++];   /* the value follows, whatever it is */
        out->argv[out->argc++] = argv[i];
    }
    return 0;
}

void cli_args_free(cli_args *a)
{
    free(a->argv);
    a->argv = NULL;
    a->argc = 0;
}
