/* attn-tutor (no command), lesson ID, lab [SENTENCE], quiz: the full-screen tutor. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "ui/tutor.h"

static int run(ui_start start, const char *arg)
{
    int refused = cli_refuse_special_files(start == UI_START_HOME ? "" : start == UI_START_LAB
                                           ? "lab" : start == UI_START_QUIZ ? "quiz" : "lesson",
                                           cli_g.lang, CLI_FILES_MODEL | CLI_FILES_MODEL_DIR |
                                           CLI_FILES_LESSONS);
    if (refused)
        return refused;
    static char dirs[8][CLI_PATH_MAX];
    const char *list[8];
    char model[4096] = "";
    size_t n = cli_lesson_dirs(dirs, 8);
    for (size_t i = 0; i < n; i++)
        list[i] = dirs[i];
    const char *p = cli_data_path("models/mini.safetensors");
    if (p)
        snprintf(model, sizeof model, "%s", p);
    return ui_tutor_main(start, arg, cli_g.lang, cli_g.model_path, list, n,
                         model[0] ? model : NULL);
}

static int help(const char *cmd, const char *args, const char *what)
{
    printf("usage: attn-tutor [--lang zh|en] [--lessons DIR] [--model FILE] %s%s\n  %s\n\n"
           CLI_GLOBAL_FLAGS_HELP, cmd, args, what);
    return 0;
}

static int wants_help(int argc, char **argv)
{
    return argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
}

int cli_tutor(int argc, char **argv)
{
    if (wants_help(argc, argv))
        return help("", "", "The tutor: lessons, the attention lab and the self-test.");
    return run(UI_START_HOME, NULL);
}

int cli_lesson(int argc, char **argv)
{
    if (wants_help(argc, argv))
        return help("lesson", " ID", "Opens one lesson in the tutor (attn-tutor show ID prints it).");
    if (argc != 2) {
        fprintf(stderr, "attn-tutor lesson: give one lesson id (attn-tutor show lists them)\n");
        return 2;
    }
    return run(UI_START_LESSON, argv[1]);
}

int cli_lab(int argc, char **argv)
{
    if (wants_help(argc, argv))
        return help("lab", " [SENTENCE]",
                    "Opens the attention lab, on SENTENCE if given (attn-tutor attend works "
                    "without a terminal).");
    if (argc > 2) {
        fprintf(stderr, "attn-tutor lab: give the sentence as one argument, in quotes\n");
        return 2;
    }
    return run(UI_START_LAB, argc == 2 ? argv[1] : NULL);
}

int cli_quiz(int argc, char **argv)
{
    if (wants_help(argc, argv))
        return help("quiz", "", "Opens the self-test (attn-tutor check QID ANSWER grades one answer).");
    if (argc != 1) {
        fprintf(stderr, "attn-tutor quiz: takes no arguments\n");
        return 2;
    }
    return run(UI_START_QUIZ, NULL);
}
