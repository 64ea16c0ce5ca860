/* attn-tutor check QID ANSWER [--format text|json] [--self correct|partial|wrong] [--no-save]
 *                  [--reveal]
 * Grades one answer to a lesson question against the engine; exit 0 correct,
 * 1 wrong, 3 partly right, 4 review (a text answer the grader could not judge: the
 * student grades it with --self), 2 malformed answer, unknown question or bad usage.
 * A wrong or partly right answer is told what slipped, not the right answer: that,
 * the worked steps and the explanation come with --reveal (text), or in the JSON
 * fields "expected" and "reveal" a script asks for. */
#include "cli/cli.h"
#include "cli/output.h"
#include "engine/file.h"
#include "lesson/lesson.h"
#include "quiz/bind.h"
#include "quiz/progress.h"
#include "quiz/quiz.h"
#include "quiz/rubric.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct check_args {
    const char *qid, *answer;
    int json, save, reveal;
    int self;                 /* qz_verdict, or -1 */
} check_args;

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor check QID ANSWER [--format text|json] [--self VERDICT] [--no-save]\n"
               "                        [--reveal]\n"
               "  Grades one answer against the values the attention engine computes.\n"
               "  QID        q1 … q5 (and q2b, the follow-up of q2) for the self-test, LESSON:QID\n"
               "             for any other question (or QID alone when one lesson only has it:\n"
               "             code-bug-4)\n"
               "  ANSWER     numbers as you would write them, e.g. \"0.42 0.16\", \"cat=0.42, sat=0.16\",\n"
               "             \"about .42 and .16\", \"42%% 16%%\", \"e/6.44 1/6.44\", \"e/6.44 ≈ 0.42, …\",\n"
               "             \"21 pairs\"; a formula, a letter for a choice, a sentence for a text question,\n"
               "             Python lines for a code question (several separated by ; or new lines)\n"
               "  --reveal   with a wrong or partly right answer, also show the right answer, the\n"
               "             engine's worked steps and the explanation (held back otherwise, so that\n"
               "             you can try again; JSON carries them in \"expected\" and \"reveal\")\n"
               "  --self V   your own verdict on a text answer (correct, partial, wrong), kept\n"
               "             apart from the automatic grade: shown and saved beside it (JSON\n"
               "             self_verdict, self_score; verdict and score stay automatic)\n"
               "  --no-save  do not record the attempt in the progress file\n"

               "  Numbers: unless the question gives its own tolerance, a value is right within\n"
               "  one unit of the last decimal asked (2 when the question names none) of the\n"
               "  engine's exact value: 0.4287 at 2 decimals is right from 0.4187 to 0.4387, so\n"
               "  0.43 and 0.42 (cut off instead of rounded) are right, 0.44 is not.\n"
               "  Text answers are graded by the key ideas they state; a known misconception\n"
               "  makes them wrong. When the grader recognises neither, the verdict is review:\n"
               "  the reference answer is shown and you grade yourself with --self; a review\n"
               "  is not counted as a wrong attempt.\n"
               "  exit status: 0 correct, 1 wrong, 3 partly right, 4 review (grade it yourself),\n"
               "  2 malformed or unknown question; it follows the automatic grade, also with --self\n\n"
               CLI_GLOBAL_FLAGS_HELP);
    return f == stdout ? 0 : 2;
}

/* A value that looks like a negative number is an answer, not a flag. */
static int is_flag(const char *a)
{
    return a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.' &&
           strncmp(a, "−", strlen("−"));
}

