/* The progress store on libcyaml: schema, load (damaged files moved aside),
 * atomic save. See quiz/progress.h. */
#include "quiz/progress.h"
#include "engine/file.h"

#include <cyaml/cyaml.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_FILE "progress.yaml"
#define PROGRESS_MAX_BYTES (8 * 1024 * 1024)
#define STALE_SECONDS 600
/* Saves write TEMP_PREFIX + six letters or digits (mkstemp) and rename it over the file. */
#define TEMP_PREFIX "." PROGRESS_FILE "."
#define TEMP_TEMPLATE TEMP_PREFIX "XXXXXX"

/* ---- schema (bottom up) ---- */

static const cyaml_strval_t verdict_strings[] = {
    {"none", QZ_REC_NONE}, {"correct", QZ_REC_CORRECT}, {"partial", QZ_REC_PARTIAL},
    {"wrong", QZ_REC_WRONG}, {"review", QZ_REC_REVIEW},
};

static const cyaml_schema_field_t answer_fields[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, qz_answer_rec, id, 1, 512),   /* id: */
    CYAML_FIELD_ENUM("verdict", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, qz_answer_rec, verdict,
                     verdict_strings, 5),                                         /* verdict: */
    CYAML_FIELD_FLOAT("score", CYAML_FLAG_OPTIONAL, qz_answer_rec, score),        /* score: */
    CYAML_FIELD_FLOAT("best", CYAML_FLAG_OPTIONAL, qz_answer_rec, best),          /* best: */
    CYAML_FIELD_UINT("attempts", CYAML_FLAG_OPTIONAL, qz_answer_rec, attempts),   /* attempts: */
    CYAML_FIELD_UINT("correct", CYAML_FLAG_OPTIONAL, qz_answer_rec, correct),     /* correct: */
    CYAML_FIELD_ENUM("self_assessed", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, qz_answer_rec, self,
                     verdict_strings, 5),                                         /* self_assessed: */
    CYAML_FIELD_UINT("box", CYAML_FLAG_OPTIONAL, qz_answer_rec, box),             /* box: */
    CYAML_FIELD_INT("due", CYAML_FLAG_OPTIONAL, qz_answer_rec, due),              /* due: */
    CYAML_FIELD_INT("last", CYAML_FLAG_OPTIONAL, qz_answer_rec, last),            /* last: */
    CYAML_FIELD_END
};
static const cyaml_schema_value_t answer_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, qz_answer_rec, answer_fields),
};

static const cyaml_schema_field_t lesson_fields[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, qz_lesson_rec, id, 1, 256),   /* id: */
    CYAML_FIELD_UINT("step", CYAML_FLAG_OPTIONAL, qz_lesson_rec, step),           /* step: */
    CYAML_FIELD_BOOL("done", CYAML_FLAG_OPTIONAL, qz_lesson_rec, done),           /* done: */
    CYAML_FIELD_END
};
static const cyaml_schema_value_t lesson_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, qz_lesson_rec, lesson_fields),
};

static const cyaml_schema_field_t progress_fields[] = {
    CYAML_FIELD_UINT("version", CYAML_FLAG_DEFAULT, qz_progress, version),        /* version: */
    CYAML_FIELD_STRING_PTR("lesson", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, qz_progress, lesson,
                           0, 256),                                               /* lesson: */
    CYAML_FIELD_UINT("step", CYAML_FLAG_OPTIONAL, qz_progress, step),             /* step: */
    CYAML_FIELD_SEQUENCE("lessons", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, qz_progress, lessons,
                         &lesson_value, 0, CYAML_UNLIMITED),                      /* lessons: */
    CYAML_FIELD_UINT("answers_total", CYAML_FLAG_DEFAULT, qz_progress, answers_total),
    CYAML_FIELD_SEQUENCE("answers", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, qz_progress, answers,
                         &answer_value, 0, CYAML_UNLIMITED),                      /* answers: */
    CYAML_FIELD_END
};
static const cyaml_schema_value_t progress_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, qz_progress, progress_fields),
};

