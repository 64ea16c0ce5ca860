/* Shared by the code evaluator's files (code_read.c reads the code into a tree,
 * code_eval.c runs it, code_tensor.c holds the tensor operations, code_lib.c the
 * functions and methods, code_formula.c evaluates the formula reader's tree); not for
 * other modules. See quiz/code.h. */
#ifndef AT_QUIZ_CODE_IMPL_H
#define AT_QUIZ_CODE_IMPL_H

#include <stddef.h>

#include "quiz/code.h"

#define CE_MAXD QZ_CODE_MAX_DIMS
/* Bytes a run may allocate in all (tensors, values, the tree), whatever it computes. */
#define CE_MAX_BYTES (48u << 20)
/* Calls of the answer's own functions under way at once (one calling another). */
#define CE_MAX_CALLS 8

/* A double as a long without undefined behaviour: NaN is 0, beyond ±2⁶² is clamped (a size
 * or an index that large is refused later as too large or out of range). */
static inline long ce_long_of(double x)
{
    return x != x ? 0 : x > 4611686018427387904.0 ? 4611686018427387904L
         : x < -4611686018427387904.0 ? -4611686018427387904L : (long)x;
}

/* ---- memory: one arena per run (and one per environment); nothing is freed alone */

typedef struct ce_block {
    struct ce_block *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} ce_block;

typedef struct ce_arena {
    ce_block *head;
    size_t total;       /* bytes allocated so far */
    int over;           /* 1 once the budget was refused */
} ce_arena;

/* n zeroed bytes from a; NULL when out of memory or over CE_MAX_BYTES (a->over). */
void *ce_alloc(ce_arena *a, size_t n);
char *ce_strndup(ce_arena *a, const char *s, size_t n);
void ce_arena_free(ce_arena *a);

/* ---- tensors: the data always row-major in the logical shape; `stride` is what PyTorch's
 * strides would be for this tensor (a transpose permutes them), kept only so that view()
 * raises where PyTorch's does */

typedef enum ce_dtype { CE_FLOAT, CE_INT, CE_BOOL } ce_dtype;

typedef struct ce_tensor {
    ce_dtype dtype;
    int ndim;
    long shape[CE_MAXD];
    long stride[CE_MAXD];
    long numel;
    double *data;       /* [numel] */
} ce_tensor;

/* ---- values */

typedef enum ce_kind {
    CV_NONE, CV_NUM, CV_STR, CV_TENSOR, CV_TUPLE, CV_LIST, CV_SLICE, CV_ELLIPSIS, CV_RANGE,
    CV_FUNC, CV_MODULE, CV_DTYPE,
    CV_DEF,             /* a function the answer defines (def) */
} ce_kind;

typedef struct ce_val ce_val;
typedef struct ce_stmt ce_stmt;

typedef struct ce_seq {
    int n;
    ce_val *v;          /* [n] */
    int named;          /* a tuple whose items have names: SEQ_MAX (values, indices) of
                         * max(dim), SEQ_FINFO (min, max, eps, tiny) of torch.finfo */
} ce_seq;

enum { SEQ_PLAIN, SEQ_MAX, SEQ_FINFO };

struct ce_val {
    ce_kind kind;
    ce_dtype ntype;     /* CV_NUM: a Python float, int or bool; CV_DTYPE: the dtype */
    double num;         /* CV_NUM */
    const char *str;    /* CV_STR (NUL-terminated, in an arena) */
    ce_tensor *t;       /* CV_TENSOR: shared by every name bound to it */
    ce_seq *seq;        /* CV_TUPLE, CV_LIST */
    long r[3];          /* CV_RANGE: start, stop, step; CV_SLICE: start, stop, step */
    int has[3];         /* CV_SLICE: which of r are given */
    int fn;             /* CV_FUNC: index into the library; CV_MODULE: enum ce_module */
    ce_val *self;       /* CV_FUNC: the tensor a method is bound to, or NULL */
    double opt;         /* CV_FUNC: nn.Softmax's dim (NAN: none) */
    const ce_stmt *def; /* CV_DEF: its S_DEF statement */
};

enum ce_module { MOD_TORCH, MOD_NN, MOD_F, MOD_MATH, MOD_NP, MOD_EINOPS };

/* ---- the code as a tree */