static int parse_args(int argc, char **argv, check_args *a)
{
    *a = (check_args){.save = 1, .self = -1};
    int only_positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!only_positional && !strcmp(s, "--")) {
            only_positional = 1;
        } else if (!only_positional && (!strcmp(s, "--help") || !strcmp(s, "-h"))) {
            return usage(stdout) + 100;
        } else if (!only_positional && !strcmp(s, "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            if (strcmp(f, "json") && strcmp(f, "text")) {
                fprintf(stderr, "attn-tutor check: --format is text or json, not '%s'\n", f);
                return 2;
            }
            a->json = !strcmp(f, "json");
        } else if (!only_positional && !strcmp(s, "--self") && i + 1 < argc) {
            a->self = qz_verdict_parse(argv[++i]);
            if (a->self < 0 || a->self == QZ_MALFORMED) {
                fprintf(stderr, "attn-tutor check: --self is correct, partial or wrong, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!only_positional && !strcmp(s, "--no-save")) {
            a->save = 0;
        } else if (!only_positional && !strcmp(s, "--reveal")) {
            a->reveal = 1;
        } else if (!only_positional && is_flag(s)) {
            fprintf(stderr, "attn-tutor check: unknown option '%s' (see attn-tutor check --help)\n", s);
            return 2;
        } else if (!a->qid) {
            a->qid = s;
        } else if (!a->answer) {
            a->answer = s;
        } else {
            fprintf(stderr, "attn-tutor check: one answer only; quote it: attn-tutor check %s \"%s %s\"\n",
                    a->qid, a->answer, s);
            return 2;
        }
    }
    if (!a->qid || !a->answer) {
        usage(stderr);
        return 2;
    }
    return 0;
}

static const char *verdict_label(qz_verdict v, qz_lang lang)
{
    static const char *const en[] = {QZ_N_("correct"), QZ_N_("partly right"), QZ_N_("wrong"),
                                     QZ_N_("malformed answer"), QZ_N_("needs your review")};
    return qz_tr(lang, en[(unsigned)v < 5 ? v : QZ_MALFORMED]);
}

/* Numbers rounded to 7 significant digits so that JSON shows 0.1384401, not noise. */
static double round7(double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.7g", x);
    return strtod(buf, NULL);
}

/* Bytes of the feedback shown: up to what gives the answer away (qz_result.reveal_at)
 * unless reveal. */
static size_t shown_len(const qz_result *r, int reveal)
{
    size_t n = r->feedback ? strlen(r->feedback) : 0;
    return reveal || r->reveal_at > n ? n : r->reveal_at;
}

static int print_json(const char *qid, const char *lesson, const qz_result *r, int reveal)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return -1;
    cJSON_AddStringToObject(o, "question", qid);
    cJSON_AddStringToObject(o, "lesson", lesson);
    cJSON_AddStringToObject(o, "verdict", qz_verdict_name(r->verdict));
    cJSON_AddNumberToObject(o, "score", round7(r->score));
    /* the right answer only once it is no secret: the answer is right, the student grades
     * it against the reference (review), or --reveal asked for it; a malformed answer or a
     * first wrong try gets it with --reveal, as the text does */
    int give = reveal || r->verdict == QZ_CORRECT || r->verdict == QZ_REVIEW;
    if (r->expected_values) {
        cJSON *e = cJSON_AddArrayToObject(o, "expected");
        for (size_t i = 0; give && e && i < r->n_expected; i++)
            cJSON_AddItemToArray(e, cJSON_CreateNumber(round7(r->expected_values[i])));
        cJSON_AddStringToObject(o, "expected_text", give && r->expected ? r->expected : "");
    } else {
        cJSON_AddStringToObject(o, "expected", give && r->expected ? r->expected : "");
    }
    cJSON_AddStringToObject(o, "mistake", qz_mistake_name(r->mistake));
    cJSON_AddBoolToObject(o, "self_assessed", r->self_assessed);
    if (r->self_assessed) {
        cJSON_AddStringToObject(o, "self_verdict", qz_verdict_name(r->self_verdict));
        cJSON_AddNumberToObject(o, "self_score", r->self_score);
    }
    size_t shown = shown_len(r, reveal);
    char *fb = strndup(r->feedback ? r->feedback : "", shown);
    cJSON_AddStringToObject(o, "feedback", fb ? fb : "");
    free(fb);
    cJSON_AddStringToObject(o, "reveal", give && r->feedback ? r->feedback + shown : "");
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!s)
        return -1;
    cli_print_json(stdout, s);   /* controls escaped as JSON says (\u001b) */
    cJSON_free(s);
    return 0;
}

