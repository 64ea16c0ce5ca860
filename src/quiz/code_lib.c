/* The functions and methods the code evaluator knows, in one table: torch.*,
 * torch.nn.functional (F.*), nn.Softmax and nn.Identity, the tensor methods and properties,
 * math.*, numpy (np.*), einops.rearrange and Python's builtins (float, int, len, range,
 * print, max, min, sum, abs, tuple, list); their lookup by module, by name and as a
 * tensor's attribute, and the call. Each function takes its arguments as PyTorch does
 * and raises where PyTorch would (code_fn_*.c; quiz/code.h lists the rules a class trips
 * on). */
#define _GNU_SOURCE
#include "quiz/code_fn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Where a function is found. */
enum { W_T = 1, W_F = 2, W_M = 4, W_B = 8, W_MATH = 16, W_NP = 32, W_E = 64, W_NN = 128 };

typedef struct lib_fn {
    const char *name;
    unsigned where;
    ce_fn_impl *fn;
    int mode;
} lib_fn;

static int cf_module(ce_ev *ev, ce_args *a, ce_val *out, int mode);

/* ---- the table */

static const lib_fn lib[] = {
    {"softmax", W_F, cf_softmax, SM_F},
    {"softmax", W_T | W_M, cf_softmax, SM_TORCH},
    {"softmax", W_B, cf_softmax, SM_MATH},
    {"log_softmax", W_F, cf_log_softmax, SM_F},
    {"log_softmax", W_T | W_M, cf_log_softmax, SM_TORCH},
    {"Softmax", W_NN, cf_module, 0},
    {"Identity", W_NN, cf_module, 1},
    {"softmax (module)", 0, cf_softmax, SM_MODULE},
    {"identity (module)", 0, cf_identity, ID_SAME},
    {"matmul", W_T | W_M | W_NP, cf_matmul, 0},
    {"mm", W_T | W_M, cf_matmul, 1},
    {"bmm", W_T | W_M, cf_matmul, 2},
    {"dot", W_NP, cf_matmul, 0},
    {"einsum", W_T | W_NP, cf_einsum, 0},
    {"scaled_dot_product_attention", W_F, cf_sdpa, 0},
    {"transpose", W_T | W_M, cf_transpose, 0},
    {"transpose", W_NP, cf_transpose, 1},
    {"swapaxes", W_T | W_M | W_NP, cf_transpose, 0},
    {"swapdims", W_T | W_M, cf_transpose, 0},
    {"permute", W_T | W_M, cf_permute, 0},
    {"movedim", W_T | W_M, cf_movedim, 0},
    {"moveaxis", W_T | W_M | W_NP, cf_movedim, 0},
    {"t", W_T | W_M, cf_t, 0},
    {"reshape", W_T | W_M, cf_reshape, 0},
    {"reshape", W_NP, cf_reshape, 2},
    {"view", W_M, cf_reshape, 1},
    {"flatten", W_T | W_M, cf_flatten, 0},
    {"squeeze", W_T | W_M, cf_squeeze, 0},
    {"squeeze", W_NP, cf_squeeze, 1},
    {"unsqueeze", W_T | W_M, cf_unsqueeze, 0},
    {"expand_dims", W_NP, cf_unsqueeze, 1},
    {"contiguous", W_M, cf_identity, ID_CONTIGUOUS},
    {"clone", W_T | W_M, cf_identity, ID_CLONE},
    {"detach", W_T | W_M, cf_identity, ID_SAME},
    {"cpu", W_M, cf_identity, ID_SAME},
    {"cuda", W_M, cf_identity, ID_SAME},
    {"float", W_M, cf_cast, CE_FLOAT},
    {"double", W_M, cf_cast, CE_FLOAT},
    {"half", W_M, cf_cast, CE_FLOAT},
    {"bool", W_M, cf_cast, CE_BOOL},
    {"long", W_M, cf_cast, CE_INT},
    {"int", W_M, cf_cast, CE_INT},
    {"to", W_M, cf_to, 0},
    {"type_as", W_M, cf_to, 1},
    {"masked_fill", W_T | W_M, cf_masked_fill, 0},
    {"masked_fill_", W_M, cf_masked_fill, 1},
    {"where", W_T | W_NP, cf_where, 0},
    {"tril", W_T | W_M, cf_tri, 0},
    {"triu", W_T | W_M, cf_tri, 1},
    {"tril", W_NP, cf_tri, 2},
    {"triu", W_NP, cf_tri, 3},
    {"logical_not", W_T | W_M | W_NP, cf_logical, 0},
    {"logical_and", W_T | W_M | W_NP, cf_logical, 1},
    {"logical_or", W_T | W_M | W_NP, cf_logical, 2},
    {"ones", W_T, cf_fill, MK_ONES},
    {"zeros", W_T, cf_fill, MK_ZEROS},
    {"full", W_T, cf_fill, MK_FULL},
    {"ones", W_NP, cf_fill, 10 + MK_ONES},
    {"zeros", W_NP, cf_fill, 10 + MK_ZEROS},
    {"full", W_NP, cf_fill, 10 + MK_FULL},
    {"ones_like", W_T | W_NP, cf_like, MK_ONES},
    {"zeros_like", W_T | W_NP, cf_like, MK_ZEROS},
    {"full_like", W_T | W_NP, cf_like, MK_FULL},
    {"eye", W_T | W_NP, cf_eye, 0},
    {"arange", W_T | W_NP, cf_arange, 0},
    {"randn", W_T, cf_random, 0},
    {"rand", W_T, cf_random, 1},
    {"manual_seed", W_T, cf_manual_seed, 0},
    {"finfo", W_T, cf_finfo, 0},
    {"tensor", W_T, cf_tensor, 0},
    {"as_tensor", W_T, cf_tensor, 0},
    {"array", W_NP, cf_tensor, 0},
    {"asarray", W_NP, cf_tensor, 0},
    {"cat", W_T, cf_cat, 0},
    {"concat", W_T, cf_cat, 0},
    {"concatenate", W_T, cf_cat, 0},
    {"concatenate", W_NP, cf_cat, 2},
    {"stack", W_T, cf_cat, 1},
    {"stack", W_NP, cf_cat, 3},
    {"unbind", W_T | W_M, cf_unbind, 0},
    {"split", W_T | W_M, cf_split, 0},
    {"chunk", W_T | W_M, cf_split, 1},
    {"sum", W_T | W_M, cf_reduce, R_SUM},
    {"mean", W_T | W_M, cf_reduce, R_MEAN},
    {"prod", W_T | W_M, cf_reduce, R_PROD},
    {"max", W_T | W_M, cf_reduce, R_MAX},
    {"min", W_T | W_M, cf_reduce, R_MIN},
    {"amax", W_T | W_M, cf_reduce, R_MAX | 32},
    {"amin", W_T | W_M, cf_reduce, R_MIN | 32},
    {"argmax", W_T | W_M, cf_reduce, R_ARGMAX},
    {"argmin", W_T | W_M, cf_reduce, R_ARGMIN},
    {"sum", W_NP, cf_reduce, R_SUM | 16},
    {"mean", W_NP, cf_reduce, R_MEAN | 16},
    {"max", W_NP, cf_reduce, R_MAX | 16},
    {"min", W_NP, cf_reduce, R_MIN | 16},
    {"amax", W_NP, cf_reduce, R_MAX | 16},
    {"exp", W_T | W_M, cf_elementwise, U_EXP | EL_TENSOR},
    {"log", W_T | W_M, cf_elementwise, U_LOG | EL_TENSOR},
    {"sqrt", W_T | W_M, cf_elementwise, U_SQRT | EL_TENSOR},
    {"rsqrt", W_T | W_M, cf_elementwise, U_RSQRT | EL_TENSOR},
    {"abs", W_T | W_M, cf_elementwise, U_ABS | EL_TENSOR},
    {"sigmoid", W_T | W_M | W_F, cf_elementwise, U_SIGMOID | EL_TENSOR},
    {"tanh", W_T | W_M | W_F, cf_elementwise, U_TANH | EL_TENSOR},
    {"relu", W_T | W_M | W_F, cf_elementwise, U_RELU | EL_TENSOR},
    {"gelu", W_F, cf_elementwise, U_GELU | EL_TENSOR},
    {"isinf", W_T | W_M | W_NP, cf_elementwise, U_ISINF | EL_TENSOR},
    {"isnan", W_T | W_M | W_NP, cf_elementwise, U_ISNAN | EL_TENSOR},
    {"exp", W_NP | W_B, cf_elementwise, U_EXP | EL_ANY},
    {"log", W_NP, cf_elementwise, U_LOG | EL_ANY},
    {"sqrt", W_NP | W_B, cf_elementwise, U_SQRT | EL_ANY},
    {"abs", W_NP, cf_elementwise, U_ABS | EL_ANY},
    {"tanh", W_NP, cf_elementwise, U_TANH | EL_ANY},
    {"sqrt", W_MATH, cf_elementwise, U_SQRT | EL_NUMBER},
    {"exp", W_MATH, cf_elementwise, U_EXP | EL_NUMBER},
    {"log", W_MATH, cf_elementwise, U_LOG | EL_NUMBER},
    {"tanh", W_MATH, cf_elementwise, U_TANH | EL_NUMBER},
    {"fabs", W_MATH, cf_elementwise, U_ABS | EL_NUMBER},
    {"abs", W_B, cf_elementwise, U_ABS | EL_ANY},
    {"pow", W_T | W_M | W_B, cf_pow, 0},
    {"power", W_NP, cf_pow, 0},
    {"pow", W_MATH, cf_pow, 1},
    {"size", W_M, cf_size, 0},
    {"dim", W_M, cf_size, 1},
    {"ndimension", W_M, cf_size, 1},
    {"numel", W_T | W_M, cf_size, 2},
    {"item", W_M, cf_size, 3},
    {"rearrange", W_E | W_B, cf_rearrange, 0},
    {"float", W_B, cf_float, 0},
    {"int", W_B, cf_float, 1},
    {"len", W_B, cf_len, 0},
    {"range", W_B, cf_range, 0},
    {"print", W_B, cf_print, 0},
    {"max", W_B, cf_minmax, 0},
    {"min", W_B, cf_minmax, 1},
    {"sum", W_B, cf_sum_builtin, 0},
    {"tuple", W_B, cf_seq, 0},
    {"list", W_B, cf_seq, 1},
};
#define N_LIB ((int)(sizeof lib / sizeof lib[0]))

