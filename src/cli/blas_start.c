/* Start-up: the best OpenBLAS core for this CPU, proved by a self-check (see
 * blas_start.h). */
#include "cli/blas_start.h"

#include "engine/attention.h"
#include "engine/blas_core.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* What the start-up found, for --version. Process state, set once before work. */
static struct {
    cli_core_origin origin;
    at_isa cpu;                 /* this CPU's level */
    char core[32];              /* the core in use (OpenBLAS's own name for it) */
    char user[64];              /* the user's OPENBLAS_CORETYPE */
    char openblas_pick[32];     /* what OpenBLAS picked when left alone, if known */
    char failed_core[32];       /* fallback: the core that failed its self-check */
    char failed_why[400];       /* fallback: how it failed */
    char exec_error[160];       /* a run again that could not be made */
    int checked;                /* the self-check passed */
    char check_error[512];      /* else how it failed */
    char report[2200];
} st;

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* The value of the first KEY=VALUE in ATTN_TUTOR_BLAS_TEST (comma-separated) that is
 * `value` (compared without case), or any KEY's value when `value` is NULL; copied into
 * buf. NULL when there is none. */
static const char *test_hook(const char *key, const char *value, char *buf, size_t cap)
{
    const char *all = getenv("ATTN_TUTOR_BLAS_TEST");
    size_t len = strlen(key);
    for (const char *p = all; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n > len && !strncmp(p, key, len) && p[len] == '=') {
            snprintf(buf, cap, "%.*s", (int)(n - len - 1), p + len + 1);
            if (!value || !strcasecmp(buf, value))
                return buf;
        }
        p += n + (p[n] == ',');
    }
    return NULL;
}

/* Runs this program again with OPENBLAS_CORETYPE=core and the marker; returns only
 * when that could not be done (the reason in st.exec_error). */
static void run_again(char **argv, const char *core, const char *marker)
{
    /* The executable's path rather than /proc/self/exe itself: under valgrind that
     * link is valgrind's own binary, while readlink gives the program's. */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && setenv("OPENBLAS_CORETYPE", core, 1) == 0 &&
        setenv(CLI_BLAS_MARKER, marker, 1) == 0) {
        exe[n] = '\0';
        fflush(NULL);
        execv(exe, argv);
    }
    snprintf(st.exec_error, sizeof st.exec_error, "could not run again with %s: %s", core,
             strerror(errno));
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(CLI_BLAS_MARKER);
}

/* If this is the run again that an earlier start-up asked for, takes its marker:
 * returns 1 with st filled in. The variables are removed either way. */
static int take_marker(const char *user)
{
    const char *m = getenv(CLI_BLAS_MARKER);
    int ours = 0;
    char kind[16], core[32];
    int used = 0;
    if (m && user && sscanf(m, "%15s %31s %n", kind, core, &used) == 2) {
        if (!strcmp(kind, "chosen") && !strcasecmp(user, core)) {
            st.origin = CLI_CORE_CHOSEN;
            copy(st.openblas_pick, sizeof st.openblas_pick, m + used);
            ours = 1;
        } else if (!strcmp(kind, "fallback") && !strcasecmp(user, AT_BLAS_SAFE_CORE)) {
            st.origin = CLI_CORE_FALLBACK;
            copy(st.failed_core, sizeof st.failed_core, core);
            copy(st.failed_why, sizeof st.failed_why, m + used);
            ours = 1;
        }
    }
    if (m)
        unsetenv(CLI_BLAS_MARKER);
    if (ours)
        unsetenv("OPENBLAS_CORETYPE");   /* programs this one starts choose for themselves */
    return ours;
}

static sigjmp_buf on_sigill;
static void sigill_handler(int sig)
{
    siglongjmp(on_sigill, sig);
}

/* The self-check, with an illegal instruction caught as a failure unless the user
 * chose the core (then it ends the program as it would without the check). */
static int self_check(const char *wrong_core)
{
    at_error err;
    at_error_clear(&err);
    struct sigaction sa = {.sa_handler = sigill_handler}, old;
    int guard = st.origin != CLI_CORE_USER;
    int rc;
    sigemptyset(&sa.sa_mask);
    if (guard && sigaction(SIGILL, &sa, &old) != 0)
        guard = 0;
    if (guard && sigsetjmp(on_sigill, 1) != 0) {
        rc = at_error_set(&err, AT_EINVAL, "core %s ran an instruction this CPU does not have",
                          at_blas_core_name());
    } else {
        rc = at_blas_selfcheck(wrong_core, &err);
    }
    if (guard)
        sigaction(SIGILL, &old, NULL);
    st.checked = rc == AT_OK;
    copy(st.check_error, sizeof st.check_error, rc == AT_OK ? "" : err.msg);
    return rc;
}

