/* cli_parse_double and cli_parse_float: what is wrong with a refused number is told
 * apart (not a number, too large, too close to 0, inf/nan written out). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cli/cli.h"

static void test_double(void **state)
{
    (void)state;
    double x = 0;
    assert_int_equal(cli_parse_double("-0.25", &x), 0);
    assert_true(x == -0.25);
    assert_int_equal(cli_parse_double("\u22120.25", &x), 0);   /* U+2212, pasted */
    assert_true(x == -0.25);
    assert_int_equal(cli_parse_double("2.5e\u22121", &x), 0);
    assert_true(x == 0.25);
    assert_int_equal(cli_parse_double("1e308", &x), 0);
    assert_int_equal(cli_parse_double("1e400", &x), CLI_NUM_TOO_LARGE);
    assert_int_equal(cli_parse_double("-1e400", &x), CLI_NUM_TOO_LARGE);
    assert_int_equal(cli_parse_double("1e-400", &x), CLI_NUM_TOO_SMALL);
    assert_int_equal(cli_parse_double("inf", &x), CLI_NUM_NOT_FINITE);
    assert_int_equal(cli_parse_double("nan", &x), CLI_NUM_NOT_FINITE);
    assert_int_equal(cli_parse_double("0,5", &x), CLI_NUM_NOT_A_NUMBER);
    assert_int_equal(cli_parse_double("", &x), CLI_NUM_NOT_A_NUMBER);
    assert_true(x == 1e308);      /* a refused number leaves *out alone */
}

static void test_float(void **state)
{
    (void)state;
    float f = 0;
    assert_int_equal(cli_parse_float("3e38", &f), 0);
    assert_true(f == 3e38f);
    assert_int_equal(cli_parse_float("1e39", &f), CLI_NUM_TOO_LARGE);
    assert_int_equal(cli_parse_float("1e-50", &f), CLI_NUM_TOO_SMALL);
    assert_int_equal(cli_parse_float("0", &f), 0);
    assert_true(f == 0.0f);
}

static void test_messages(void **state)
{
    (void)state;
    assert_non_null(strstr(cli_number_problem(CLI_NUM_TOO_LARGE, 0), "too large (out of range"));
    assert_non_null(strstr(cli_number_problem(CLI_NUM_TOO_LARGE, 1), "3.4e38"));
    assert_non_null(strstr(cli_number_problem(CLI_NUM_NOT_A_NUMBER, 0), "not a number"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_float),
        cmocka_unit_test(test_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