/* The entry of name found where (W_* bits; 0: the entries reached only from another
 * entry, as a module's call), or -1. */
static int lib_index(const char *name, unsigned where)
{
    for (int i = 0; i < N_LIB; i++)
        if ((where ? (lib[i].where & where) != 0 : lib[i].where == 0) && !strcmp(lib[i].name, name))
            return i;
    return -1;
}

/* nn.Softmax(dim) and nn.Identity(): a module object, called later on its input */
static int cf_module(ce_ev *ev, ce_args *a, ce_val *out, int mode)
{
    if (mode == 0) {   /* nn.Softmax(dim=…): its dim kept in opt */
        ce_val *d = ce_arg(a, 0, "dim");
        long dim = 0;
        if (d && d->kind != CV_NONE && ce_to_long(ev, a, d, &dim))
            return -1;
        *out = (ce_val){.kind = CV_FUNC, .fn = lib_index("softmax (module)", 0),
                        .opt = d && d->kind != CV_NONE ? (double)dim : NAN};
        return 0;
    }
    *out = (ce_val){.kind = CV_FUNC, .fn = lib_index("identity (module)", 0), .opt = NAN};
    return 0;
}

static const struct { const char *name; unsigned where; double value; } constants[] = {
    {"inf", W_MATH | W_NP | W_T | W_B, INFINITY}, {"nan", W_MATH | W_NP | W_T | W_B, NAN},
    {"pi", W_MATH | W_NP | W_T, M_PI}, {"e", W_MATH | W_NP | W_T, M_E},
    {"Inf", W_NP, INFINITY}, {"infty", W_NP, INFINITY},
};

