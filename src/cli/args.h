/* The command line of attn-tutor read in one place: the global flags (--lang, --lessons,
 * --model, --help, --version) are taken out wherever they stand — before the command
 * name, after it, before or after its own arguments — and the command gets only its
 * own arguments, in their order. Nothing after "--" is a global flag, nor the value of
 * one of the command's own options (practice --answer --lang: the answer is "--lang"). */
#ifndef AT_CLI_ARGS_H
#define AT_CLI_ARGS_H

#include <stddef.h>

#include "cli/cli.h"

/* One subcommand: its name, its entry point (argc/argv from its name, as cli.h says),
 * a line for --help, and its own options that take the next argument as their value
 * (NULL-terminated; NULL when none). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *const *value_options;
    int screen;   /* 1: opens the tutor's screens (ncurses draws on the real stdout) */
} cli_command;

/* Every subcommand, in the order --help lists them. */
extern const cli_command cli_commands[];
extern const size_t cli_n_commands;

enum { CLI_RUN, CLI_HELP, CLI_VERSION };

/* A command line read by cli_parse_args. */
typedef struct cli_args {
    const cli_command *command;  /* NULL: no command (the tutor) */
    int argc;                    /* the command's arguments: argv[0] is its name */
    char **argv;                 /* [argc + 1], NULL-terminated; the strings are the caller's */
    int action;                  /* CLI_RUN; CLI_HELP or CLI_VERSION: the first of --help / -h
                                    and --version given (of the command when there is one) */
    cli_globals g;               /* the global flags given (NULL where not given) */
} cli_args;

/* Read argv[0 .. argc) (argv[0] the program) into *out. Returns 0, or 2 with a message
 * on stderr: an unknown command, a global flag without its value, --lang neither zh nor
 * en; 1 when out of memory. Free with cli_args_free (also after an error). */
int cli_parse_args(int argc, char **argv, cli_args *out);
void cli_args_free(cli_args *a);

/* The global flags (--lang zh|en …) and the commands, for attn-tutor --help. */
void cli_usage(FILE *f);

#endif
