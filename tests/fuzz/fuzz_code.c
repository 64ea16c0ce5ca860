/* libFuzzer target for code answers (quiz/code.h): the input is a student's answer to a
 * code question whose setup holds tensors of every kind the lesson's have (a batch of
 * queries, keys and values, a bool mask and its additive form, 4-D heads). The answer
 * is run and judged; whatever it holds, the run ends with a status, a result whose size
 * matches its shape, and a message that stays inside its buffer, never a crash, a hang
 * or a leak (the evaluator's step and size limits hold). */
#include "fuzz_util.h"
#include "quiz/code.h"

static const char setup[] =
    "torch.manual_seed(3)\n"
    "B, h, n, d_k = 2, 3, 4, 5\n"
    "Q, K, V = torch.randn(B, n, d_k), torch.randn(B, n, d_k), torch.randn(B, n, 2)\n"
    "allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))\n"
    "mask = ~allowed\n"
    "M = torch.zeros(n, n).masked_fill(mask, float('-inf'))\n"
    "scores = Q @ K.transpose(-2, -1) / d_k ** 0.5\n"
    "heads = torch.arange(B * h * n * d_k).float().reshape(B, h, n, d_k)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    if (!s)
        return 0;
    const char *const wrong[] = {"out = F.softmax(scores, dim=-1) @ V"};
    qz_code_mistake m = {"no-mask", wrong, 1, "nothing masked"};
    qz_question q = qz_question_init(QZ_CODE);
    q.id = "fuzz";
    q.setup = setup;
    q.result = "out";
    q.canonical = "out = F.softmax(scores + M, dim=-1) @ V";
    q.code_mistakes = &m;
    q.n_code_mistakes = 1;
    for (int lang = 0; lang < 2; lang++) {
        qz_code_judgement j;
        at_error err;
        int rc = qz_code_judge(&q, s, (qz_lang)lang, &j, &err);
        if (rc != AT_OK && rc != AT_ENOMEM)
            __builtin_trap();                 /* the question itself always runs */
        if (rc == AT_OK) {
            const qz_code_outcome *o = &j.run;
            long numel = 1;
            for (int d = 0; d < o->value.ndim; d++)
                numel *= o->value.shape[d];
            if (o->status == QZ_CODE_RAN && (o->value.numel != numel || o->value.ndim > QZ_CODE_MAX_DIMS))
                __builtin_trap();             /* a result's size is its shape's */
            if (o->at < -1 || o->at > (long)size || strlen(o->msg) >= sizeof o->msg)
                __builtin_trap();             /* a place inside the answer */
            if ((o->status == QZ_CODE_UNREADABLE) != (j.finding == QZ_CODE_UNREAD))
                __builtin_trap();
        }
        qz_code_judgement_free(&j);
    }
    free(s);
    return 0;
}