/* libcyaml's messages collected into one line, for the "damaged" report. */
typedef struct log_buf {
    char text[256];
} log_buf;

static void log_to_buf(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    log_buf *b = ctx;
    if (level < CYAML_LOG_ERROR || b->text[0])
        return;   /* the first error is the useful one */
    vsnprintf(b->text, sizeof b->text, fmt, args);
    size_t n = strlen(b->text);
    while (n && (b->text[n - 1] == '\n' || b->text[n - 1] == ' '))
        b->text[--n] = '\0';
}

static cyaml_config_t config(log_buf *log)
{
    return (cyaml_config_t){
        .log_fn = log_to_buf,
        .log_ctx = log,
        .mem_fn = cyaml_mem,
        .log_level = CYAML_LOG_ERROR,
        .flags = CYAML_CFG_IGNORE_UNKNOWN_KEYS | CYAML_CFG_NO_ALIAS | CYAML_CFG_STYLE_BLOCK,
    };
}

static void progress_free(qz_progress *p)
{
    if (!p)
        return;
    log_buf log = {{0}};
    cyaml_config_t cfg = config(&log);
    cyaml_free(&cfg, &progress_value, p, 0);
}

/* Our own allocations must be freeable by cyaml_free: use cyaml_mem throughout. */
static void *mem(void *old, size_t size)
{
    return cyaml_mem(NULL, old, size);
}

static char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem(NULL, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static qz_progress *progress_new(void)
{
    qz_progress *p = mem(NULL, sizeof *p);
    if (p) {
        memset(p, 0, sizeof *p);
        p->version = QZ_PROGRESS_VERSION;
    }
    return p;
}

const char *qz_store_default_dir(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(buf, cap, "%s/attn-tutor", xdg);
    else if (home && *home)
        snprintf(buf, cap, "%s/.local/state/attn-tutor", home);
    else
        return NULL;
    return buf;
}

/* Move a damaged file aside as PATH.damaged-YYYYMMDD-HHMMSS[-N]. */
static int move_aside(const char *path, char *aside, size_t cap)
{
    time_t t = time(NULL);
    struct tm tm;
    char stamp[32];
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 0; n < 100; n++) {
        if (n)
            snprintf(aside, cap, "%s.damaged-%s-%d", path, stamp, n);
        else
            snprintf(aside, cap, "%s.damaged-%s", path, stamp);
        if (access(aside, F_OK) != 0 && rename(path, aside) == 0)
            return 0;
    }
    return -1;
}

/* Checks that libcyaml cannot express: the version, the answer count (a cut
 * file), boxes in range. Returns NULL when sound, else why not. */
static const char *check_loaded(qz_progress *p)
{
    if (p->version == 0)
        return "no format version";
    if (p->answers_total != p->answers_count)
        return "the list of answers is cut short";
    for (unsigned i = 0; i < p->answers_count; i++) {
        qz_answer_rec *r = &p->answers[i];
        if (r->box < 1)
            r->box = 1;
        if (r->box > QZ_LEITNER_BOXES)
            r->box = QZ_LEITNER_BOXES;
        if (!(r->score >= 0 && r->score <= 1))
            r->score = 0;
        if (!(r->best >= 0 && r->best <= 1))
            r->best = r->score;
    }
    return NULL;
}

static void damaged(qz_store *s, const char *why)
{
    char aside[4200];
    if (move_aside(s->path, aside, sizeof aside) == 0) {
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s could not be read (%s); it was kept as %s and progress starts afresh",
                 s->path, why, aside);
    } else {
        s->no_save = true;
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s could not be read (%s) nor moved aside (%s); progress will not be "
                 "saved this session, so the file is left as it is",
                 s->path, why, strerror(errno));
    }
}

