/* attn-tutor: command line. Subcommands dispatch to the modules under src/; the
 * command line is read in one place (cli/args.c), global flags wherever they stand. */
#include <stdio.h>

#include "cli/args.h"
#include "cli/blas_start.h"
#include "cli/cli.h"
#include "cli/output.h"

int main(int argc, char **argv)
{
    cli_blas_start(argv);   /* may run the program again once, on a better OpenBLAS core */
    cli_setup_locale();
    /* Nothing a command prints reaches the terminal unfiltered (arguments, lessons,
     * answers, file names may hold escape sequences): stderr from the start, stdout
     * unless the tutor's screens draw on it. */
    cli_guard_stderr();
    cli_args a;
    int rc = cli_parse_args(argc, argv, &a);
    if (rc) {
        cli_args_free(&a);
        return rc;
    }
    if (a.action != CLI_RUN || (a.command && !a.command->screen))
        cli_guard_stdout();
    cli_g = a.g;
    cli_g.lang_asked = cli_g.lang != NULL;
    if (!cli_g.lang)
        cli_g.lang = cli_default_lang();
    cli_warn_missing_catalogue(cli_g.lang);
    if (a.action == CLI_VERSION) {
        cli_print_version();
        rc = 0;
    } else if (a.action == CLI_HELP && !a.command) {
        cli_usage(stdout);
        rc = 0;
    } else if (a.action == CLI_HELP) {
        char *help_argv[] = {a.argv[0], "--help", NULL};
        rc = a.command->run(2, help_argv);
    } else if (!a.command) {
        rc = cli_tutor(1, argv);
    } else {
        rc = a.command->run(a.argc, a.argv);
    }
    cli_args_free(&a);
    return rc;
}
