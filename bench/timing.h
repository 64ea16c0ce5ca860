/* Timing helpers shared by the benchmarks (not tests). */
#ifndef AT_BENCH_TIMING_H
#define AT_BENCH_TIMING_H

#include <math.h>
#include <stdio.h>
#include <time.h>

/* A timed operation: run(ctx) once per call. */
typedef struct timed {
    void (*run)(void *ctx);
    void *ctx;
} timed;

/* s as a JSON string body on stdout (quotes and backslashes escaped, control bytes
 * dropped): the benchmarks' reports name the CPU and the OpenBLAS core in JSON. */
static inline void bench_json_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* CPU seconds of the whole process (every thread) so far. */
static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds per call of each of k ≤ 8 operations, measured interleaved: first one call of
 * each (it warms caches and buffers; its time sizes the samples), then `samples` times
 * in turn, the order rotating, each time enough calls to last about `window` seconds
 * (at least one); the fastest sample of each goes to best[] (wall-clock time) and, if
 * not NULL, best_cpu[] (CPU time of the process: not counting the time the process
 * waited for a core, which on a machine shared with other work can be most of a long
 * call). A burst of other load then hits all of them alike, and the fastest sample is
 * the one least disturbed. */
static inline void time_interleaved(const timed *ops, int k, int samples, double window,
                                    double *best, double *best_cpu)
{
    long reps[8];
    for (int o = 0; o < k; o++) {
        double t0 = bench_now(), c0 = bench_cpu();
        ops[o].run(ops[o].ctx);
        double one = bench_now() - t0;
        reps[o] = one >= window ? 1 : (long)(window / (one > 1e-9 ? one : 1e-9)) + 1;
        best[o] = one;   /* a sample of one call too */
        if (best_cpu)
            best_cpu[o] = bench_cpu() - c0;
    }
    for (int s = 0; s < samples; s++)
        for (int i = 0; i < k; i++) {
            const int o = (i + s) % k;
            double t0 = bench_now(), c0 = bench_cpu();
            for (long r = 0; r < reps[o]; r++)
                ops[o].run(ops[o].ctx);
            double per = (bench_now() - t0) / (double)reps[o];
            double cpu = (bench_cpu() - c0) / (double)reps[o];
            best[o] = per < best[o] ? per : best[o];
            if (best_cpu)
                best_cpu[o] = cpu < best_cpu[o] ? cpu : best_cpu[o];
        }
}

#endif