static const struct { const char *name; unsigned where; ce_dtype dt; } dtypes[] = {
    {"bool", W_T, CE_BOOL}, {"bool_", W_NP, CE_BOOL}, {"float", W_T, CE_FLOAT},
    {"float32", W_T | W_NP, CE_FLOAT}, {"float64", W_T | W_NP, CE_FLOAT}, {"double", W_T, CE_FLOAT},
    {"float16", W_T | W_NP, CE_FLOAT}, {"half", W_T, CE_FLOAT}, {"bfloat16", W_T, CE_FLOAT},
    {"int", W_T, CE_INT}, {"int32", W_T | W_NP, CE_INT}, {"int64", W_T | W_NP, CE_INT},
    {"long", W_T, CE_INT}, {"uint8", W_T | W_NP, CE_INT}, {"int8", W_T | W_NP, CE_INT},
};

static unsigned where_of(int mod)
{
    switch (mod) {
    case MOD_TORCH: return W_T;
    case MOD_NN: return W_NN;
    case MOD_F: return W_F;
    case MOD_MATH: return W_MATH;
    case MOD_NP: return W_NP;
    case MOD_EINOPS: return W_E;
    default: return W_B;
    }
}

int ce_lib_attr(ce_ev *ev, int mod, const char *name, ce_val *out)
{
    (void)ev;
    if (mod == MOD_TORCH && !strcmp(name, "nn")) {
        *out = (ce_val){.kind = CV_MODULE, .fn = MOD_NN};
        return 0;
    }
    if (mod == MOD_NN && !strcmp(name, "functional")) {
        *out = (ce_val){.kind = CV_MODULE, .fn = MOD_F};
        return 0;
    }
    unsigned w = where_of(mod);
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        if ((constants[i].where & w) && !strcmp(constants[i].name, name)) {
            *out = ce_num(constants[i].value, CE_FLOAT);
            return 0;
        }
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
        if ((dtypes[i].where & w) && !strcmp(dtypes[i].name, name)) {
            *out = (ce_val){.kind = CV_DTYPE, .ntype = dtypes[i].dt};
            return 0;
        }
    int i = lib_index(name, w);
    if (i < 0)
        return -1;
    *out = (ce_val){.kind = CV_FUNC, .fn = i, .opt = NAN};
    return 0;
}