enum ce_op {   /* operators beyond the single characters + - * / % @ < > = ~ & | ^ */
    OP_POW = 256, OP_FLOORDIV, OP_EQ, OP_NE, OP_LE, OP_GE, OP_IADD, OP_ISUB, OP_IMUL, OP_IDIV,
    OP_IMATMUL, OP_ELLIPSIS, OP_ARROW, OP_NOT, OP_AND, OP_OR, OP_IN, OP_IS,
};

typedef enum ce_nkind {
    X_NUM, X_STR, X_NAME, X_NONE, X_TRUE, X_FALSE, X_ELLIPSIS, X_ATTR, X_CALL, X_INDEX,
    X_SLICE, X_BIN, X_UNARY, X_CMP, X_BOOL, X_IFELSE, X_TUPLE, X_LIST, X_COMP, X_STAR, X_KW,
} ce_nkind;

typedef struct ce_node ce_node;
struct ce_node {
    ce_nkind kind;
    int op;             /* X_BIN, X_UNARY, X_CMP, X_BOOL: the operator */
    long at;            /* byte offset in the code (the original answer) */
    double num;         /* X_NUM */
    int is_int;         /* X_NUM: written without a point or an exponent */
    const char *name;   /* X_NAME, X_ATTR (the attribute), X_KW (the keyword), X_STR, X_COMP
                         * (the loop variable) */
    ce_node *a, *b, *c; /* children: X_ATTR a; X_CALL a (the function); X_INDEX a, b;
                         * X_SLICE a b c (NULL: not given); X_BIN/X_CMP a b; X_UNARY a;
                         * X_IFELSE a if b else c; X_COMP a for name in b if c; X_STAR,
                         * X_KW a */
    ce_node **items;    /* X_CALL: arguments; X_TUPLE, X_LIST: elements; X_INDEX: NULL */
    int n_items;
};

typedef enum ce_skind { S_EXPR, S_ASSIGN, S_AUG, S_RETURN, S_IMPORT, S_FOR, S_PASS, S_DEF } ce_skind;

struct ce_stmt {
    ce_skind kind;
    long at;
    ce_node **targets;  /* S_ASSIGN: a = b = value ([n_targets]); S_AUG, S_FOR: [1] */
    int n_targets;
    ce_node *value;     /* S_EXPR, S_ASSIGN, S_AUG, S_RETURN (may be NULL), S_FOR: the iterable */
    int op;             /* S_AUG: the operator ('+', '-', '*', '/', '@') */
    const char **names, **aliases;  /* S_IMPORT: what it binds: "torch.nn.functional" as "F";
                                     * S_DEF: the parameters' names (aliases unused) */
    const char *from;   /* S_IMPORT: the module of `from … import`, or NULL; S_DEF: the
                         * function's name */
    int n_names;
    ce_node **defaults; /* S_DEF: [n_names] each parameter's default, or NULL */
    const char *rest_args, *rest_kw;    /* S_DEF: the names of *args and **kwargs, or NULL */
    ce_stmt **body;     /* S_FOR, S_DEF */
    int n_body;
};

typedef struct ce_program {
    ce_stmt **stmts;
    int n;
} ce_program;

/* ---- a run */

typedef struct ce_binding {
    const char *name;
    ce_val val;
} ce_binding;

typedef struct ce_ev {
    ce_arena *arena;
    ce_binding *names;  /* the environment: setup's names, then the run's */
    int n_names, cap_names;
    int n_setup;        /* the first n_setup names are the setup's */
    qz_lang lang;
    const char *code;   /* the text positions count in */
    /* what stopped the run: QZ_CODE_RAN while nothing did */
    qz_code_status status;
    long at;            /* byte offset of the node being run */
    char msg[400];
    long steps;         /* operations so far (QZ_CODE_MAX_STEPS) */
    int depth;
    unsigned long long seed;    /* torch.manual_seed / randn */
    int returned;
    ce_val last;        /* the value of the last statement that gave one */
    int has_last;
    ce_val ret;         /* a return's value */
    ce_tensor **steps_v;        /* tensors assigned, in order (at most 64) */
    const char **steps_name;    /* … and the names they were assigned to */
    int n_steps_v;
    /* functions the answer defines: the calls under way (a function that calls itself is
     * refused, so there are at most as many as functions), where the innermost call's
     * own names start (0: at the top), and the last function defined and not yet called */
    const ce_stmt *calls[CE_MAX_CALLS];
    int n_calls;
    int frame;
    const ce_stmt *uncalled;
    ce_val last_call;   /* what the last call from the top returned (print(attn(Q, K, V))) */
    int has_last_call;
} ce_ev;