static void load(qz_store *s)
{
    struct stat st;
    if (stat(s->path, &st) != 0)
        return;   /* no file yet (or no folder): empty progress; a save says what is wrong */
    char *data = NULL;
    size_t len = 0;
    at_error why;
    int rc = at_file_read(s->path, "a progress file", PROGRESS_MAX_BYTES, &data, &len, &why);
    if (rc == AT_ENOTREG) {   /* not ours to move: a FIFO, a socket, a folder someone made */
        s->no_save = true;
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s %s: it is left as it is and progress is not saved (remove it, "
                 "or set XDG_STATE_HOME to another folder)", s->path, why.msg);
        return;
    }
    if (rc != AT_OK || len == 0) {
        damaged(s, rc == AT_ERANGE ? "too large" : rc ? why.msg : "empty");
        free(data);
        return;
    }
    log_buf log = {{0}};
    cyaml_config_t cfg = config(&log);
    qz_progress *p = NULL;
    cyaml_err_t e = cyaml_load_data((const uint8_t *)data, len, &cfg, &progress_value,
                                    (cyaml_data_t **)&p, NULL);
    free(data);
    if (e != CYAML_OK) {
        char why[320];
        snprintf(why, sizeof why, "%s%s%s", cyaml_strerror(e), log.text[0] ? ": " : "", log.text);
        damaged(s, why);
        return;
    }
    if (!p) {   /* a document with no node at all: blank lines, comments, "---" */
        damaged(s, "no YAML document");
        return;
    }
    const char *bad = check_loaded(p);
    if (bad) {
        progress_free(p);
        damaged(s, bad);
        return;
    }
    if (p->version > QZ_PROGRESS_VERSION) {
        s->no_save = true;
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s was written by a newer attn-tutor (format %u, this one reads %u); "
                 "it is read but not overwritten",
                 s->path, p->version, QZ_PROGRESS_VERSION);
    }
    p->version = p->version > QZ_PROGRESS_VERSION ? p->version : QZ_PROGRESS_VERSION;
    progress_free(s->p);
    s->p = p;
}

static int is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Exactly a name mkstemp makes from TEMP_TEMPLATE: the prefix and six letters or digits. */
static int is_temp_name(const char *name)
{
    size_t n = sizeof TEMP_PREFIX - 1;
    if (strncmp(name, TEMP_PREFIX, n) || strlen(name) != sizeof TEMP_TEMPLATE - 1)
        return 0;
    for (; name[n]; n++)
        if (!is_alnum(name[n]))
            return 0;
    return 1;
}

