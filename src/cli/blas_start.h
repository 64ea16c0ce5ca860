/* Start-up of a program that uses the engine: makes OpenBLAS run the best core this
 * CPU supports, and checks that core's results (src/engine/blas_core.h).
 *
 * OpenBLAS reads OPENBLAS_CORETYPE only while it loads, before main. So when the
 * user has not set it and the core OpenBLAS picked for itself is below what the CPU's
 * features allow, the program runs itself again at once (execv of its own executable,
 * as /proc/self/exe names it, with the same arguments and process id) with OPENBLAS_CORETYPE set and a marker variable
 * that says so; the second run sees the marker, never runs itself again, and removes
 * both variables from its environment, so programs it starts choose for themselves.
 * The user's own OPENBLAS_CORETYPE always wins and is never changed.
 *
 * Then a self-check (at_blas_selfcheck) proves the core in use. A wrong result (or an
 * illegal instruction) on a core the program or OpenBLAS chose runs the program once
 * more on the safe core, Prescott, and says so on stderr and in --version; on a core
 * the user set, it is reported and the core kept.
 *
 * For tests only, ATTN_TUTOR_BLAS_TEST may hold, separated by commas,
 *   openblas-picks=CORE  decide as if OpenBLAS had picked CORE for itself
 *                        (as OpenBLAS 0.3.21 picks Prescott on CPUs it does not know)
 *   wrong-core=CORE      the self-check reports a wrong product when CORE runs
 *                        (may be given more than once) */
#ifndef AT_CLI_BLAS_START_H
#define AT_CLI_BLAS_START_H

/* The marker variable of the second run: "chosen CORE OPENBLAS_PICK" or
 * "fallback CORE MESSAGE" (CORE: the core that was asked for, or that failed). */
#define CLI_BLAS_MARKER "ATTN_TUTOR_BLAS_CORE"

/* Where the core in use came from. */
typedef enum cli_core_origin {
    CLI_CORE_OPENBLAS,   /* OpenBLAS's own pick, kept: as good as the CPU allows */
    CLI_CORE_CHOSEN,     /* chosen by the CPU's features (the program ran itself again) */
    CLI_CORE_USER,       /* OPENBLAS_CORETYPE set by the user */
    CLI_CORE_FALLBACK,   /* the safe core, after a failed self-check */
} cli_core_origin;

/* Call first in main, with main's argv, before anything is printed or started. May
 * replace the process with a new run of the same program (see above); otherwise
 * returns, with the outcome kept for cli_blas_core_report. Never exits. */
void cli_blas_start(char **argv);

/* Where the core in use came from (after cli_blas_start). */
cli_core_origin cli_blas_core_origin(void);

/* 1 if the self-check of the core in use passed (after cli_blas_start). */
int cli_blas_core_checked(void);

/* One line for --version and benchmark reports, e.g.
 * "OpenBLAS core SkylakeX: chosen by CPU features (AVX-512 (F, BW, VL, DQ); OpenBLAS
 * alone picked Prescott); self-check passed". Static buffer. */
const char *cli_blas_core_report(void);

#endif
