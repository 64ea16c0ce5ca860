/* cli_lesson_dirs: --lessons alone when given; else the instructor's folder under
 * XDG_DATA_HOME, then XDG_DATA_DIRS entries, then the shipped lessons; only existing
 * folders, each once. cli_data_path honours ATTN_TUTOR_DATA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static char tmp[256];

static void mk(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, rel);
    char *s = p + strlen(tmp) + 1;
    for (char *q = s; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(p, 0700);
            *q = '/';
        }
    assert_int_equal(mkdir(p, 0700), 0);
}

static const char *real(const char *rel)
{
    static char buf[PATH_MAX], p[512];
    snprintf(p, sizeof p, "%s/%s", tmp, rel);
    assert_non_null(realpath(p, buf));
    return buf;
}

static void test_lesson_dirs_order(void **state)
{
    char dirs[6][CLI_PATH_MAX], env[1024];
    snprintf(tmp, sizeof tmp, "%s/at-paths-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(tmp));
    mk("home/attn-tutor/lessons");
    mk("sys1/attn-tutor/lessons");
    mk("sys2");                                   /* no attn-tutor/lessons: skipped */
    snprintf(env, sizeof env, "%s/home", tmp);
    setenv("XDG_DATA_HOME", env, 1);
    snprintf(env, sizeof env, "%s/sys1:%s/sys2::%s/sys1", tmp, tmp, tmp);
    setenv("XDG_DATA_DIRS", env, 1);
    cli_g.lessons_dir = NULL;
    setenv("ATTN_TUTOR_DATA", AT_SRCDIR, 1);      /* the shipped data of this checkout */
    size_t n = cli_lesson_dirs(dirs, 6);
    assert_int_equal(n, 3);                       /* sys1 listed once */
    assert_string_equal(dirs[0], real("home/attn-tutor/lessons"));
    assert_string_equal(dirs[1], real("sys1/attn-tutor/lessons"));
    char shipped[PATH_MAX];
    assert_non_null(realpath(cli_data_path("lessons"), shipped));
    assert_string_equal(dirs[2], shipped);
    assert_int_equal(cli_lesson_dirs(dirs, 1), 1);   /* max respected */
    cli_g.lessons_dir = real("sys1/attn-tutor/lessons");
    assert_int_equal(cli_lesson_dirs(dirs, 6), 1);   /* --lessons alone */
    cli_g.lessons_dir = NULL;
    unsetenv("XDG_DATA_HOME");
    snprintf(env, sizeof env, "%s/home2", tmp);     /* ~/.local/share/attn-tutor/lessons */
    setenv("HOME", env, 1);
    mk("home2/.local/share/attn-tutor/lessons");
    assert_int_equal(cli_lesson_dirs(dirs, 6), 3);
    assert_string_equal(dirs[0], real("home2/.local/share/attn-tutor/lessons"));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

static void test_data_path_env(void **state)
{
    setenv("ATTN_TUTOR_DATA", AT_SRCDIR, 1);
    const char *p = cli_data_path("models/mini.safetensors");
    assert_non_null(p);
    assert_string_equal(p, AT_SRCDIR "/models/mini.safetensors");
    assert_null(cli_data_path("no/such/file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_dirs_order),
        cmocka_unit_test(test_data_path_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