/* A save error said for a one-shot command: this attempt is not saved, and why. */
static void not_saved(const at_error *err)
{
    const char *m = err->msg, *note = strstr(m, QZ_SAVE_RETRY_NOTE);
    int n = note ? (int)(note - m) : (int)strlen(m);
    if (!strncmp(m, "progress not saved: ", 20)) {
        m += 20;
        n -= 20;
    }
    fprintf(stderr, "attn-tutor check: this attempt was not saved: %.*s (the grade above stands; "
                    "set XDG_STATE_HOME to a writable folder, or use --no-save)\n", n, m);
}

static void record(const char *lesson, const char *qid, const qz_result *r)
{
    qz_store st;
    at_error err;
    char id[600];
    snprintf(id, sizeof id, "%s:%s", lesson, qid);
    if (qz_store_open(&st, NULL, &err)) {
        not_saved(&err);
        return;
    }
    if (st.warning[0])
        fprintf(stderr, "attn-tutor check: %s\n", st.warning);
    if (qz_store_record(&st, id, r, (long long)time(NULL), &err) ||
        (r->verdict != QZ_MALFORMED && qz_store_save(&st, &err)))
        not_saved(&err);
    qz_store_close(&st);
}

/* The id a lesson file gives itself: its top-level line "id: X", read as text, since
 * a file that failed to load may not be valid YAML (only a regular file, and no
 * further than a lesson file may be long). 0 when found. */
static int file_lesson_id(const char *path, char *id, size_t cap)
{
    FILE *f = at_file_fopen(path, "a lesson file", NULL);
    char line[512];
    size_t read = 0;
    int rc = -1;
    while (f && rc && read <= AT_LESSON_MAX_BYTES && fgets(line, sizeof line, f)) {
        read += strlen(line);
        if (strncmp(line, "id:", 3))
            continue;
        char *v = line + 3;
        v += strspn(v, " \t\"'");
        size_t n = strcspn(v, " \t\"'#\r\n");
        if (n && n < cap) {
            memcpy(id, v, n);
            id[n] = '\0';
            rc = 0;
        }
    }
    if (f)
        fclose(f);
    return rc;
}

/* The first file with errors that calls itself lesson `id` (NULL if none); *n_errors
 * counts its errors. */
static const char *failed_lesson(const at_diag_list *d, const char *id, size_t *n_errors)
{
    const char *file = NULL;
    char got[256];
    *n_errors = 0;
    for (size_t i = 0; i < d->count; i++) {
        const at_diag *g = &d->items[i];
        if (g->level != AT_DIAG_ERROR || !g->file)
            continue;
        if (!file && !file_lesson_id(g->file, got, sizeof got) && !strcmp(got, id))
            file = g->file;
        *n_errors += file && !strcmp(g->file, file);
    }
    return file;
}

static void list_lessons(const at_lesson_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        fprintf(stderr, "%s%s", i ? " " : "", set->lessons[i]->doc->id);
}

/* No such question: say whether the lesson is missing, failed to load (and how to
 * see why), or lacks the question; list what there is. */
static void unknown_question(const at_lesson_set *set, const at_diag_list *diags, const char *qid,
                             qz_lang lang)
{
    char lid[256], qname[256];
    size_t n_errors;
    const char *bad;
    if (!qz_split_id(qid, lid, qname, sizeof lid) && !at_lesson_set_find(set, lid)) {
        if ((bad = failed_lesson(diags, lid, &n_errors)) != NULL) {
            fprintf(stderr, qz_ntr(lang, "attn-tutor check: lesson '%s' could not be loaded (%zu error in "
                                         "%s); to see why: attn-tutor lint %s\n",
                                   "attn-tutor check: lesson '%s' could not be loaded (%zu errors in "
                                   "%s); to see why: attn-tutor lint %s\n", n_errors),
                    lid, n_errors, bad, bad);
            return;
        }
        fprintf(stderr, qz_tr(lang, "attn-tutor check: no lesson '%s' (lessons: "), lid);
        list_lessons(set);
        fprintf(stderr, qz_tr(lang, "; name a question LESSON:QID)\n"));
        return;
    }
    fprintf(stderr, qz_tr(lang, "attn-tutor check: no question '%s'"), qid);
    int self = !strchr(qid, ':');
    const at_lesson *l = at_lesson_set_find(set, self ? QZ_SELF_TEST_LESSON : lid);
    if (l) {
        if (self)
            fprintf(stderr, qz_tr(lang, " (self-test:"));
        else
            fprintf(stderr, qz_tr(lang, " (questions of %s:"), lid);
        for (unsigned i = 0; i < l->doc->steps_count; i++)
            if (l->doc->steps[i].question)
                fprintf(stderr, " %s", l->doc->steps[i].question->id);
        if (self)
            fprintf(stderr, qz_tr(lang, "; others as LESSON:QID)"));
        else
            fprintf(stderr, qz_tr(lang, ")"));
    }
    fprintf(stderr, "\n");
}

