/* cli_parse_args: every global flag (--lang, --lessons, --model, --help, --version), in
 * each of its forms, before the command name, after it, between and after the
 * command's own arguments, gives the same command, the same arguments and the same
 * flags — for every command of the binary and for the tutor (no command). Values of
 * a command's own options and everything after "--" are never global flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli/args.h"

/* A command with arguments that are typical of it (options and their values too). */
static const struct {
    const char *name;
    const char *args[6];
} samples[] = {
    {"softmax", {"--scale", "0.5", "1", "-2", "3"}},
    {"attend", {"--layer", "1", "--head", "all", "The", "cat"}},
    {"lesson", {"why-attention"}},
    {"lab", {"The animal didn't cross the road"}},
    {"quiz", {0}},
    {"compute", {"--format", "json", "block.yaml"}},
    {"show", {"why-attention"}},
    {"lint", {"lessons/en", "extra.yaml"}},
    {"check", {"q3", "0.14 0.17", "--format", "json"}},
    {"practice", {"--seed", "7", "--kind", "softmax", "--answer", "-0.5"}},
    {"tokenize", {"--format", "json", "The cat"}},
};

/* A global flag in one of its forms, and what it sets. */
static const struct {
    const char *words[2];
    int action;
    const char *lang, *lessons, *model;
} flags[] = {
    {{"--lang", "zh"}, CLI_RUN, "zh", NULL, NULL},
    {{"--lang=en"}, CLI_RUN, "en", NULL, NULL},
    {{"--lessons", "/tmp/my lessons"}, CLI_RUN, NULL, "/tmp/my lessons", NULL},
    {{"--lessons=dir"}, CLI_RUN, NULL, "dir", NULL},
    {{"--model", "m.safetensors"}, CLI_RUN, NULL, NULL, "m.safetensors"},
    {{"--model=x/m.safetensors"}, CLI_RUN, NULL, NULL, "x/m.safetensors"},
    {{"--help"}, CLI_HELP, NULL, NULL, NULL},
    {{"-h"}, CLI_HELP, NULL, NULL, NULL},
    {{"--version"}, CLI_VERSION, NULL, NULL, NULL},
};

static void expect_str(const char *want, const char *got, const char *what)
{
    if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
        fail_msg("%s: expected %s, got %s", what, want ? want : "(none)", got ? got : "(none)");
}

/* argv = program, the command's words with the flag's words inserted at position pos
 * (0: before the command name, 1: right after it, …, n + 1: at the end). */
static int build(char **argv, const char *cmd, const char *const *args, size_t n_args,
                 const char *const *flag, size_t pos)
{
    const char *words[16];
    size_t n = 0;
    if (cmd)
        words[n++] = cmd;
    for (size_t i = 0; i < n_args; i++)
        words[n++] = args[i];
    int argc = 0;
    argv[argc++] = "attn-tutor";
    for (size_t i = 0; i <= n; i++) {
        if (i == pos)
            for (size_t k = 0; k < 2 && flag[k]; k++)
                argv[argc++] = (char *)flag[k];
        if (i < n)
            argv[argc++] = (char *)words[i];
    }
    argv[argc] = NULL;
    return argc;
}

static size_t count_args(const char *const *args)
{
    size_t n = 0;
    while (n < 6 && args[n])
        n++;
    return n;
}

static void check_one(const char *cmd, const char *const *args, size_t n_args, size_t f,
                      size_t pos)
{
    char *argv[20];
    char where[300];
    int argc = build(argv, cmd, args, n_args, flags[f].words, pos);
    snprintf(where, sizeof where, "%s %s%s%s at position %zu", cmd ? cmd : "(tutor)",
             flags[f].words[0], flags[f].words[1] ? " " : "",
             flags[f].words[1] ? flags[f].words[1] : "", pos);
    cli_args a;
    int rc = cli_parse_args(argc, argv, &a);
    if (rc)
        fail_msg("%s: cli_parse_args returned %d", where, rc);
    if (cmd) {
        if (!a.command)
            fail_msg("%s: no command", where);
        expect_str(cmd, a.command->name, where);
        if (a.argc != (int)n_args + 1)
            fail_msg("%s: %d arguments, expected %zu", where, a.argc - 1, n_args);
        expect_str(cmd, a.argv[0], where);
        for (size_t i = 0; i < n_args; i++)
            expect_str(args[i], a.argv[i + 1], where);
        assert_null(a.argv[a.argc]);
    } else if (a.command || a.argc != 0) {
        fail_msg("%s: a command where none was given", where);
    }
    if (a.action != flags[f].action)
        fail_msg("%s: action %d, expected %d", where, a.action, flags[f].action);
    expect_str(flags[f].lang, a.g.lang, where);
    expect_str(flags[f].lessons, a.g.lessons_dir, where);
    expect_str(flags[f].model, a.g.model_path, where);
    cli_args_free(&a);
}

/* Every command in the binary has a sample here (a new command needs one). */
static void test_every_command_sampled(void **state)
{
    for (size_t c = 0; c < cli_n_commands; c++) {
        int found = 0;
        for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++)
            found |= !strcmp(samples[s].name, cli_commands[c].name);
        if (!found)
            fail_msg("command %s has no sample in test_cli_args.c", cli_commands[c].name);
    }
    assert_int_equal(cli_n_commands, sizeof samples / sizeof samples[0]);
}

