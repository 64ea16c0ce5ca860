/* UI latency of the attention lab (a benchmark, not a test).
 *
 * 1. Keystroke to screen update: the lab on a 40-token sentence in a 100×30
 *    terminal; each edit (type a letter, or Backspace) goes through the same path as
 *    a key from get_wch: the screen's handler (tokenise, run the model, every layer
 *    and head), then the full redraw and doupdate, which writes the escape
 *    sequences to the terminal (here /dev/null, so the time is ours, not the
 *    terminal emulator's). Median and p95 over many edits.
 * 2. Start-up to first frame: the real binary (`attn-tutor lab SENTENCE`) started on
 *    a pseudo-terminal of 100×30; time from fork until the first frame's text
 *    ("40 tokens") has been written, with a terminal that answers the start-up probe
 *    (CSI 6 n) and with one that never does. Median and p95 over several starts.
 *
 * Usage: ui_latency [EDITS] [STARTS]   (defaults 2000, 20); prints a Markdown table. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ui/crt.h"
#include "ui/i18n.h"
#include "ui/lab.h"
#include "ui/screen.h"
#include "ui/tutor.h"

/* 40 tokens: 35 words and 5 punctuation marks. */
static const char *SENTENCE =
    "The animal didn't cross the road because it was too tired, so it lay down "
    "under a tree. The farmer saw it there, and he brought water and bread for the tired "
    "animal before night came.";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *v, size_t n, double p)
{
    qsort(v, n, sizeof *v, cmp);
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

/* med/p95: wall-clock ms; cmed/cp95: CPU time of this thread (what the machine's
 * other load cannot inflate). */
static int keystrokes(const char *model, const char *lessons, size_t edits, double *med,
                      double *p95, double *cmed, double *cp95)
{
    setenv("LINES", "30", 1);
    setenv("COLUMNS", "100", 1);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    ui_tutor t;
    const char *dirs[1] = {lessons};
    if (!out || !in || ui_tutor_open(&t, "en", NULL, dirs, 1, model) < 0)
        return -1;
    ui_app app = {0};
    app.ctx = &t;
    if (crt_init_on("xterm-256color", out, in) < 0)
        return -1;
    ui_screen *s = ui_lab_new(&app, SENTENCE, NULL);
    ui_app_push(&app, s);
    ui_app_draw(&app);
    ui_app_feed(&app, (ui_key){0, 'i'});   /* focus the sentence */
    ui_app_draw(&app);
    double *v = malloc(edits * sizeof *v), *c = malloc(edits * sizeof *c);
    for (size_t e = 0; e < edits; e++) {
        ui_key k = e % 2 ? (ui_key){1, KEY_BACKSPACE} : (ui_key){0, 'x'};
        double t0 = now_ms(), c0 = cpu_ms();
        ui_app_feed(&app, k);
        ui_app_draw(&app);
        v[e] = now_ms() - t0;
        c[e] = cpu_ms() - c0;
    }
    *med = pct(v, edits, 0.5);
    *p95 = pct(v, edits, 0.95);
    *cmed = pct(c, edits, 0.5);
    *cp95 = pct(c, edits, 0.95);
    free(v);
    free(c);
    ui_app_free(&app);
    crt_done();
    ui_tutor_close(&t);
    fclose(out);
    fclose(in);
    return 0;
}

/* Fork the binary on a 100×30 pty; ms until `marker` appears in its output. With
 * `answer`, the pty side answers each cursor position request (CSI 6 n) at once, as a
 * terminal does (with the columns of a terminal that joins emoji sequences); without,
 * it never answers, as some terminals and slow links do. *cpu receives the child's
 * user + system CPU time until then (it is stopped at once). */
static double one_start(const char *bin, const char *marker, int answer, double *cpu)
{
    struct winsize ws = {30, 100, 0, 0};
    int master;
    double t0 = now_ms();
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        execl(bin, bin, "--lang", "en", "lab", SENTENCE, (char *)NULL);
        _exit(127);
    }
    char buf[65536];
    size_t have = 0;
    double t = -1;
    while (t < 0) {
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 5000) <= 0)
            break;
        ssize_t n = read(master, buf + have, sizeof buf - 1 - have);
        if (n <= 0)
            break;
        size_t from = have >= 3 ? have - 3 : 0;   /* a request split across reads */
        have += (size_t)n;
        buf[have] = '\0';
        for (char *q = buf + from; answer && (q = strstr(q, "\033[6n")); q += 4) {
            static int asked;
            const char *reply = asked++ % 2 ? "\033[1;5R" : "\033[1;3R";
            if (write(master, reply, strlen(reply)) < 0)
                break;
        }
        if (strstr(buf, marker))
            t = now_ms() - t0;
        if (have > sizeof buf - 4096)
            have = 0;
    }
    kill(pid, SIGKILL);
    close(master);
    struct rusage ru;
    wait4(pid, NULL, 0, &ru);
    *cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return t;
}

int main(int argc, char **argv)
{
    size_t edits = argc > 1 ? (size_t)atol(argv[1]) : 2000;
    size_t starts = argc > 2 ? (size_t)atol(argv[2]) : 20;
    const char *bin = "build/attn-tutor";
    double med, p95, cmed, cp95;
    if (keystrokes("models/mini.safetensors", "lessons", edits, &med, &p95, &cmed, &cp95) < 0) {
        fprintf(stderr, "ui_latency: could not set up the lab\n");
        return 1;
    }
    printf("| measure | median | p95 | target |\n|---|---|---|---|\n");
    printf("| lab keystroke → screen updated (40 tokens, 100×30, %zu edits) | %.3f ms | %.3f ms | p95 ≤ 5 ms |\n",
           edits, med, p95);
    printf("| the same, CPU time of the tutor's thread | %.3f ms | %.3f ms | |\n", cmed, cp95);
    /* [answer][start]: the two kinds of terminal alternate, start by start, so load
     * that comes and goes hits both alike */
    double *v[2], *c[2];
    size_t ok[2] = {0, 0};
    for (int a = 0; a < 2; a++)
        v[a] = malloc(starts * sizeof *v[a]), c[a] = malloc(starts * sizeof *c[a]);
    for (size_t i = 0; i < starts; i++)
        for (int a = 1; a >= 0; a--) {
            double cpu = 0, t = one_start(bin, "40 tokens", a, &cpu);
            if (t >= 0) {
                c[a][ok[a]] = cpu;
                v[a][ok[a]++] = t;
            }
        }
    for (int a = 1; a >= 0; a--) {
        const char *how = a ? "a terminal that answers the probe" : "a terminal that never answers it";
        if (ok[a]) {
            printf("| start-up → first frame (`attn-tutor lab`, 40 tokens, %s, %zu starts) "
                   "| %.1f ms | %.1f ms | ≤ 50 ms |\n", how, ok[a], pct(v[a], ok[a], 0.5),
                   pct(v[a], ok[a], 0.95));
            printf("| the same, CPU time of the process (user + system) | %.1f ms | %.1f ms | |\n",
                   pct(c[a], ok[a], 0.5), pct(c[a], ok[a], 0.95));
        } else {
            printf("| start-up → first frame, %s | failed: the frame never showed \"40 tokens\" "
                   "| | |\n", how);
        }
        free(v[a]);
        free(c[a]);
    }
    return 0;
}
