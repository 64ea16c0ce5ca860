/* attn-tutor attend [--layer L] [--head H|all] [--mask none|causal] [--no-scale]
 *                   [--format table|csv|json] [--untrained] SENTENCE
 * Tokens of a sentence and the mini-model's attention weights (engine: model.h). */
#include "cli/cli.h"
#include "cli/attend.h"
#include "engine/hf/hf.h"
#include "cli/output.h"
#include "engine/visible.h"
#include "engine/model.h"
#include "engine/tokenizer.h"
#include "quiz/lang.h"

#include <stdlib.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f,
        "usage: attn-tutor attend [--layer L] [--head H|all] [--mask none|causal] [--no-scale]\n"
        "                         [--format table|csv|json] [--untrained] [--model PATH] SENTENCE\n"
        "  The tokens of SENTENCE and the mini-model's attention weights: one row per query\n"
        "  token, one column per key token, each row sums to 1.\n"
        "  --layer L, --head H   which layer and head to show, counted from 1 (default: the\n"
        "                        model's coreference head); --head all shows every head\n"
        "  --mask causal         each token may only look at itself and earlier tokens\n"
        "  --no-scale            do not divide the scores by √d_k\n"
        "  --format json         every layer and head (layers and heads in order)\n"
        "  --untrained           the untrained (random, seeded) weights instead of the trained\n"
        "  --model FILE          a model file (default: models/mini.safetensors)\n"
        "  --model DIR           a Hugging Face model folder (GPT-2 or BERT: config.json,\n"
        "                        model.safetensors or its shards, vocab.json and merges.txt\n"
        "                        or vocab.txt): its own tokens (JSON adds \"token_ids\",\n"
        "                        \"pieces\", \"spans\"), every layer and head; default\n"
        "                        layer 1, head 1\n"
        "  --lang zh|en          the language of the table's text (CSV and JSON stay as they are)\n"
        "  Every format says what the model was trained on, which words it never saw and,\n"
        "  when the sentence is outside its training, that the weights are not learned meaning.\n");
    return f == stdout ? 0 : 2;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "attn-tutor attend: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 2;
}

static int parse_index(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 1 || v > 1000)
        return -1;
    *out = v;
    return 0;
}

/* Appends a word of the sentence (words are joined with one space). */
static int append_word(attend_args *a, const char *w)
{
    size_t old = a->sentence ? strlen(a->sentence) : 0;
    char *s = realloc(a->sentence, old + strlen(w) + 2);
    if (!s)
        return -1;
    if (old)
        s[old++] = ' ';
    strcpy(s + old, w);
    a->sentence = s;
    return 0;
}

static int parse_args(int argc, char **argv, attend_args *a)
{
    int only_words = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (only_words || s[0] != '-' || !s[1]) {
            if (append_word(a, s))
                return 1;
        } else if (!strcmp(s, "--")) {
            only_words = 1;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            return usage(stdout) - 1;   /* -1: done, exit 0 */
        } else if (!strcmp(s, "--no-scale")) {
            a->opts.unscaled = 1;
        } else if (!strcmp(s, "--untrained")) {
            a->untrained = 1;
        } else if (!v) {
            return bad("%s needs a value", s);
        } else if (i++, !strcmp(s, "--layer")) {
            if (parse_index(v, &a->layer))
                return bad("--layer wants a layer number from 1, not '%s'", v);
        } else if (!strcmp(s, "--head")) {
            if (!strcmp(v, "all"))
                a->head = -1;
            else if (parse_index(v, &a->head))
                return bad("--head wants a head number from 1 or 'all', not '%s'", v);
        } else if (!strcmp(s, "--mask")) {
            if (strcmp(v, "none") && strcmp(v, "causal"))
                return bad("--mask is none or causal, not '%s'", v);
            a->opts.causal = !strcmp(v, "causal");
            a->mask_given = 1;
        } else if (!strcmp(s, "--format")) {
            if (!strcmp(v, "table"))
                a->format = FMT_TABLE;
            else if (!strcmp(v, "csv"))
                a->format = FMT_CSV;
            else if (!strcmp(v, "json"))
                a->format = FMT_JSON;
            else
                return bad("--format is table, csv or json, not '%s'", v);
        } else {
            return bad("unknown option '%s' (see attn-tutor attend --help)", s);
        }
    }
    if (!a->sentence || !*a->sentence) {
        fprintf(stderr, "attn-tutor attend: give a sentence, e.g. attn-tutor attend "
                        "\"The animal didn't cross the road because it was too tired.\"\n");
        return 2;
    }
    return 0;
}