/* Each command × each flag × each position: the same command, arguments and flags.
 * A position inside an option's value pair (--layer ¦ 1) is skipped: there the flag's
 * word would be that option's value. */
static void test_flags_anywhere(void **state)
{
    size_t runs = 0;
    for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        const char *const *args = samples[s].args;
        size_t n = count_args(args);
        const cli_command *cmd = NULL;
        for (size_t c = 0; c < cli_n_commands; c++)
            if (!strcmp(cli_commands[c].name, samples[s].name))
                cmd = &cli_commands[c];
        assert_non_null(cmd);
        for (size_t pos = 0; pos <= n + 1; pos++) {
            /* pos - 2 is the word before the insertion point (pos 0, 1: none) */
            int inside = 0;
            if (pos >= 2)
                for (const char *const *v = cmd->value_options; v && *v; v++)
                    inside |= !strcmp(args[pos - 2], *v);
            if (inside)
                continue;
            for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++, runs++)
                check_one(samples[s].name, args, n, f, pos);
        }
    }
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++, runs++)
        check_one(NULL, NULL, 0, f, 0);   /* the tutor: the flag alone */
    assert_int_equal(runs, 45 * 9 + 9);   /* 45 positions of the samples × 9 flags, + the tutor */
}

/* Several flags at once, scattered: all taken, the arguments untouched. */
static void test_flags_scattered(void **state)
{
    char *argv[] = {"attn-tutor", "--model", "m", "lab", "--lessons=L", "a sentence",
                    "--lang", "zh", NULL};
    cli_args a;
    assert_int_equal(cli_parse_args(8, argv, &a), 0);
    assert_string_equal(a.command->name, "lab");
    assert_int_equal(a.argc, 2);
    assert_string_equal(a.argv[1], "a sentence");
    assert_string_equal(a.g.lang, "zh");
    assert_string_equal(a.g.lessons_dir, "L");
    assert_string_equal(a.g.model_path, "m");
    assert_int_equal(a.action, CLI_RUN);
    cli_args_free(&a);
}

/* A value of the command's own option, and anything after "--", stays the command's. */
static void test_values_and_double_dash(void **state)
{
    char *p[] = {"attn-tutor", "practice", "--answer", "--lang", "--seed", "--help", NULL};
    cli_args a;
    assert_int_equal(cli_parse_args(6, p, &a), 0);
    assert_int_equal(a.argc, 5);
    assert_string_equal(a.argv[2], "--lang");
    assert_string_equal(a.argv[4], "--help");
    assert_null(a.g.lang);
    assert_int_equal(a.action, CLI_RUN);
    cli_args_free(&a);

    char *d[] = {"attn-tutor", "attend", "--lang", "en", "--", "--lang", "zh", "--help", NULL};
    assert_int_equal(cli_parse_args(8, d, &a), 0);
    assert_string_equal(a.g.lang, "en");
    assert_int_equal(a.argc, 5);
    assert_string_equal(a.argv[1], "--");
    assert_string_equal(a.argv[2], "--lang");
    assert_string_equal(a.argv[3], "zh");
    assert_string_equal(a.argv[4], "--help");
    assert_int_equal(a.action, CLI_RUN);
    cli_args_free(&a);

    /* a negative number is an argument, not a flag */
    char *s[] = {"attn-tutor", "softmax", "-1", "-2.5", NULL};
    assert_int_equal(cli_parse_args(4, s, &a), 0);
    assert_int_equal(a.argc, 3);
    assert_string_equal(a.argv[1], "-1");
    cli_args_free(&a);
}

/* --help before the command name is the command's help; the first of --help and
 * --version wins. */
static void test_help_and_version(void **state)
{
    char *h[] = {"attn-tutor", "--help", "check", NULL};
    cli_args a;
    assert_int_equal(cli_parse_args(3, h, &a), 0);
    assert_int_equal(a.action, CLI_HELP);
    assert_string_equal(a.command->name, "check");
    cli_args_free(&a);
    char *v[] = {"attn-tutor", "show", "--version", "--help", NULL};
    assert_int_equal(cli_parse_args(4, v, &a), 0);
    assert_int_equal(a.action, CLI_VERSION);
    cli_args_free(&a);
}

/* Bad flags and unknown commands: status 2, wherever they stand. */
static void test_errors(void **state)
{
    cli_args a;
    char *bad_lang[] = {"attn-tutor", "lab", "x", "--lang", "fr", NULL};
    assert_int_equal(cli_parse_args(5, bad_lang, &a), 2);
    cli_args_free(&a);
    char *no_value[] = {"attn-tutor", "show", "why-attention", "--model", NULL};
    assert_int_equal(cli_parse_args(4, no_value, &a), 2);
    cli_args_free(&a);
    char *empty[] = {"attn-tutor", "--lessons=", "show", NULL};
    assert_int_equal(cli_parse_args(3, empty, &a), 2);
    cli_args_free(&a);
    char *unknown[] = {"attn-tutor", "--lang", "en", "nosuch", NULL};
    assert_int_equal(cli_parse_args(4, unknown, &a), 2);
    cli_args_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_sampled),
        cmocka_unit_test(test_flags_anywhere),
        cmocka_unit_test(test_flags_scattered),
        cmocka_unit_test(test_values_and_double_dash),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
