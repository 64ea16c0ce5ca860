/* Test helpers shared by the unit tests (cmocka). */
#ifndef AT_TEST_CHECK_H
#define AT_TEST_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* Compare two float tensors element-wise; prints the worst difference and fails
 * the test if it exceeds tol (NaN anywhere fails). */
void check_tensor(const float *got, const float *want, size_t n, float tol, const char *name);

#endif
