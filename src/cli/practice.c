/* attn-tutor practice [--seed N] [--kind K] [--count N] [--print | --solution | --answer A]
 *                     [--format text|json] [--no-save]
 * Generated exercises with new numbers, graded by the engine. Interactive (answers
 * read line by line from stdin, a terminal or a pipe), or one exercise at a time:
 * --print shows it, --answer grades it (same seed, same exercise). A session starts
 * with the lesson questions that are due again (Leitner boxes in the progress file). */
#include "cli/cli.h"
#include "cli/output.h"
#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/practice.h"
#include "quiz/progress.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct practice_args {
    uint64_t seed;
    int have_seed, kind, count, print, solution, json, save;
    const char *answer;
} practice_args;

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor practice [--seed N] [--kind softmax|attention|causal|heads] [--count N]\n"
               "                           [--print | --solution | --answer A] [--format text|json] [--no-save]\n"
               "  Exercises with new numbers, graded by the attention engine. Without --print or\n"
               "  --answer: a session that reads your answers from stdin (an empty line or q ends it),\n"
               "  starting with the questions due for review.\n"
               "  --seed N     replay the same exercises   --kind K   only this kind\n"
               "  --print      show the exercise and stop  --answer A grade A for that exercise\n"
               "  --solution   show the engine's answer    --count N  exercises in a session (default 4)\n\n"
               CLI_GLOBAL_FLAGS_HELP);
    return f == stdout ? 0 : 2;
}

