/* attn-tutor: command line. Subcommands dispatch to the modules under src/. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/blas_start.h"
#include "cli/cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"softmax", cli_softmax, "a softmax worked step by step (exp, sum, divide)"},
    {"attend", cli_attend, "tokens of a sentence and the mini-model's attention weights"},
    {"lesson", cli_lesson, "open one lesson in the tutor"},
    {"lab", cli_lab, "open the attention lab (type a sentence, see its attention)"},
    {"quiz", cli_quiz, "open the self-test in the tutor"},
    {"compute", cli_compute, "attention on explicit small Q, K, V from a YAML block"},
    {"show", cli_show, "a lesson as plain text with every computed number"},
    {"lint", cli_lint, "check lesson files (FILE:LINE:COL diagnostics)"},
    {"check", cli_check, "grade one answer (q1 … q5, or LESSON:QID); exit 0/1/3, 2 malformed"},
    {"practice", cli_practice, "generated exercises with new numbers, graded by the engine"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor [--lang zh|en] [--lessons DIR] [--model FILE] "
               "[COMMAND [ARGS…]]\n\n" CLI_GLOBAL_FLAGS_HELP "\n"
               "Without a command, starts the tutor. Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`attn-tutor COMMAND --help` describes one command.\n");
}

int main(int argc, char **argv)
{
    cli_blas_start(argv);   /* may run the program again once, on a better OpenBLAS core */
    cli_setup_locale();
    /* Global flags may stand before the command. */
    int first = 1;
    while (first < argc) {
        int r = cli_take_global_flag(argc, argv, &first);
        if (r < 0)
            return 2;
        if (r == 0)
            break;
        first++;
    }
    if (!cli_g.lang)
        cli_g.lang = cli_default_lang();
    argc -= first - 1;
    argv += first - 1;
    if (argc < 2)
        return cli_tutor(argc, argv);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        cli_print_version();
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "attn-tutor: unknown command '%s' (see attn-tutor --help)\n", argv[1]);
    return 2;
}