int ce_lib_builtin(ce_ev *ev, const char *name, ce_val *out)
{
    return ce_lib_attr(ev, -1, name, out);
}

int ce_lib_tensor_attr(ce_ev *ev, ce_val *self, const char *name, ce_val *out)
{
    const ce_tensor *t = self->t;
    if (!strcmp(name, "shape"))
        return ce_shape_tuple(ev, t, out);
    if (!strcmp(name, "ndim")) {
        *out = ce_num(t->ndim, CE_INT);
        return 0;
    }
    if (!strcmp(name, "dtype")) {
        *out = (ce_val){.kind = CV_DTYPE, .ntype = t->dtype};
        return 0;
    }
    if (!strcmp(name, "data")) {
        *out = *self;
        return 0;
    }
    if (!strcmp(name, "device")) {
        *out = (ce_val){.kind = CV_STR, .str = "cpu"};
        return 0;
    }
    if (!strcmp(name, "T")) {   /* every axis reversed (PyTorch warns beyond 2) */
        int perm[CE_MAXD];
        for (int i = 0; i < t->ndim; i++)
            perm[i] = t->ndim - 1 - i;
        return ce_set_tensor(out, ct_permute(ev, t, perm));
    }
    if (!strcmp(name, "mT")) {
        if (t->ndim < 2)
            return ce_raise(ev, ".mT needs a tensor of at least 2 axes");
        return ce_set_tensor(out, ct_transpose(ev, t, t->ndim - 2, t->ndim - 1));
    }
    int i = lib_index(name, W_M);
    if (i < 0)
        return ce_unread(ev, "the grader does not know the tensor method '%s'", name);
    *out = (ce_val){.kind = CV_FUNC, .fn = i, .self = self, .opt = NAN};
    return 0;
}

int ce_lib_call(ce_ev *ev, const ce_val *fn, ce_args *a, ce_val *out)
{
    if (fn->fn < 0 || fn->fn >= N_LIB)
        return ce_unread(ev, "the grader cannot call this");
    const lib_fn *f = &lib[fn->fn];
    a->fname = f->name;
    if (fn->self) {   /* a method: the tensor first */
        ce_val *pos = ce_alloc(ev->arena, (size_t)(a->n_pos + 1) * sizeof *pos);
        if (!pos)
            return ce_nomem(ev);
        pos[0] = *fn->self;
        if (a->n_pos)
            memcpy(pos + 1, a->pos, (size_t)a->n_pos * sizeof *pos);
        a->pos = pos;
        a->n_pos++;
    }
    if (f->fn == cf_softmax && f->mode == SM_MODULE) {
        a->fname = "Softmax";
        return cf_do_softmax(ev, a, out, SM_MODULE, 0, fn->opt);
    }
    int rc = f->fn(ev, a, out, f->mode);
    return rc < 0 || ev->status != QZ_CODE_RAN ? -1 : 0;
}
