/* The code evaluator's library inside: the functions (code_fn_math.c, code_fn_shape.c,
 * code_fn_make.c) that the table of code_lib.c names, and the argument helpers they share
 * (code_args.c). Not for other modules; see quiz/code_impl.h. */
#ifndef AT_QUIZ_CODE_FN_H
#define AT_QUIZ_CODE_FN_H

#include "quiz/code_impl.h"

/* A function: its arguments (the bound tensor first for a method), *out its value; mode
 * tells variants apart (F.softmax from torch.softmax). 0, or -1 with the run stopped. */
typedef int ce_fn_impl(ce_ev *ev, ce_args *a, ce_val *out, int mode);

enum { SM_F, SM_TORCH, SM_MATH, SM_MODULE };          /* softmax: how dim defaults */
enum { ID_SAME, ID_CONTIGUOUS, ID_CLONE };            /* copies */
enum { MK_ONES, MK_ZEROS, MK_FULL, MK_EMPTY };        /* making tensors (+10: numpy's) */
enum { EL_TENSOR = 0x100, EL_NUMBER = 0x200, EL_ANY = 0x300 };   /* elementwise: what it takes */

/* ---- arguments (code_args.c) */

/* Positional argument i or the keyword kw (either may be absent: -1, NULL); NULL if
 * neither is given. */
ce_val *ce_arg(ce_args *a, int i, const char *kw);
int ce_missing(ce_ev *ev, ce_args *a, const char *what);
ce_val ce_none(void);
ce_val ce_num(double x, ce_dtype t);
ce_val ce_tval(ce_tensor *t);
/* *out = t; -1 when t is NULL (the run stopped making it). */
int ce_set_tensor(ce_val *out, ce_tensor *t);
int ce_to_long(ce_ev *ev, ce_args *a, const ce_val *v, long *out);
int ce_to_double(ce_ev *ev, ce_args *a, const ce_val *v, double *out);
ce_tensor *ce_tensor_arg(ce_ev *ev, ce_args *a, int i, const char *kw, const char *what);
int ce_long_arg(ce_ev *ev, ce_args *a, int i, const char *kw, long dflt, long *out, int required);
int ce_bool_arg(ce_args *a, int i, const char *kw, int dflt);
/* Sizes or axes as *args from `from` on, or as one tuple / list / torch.Size (or keyword
 * kw): *n of them into out[CE_MAXD]. */
int ce_long_list(ce_ev *ev, ce_args *a, int from, const char *kw, long *out, int *n);
int ce_dtype_arg(ce_args *a, const char *kw, ce_dtype *out);
/* t's shape as a tuple of whole numbers (torch.Size). */
int ce_shape_tuple(ce_ev *ev, const ce_tensor *t, ce_val *out);
/* n tensors as a tuple. */
int ce_parts_out(ce_ev *ev, ce_tensor **parts, int n, ce_val *out);

/* ---- the functions */

/* softmax of a->pos[0] by mode's rule for a missing dim; log_ for log_softmax; module_dim:
 * nn.Softmax's dim (NAN: none). */
int cf_do_softmax(ce_ev *ev, ce_args *a, ce_val *out, int mode, int log_, double module_dim);

ce_fn_impl cf_softmax, cf_log_softmax, cf_matmul, cf_einsum, cf_sdpa,
    cf_masked_fill, cf_where, cf_tri, cf_logical, cf_reduce, cf_elementwise, cf_pow;
ce_fn_impl cf_transpose, cf_permute, cf_movedim, cf_t, cf_reshape, cf_flatten, cf_squeeze,
    cf_unsqueeze, cf_identity, cf_cast, cf_to, cf_cat, cf_unbind, cf_split, cf_size;
ce_fn_impl cf_fill, cf_like, cf_eye, cf_arange, cf_random, cf_manual_seed, cf_tensor,
    cf_rearrange, cf_float, cf_len, cf_range, cf_print, cf_minmax, cf_sum_builtin, cf_seq, cf_finfo;

#endif