static int parse_args(int argc, char **argv, practice_args *a)
{
    *a = (practice_args){.kind = -1, .count = 4, .save = 1};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--help") || !strcmp(s, "-h"))
            return usage(stdout) + 100;
        if (!strcmp(s, "--print")) {
            a->print = 1;
        } else if (!strcmp(s, "--solution")) {
            a->solution = 1;
        } else if (!strcmp(s, "--no-save")) {
            a->save = 0;
        } else if (val && !strcmp(s, "--answer")) {
            a->answer = argv[++i];
        } else if (val && !strcmp(s, "--seed")) {
            char *end;
            errno = 0;
            a->seed = strtoull(argv[++i], &end, 10);
            if (*end || errno || argv[i][0] == '-') {
                fprintf(stderr, "attn-tutor practice: --seed wants a whole number, not '%s'\n", argv[i]);
                return 2;
            }
            a->have_seed = 1;
        } else if (val && !strcmp(s, "--kind")) {
            a->kind = qz_practice_kind_parse(argv[++i]);
            if (a->kind < 0) {
                fprintf(stderr, "attn-tutor practice: --kind is softmax, attention, causal or heads, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (val && !strcmp(s, "--count")) {
            a->count = atoi(argv[++i]);
            if (a->count < 1 || a->count > 1000) {
                fprintf(stderr, "attn-tutor practice: --count is between 1 and 1000\n");
                return 2;
            }
        } else if (val && !strcmp(s, "--format")) {
            a->json = !strcmp(argv[++i], "json");
            if (!a->json && strcmp(argv[i], "text")) {
                fprintf(stderr, "attn-tutor practice: --format is text or json, not '%s'\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "attn-tutor practice: unknown argument '%s' (see attn-tutor practice --help)\n", s);
            return 2;
        }
    }
    if (!a->have_seed)
        a->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    return 0;
}

static void record(qz_store *st, const char *id, const qz_result *r)
{
    at_error err;
    if (qz_store_record(st, id, r, (long long)time(NULL), &err) ||
        (r->verdict != QZ_MALFORMED && qz_store_save(st, &err)))
        fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
}

static void print_result(const qz_result *r, qz_lang lang)
{
    static const char *const en[] = {QZ_N_("correct"), QZ_N_("partly right"), QZ_N_("wrong"),
                                     QZ_N_("not read")};
    printf("→ %s\n%s", qz_tr(lang, en[r->verdict]), r->feedback ? r->feedback : "");
}

/* One exercise: --print, --solution or --answer. */
static int single(const practice_args *a, qz_lang lang, qz_store *st)
{
    qz_practice_kind kind = a->kind >= 0 ? (qz_practice_kind)a->kind : qz_practice_kind_at(a->seed, 0);
    qz_exercise e;
    qz_result r = {0};
    at_error err;
    int rc = 2;
    if (qz_practice_make(kind, a->seed, lang, &e, &err)) {
        fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
        return 2;
    }
    if (qz_grade(&e.q, a->answer ? a->answer : "", lang, &r, &err)) {
        fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
        goto out;
    }
    if (a->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seed", (double)a->seed);
        cJSON_AddStringToObject(o, "kind", qz_practice_kind_name(kind));
        cJSON_AddStringToObject(o, "prompt", e.prompt);
        if (a->solution)
            cJSON_AddStringToObject(o, "solution", r.expected ? r.expected : "");
        if (a->answer) {
            cJSON_AddStringToObject(o, "verdict", qz_verdict_name(r.verdict));
            cJSON_AddNumberToObject(o, "score", r.score);
            cJSON_AddStringToObject(o, "feedback", r.feedback ? r.feedback : "");
        }
        char *s = cJSON_PrintUnformatted(o);
        if (s)
            cli_print_json(stdout, s);
        cJSON_free(s);
        cJSON_Delete(o);
    } else {
        if (a->print || !a->answer)
            printf("%s", e.prompt);
        if (a->solution)
            printf("%s%s\n", qz_tr(lang, "solution: "), r.expected ? r.expected : "");
        if (a->answer)
            print_result(&r, lang);
    }
    rc = 0;
    if (a->answer) {
        rc = qz_verdict_exit_status(r.verdict);
        if (st) {
            char id[64];
            snprintf(id, sizeof id, "practice:%s", qz_practice_kind_name(kind));
            record(st, id, &r);
        }
    }
out:
    qz_result_free(&r);
    qz_exercise_free(&e);
    return rc;
}

/* Read one answer line; NULL at the end of input or when the student quits. */
static char *read_answer(char **line, size_t *cap)
{
    fflush(stdout);
    ssize_t n = getline(line, cap, stdin);
    if (n < 0)
        return NULL;
    while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r'))
        (*line)[--n] = '\0';
    if (n == 0 || !strcmp(*line, "q") || !strcmp(*line, "quit"))
        return NULL;
    return *line;
}

/* Ask until the answer can be read (a malformed answer is not an attempt). Returns
 * 1 graded, 0 the student stopped. */
static int ask(const qz_question *q, const char *prompt, const char *id, qz_lang lang,
               qz_store *st, char **line, size_t *cap, unsigned *right)
{
    printf("%s> ", prompt);
    for (;;) {
        char *ans = read_answer(line, cap);
        if (!ans)
            return 0;
        qz_result r;
        at_error err;
        if (qz_grade(q, ans, lang, &r, &err)) {
            fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
            return 0;
        }
        print_result(&r, lang);
        if (st)
            record(st, id, &r);
        int again = r.verdict == QZ_MALFORMED;
        *right += r.verdict == QZ_CORRECT;
        qz_result_free(&r);
        if (!again)
            return 1;
        printf("> ");
    }
}

/* The lesson questions due again, then generated exercises. */
static int session(const practice_args *a, qz_lang lang, const char *lang_code, qz_store *st)
{
    char *line = NULL;
    size_t cap = 0;
    unsigned done = 0, right = 0;
    int go_on = 1;
    printf(qz_tr(lang, "Practice (seed %llu; replay with --seed %llu). An empty line or q ends it.\n\n"),
           (unsigned long long)a->seed, (unsigned long long)a->seed);
    at_lesson_set set = {0};
    at_diag_list diags = {0};
    if (st && cli_load_lessons(lang_code, NULL, &set, &diags) != AT_EIO) {
        const char *due[3];
        size_t n = qz_store_due(st, (long long)time(NULL), due, 3);
        for (size_t i = 0; go_on && i < n; i++) {
            const at_lesson *lesson = NULL;
            const at_question *lq = qz_find_question(&set, due[i], &lesson);
            qz_bound b;
            if (!lq || !lq->prompt || qz_bind_lesson_question(lesson, lq, &b, NULL))
                continue;
            printf(qz_tr(lang, "[review %s]\n"), due[i]);
            go_on = ask(&b.q, lq->prompt, due[i], lang, st, &line, &cap, &right);
            done += go_on;
            printf("\n");
            qz_bound_free(&b);
        }
    }
    for (int i = 0; go_on && i < a->count; i++) {
        qz_practice_kind kind = a->kind >= 0 ? (qz_practice_kind)a->kind : qz_practice_kind_at(a->seed, (unsigned)i);
        qz_exercise e;
        at_error err;
        if (qz_practice_make(kind, a->seed + (uint64_t)i, lang, &e, &err)) {
            fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
            break;
        }
        char id[64];
        snprintf(id, sizeof id, "practice:%s", qz_practice_kind_name(kind));
        printf("[%d/%d %s]\n", i + 1, a->count, qz_practice_kind_name(kind));
        go_on = ask(&e.q, e.prompt, id, lang, st, &line, &cap, &right);
        done += go_on;
        printf("\n");
        qz_exercise_free(&e);
    }
    printf(qz_tr(lang, "%u of %u answered right.\n"), right, done);
    free(line);
    at_lesson_set_free(&set);
    at_diag_list_free(&diags);
    return 0;
}

int cli_practice(int argc, char **argv)
{
    practice_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc >= 100 ? rc - 100 : rc;
    const char *lang_code = cli_g.lang ? cli_g.lang : cli_default_lang();
    qz_lang lang = qz_lang_from(lang_code);
    qz_store store, *st = NULL;
    at_error err;
    int want_store = a.save && (a.answer || (!a.print && !a.solution));
    if (!a.print && !a.solution && !a.answer &&   /* a session: due lesson questions first */
        (rc = cli_refuse_special_files("practice", lang_code, CLI_FILES_LESSONS)))
        return rc;
    if (want_store) {
        if (qz_store_open(&store, NULL, &err))
            fprintf(stderr, "attn-tutor practice: %s\n", err.msg);
        else {
            st = &store;
            if (store.warning[0])
                fprintf(stderr, "attn-tutor practice: %s\n", store.warning);
        }
    }
    if (a.print || a.solution || a.answer)
        rc = single(&a, lang, st);
    else
        rc = session(&a, lang, lang_code, st);
    if (st)
        qz_store_close(st);
    return rc;
}