/* The trained model, or the demo weights when no model file is found (with a note). */
static int open_model(const attend_args *a, at_model **m)
{
    at_error err;
    if (!a->untrained) {
        const char *path = cli_g.model_path ? cli_g.model_path
                                            : cli_data_path("models/mini.safetensors");
        if (path) {
            if (at_model_load(path, m, &err) == AT_OK)
                return 0;
            fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
            return 2;
        }
        fprintf(stderr, "attn-tutor attend: note: models/mini.safetensors not found; "
                        "showing untrained demo weights\n");
    }
    if (at_model_demo(1, m, &err)) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* The table's language: --lang, else the locale. */
static qz_lang out_lang(void)
{
    return qz_lang_from(cli_g.lang ? cli_g.lang : cli_default_lang());
}

/* What the model was trained on, for JSON: {"frames", "sentences", "words", "pronouns",
 * "examples"}, or null when the file does not record it (and for demo weights). */
static void json_trained_on(const at_model *m, const at_model_info *info)
{
    const at_model_frame *f;
    size_t n = at_model_frames(m, &f), frames = 0;
    const char *p[AT_MODEL_MAX_PRONOUNS];
    size_t np = at_model_pronouns(m, p, AT_MODEL_MAX_PRONOUNS);
    for (size_t i = 0; i < n; i++)
        frames += !f[i].held_out;
    if (!info->trained || !frames) {
        printf("null");
        return;
    }
    printf("{\"frames\":%zu,\"sentences\":%zu,\"words\":%zu,\"pronouns\":[", frames,
           at_model_train_sentences(m), info->vocab_size);
    for (size_t i = 0; i < np && i < AT_MODEL_MAX_PRONOUNS; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, p[i]);
    }
    printf("],\"examples\":[");
    for (size_t i = 0, k = 0; i < n; i++) {
        if (f[i].held_out)
            continue;
        printf("%s{\"frame\":", k++ ? "," : "");
        cli_json_string(stdout, f[i].id);
        printf(",\"lang\":");
        cli_json_string(stdout, f[i].lang);
        printf(",\"pattern\":");
        cli_json_string(stdout, f[i].pattern);
        printf(",\"example\":");
        cli_json_string(stdout, f[i].example);
        putchar('}');
    }
    printf("]}");
}

static void json_scope(const at_model *m, const at_tokens *t, const at_scope *sc)
{
    static const struct { unsigned bit; const char *name; } reasons[] = {
        {AT_SCOPE_UNTRAINED, "untrained"},
        {AT_SCOPE_NO_PRONOUN, "no_trained_pronoun"},
        {AT_SCOPE_UNSEEN, "unseen_over_quarter"},
    };
    printf("\"unseen\":[");
    for (size_t k = 0; k < sc->n_unseen; k++) {
        if (k) putchar(',');
        cli_json_string(stdout, t->items[sc->unseen[k]].text);
    }
    printf("],\"unseen_tokens\":%zu,\"unseen_share\":", sc->unseen_tokens);
    cli_print_number(stdout, sc->n ? (double)sc->unseen_tokens / (double)sc->n : 0.0, 1);
    printf(",\"scope_reasons\":[");
    for (size_t k = 0, first = 1; k < sizeof reasons / sizeof reasons[0]; k++)
        if (sc->reasons & reasons[k].bit) {
            printf("%s\"%s\"", first ? "" : ",", reasons[k].name);
            first = 0;
        }
    printf("],\"scope_note\":");
    char note[1024];
    if (cli_scope_note(m, sc, QZ_EN, note, sizeof note))   /* JSON: one language */
        cli_json_string(stdout, note);
    else
        printf("null");
    putchar(',');
}

/* The head training named (the previous-token head) and what it does on this
 * sentence, or null. */
static void json_named_head(const at_model *m, const at_model_run *r)
{
    size_t l, h, at;
    double mean, min;
    if (!at_model_named_head(m, &l, &h)) {
        printf("null");
        return;
    }
    printf("{\"layer\":%zu,\"head\":%zu,\"role\":\"previous token\"", l + 1, h + 1);
    if (at_run_previous_token(r, l, h, &mean, &min, &at)) {
        printf(",\"previous_token_mean\":");
        cli_print_number(stdout, mean, 1);
        printf(",\"previous_token_min\":");
        cli_print_number(stdout, min, 1);
    }
    putchar('}');
}

