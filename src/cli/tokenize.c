/* attn-tutor tokenize --model DIR [--format table|json] SENTENCE
 * attn-tutor tokenize --model DIR --jsonl < FILE
 * A model folder's tokens of a sentence: ids, vocabulary pieces, spans (engine/hf/hf.h).
 * --jsonl reads one JSON string a line from stdin and prints one JSON array of ids a
 * line (how the tests compare the tokenizers with their references in bulk). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/output.h"
#include "engine/hf/hf.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f,
        "usage: attn-tutor tokenize --model DIR [--format table|json] SENTENCE\n"
        "       attn-tutor tokenize --model DIR --jsonl < FILE\n"
        "  The tokens a Hugging Face model folder's tokenizer makes of SENTENCE: each one's\n"
        "  id, vocabulary piece and the part of the sentence it stands for.\n"
        "  --format json   {\"tokens\", \"token_ids\", \"pieces\", \"spans\"}\n"
        "  --jsonl         one JSON string a line on stdin; one JSON array of ids a line out\n"
        "                  (a line that is not a JSON string, or not UTF-8, prints null)\n");
    return f == stdout ? 0 : 2;
}

static void print_json(const at_hf_tokens *t)
{
    printf("{\"tokens\":[");
    for (size_t i = 0; i < t->n; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, t->shown.items[i].text);
    }
    printf("],\"token_ids\":[");
    for (size_t i = 0; i < t->n; i++)
        printf("%s%d", i ? "," : "", (int)t->ids[i]);
    printf("],\"pieces\":[");
    for (size_t i = 0; i < t->n; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, t->pieces[i]);
    }
    printf("],\"spans\":[");
    for (size_t i = 0; i < t->n; i++)
        printf("%s[%zu,%zu]", i ? "," : "", t->shown.items[i].start,
               t->shown.items[i].start + t->shown.items[i].len);
    printf("]}\n");
}

static void print_table(const at_hf_tokens *t)
{
    for (size_t i = 0; i < t->n; i++) {
        printf("%4zu  %8d  ", i + 1, (int)t->ids[i]);
        fputs(t->shown.items[i].text, stdout);
        printf("  [%zu, %zu)\n", t->shown.items[i].start,
               t->shown.items[i].start + t->shown.items[i].len);
    }
}

/* One JSON string a line → one JSON array of ids a line. */
static int run_jsonl(const at_hf_model *m)
{
    size_t cap = 0;
    char *line = NULL;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        cJSON *j = cJSON_ParseWithLength(line, (size_t)got);
        const char *s = cJSON_GetStringValue(j);
        at_hf_tokens t;
        if (!s || at_hf_tokenize(m, s, strlen(s), &t, NULL)) {
            printf("null\n");
        } else {
            putchar('[');
            for (size_t i = 0; i < t.n; i++)
                printf("%s%d", i ? "," : "", (int)t.ids[i]);
            printf("]\n");
            at_hf_tokens_free(&t);
        }
        cJSON_Delete(j);
    }
    free(line);
    return 0;
}

int cli_tokenize(int argc, char **argv)
{
    int json = 0, jsonl = 0, rc = 0;
    const char *sentence = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return usage(stdout);
        if (!strcmp(argv[i], "--jsonl")) {
            jsonl = 1;
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "json") && strcmp(v, "table")) {
                fprintf(stderr, "attn-tutor tokenize: --format is table or json, not '%s'\n", v);
                return 2;
            }
            json = !strcmp(v, "json");
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "attn-tutor tokenize: unknown option '%s'\n", argv[i]);
            return usage(stderr);
        } else if (sentence) {
            fprintf(stderr, "attn-tutor tokenize: give one sentence (in quotes)\n");
            return 2;
        } else {
            sentence = argv[i];
        }
    }
    if (!cli_g.model_path || !at_hf_is_folder(cli_g.model_path)) {
        fprintf(stderr, "attn-tutor tokenize: give a Hugging Face model folder with --model DIR\n");
        return 2;
    }
    if (!jsonl && !sentence)
        return usage(stderr);
    if (cli_refuse_special_files("tokenize", cli_g.lang, CLI_FILES_MODEL | CLI_FILES_MODEL_DIR))
        return 2;
    at_hf_model *m;
    at_error err;
    if (at_hf_open(cli_g.model_path, &m, &err)) {
        fprintf(stderr, "attn-tutor tokenize: %s\n", err.msg);
        return err.code == AT_ENOMEM ? 1 : 2;
    }
    if (jsonl) {
        rc = run_jsonl(m);
    } else {
        at_hf_tokens t;
        if (at_hf_tokenize(m, sentence, strlen(sentence), &t, &err)) {
            fprintf(stderr, "attn-tutor tokenize: %s\n", err.msg);
            rc = 2;
        } else {
            if (json)
                print_json(&t);
            else
                print_table(&t);
            at_hf_tokens_free(&t);
        }
    }
    at_hf_free(m);
    return rc;
}
