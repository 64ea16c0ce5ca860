#include "check.h"

#include "quiz/bind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

at_lesson *check_lesson(const char *name, const char *yaml)
{
    at_lesson *l = NULL;
    at_diag_list d = {0};
    if (at_lesson_load_data(name, yaml, strlen(yaml), &l, &d) || !l) {
        at_diag_print(&d, stderr);
        fail();
    }
    at_diag_list_free(&d);
    return l;
}

qz_verdict check_grade(const at_lesson *l, int with_lesson, const char *qid, const char *answer,
                       qz_lang lang, qz_result *r)
{
    const at_question *q = at_lesson_find_question(l, qid, NULL);
    if (!q)
        fail_msg("no question %s", qid);
    qz_bound b;
    at_error err;
    if (with_lesson ? qz_bind_lesson_question(l, q, &b, &err) : qz_bind_question(q, &b, &err))
        fail_msg("%s: %s", qid, err.msg);
    if (qz_grade(&b.q, answer, lang, r, &err))
        fail_msg("grading '%s': %s", answer, err.msg);
    qz_bound_free(&b);
    return r->verdict;
}

int check_has_diag(const at_diag_list *d, at_diag_level level, const char *text)
{
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].level == level && strstr(d->items[i].msg, text))
            return 1;
    return 0;
}

void check_tensor(const float *got, const float *want, size_t n, float tol, const char *name)
{
    double worst = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - (double)want[i]);
        if (isnan(got[i]) || isnan(want[i]))
            d = INFINITY;
        if (d > worst) {
            worst = d;
            at = i;
        }
    }
    if (worst > tol) {
        print_error("%s: worst |diff| %g at [%zu] (got %g, want %g), tolerance %g\n", name, worst,
                    at, (double)got[at], (double)want[at], (double)tol);
        fail();
    }
}

unsigned long long check_next(unsigned long long *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

size_t check_random_join(char *buf, size_t size, const char *const *pieces, size_t n_pieces, int max_n,
                         unsigned long long *x)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0, n = (int)(check_next(x) % (unsigned)max_n); k < n; k++) {
        const char *p = pieces[check_next(x) % n_pieces];
        size_t l = strlen(p);
        if (len + l < size) {
            memcpy(buf + len, p, l + 1);
            len += l;
        }
    }
    return len;
}