static void print_json(const at_model *m, const at_tokens *t, const at_model_run *r,
                       const at_scope *sc, const attend_args *a)
{
    at_model_info info;
    at_model_get_info(m, &info);
    const size_t n = r->n;
    printf("{\"tokens\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) putchar(',');
        cli_json_string(stdout, t->items[i].text);
    }
    printf("],\"model\":\"%s\",\"mask\":\"%s\",\"scaled\":%s,", at_model_kind(m),
           a->opts.causal ? "causal" : "none", a->opts.unscaled ? "false" : "true");
    printf("\"default_layer\":%zu,\"default_head\":%zu,", info.coref_layer + 1,
           info.coref_head + 1);
    printf("\"coref\":{\"layer\":%zu,\"head\":%zu,\"trained_rows\":[", info.coref_layer + 1,
           info.coref_head + 1);
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", at_scope_row_trained(m, sc, info.coref_layer, i) ? "true"
                                                                                     : "false");
    printf("]},\"named_head\":");
    json_named_head(m, r);
    printf(",\"trained_on\":");
    json_trained_on(m, &info);
    putchar(',');
    json_scope(m, t, sc);
    printf("\"unknown\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", r->unknown[i] ? "true" : "false");
    printf("],\"fully_masked\":[");
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", r->fully_masked[i] ? "true" : "false");
    printf("],\"layers\":[");
    for (size_t l = 0; l < r->n_layers; l++) {
        printf("%s{\"heads\":[", l ? "," : "");
        for (size_t h = 0; h < r->n_heads[l]; h++) {
            const float *w = r->weights[l] + h * n * n;
            printf("%s{\"weights\":[", h ? "," : "");
            for (size_t i = 0; i < n; i++) {
                printf("%s[", i ? "," : "");
                for (size_t j = 0; j < n; j++) {
                    if (j) putchar(',');
                    cli_print_number(stdout, w[i * n + j], 1);
                }
                putchar(']');
            }
            printf("]}");
        }
        printf("]}");
    }
    printf("]}\n");
}

static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

void cli_attend_csv(const at_tokens *t, const at_model_run *r, size_t l, size_t h0, size_t h1)
{
    const size_t n = r->n;
    printf("layer,head,query,query_token,key,key_token,weight\n");
    for (size_t h = h0; h < h1; h++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                printf("%zu,%zu,%zu,", l + 1, h + 1, i + 1);
                csv_field(t->items[i].text);
                printf(",%zu,", j + 1);
                csv_field(t->items[j].text);
                putchar(',');
                cli_print_number(stdout, r->weights[l][(h * n + i) * n + j], 0);
                putchar('\n');
            }
}

static void pad(int cols)
{
    for (int c = 0; c < cols; c++)
        putchar(' ');
}

void cli_attend_table(const at_tokens *t, const at_model_run *r, size_t l, size_t h,
                      const unsigned char *mark, qz_lang lang)
{
    const size_t n = r->n;
    int label = 0, *tw = malloc((n ? n : 1) * sizeof *tw);
    if (!tw)
        return;
    for (size_t i = 0; i < n; i++) {   /* columns as printed: a control is its one "�" */
        tw[i] = (int)at_visible_width(t->items[i].text, strlen(t->items[i].text));
        label = tw[i] > label ? tw[i] : label;
    }
    pad(label);
    for (size_t j = 0; j < n; j++) {
        printf("  ");
        pad((tw[j] < 4 ? 4 : tw[j]) - tw[j]);
        fputs(t->items[j].text, stdout);
    }
    putchar('\n');
    for (size_t i = 0; i < n; i++) {
        fputs(t->items[i].text, stdout);
        pad(label - tw[i]);
        for (size_t j = 0; j < n; j++)
            printf("  %*.2f", tw[j] < 4 ? 4 : tw[j], r->weights[l][(h * n + i) * n + j]);
        if (mark && mark[i])
            printf("%s", qz_tr(lang, "  ← trained row"));
        putchar('\n');
    }
    free(tw);
}

