/* Test helpers shared by the unit tests (cmocka). */
#ifndef AT_TEST_CHECK_H
#define AT_TEST_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lesson/lesson.h"
#include "quiz/quiz.h"

/* Compare two float tensors element-wise; prints the worst difference and fails
 * the test if it exceeds tol (NaN anywhere fails). */
void check_tensor(const float *got, const float *want, size_t n, float tol, const char *name);

/* A lesson read from yaml (name: its file name in diagnostics); fails the test, the
 * diagnostics printed, unless it loads. Free with at_lesson_free. */
at_lesson *check_lesson(const char *name, const char *yaml);

/* Grade answer to question qid of l in lang: bound with its lesson (its misconceptions,
 * a formula's follow_up: as check and the tutor bind it) when with_lesson, else alone.
 * Fails the test on an error; r is filled in (free with qz_result_free). */
qz_verdict check_grade(const at_lesson *l, int with_lesson, const char *qid, const char *answer,
                       qz_lang lang, qz_result *r);

/* Does d hold a diagnostic of this level whose message holds text? */
int check_has_diag(const at_diag_list *d, at_diag_level level, const char *text);

/* The next number of a xorshift64 sequence in *x (a fixed seed: the same every run). */
unsigned long long check_next(unsigned long long *x);

/* A random answer for the never-crash tests: n pieces, n drawn from *x below max_n, each
 * drawn from pieces (n_pieces of them), joined into buf (size bytes, always terminated; a
 * piece that does not fit is left out). Returns the length written. */
size_t check_random_join(char *buf, size_t size, const char *const *pieces, size_t n_pieces, int max_n,
                         unsigned long long *x);

#endif
