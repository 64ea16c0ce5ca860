/* The formula grader: reads a formula as students type it and compares it
 * structurally with a canonical form (Vaswani et al. 2017, eq. 1:
 * Attention(Q, K, V) = softmax(QKᵀ / √d_k) V).
 *
 * Accepted notations: softmax(QK^T/sqrt(d_k))V, softmax(Q K^T / √d_k) V,
 * softmax(QKᵀ/√dₖ)·V, softmax((Q*K')/sqrt(dk))*V, Q @ K.T, d_k^0.5, LaTeX
 * (\frac{QK^\top}{\sqrt{d_k}}, \text{softmax}, \cdot), an optional
 * "Attention(Q,K,V) =" in front. Matrix products keep their order; scalar factors
 * (numbers, powers of d_k) commute, so QKᵀ·(1/√d_k) equals QKᵀ/√d_k. */
#ifndef AT_QUIZ_FORMULA_H
#define AT_QUIZ_FORMULA_H

#include "engine/error.h"

/* Mistakes named by the comparison (a bit set). */
enum {
    QZ_F_NO_SOFTMAX       = 1 << 0,  /* no softmax at all */
    QZ_F_NO_SCALE         = 1 << 1,  /* scores not scaled: softmax(QKᵀ)V */
    QZ_F_DK_NOT_SQRT      = 1 << 2,  /* divided by d_k instead of √d_k */
    QZ_F_SCALE_MULTIPLIED = 1 << 3,  /* multiplied by √d_k instead of dividing */
    QZ_F_SCALE_OTHER      = 1 << 4,  /* some other scale (a number, d_k²…) */
    QZ_F_SCALE_OUTSIDE    = 1 << 5,  /* the scale stands outside the softmax */
    QZ_F_K_NOT_TRANSPOSED = 1 << 6,  /* QK instead of QKᵀ */
    QZ_F_WRONG_PRODUCT    = 1 << 7,  /* another product: QᵀK, KQᵀ, QV… */
    QZ_F_V_INSIDE         = 1 << 8,  /* V inside the softmax */
    QZ_F_V_MISSING        = 1 << 9,  /* the weights are never applied to V */
    QZ_F_V_LEFT           = 1 << 10, /* V·softmax(…) instead of softmax(…)·V */
    QZ_F_OTHER            = 1 << 11, /* differs in some other way */
};

/* Compare a student's formula with the canonical one.
 *   mistakes  out: 0 when they are the same formula, else the QZ_F_* bits found
 * Returns AT_OK; AT_EINVAL when the student's text cannot be read (err->msg says
 * where, err->offset the byte); AT_ERANGE when the canonical form itself cannot be
 * read (a lesson error). */
int qz_formula_compare(const char *student, const char *canonical, unsigned *mistakes,
                       at_error *err);

/* One sentence (en or zh) explaining a single QZ_F_* bit. */
const char *qz_formula_mistake_text(unsigned bit, int zh);

#endif