/* Stop the run: the code does something PyTorch would refuse (raise) or that this
 * evaluator cannot read or run (unread). msgid is an English printf format, translated
 * into ev->lang. Both return -1. */
int ce_raise(ce_ev *ev, const char *msgid, ...) __attribute__((format(printf, 2, 3)));
int ce_unread(ce_ev *ev, const char *msgid, ...) __attribute__((format(printf, 2, 3)));
/* Out of memory or over the arena's budget: unread ("too large") or ENOMEM. -1. */
int ce_nomem(ce_ev *ev);
/* One more operation; -1 (unread) past QZ_CODE_MAX_STEPS. */
int ce_tick(ce_ev *ev);

/* Does env bind a tensor equal to t (qz_code_tensor_same)? */
int ce_env_holds(const qz_code_env *env, const qz_code_tensor *t);

/* ---- reading (code_read.c) */

/* Read code into a program. Returns 0, or -1 with ev->status QZ_CODE_UNREADABLE, ev->at
 * and ev->msg set (a syntax error, a construct outside the subset), or ENOMEM. */
int ce_read(ce_ev *ev, const char *code, ce_program *out);

/* ---- running (code_eval.c) */

int ce_eval(ce_ev *ev, const ce_node *n, ce_val *out);
/* a op b with Python's rules for numbers and PyTorch's for tensors (op: '+', '@', OP_POW…) */
int ce_binop(ce_ev *ev, int op, const ce_val *a, const ce_val *b, ce_val *out);
int ce_run_program(ce_ev *ev, const ce_program *p);
ce_val *ce_lookup(ce_ev *ev, const char *name);
/* name = v: in the innermost call of an answer's function, a name of its own (the names
 * outside stay as they are, as Python's locals) */
int ce_bind(ce_ev *ev, const char *name, const ce_val *v);
/* A function the answer defined and never called, run on the question's own tensors:
 * each parameter gets the setup's value of its name (mask, d_k), else the first three
 * get Q, K, V in order (whatever they are called: q, query, x), else its default. 0 with
 * *out set, or -1 with the run stopped. */
int ce_call_uncalled(ce_ev *ev, const ce_stmt *def, ce_val *out);
/* Python's truth value of v; -1 with the run stopped when it has none (a tensor of
 * several numbers). */
int ce_truth(ce_ev *ev, const ce_val *v);
/* A tuple or list of n values (n of them, zeroed), or NULL with the run stopped. */
ce_seq *ce_new_seq(ce_ev *ev, int n);
/* Iterate v (a range, tuple, list, tensor along dim 0): its n items into *items. */
int ce_items(ce_ev *ev, const ce_val *v, ce_val **items, long *n);

/* ---- tensors (code_tensor.c) */

ce_tensor *ct_new(ce_ev *ev, ce_dtype dt, int ndim, const long *shape);
ce_tensor *ct_copy(ce_ev *ev, const ce_tensor *t);
ce_tensor *ct_scalar(ce_ev *ev, ce_dtype dt, double x);
void ct_contiguous_strides(ce_tensor *t);
/* dim in [-ndim, ndim) (ndim + extra for unsqueeze) as 0-based; -1 with the run stopped. */
int ct_dim(ce_ev *ev, long dim, int ndim, int *out);
/* The shape a and b broadcast to (ndim, shape[CE_MAXD]); -1 (raised) when they do not. */
int ct_broadcast(ce_ev *ev, const ce_tensor *a, const ce_tensor *b, int *ndim, long *shape);
/* Steps of t's data per axis of a broadcast shape of ndim axes (0 where t has size 1). */
void ct_bsteps(const ce_tensor *t, int ndim, long *steps);
/* A value as a tensor: a tensor, a number (0 axes), a nested list of numbers. */
ce_tensor *ct_of(ce_ev *ev, const ce_val *v, ce_dtype want);
/* "(2, 4, 5)" into buf. */
const char *ct_shape_text(const long *shape, int ndim, char *buf, size_t cap);

