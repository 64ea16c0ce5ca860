/* Shared by attend.c (the mini-model) and attend_hf.c (a model folder). */
#ifndef AT_CLI_ATTEND_H
#define AT_CLI_ATTEND_H

#include "engine/model.h"
#include "engine/tokenizer.h"
#include "quiz/lang.h"

enum { FMT_TABLE, FMT_CSV, FMT_JSON };

typedef struct attend_args {
    long layer, head;           /* 1-based; 0 = default (the coreference head); head -1 = all */
    int format, untrained;
    int mask_given;             /* --mask was on the command line */
    at_run_opts opts;
    char *sentence;
} attend_args;

/* Head h of layer l as an aligned table of weights (rows: queries), labels from t;
 * mark[i] (may be NULL) adds "← trained row". */
void cli_attend_table(const at_tokens *t, const at_model_run *r, size_t l, size_t h,
                      const unsigned char *mark, qz_lang lang);

/* Heads h0 … h1−1 of layer l as CSV (layer,head,query,query_token,key,key_token,weight). */
void cli_attend_csv(const at_tokens *t, const at_model_run *r, size_t l, size_t h0, size_t h1);

/* attend on a Hugging Face model folder (cli_g.model_path); returns the exit status. */
int cli_attend_hf(const attend_args *a);

#endif