/* Temporary files of saves that were killed: removed once they are old enough that
 * no other running tutor can still be writing them. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4608];
    time_t now = time(NULL);
    while (d && (e = readdir(d))) {
        struct stat st;
        if (!is_temp_name(e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > STALE_SECONDS)
            unlink(path);
    }
    if (d)
        closedir(d);
}

int qz_store_open(qz_store *s, const char *dir, at_error *err)
{
    char buf[4096];
    memset(s, 0, sizeof *s);
    if (!dir && !(dir = qz_store_default_dir(buf, sizeof buf)))
        return at_error_set(err, AT_EINVAL, "no place for the progress file: set HOME or XDG_STATE_HOME");
    size_t n = strlen(dir);
    s->dir = strdup(dir);
    s->path = malloc(n + sizeof "/" PROGRESS_FILE);
    s->p = progress_new();
    if (!s->dir || !s->path || !s->p) {
        qz_store_close(s);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    snprintf(s->path, n + sizeof "/" PROGRESS_FILE, "%s/" PROGRESS_FILE, dir);
    remove_stale_temporaries(s->dir);
    load(s);
    return AT_OK;
}

void qz_store_close(qz_store *s)
{
    free(s->dir);
    free(s->path);
    progress_free(s->p);
    memset(s, 0, sizeof *s);
}

/* mkdir -p, 0700 for what we create. */
static int make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(tmp, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static const char *cause(int e)
{
    switch (e) {
    case ENOSPC: case EDQUOT: case EFBIG: return "the disk is full";
    case EROFS: return "the file system is read-only";
    case EACCES: case EPERM: return "no permission to write there";
    default: return strerror(e);
    }
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

static int io_error(qz_store *s, at_error *err, const char *what, int e)
{
    return at_error_set(err, AT_EIO, "progress not saved: cannot %s %s: %s" QZ_SAVE_RETRY_NOTE,
                        what, s->dir, cause(e));
}

int qz_store_save(qz_store *s, at_error *err)
{
    if (s->no_save)
        return at_error_set(err, AT_EIO, "progress not saved: %s", s->warning);
    log_buf log = {{0}};
    cyaml_config_t cfg = config(&log);
    char *yaml = NULL;
    size_t len = 0;
    s->p->version = s->p->version > QZ_PROGRESS_VERSION ? s->p->version : QZ_PROGRESS_VERSION;
    s->p->answers_total = s->p->answers_count;
    cyaml_err_t ce = cyaml_save_data(&yaml, &len, &cfg, &progress_value, s->p, 0);
    if (ce != CYAML_OK)
        return at_error_set(err, ce == CYAML_ERR_OOM ? AT_ENOMEM : AT_EIO,
                            "progress not saved: %s %s", cyaml_strerror(ce), log.text);
    int rc = AT_OK, fd = -1, e;
    size_t n = strlen(s->dir);
    char *tmp = malloc(n + 32);
    if (!tmp) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if (make_dirs(s->dir) != 0) {
        rc = io_error(s, err, "create the folder", errno);
        goto out;
    }
    snprintf(tmp, n + 32, "%s/" TEMP_TEMPLATE, s->dir);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = io_error(s, err, "write in", errno);
        goto out;
    }
    if (write_all(fd, yaml, len) != 0 || fsync(fd) != 0) {
        e = errno;
        unlink(tmp);
        rc = io_error(s, err, "write in", e);
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        e = errno;
        unlink(tmp);
        rc = io_error(s, err, "write in", e);
        goto out;
    }
    fd = -1;
    if (rename(tmp, s->path) != 0) {
        e = errno;
        unlink(tmp);
        rc = io_error(s, err, "replace the progress file in", e);
        goto out;
    }
    /* The rename itself is durable once the folder is. */
    int dfd = open(s->dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
out:
    if (fd >= 0)
        close(fd);
    free(tmp);
    cfg.mem_fn(cfg.mem_ctx, yaml, 0);
    return rc;
}

/* ---- records ---- */

const qz_answer_rec *qz_store_answer(const qz_store *s, const char *id)
{
    for (unsigned i = 0; s->p && i < s->p->answers_count; i++)
        if (!strcmp(s->p->answers[i].id, id))
            return &s->p->answers[i];
    return NULL;
}

static qz_answer_rec *answer_for(qz_store *s, const char *id, long long now, at_error *err)
{
    qz_answer_rec *r = (qz_answer_rec *)qz_store_answer(s, id);
    if (r)
        return r;
    qz_progress *p = s->p;
    qz_answer_rec *a = mem(p->answers, (p->answers_count + 1) * sizeof *a);
    char *copy = mem_strdup(id);
    if (!a || !copy) {
        if (a)
            p->answers = a;
        mem(copy, 0);
        at_error_set(err, AT_ENOMEM, "out of memory");
        return NULL;
    }
    p->answers = a;
    r = &a[p->answers_count++];
    memset(r, 0, sizeof *r);
    r->id = copy;
    r->box = 1;
    r->due = now;
    p->answers_total = p->answers_count;
    return r;
}

static qz_rec_verdict rec_verdict(qz_verdict v)
{
    return v == QZ_CORRECT ? QZ_REC_CORRECT : v == QZ_PARTIAL ? QZ_REC_PARTIAL
         : v == QZ_REVIEW ? QZ_REC_REVIEW : QZ_REC_WRONG;
}

int qz_store_record(qz_store *s, const char *id, const qz_result *res, long long now,
                    at_error *err)
{
    if (res->verdict == QZ_MALFORMED)
        return AT_OK;   /* not an attempt */
    qz_answer_rec *r = answer_for(s, id, now, err);
    if (!r)
        return AT_ENOMEM;
    if (res->verdict == QZ_REVIEW) {   /* not judged: not an attempt, never a wrong one */
        r->verdict = QZ_REC_REVIEW;
        r->last = now;
        if (res->self_assessed)
            return qz_store_self_assess(s, id, res->self_verdict, now, err);
        return AT_OK;
    }
    r->verdict = rec_verdict(res->verdict);
    r->score = res->score;
    if (res->score > r->best)
        r->best = res->score;
    r->attempts++;
    r->correct += res->verdict == QZ_CORRECT;
    r->last = now;
    qz_leitner_update(r, res->verdict, now);
    if (res->self_assessed)   /* the student's own grade, after the automatic one */
        return qz_store_self_assess(s, id, res->self_verdict, now, err);
    return AT_OK;
}

int qz_store_self_assess(qz_store *s, const char *id, qz_verdict v, long long now, at_error *err)
{
    if (v == QZ_MALFORMED || v == QZ_REVIEW)
        return at_error_set(err, AT_EINVAL, "a self-assessment is correct, partial or wrong");
    qz_answer_rec *r = answer_for(s, id, now, err);
    if (!r)
        return AT_ENOMEM;
    r->self = rec_verdict(v);
    r->last = now;
    qz_leitner_update(r, v, now);
    return AT_OK;
}

const qz_lesson_rec *qz_store_lesson(const qz_store *s, const char *lesson)
{
    for (unsigned i = 0; s->p && i < s->p->lessons_count; i++)
        if (!strcmp(s->p->lessons[i].id, lesson))
            return &s->p->lessons[i];
    return NULL;
}

int qz_store_set_position(qz_store *s, const char *lesson, unsigned step, bool done,
                          at_error *err)
{
    qz_progress *p = s->p;
    char *pos = mem_strdup(lesson);
    if (!pos)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    mem(p->lesson, 0);
    p->lesson = pos;
    p->step = step;
    qz_lesson_rec *l = (qz_lesson_rec *)qz_store_lesson(s, lesson);
    if (!l) {
        qz_lesson_rec *a = mem(p->lessons, (p->lessons_count + 1) * sizeof *a);
        char *id = mem_strdup(lesson);
        if (!a || !id) {
            if (a)
                p->lessons = a;
            mem(id, 0);
            return at_error_set(err, AT_ENOMEM, "out of memory");
        }
        p->lessons = a;
        l = &a[p->lessons_count++];
        memset(l, 0, sizeof *l);
        l->id = id;
    }
    if (step > l->step)
        l->step = step;
    l->done = l->done || done;
    return AT_OK;
}

/* ---- Leitner boxes ---- */

long long qz_leitner_interval(unsigned box)
{
    static const long long seconds[QZ_LEITNER_BOXES + 1] = {
        60, 60, 86400, 3 * 86400, 7 * 86400, 30 * 86400,
    };
    return seconds[box > QZ_LEITNER_BOXES ? QZ_LEITNER_BOXES : box];
}

void qz_leitner_update(qz_answer_rec *r, qz_verdict v, long long now)
{
    if (r->box < 1)
        r->box = 1;
    if (v == QZ_CORRECT && r->box < QZ_LEITNER_BOXES)
        r->box++;
    else if (v == QZ_WRONG)
        r->box = 1;
    r->due = now + qz_leitner_interval(r->box);
}

size_t qz_store_due(const qz_store *s, long long now, const char **ids, size_t max)
{
    size_t n = 0;
    const qz_progress *p = s->p;
    /* Insertion into a list kept sorted by (box, due): the lists are short. */
    const qz_answer_rec **sel = malloc((max ? max : 1) * sizeof *sel);
    if (!sel)
        return 0;
    for (unsigned i = 0; p && i < p->answers_count; i++) {
        const qz_answer_rec *r = &p->answers[i];
        if (r->due > now)
            continue;
        size_t at = n;
        while (at > 0 && (sel[at - 1]->box > r->box ||
                          (sel[at - 1]->box == r->box && sel[at - 1]->due > r->due)))
            at--;
        if (at >= max)
            continue;
        size_t last = n < max ? n : max - 1;
        memmove(&sel[at + 1], &sel[at], (last - at) * sizeof *sel);
        sel[at] = r;
        if (n < max)
            n++;
    }
    for (size_t i = 0; i < n; i++)
        ids[i] = sel[i]->id;
    free(sel);
    return n;
}