/* One line on what the head does, measured by the trainer (trained models only). */
static void print_profile(const at_model *m, size_t l, size_t h, qz_lang lang)
{
    at_head_profile p;
    if (at_model_head_profile(m, l, h, &p) || !p.measured)
        return;
    if (!strcmp(p.role, "previous token")) {
        printf(qz_tr(lang, "the previous-token head: trained so that every token looks at the "
                           "token before it;\nmeasured on the training sentences, %.2f of each "
                           "row's weight is on that token\n"), p.to_previous);
        return;
    }
    printf(qz_tr(lang, "measured on the training sentences, the pronoun's row puts on average "
                       "%.2f on the antecedent,\n%.2f on the other noun, %.2f on the adjective, "
                       "%.2f on itself\n"),
           p.pronoun_to_antecedent, p.pronoun_to_other_noun, p.pronoun_to_adjective,
           p.pronoun_to_itself);
}

/* Below the named head's table: what it does on this very sentence. */
static void print_named_here(const at_model *m, const at_tokens *t, const at_model_run *r,
                             size_t l, size_t h, qz_lang lang)
{
    size_t nl, nh, at;
    double mean, min;
    if (!at_model_named_head(m, &nl, &nh) || nl != l || nh != h ||
        !at_run_previous_token(r, l, h, &mean, &min, &at))
        return;
    printf(qz_tr(lang, "on this sentence: %.2f of each row's weight on the token before it on "
                       "average, lowest %.2f (row %zu, %s)\n"),
           mean, min, at + 1, t->items[at].text);
}

static void print_heading(const at_model *m, const at_model_run *r, const attend_args *a,
                          qz_lang lang)
{
    char line[1024];
    printf(qz_tr(lang, "model: %s\n"), cli_model_kind(m, lang));
    cli_scope_trained_on(m, lang, line, sizeof line);
    printf("%s\n", line);
    printf(qz_ntr(lang, "%zu token; rows: query token, columns: key token; each row sums to 1\n",
                  "%zu tokens; rows: query token, columns: key token; each row sums to 1\n", r->n), r->n);
    printf(qz_tr(lang, "mask: %s; scores %s\n"),
           a->opts.causal ? qz_trc(lang, "mask", "causal") : qz_trc(lang, "mask", "none"),
           a->opts.unscaled ? qz_tr(lang, "not scaled") : qz_tr(lang, "scaled by 1/√d_k"));
}

/* Below a head of the last layer: which of its rows training reached. */
static void print_rows_note(const at_model *m, const at_tokens *t, const at_scope *sc,
                            qz_lang lang)
{
    if (!sc->n_trained_rows) {
        char pron[384];
        cli_scope_pronouns(m, pron, sizeof pron);
        if (pron[0])
            printf(qz_tr(lang, "no trained row: the model was trained only at %s, and this "
                               "sentence has none; no row of this head was trained\n"), pron);
        return;
    }
    printf("%s", qz_tr(lang, "trained row:"));
    for (size_t i = 0, k = 0; i < sc->n; i++)
        if (sc->trained_row[i])
            printf("%s%s", lang == QZ_ZH && !k++ ? "" : " ", t->items[i].text);
    size_t other = sc->n - sc->n_trained_rows;
    if (other)
        printf(qz_ntr(lang, "; the model was trained only at the pronoun, so the other %zu row of this "
                            "head was never trained and means nothing\n",
                      "; the model was trained only at the pronoun, so the other %zu rows of this "
                      "head were never trained and mean nothing\n", other), other);
    else
        putchar('\n');
}

static void print_notes(const at_model *m, const at_tokens *t, const at_model_run *r,
                        const at_scope *sc, qz_lang lang)
{
    at_model_info info;
    at_model_get_info(m, &info);
    if (info.trained && sc->n_unseen) {
        int pct = (int)(100.0 * (double)sc->unseen_tokens / (double)sc->n + 0.5);
        printf(sc->unseen_han ? qz_trc(lang, "Chinese characters",
                                       "\nnever seen in training (%zu of %zu tokens, %d%%; vectors "
                                       "guessed from character n-grams):")
                              : qz_tr(lang, "\nnever seen in training (%zu of %zu tokens, %d%%; vectors "
                                            "guessed from character n-grams):"),
               sc->unseen_tokens, sc->n, pct);
        for (size_t k = 0; k < sc->n_unseen; k++)
            printf("%s%s", lang == QZ_ZH && !k ? "" : " ", t->items[sc->unseen[k]].text);
        putchar('\n');
    }
    char note[1024];
    if (cli_scope_note(m, sc, lang, note, sizeof note))
        printf(qz_tr(lang, "%snote: %s\n"),
               info.trained && sc->n_unseen ? "" : "\n", note);
    for (size_t i = 0; i < r->n; i++)
        if (r->fully_masked[i])
            printf(qz_tr(lang, "row %zu (%s) is fully masked: every key is hidden, weights all 0\n"), i + 1,
                   t->items[i].text);
}

