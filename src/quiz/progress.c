/* The progress store on libcyaml: schema, load (damaged files moved aside), the
 * lock, and the save (read again, merge, atomic replace). See quiz/progress.h. */
#include "quiz/progress_impl.h"
#include "engine/file.h"

#include <cyaml/cyaml.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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
    CYAML_FIELD_INT("position_at", CYAML_FLAG_OPTIONAL, qz_progress, position_at),  /* position_at: */
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

static qz_progress *progress_new(void)
{
    qz_progress *p = qz_progress_mem(NULL, sizeof *p);
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

static int lock_store(qz_store *s, int *fd, at_error *err);

/* What reading the file found. */
typedef enum read_status {
    READ_NONE,       /* no file (or no folder) yet */
    READ_OK,         /* *out holds it (a newer format: also s->no_save and s->warning) */
    READ_ASIDE,      /* damaged, moved aside (s->warning says where) */
    READ_KEPT,       /* not to be touched: s->no_save and s->warning say why */
} read_status;

/* Read s->path: the file is read whole (at most PROGRESS_MAX_BYTES, only a regular
 * file: see engine/file.h), then parsed and checked. */
static read_status read_file(qz_store *s, qz_progress **out)
{
    struct stat st;
    *out = NULL;
    if (stat(s->path, &st) != 0)
        return READ_NONE;   /* a save says what is wrong with the folder, if anything */
    char *data = NULL;
    size_t len = 0;
    at_error why;
    int rc = at_file_read(s->path, "a progress file", PROGRESS_MAX_BYTES, &data, &len, &why);
    if (rc == AT_ENOTREG) {   /* not ours to move: a FIFO, a socket, a folder someone made */
        s->no_save = true;
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s %s: it is left as it is and progress is not saved (remove it, "
                 "or set XDG_STATE_HOME to another folder)", s->path, why.msg);
        return READ_KEPT;
    }
    if (rc != AT_OK || len == 0) {
        damaged(s, rc == AT_ERANGE ? "too large" : rc ? why.msg : "empty");
        free(data);
        return s->no_save ? READ_KEPT : READ_ASIDE;
    }
    log_buf log = {{0}};
    cyaml_config_t cfg = config(&log);
    qz_progress *p = NULL;
    cyaml_err_t e = cyaml_load_data((const uint8_t *)data, len, &cfg, &progress_value,
                                    (cyaml_data_t **)&p, NULL);
    free(data);
    const char *bad = NULL;
    char why_yaml[320];
    if (e != CYAML_OK) {
        snprintf(why_yaml, sizeof why_yaml, "%s%s%s", cyaml_strerror(e), log.text[0] ? ": " : "",
                 log.text);
        bad = why_yaml;
    } else if (!p) {   /* a document with no node at all: blank lines, comments, "---" */
        bad = "no YAML document";
    } else {
        bad = check_loaded(p);
    }
    if (bad) {
        progress_free(p);
        damaged(s, bad);
        return s->no_save ? READ_KEPT : READ_ASIDE;
    }
    if (p->version > QZ_PROGRESS_VERSION) {
        s->no_save = true;
        snprintf(s->warning, sizeof s->warning,
                 "progress file %s was written by a newer attn-tutor (format %u, this one reads %u); "
                 "it is read but not overwritten",
                 s->path, p->version, QZ_PROGRESS_VERSION);
    }
    p->version = p->version > QZ_PROGRESS_VERSION ? p->version : QZ_PROGRESS_VERSION;
    *out = p;
    return READ_OK;
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
    /* Read under the lock when there is a file: a damaged one is moved aside, and that
     * must not move a good file another process has just put in its place. */
    int lock = -1;
    struct stat st;
    if (stat(s->path, &st) == 0)
        lock_store(s, &lock, NULL);   /* without it (a read-only folder), read all the same */
    qz_progress *p;
    if (read_file(s, &p) == READ_OK) {
        progress_free(s->p);
        s->p = p;
    }
    if (lock >= 0)
        close(lock);
    return AT_OK;
}

void qz_store_close(qz_store *s)
{
    qz_store_events_clear(s);
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

/* The lock file beside progress.yaml, opened and locked exclusively (waiting while
 * another process holds it) into *fd: closing it, or the end of the process however
 * it ends, lets go. AT_OK, AT_EIO, AT_ENOMEM (err set; *fd = -1). */
static int lock_store(qz_store *s, int *fd, at_error *err)
{
    size_t n = strlen(s->dir) + sizeof "/" QZ_PROGRESS_LOCK;
    char *path = malloc(n);
    int rc = AT_OK;
    *fd = -1;
    if (!path)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    snprintf(path, n, "%s/" QZ_PROGRESS_LOCK, s->dir);
    /* Never blocks on open (a FIFO put there), never follows a link. */
    int f = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    struct stat st;
    if (f < 0) {
        rc = io_error(s, err, "lock the progress file in", errno);
    } else if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = at_error_set(err, AT_EIO, "progress not saved: the lock file %s is not a regular "
                          "file (remove it)" QZ_SAVE_RETRY_NOTE, path);
    } else {
        while (rc == AT_OK && flock(f, LOCK_EX) != 0)
            if (errno != EINTR)
                rc = io_error(s, err, "lock the progress file in", errno);
    }
    if (rc == AT_OK)
        *fd = f;
    else if (f >= 0)
        close(f);
    free(path);
    return rc;
}

/* yaml[0 .. len) into a temporary file beside progress.yaml, fsync'ed, renamed over
 * it, the folder fsync'ed. */
static int write_atomic(qz_store *s, const char *yaml, size_t len, at_error *err)
{
    int rc = AT_OK, fd = -1, e;
    size_t n = strlen(s->dir);
    char *tmp = malloc(n + 32);
    if (!tmp)
        return at_error_set(err, AT_ENOMEM, "out of memory");
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
    int dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
out:
    if (fd >= 0)
        close(fd);
    free(tmp);
    return rc;
}

int qz_store_save(qz_store *s, at_error *err)
{
    if (s->no_save)
        return at_error_set(err, AT_EIO, "progress not saved: %s", s->warning);
    log_buf log = {{0}};
    cyaml_config_t cfg = config(&log);
    char *yaml = NULL;
    size_t len = 0;
    qz_progress *disk = NULL;
    int rc = AT_OK, lock = -1;
    if (make_dirs(s->dir) != 0)
        return io_error(s, err, "create the folder", errno);
    if ((rc = lock_store(s, &lock, err)) != AT_OK)
        return rc;
    /* What the file holds now: other processes may have saved since we read it. */
    read_file(s, &disk);
    if (s->no_save) {
        rc = at_error_set(err, AT_EIO, "progress not saved: %s", s->warning);
        goto out;
    }
    if (!disk && !(disk = progress_new())) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = qz_progress_merge(disk, s, err)) != AT_OK)
        goto out;
    disk->version = disk->version > QZ_PROGRESS_VERSION ? disk->version : QZ_PROGRESS_VERSION;
    disk->answers_total = disk->answers_count;
    cyaml_err_t ce = cyaml_save_data(&yaml, &len, &cfg, &progress_value, disk, 0);
    if (ce != CYAML_OK) {
        rc = at_error_set(err, ce == CYAML_ERR_OOM ? AT_ENOMEM : AT_EIO,
                          "progress not saved: %s %s", cyaml_strerror(ce), log.text);
        goto out;
    }
    if ((rc = write_atomic(s, yaml, len, err)) != AT_OK)
        goto out;
    progress_free(s->p);   /* the merged state is ours now; nothing is pending */
    s->p = disk;
    disk = NULL;
    qz_store_events_clear(s);
out:
    if (lock >= 0)
        close(lock);   /* lets the next process in */
    progress_free(disk);
    cfg.mem_fn(cfg.mem_ctx, yaml, 0);
    return rc;
}