void cli_blas_start(char **argv)
{
    char hook_pick[32], hook_wrong[32];
    const char *user = getenv("OPENBLAS_CORETYPE");
    const char *pick = test_hook("openblas-picks", NULL, hook_pick, sizeof hook_pick);
    st.cpu = at_cpu_isa();
    if (!take_marker(user)) {
        if (user && *user) {
            st.origin = CLI_CORE_USER;
            copy(st.user, sizeof st.user, user);
        } else {
            st.origin = CLI_CORE_OPENBLAS;
            copy(st.openblas_pick, sizeof st.openblas_pick, pick ? pick : at_blas_core_name());
            const char *want = at_blas_core_for_isa(st.cpu);
            if (want && at_blas_core_isa(st.openblas_pick) < at_blas_core_isa(want)) {
                char marker[128];
                snprintf(marker, sizeof marker, "chosen %s %s", want, st.openblas_pick);
                run_again(argv, want, marker);   /* returns only if it failed */
            }
        }
    }
    copy(st.core, sizeof st.core, at_blas_core_name());
    /* OpenBLAS started its worker threads as it loaded; left alone they spin for some
     * 0.1 s, a core's worth, while the program starts (the products that need them
     * start them again) */
    int checked = self_check(test_hook("wrong-core", st.core, hook_wrong, sizeof hook_wrong));
    at_blas_rest_workers();
    if (checked == AT_OK)
        return;
    if ((st.origin == CLI_CORE_OPENBLAS || st.origin == CLI_CORE_CHOSEN) &&
        strcasecmp(st.core, AT_BLAS_SAFE_CORE) != 0) {
        char marker[700];
        snprintf(marker, sizeof marker, "fallback %s %s", st.core, st.check_error);
        fprintf(stderr, "attn-tutor: OpenBLAS core %s failed its self-check (%s); running "
                        "on the safe core " AT_BLAS_SAFE_CORE "\n", st.core, st.check_error);
        run_again(argv, AT_BLAS_SAFE_CORE, marker);
    }
    fprintf(stderr, "attn-tutor: warning: OpenBLAS core %s failed its self-check (%s)%s\n",
            st.core, st.check_error,
            st.origin == CLI_CORE_USER ? "; it was set by OPENBLAS_CORETYPE: unset it, or set "
                                         "it to " AT_BLAS_SAFE_CORE : "");
}

cli_core_origin cli_blas_core_origin(void)
{
    return st.origin;
}

int cli_blas_core_checked(void)
{
    return st.checked;
}

const char *cli_blas_core_report(void)
{
    char why[1000];
    const char *want = at_blas_core_for_isa(st.cpu);
    switch (st.origin) {
    case CLI_CORE_CHOSEN:
        snprintf(why, sizeof why, "chosen by CPU features (%s; OpenBLAS alone picked %s)",
                 at_isa_name(st.cpu), st.openblas_pick);
        break;
    case CLI_CORE_USER:
        if (strcasecmp(st.user, st.core) != 0)
            snprintf(why, sizeof why, "OPENBLAS_CORETYPE=%s is set by the user, but this "
                     "OpenBLAS has no such core and picked its own", st.user);
        else if (want && at_blas_core_isa(st.core) < at_blas_core_isa(want))
            snprintf(why, sizeof why, "set by the user (OPENBLAS_CORETYPE=%s); this CPU "
                     "has %s and could run %s", st.user, at_isa_name(st.cpu), want);
        else
            snprintf(why, sizeof why, "set by the user (OPENBLAS_CORETYPE=%s)", st.user);
        break;
    case CLI_CORE_FALLBACK:
        snprintf(why, sizeof why, "fallback after a failed self-check of %s (%s)",
                 st.failed_core, st.failed_why);
        break;
    default:
        if (st.exec_error[0])
            snprintf(why, sizeof why, "OpenBLAS's own choice (%s)", st.exec_error);
        else if (want)
            snprintf(why, sizeof why, "OpenBLAS's own choice, the best for this CPU's %s",
                     at_isa_name(st.cpu));
        else
            snprintf(why, sizeof why, "OpenBLAS's own choice (this CPU has %s: no better "
                     "core to ask for)", at_isa_name(st.cpu));
    }
    snprintf(st.report, sizeof st.report, "OpenBLAS core %s: %s; self-check %s%s%s%s", st.core,
             why, st.checked ? "passed" : "FAILED: ", st.checked ? "" : st.check_error,
             st.exec_error[0] && st.origin != CLI_CORE_OPENBLAS ? "; " : "",
             st.origin != CLI_CORE_OPENBLAS ? st.exec_error : "");
    return st.report;
}
