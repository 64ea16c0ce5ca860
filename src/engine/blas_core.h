/* Which OpenBLAS core (set of kernels) suits this CPU, and a check that the core in
 * use computes right.
 *
 * OpenBLAS built with DYNAMIC_ARCH (Debian's) picks its core when it is loaded, by
 * the CPU's vendor and model number; a model it does not know falls back to an old
 * core ("Prescott", SSE3: OpenBLAS 0.3.21 on Intel family 6 model 207 runs sgemm at
 * a fifth of the speed its "SkylakeX" core reaches there). OPENBLAS_CORETYPE, read
 * only while the library loads, overrides the choice. This file only judges and
 * checks; choosing before the library loads is the program's start-up
 * (src/cli/blas_start.c). No global state, no I/O. */
#ifndef AT_BLAS_CORE_H
#define AT_BLAS_CORE_H

#include <stddef.h>

#include "engine/error.h"

/* Instruction-set levels that OpenBLAS's x86-64 cores are built for, lowest first. */
typedef enum at_isa {
    AT_ISA_BASE = 0,  /* SSE2/SSE3: Prescott, Core2, Nehalem, Barcelona, … (or not x86) */
    AT_ISA_AVX,       /* AVX: Sandybridge, Bulldozer, Piledriver, Steamroller, Excavator */
    AT_ISA_AVX2,      /* AVX2 + FMA: Haswell, Zen */
    AT_ISA_AVX512,    /* AVX-512 F + BW + VL + DQ: SkylakeX, Cooperlake, SapphireRapids */
} at_isa;

/* The highest level this CPU and its operating system support, from CPUID
 * (__builtin_cpu_supports, which also checks that the OS saves the wide registers):
 * avx512f+avx512bw+avx512vl+avx512dq → AT_ISA_AVX512, avx2+fma → AT_ISA_AVX2,
 * avx → AT_ISA_AVX, else AT_ISA_BASE (always BASE off x86). */
at_isa at_cpu_isa(void);

/* A short name of the level for messages: "AVX-512 (F, BW, VL, DQ)", "AVX2 + FMA",
 * "AVX", "SSE". Static string. */
const char *at_isa_name(at_isa isa);

/* The OpenBLAS core to ask for on a CPU of level `isa`: "SkylakeX" for AVX-512,
 * "Haswell" for AVX2 + FMA; NULL below that (OpenBLAS's own choice is kept). */
const char *at_blas_core_for_isa(at_isa isa);

/* The level a core's kernels need, by OpenBLAS's core name (case-insensitive, as
 * OPENBLAS_CORETYPE is read). Unknown names and NULL count as AT_ISA_BASE. */
at_isa at_blas_core_isa(const char *core);

/* The core OpenBLAS runs now (openblas_get_corename), e.g. "SkylakeX". Static. */
const char *at_blas_core_name(void);

/* The safe core, which runs on every x86-64 CPU: "Prescott". */
#define AT_BLAS_SAFE_CORE "Prescott"

/* Correctness self-check of the core in use: two small sgemm products on one BLAS
 * thread, compared exactly with a naive triple loop (the inputs are small integers
 * and halves, so every sum is exact in float whatever the order of additions):
 *   A [13 × 24] · Bᵀ, B [16 × 24]          (the packed kernels: the copy routines
 *                                           and the register-blocked sgemm kernel)
 *   0.5 · A [33 × 29] · B [29 × 37] + C     (with accumulation; on SkylakeX and later
 *                                           OpenBLAS 0.3.21 takes its small-matrix
 *                                           kernel here, checked with perf)
 * About 40 000 multiply-adds: tens of microseconds. `bad_core`, when not NULL and
 * equal to the running core's name, makes the check report a wrong result as if the
 * kernels had computed one (for tests of what the start-up does then).
 * Returns AT_OK, or AT_EINVAL with the first wrong element in err, or AT_ENOMEM. */
int at_blas_selfcheck(const char *bad_core, at_error *err);

#endif
