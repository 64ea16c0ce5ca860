/* libFuzzer target for the text rubric matcher: the input is a student's written
 * answer, judged clause by clause against a rubric shaped like the self-test's (both
 * languages, `together` groups, contradictions); when the input holds a newline, its
 * first line is also a concept of its own. */
#include "fuzz_util.h"
#include "quiz/rubric.h"

static const char *const rnn[] = {"N steps", "step by step", "O(N)", "逐步", "一步一步",
                                  "随距离增长", "时间步", "Step-by-step"};
static const char *const rnn_together[] = {"RNN | RNNs | recurrent | 循环神经网络",
                                           "step by step | sequential | N-1 steps | 逐步 | 串行"};
static const char *const attn_together[] = {"self-attention | attention | 自注意力",
                                            "distance 1 | one step apart | directly | 距离为1 | 一步"};
static const char *const direct[] = {"distance 1", "distance is one", "directly", "距离为1",
                                     "一步", "ＡＢＣ", "direct connection"};
static const char *const flat[] = {"too flat", "becomes uniform", "变得均匀"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *answer = fuzz_cstr(data, size);
    if (!answer)
        return 0;
    char *nl = strchr(answer, '\n');
    char *own = NULL;
    if (nl && (own = fuzz_cstr(data, (size_t)(nl - answer))) == NULL) {
        free(answer);
        return 0;
    }
    const char *const own_syn[] = {own};
    const qz_contradiction against_rnn[] = {
        {.together = attn_together, .n_together = 2, .feedback = "attention is not step by step"},
        {.phrases = flat, .n_phrases = 3},
    };
    const qz_contradiction against_attn[] = {
        {.together = rnn_together, .n_together = 2, .feedback = "an RNN is not one step"},
    };
    const qz_concept rubric[] = {
        {.concept = "in an RNN the distance grows with the gap", .synonyms = rnn,
         .n_synonyms = sizeof rnn / sizeof rnn[0], .together = rnn_together, .n_together = 2,
         .contradicts = against_rnn, .n_contradicts = 2},
        {.concept = "in self-attention any two positions are one step apart", .synonyms = direct,
         .n_synonyms = sizeof direct / sizeof direct[0], .together = attn_together,
         .n_together = 2, .contradicts = against_attn, .n_contradicts = 1},
        {.concept = "the input's first line", .synonyms = own_syn, .n_synonyms = 1},
    };
    size_t n_rubric = own ? 3 : 2, n_found = 0;
    unsigned char found[3] = {0};
    qz_judgement judged[3];
    at_error err;
    if (qz_rubric_match(rubric, n_rubric, answer, found, &n_found, &err) == AT_OK) {
        size_t count = 0;
        for (size_t i = 0; i < n_rubric; i++)
            count += found[i] != 0;
        if (count != n_found)
            __builtin_trap();
    }
    if (qz_rubric_judge(rubric, n_rubric, answer, judged, &n_found, &err) == AT_OK) {
        size_t count = 0;
        for (size_t i = 0; i < n_rubric; i++) {
            if (judged[i].found && judged[i].wrong)
                __builtin_trap();             /* a contradicted concept is not found */
            count += judged[i].found != 0;
        }
        if (count != n_found)
            __builtin_trap();
    }
    free(own);
    free(answer);
    return 0;
}