static void print_tables(const at_model *m, const at_tokens *t, const at_model_run *r,
                         const at_scope *sc, const attend_args *a, size_t l, size_t h0,
                         size_t h1)
{
    at_model_info info;
    qz_lang lang = out_lang();
    at_model_get_info(m, &info);
    print_heading(m, r, a, lang);
    int last = info.trained && l + 1 == info.n_layers;
    size_t nl = 0, nh = 0;
    int named = at_model_named_head(m, &nl, &nh);
    for (size_t h = h0; h < h1; h++) {
        int coref = l == info.coref_layer && h == info.coref_head;
        int prev = named && l == nl && h == nh;
        printf(qz_tr(lang, "\nlayer %zu of %zu, head %zu of %zu%s\n"), l + 1, r->n_layers, h + 1,
               r->n_heads[l], coref  ? qz_tr(lang, " (the coreference head)")
                              : prev ? qz_tr(lang, " (the previous-token head)") : "");
        print_profile(m, l, h, lang);
        cli_attend_table(t, r, l, h, last ? sc->trained_row : NULL, lang);
        if (last)
            print_rows_note(m, t, sc, lang);
        print_named_here(m, t, r, l, h, lang);
    }
    print_notes(m, t, r, sc, lang);
}

static int show(const at_model *m, const at_tokens *t, const at_model_run *r,
                const at_scope *sc, const attend_args *a)
{
    at_model_info info;
    at_model_get_info(m, &info);
    size_t l = a->layer ? (size_t)a->layer - 1 : info.coref_layer;
    if (l >= r->n_layers) {
        fprintf(stderr, "attn-tutor attend: --layer %ld: the model has %zu layers\n", a->layer,
                r->n_layers);
        return 2;
    }
    size_t h0 = a->head > 0 ? (size_t)a->head - 1 : (l == info.coref_layer ? info.coref_head : 0);
    size_t h1 = a->head < 0 ? r->n_heads[l] : h0 + 1;
    if (a->head < 0)
        h0 = 0;
    if (h0 >= r->n_heads[l]) {
        fprintf(stderr, "attn-tutor attend: --head %ld: layer %zu has %zu head%s\n", a->head,
                l + 1, r->n_heads[l], r->n_heads[l] == 1 ? "" : "s");
        return 2;
    }
    if (a->format == FMT_JSON)
        print_json(m, t, r, sc, a);
    else if (a->format == FMT_CSV)
        cli_attend_csv(t, r, l, h0, h1);
    else
        print_tables(m, t, r, sc, a, l, h0, h1);
    return 0;
}

int cli_attend(int argc, char **argv)
{
    attend_args a = {0};
    at_model *m = NULL;
    at_tokens toks = {0};
    at_model_run run = {0};
    at_scope scope = {0};
    at_error err;
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        rc = rc < 0 ? 0 : rc;
        goto out;
    }
    if ((rc = cli_refuse_special_files("attend", cli_g.lang, CLI_FILES_MODEL | CLI_FILES_MODEL_DIR)))
        goto out;
    if (cli_g.model_path && at_hf_is_folder(cli_g.model_path)) {
        rc = cli_attend_hf(&a);
        goto out;
    }
    if (at_tokenize(a.sentence, strlen(a.sentence), &toks, &err) != AT_OK) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = 2;
        goto out;
    }
    if (toks.n == 0) {
        fprintf(stderr, "attn-tutor attend: the sentence has no words, only spaces\n");
        rc = 2;
        goto out;
    }
    if ((rc = open_model(&a, &m)))
        goto out;
    if (at_model_attend(m, &toks, &a.opts, &run, &err) != AT_OK) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = err.code == AT_ENOMEM ? 1 : 2;
        goto out;
    }
    if (at_model_scope(m, &toks, &scope, &err) != AT_OK) {
        fprintf(stderr, "attn-tutor attend: %s\n", err.msg);
        rc = 1;
        goto out;
    }
    rc = show(m, &toks, &run, &scope, &a);
out:
    at_scope_free(&scope);
    at_model_run_free(&run);
    at_model_free(m);
    at_tokens_free(&toks);
    free(a.sentence);
    return rc;
}
