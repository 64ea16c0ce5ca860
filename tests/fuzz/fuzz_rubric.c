/* libFuzzer target for the text rubric matcher: the input is a student's written
 * answer, matched against a rubric taken from the self-test lesson (both languages);
 * when the input holds a newline, its first line is also a concept of its own. */
#include "fuzz_util.h"
#include "quiz/rubric.h"

static const char *const rnn[] = {"N steps", "step by step", "O(N)", "逐步", "一步一步",
                                  "随距离增长", "时间步", "Step-by-step"};
static const char *const direct[] = {"distance 1", "distance is one", "directly", "距离为1",
                                     "一步", "ＡＢＣ", "direct connection"};

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
    qz_concept rubric[] = {
        {"in an RNN the distance grows with the gap", rnn, sizeof rnn / sizeof rnn[0]},
        {"in self-attention any two positions are one step apart", direct,
         sizeof direct / sizeof direct[0]},
        {"the input's first line", own_syn, 1},
    };
    size_t n_rubric = own ? 3 : 2, n_found = 0;
    unsigned char found[3] = {0};
    at_error err;
    if (qz_rubric_match(rubric, n_rubric, answer, found, &n_found, &err) == AT_OK) {
        size_t count = 0;
        for (size_t i = 0; i < n_rubric; i++)
            count += found[i] != 0;
        if (count != n_found)
            __builtin_trap();
    }
    free(own);
    free(answer);
    return 0;
}
