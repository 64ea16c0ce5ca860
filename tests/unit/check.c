#include "check.h"

#include <math.h>
#include <stdio.h>

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