int cli_check(int argc, char **argv)
{
    check_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc >= 100 ? rc - 100 : rc;
    const char *lang_code = cli_g.lang ? cli_g.lang : cli_default_lang();
    if (!cli_g.lang_asked && strcmp(lang_code, "zh") && qz_written_in_chinese(a.answer))
        lang_code = "zh";   /* no language asked: a Chinese answer is answered in Chinese */
    qz_lang lang = qz_lang_from(lang_code);
    at_lesson_set set = {0};
    at_diag_list diags = {0};
    qz_bound b = {0};
    qz_result r = {0};
    at_error err;
    if ((rc = cli_refuse_special_files("check", lang_code, CLI_FILES_LESSONS)))
        return rc;
    rc = 2;
    if (cli_load_lessons(lang_code, NULL, &set, &diags) == AT_EIO) {
        fprintf(stderr, "attn-tutor check: no lessons found; looked in:\n");
        cli_print_lesson_dirs(stderr, lang_code);
        goto out;
    }
    const at_lesson *lesson = NULL;
    const at_question *q = qz_find_question(&set, a.qid, &lesson);
    if (!q) {
        unknown_question(&set, &diags, a.qid, lang);
        goto out;
    }
    if (qz_bind_lesson_question(lesson, q, &b, &err)) {
        fprintf(stderr, "attn-tutor check: %s: %s\n", lesson->path, err.msg);
        goto out;
    }
    if (qz_grade(&b.q, a.answer, lang, &r, &err)) {   /* the answer's fault, not the lesson's */
        fprintf(stderr, "attn-tutor check: %s: %s\n", a.qid, err.msg);
        goto out;
    }
    if (a.self >= 0 && r.verdict != QZ_MALFORMED) {
        if (b.q.kind != QZ_TEXT) {
            fprintf(stderr, "attn-tutor check: --self is for text answers; %s is graded automatically\n", a.qid);
            goto out;
        }
        qz_result_self_assess(&r, (qz_verdict)a.self);
    }
    if (a.json) {
        if (print_json(a.qid, lesson->doc->id, &r, a.reveal)) {
            rc = 1;
            goto out;
        }
    } else {
        printf("%s: %s", a.qid, verdict_label(r.verdict, lang));
        if (r.verdict != QZ_MALFORMED && r.verdict != QZ_REVIEW)
            printf(qz_tr(lang, " (score %.2g)"), r.score);
        if (r.self_assessed)
            printf(qz_tr(lang, "; your own grade: %s (%.2g)"),
                   verdict_label(r.self_verdict, lang), r.self_score);
        size_t shown = shown_len(&r, a.reveal);
        printf("\n%.*s", (int)shown, r.feedback ? r.feedback : "");
        if (r.feedback && r.feedback[shown] && q->kind == AT_Q_TEXT)
            printf(qz_tr(lang, "\nTry again; to see what is missing and the reference answer, add "
                               "--reveal.\n"));
        else if (r.feedback && r.feedback[shown] && q->kind == AT_Q_CODE)
            printf(qz_tr(lang, "\nTry again; to see the right lines and the explanation, add --reveal.\n"));
        else if (r.feedback && r.feedback[shown])
            printf(qz_tr(lang, "\nTry again; to see the right answer and the engine's worked steps, "
                               "add --reveal.\n"));
    }
    if (a.save)
        record(lesson->doc->id, q->id, &r);
    rc = qz_verdict_exit_status(r.verdict);
out:
    qz_result_free(&r);
    qz_bound_free(&b);
    at_lesson_set_free(&set);
    at_diag_list_free(&diags);
    return rc;
}