enum ct_binop { B_ADD, B_SUB, B_MUL, B_DIV, B_FLOORDIV, B_MOD, B_POW, B_EQ, B_NE, B_LT, B_LE,
                B_GT, B_GE, B_AND, B_OR, B_XOR, B_MAX, B_MIN };
ce_tensor *ct_binary(ce_ev *ev, enum ct_binop op, const ce_tensor *a, const ce_tensor *b);
enum ct_unop { U_NEG, U_NOT, U_EXP, U_LOG, U_SQRT, U_RSQRT, U_ABS, U_SIGMOID, U_TANH, U_RELU,
               U_ISINF, U_ISNAN, U_GELU };
ce_tensor *ct_unary(ce_ev *ev, enum ct_unop op, const ce_tensor *a);
ce_tensor *ct_cast(ce_ev *ev, const ce_tensor *a, ce_dtype dt);
ce_tensor *ct_matmul(ce_ev *ev, const ce_tensor *a, const ce_tensor *b, const char *what);
ce_tensor *ct_softmax(ce_ev *ev, const ce_tensor *a, int dim, int log);
ce_tensor *ct_permute(ce_ev *ev, const ce_tensor *a, const int *perm);
ce_tensor *ct_transpose(ce_ev *ev, const ce_tensor *a, int d0, int d1);
/* reshape (view = 0) or view (view = 1: raises where PyTorch's view would) to shape,
 * which may hold one -1. */
ce_tensor *ct_reshape(ce_ev *ev, const ce_tensor *a, int ndim, const long *shape, int view);
enum ct_reduce { R_SUM, R_MEAN, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN, R_PROD };
/* dims: a bit per axis (0 = every axis) */
ce_tensor *ct_reduce(ce_ev *ev, enum ct_reduce op, const ce_tensor *a, unsigned dims, int keepdim);
ce_tensor *ct_where(ce_ev *ev, const ce_tensor *c, const ce_tensor *a, const ce_tensor *b);
ce_tensor *ct_tri(ce_ev *ev, const ce_tensor *a, long diagonal, int upper);
ce_tensor *ct_cat(ce_ev *ev, ce_tensor *const *ts, int n, long dim, int stack);
ce_tensor *ct_narrow(ce_ev *ev, const ce_tensor *a, int dim, long start, long len);
ce_tensor *ct_index(ce_ev *ev, const ce_tensor *a, const ce_val *index, int n_index);
int ct_index_put(ce_ev *ev, ce_tensor *a, const ce_val *index, int n_index, const ce_tensor *v);
ce_tensor *ct_einsum(ce_ev *ev, const char *spec, ce_tensor *const *ts, int n);
ce_tensor *ct_rearrange(ce_ev *ev, const ce_tensor *a, const char *pattern, const char *const *names,
                        const long *sizes, int n_sizes);

/* ---- the library (code_lib.c) */

typedef struct ce_args {
    ce_val *pos;        /* positional, the bound tensor first for a method */
    int n_pos;
    const char **kw_names;
    ce_val *kw;
    int n_kw;
    const char *fname;  /* for messages: "softmax", "Tensor.view" */
} ce_args;

/* The function `name` of module mod (-1 when a name of the module alone: builtins), or
 * a constant (math.inf, torch.bool, torch.float32): 0 with *out set, -1 when unknown (the
 * run is not stopped). */
int ce_lib_attr(ce_ev *ev, int mod, const char *name, ce_val *out);
/* A builtin name (float, len, range, softmax, rearrange, inf): 0 with *out set, -1 when
 * unknown. */
int ce_lib_builtin(ce_ev *ev, const char *name, ce_val *out);
/* A tensor's attribute: a method bound to it, or a property (shape, T, mT, ndim).
 * 0 / -1 (stopped: unknown). */
int ce_lib_tensor_attr(ce_ev *ev, ce_val *self, const char *name, ce_val *out);
/* Call a library function. */
int ce_lib_call(ce_ev *ev, const ce_val *fn, ce_args *a, ce_val *out);

/* ---- formulas (code_formula.c) */

/* An answer that is no Python read by the formula reader (quiz/formula_impl.h) and
 * evaluated in ev: 0 with *out set; 1 when the formula reader finds no formula in it;
 * -1 when the formula cannot be evaluated (ev->status says why). */
int ce_formula(ce_ev *ev, const char *answer, ce_val *out);

#endif
