/* The progress store: round trip, Leitner boxes, damaged files, failed saves,
 * case 12 — a writer killed with SIGKILL at random points while saving leaves the
 * old or the new complete state, never anything else — and several processes saving
 * into one file: every attempt kept, none counted twice, a lock holder killed. */
#include "check.h"
#include "quiz/progress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *make_dir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/at-progress-XXXXXX", base && *base ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return strdup(d);
}

static void remove_dir(char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
    free(dir);
}

/* A folder in memory where there is one. SIGKILL tests the death of the process,
 * not of the machine, so there (where fsync costs nothing) it tests the same thing,
 * many times faster. */
static char *mem_dir(void)
{
    char tmpl[] = "/dev/shm/at-progress-XXXXXX";
    struct stat st;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && mkdtemp(tmpl))
        return strdup(tmpl);
    return make_dir();
}

static size_t count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    while (d && (e = readdir(d)))
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_round_trip(void **state)
{
    char *dir = make_dir();
    qz_store s;
    at_error err;
    assert_int_equal(qz_store_open(&s, dir, &err), AT_OK);
    assert_string_equal(s.warning, "");
    assert_int_equal(s.p->answers_count, 0);
    qz_result right = {.verdict = QZ_CORRECT, .score = 1}, part = {.verdict = QZ_PARTIAL, .score = 0.5};
    qz_result bad = {.verdict = QZ_MALFORMED};
    assert_int_equal(qz_store_record(&s, "self-test:q3", &part, 1000, &err), AT_OK);
    assert_int_equal(qz_store_record(&s, "self-test:q3", &right, 1100, &err), AT_OK);
    assert_int_equal(qz_store_record(&s, "self-test:q3", &bad, 1200, &err), AT_OK);   /* no attempt */
    assert_int_equal(qz_store_self_assess(&s, "self-test:q4", QZ_PARTIAL, 1300, &err), AT_OK);
    qz_result selfgraded = {.verdict = QZ_WRONG, .score = 0, .self_assessed = 1,
                            .self_verdict = QZ_CORRECT, .self_score = 1};
    assert_int_equal(qz_store_record(&s, "self-test:q1", &selfgraded, 1250, &err), AT_OK);
    /* a review (the grader could not judge) is no attempt: box and counts stay */
    qz_result review = {.verdict = QZ_REVIEW};
    assert_int_equal(qz_store_record(&s, "self-test:q5", &right, 1000, &err), AT_OK);
    assert_int_equal(qz_store_record(&s, "self-test:q5", &review, 1400, &err), AT_OK);
    assert_int_equal(qz_store_set_position(&s, "self-test", 4, false, 1400, &err), AT_OK);
    assert_int_equal(qz_store_set_position(&s, "self-test", 2, false, 1500, &err), AT_OK);
    assert_int_equal(qz_store_save(&s, &err), AT_OK);
    qz_store_close(&s);

    assert_int_equal(qz_store_open(&s, dir, &err), AT_OK);
    assert_string_equal(s.warning, "");
    const qz_answer_rec *r = qz_store_answer(&s, "self-test:q3");
    assert_non_null(r);
    assert_int_equal(r->attempts, 2);
    assert_int_equal(r->correct, 1);
    assert_int_equal(r->verdict, QZ_REC_CORRECT);
    assert_true(r->score == 1.0 && r->best == 1.0);
    assert_int_equal(r->box, 2);
    assert_int_equal(r->last, 1100);
    r = qz_store_answer(&s, "self-test:q4");
    assert_int_equal(r->self, QZ_REC_PARTIAL);         /* kept apart from the automatic grade */
    assert_int_equal(r->verdict, QZ_REC_NONE);
    assert_int_equal(r->attempts, 0);
    r = qz_store_answer(&s, "self-test:q1");   /* both grades of a self-assessed attempt */
    assert_non_null(r);
    assert_int_equal(r->verdict, QZ_REC_WRONG);
    assert_int_equal(r->self, QZ_REC_CORRECT);
    assert_int_equal(r->attempts, 1);
    assert_int_equal(r->correct, 0);
    r = qz_store_answer(&s, "self-test:q5");
    assert_non_null(r);
    assert_int_equal(r->verdict, QZ_REC_REVIEW);
    assert_int_equal(r->attempts, 1);
    assert_int_equal(r->correct, 1);
    assert_int_equal(r->box, 2);
    assert_int_equal(r->last, 1400);
    assert_string_equal(s.p->lesson, "self-test");
    assert_int_equal(s.p->step, 2);
    assert_int_equal(qz_store_lesson(&s, "self-test")->step, 4);   /* furthest step kept */
    assert_null(qz_store_answer(&s, "self-test:q9"));
    qz_store_close(&s);
    remove_dir(dir);
}

/* A killed save's temporary file is removed once it is old; a fresh one (another
 * tutor may be writing it) is left alone. */
static void test_stale_temporaries(void **state)
{
    char *dir = make_dir();
    char old[600], fresh[600];
    snprintf(old, sizeof old, "%s/.progress.yaml.AAAAAA", dir);
    snprintf(fresh, sizeof fresh, "%s/.progress.yaml.BBBBBB", dir);
    write_file(old, "version: 1\n", 11);
    write_file(fresh, "version: 1\n", 11);
    struct timespec times[2] = {{time(NULL) - 3600, 0}, {time(NULL) - 3600, 0}};
    assert_int_equal(utimensat(AT_FDCWD, old, times, 0), 0);
    qz_store s;
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_store_close(&s);
    assert_int_equal(access(old, F_OK), -1);
    assert_int_equal(access(fresh, F_OK), 0);
    remove_dir(dir);
}

static void test_leitner(void **state)
{
    qz_answer_rec r = {.box = 1};
    qz_leitner_update(&r, QZ_CORRECT, 0);
    assert_int_equal(r.box, 2);
    assert_int_equal(r.due, 86400);
    for (int i = 0; i < 10; i++)
        qz_leitner_update(&r, QZ_CORRECT, 0);
    assert_int_equal(r.box, QZ_LEITNER_BOXES);
    qz_leitner_update(&r, QZ_PARTIAL, 100);
    assert_int_equal(r.box, QZ_LEITNER_BOXES);
    assert_int_equal(r.due, 100 + 30 * 86400);
    qz_leitner_update(&r, QZ_WRONG, 100);
    assert_int_equal(r.box, 1);
    assert_int_equal(r.due, 160);   /* back in the same session */

    char *dir = make_dir();
    qz_store s;
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_result right = {.verdict = QZ_CORRECT, .score = 1}, wrong = {.verdict = QZ_WRONG};
    qz_store_record(&s, "a", &right, 0, NULL);        /* box 2, due 86400 */
    qz_store_record(&s, "b", &wrong, 10, NULL);       /* box 1, due 70 */
    qz_store_record(&s, "c", &wrong, 0, NULL);        /* box 1, due 60 */
    const char *ids[3];
    assert_int_equal(qz_store_due(&s, 65, ids, 3), 1);
    assert_string_equal(ids[0], "c");
    assert_int_equal(qz_store_due(&s, 100000, ids, 3), 3);
    assert_string_equal(ids[0], "c");
    assert_string_equal(ids[1], "b");
    assert_string_equal(ids[2], "a");
    assert_int_equal(qz_store_due(&s, 100000, ids, 1), 1);
    assert_string_equal(ids[0], "c");
    qz_store_close(&s);
    remove_dir(dir);
}

/* A damaged file is moved aside with a timestamp, reported, and never crashes the
 * loader: garbage, a wrong shape, and every cut of a good file. */
static void test_damaged_files(void **state)
{
    char *dir = make_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/progress.yaml", dir);
    const char *bad[] = {"\x01\x02 not yaml: [", "- a\n- b\n", "version: seven\n",
                         "version: 1\nanswers_total: 2\nanswers:\n- id: x\n",
                         "version: 1\nanswers_total: 0\nanswers:\n- id: x\n  box: 1\n  verdict: maybe\n",
                         "a: &x [1]\nb: *x\n", "",
                         /* no document at all: once a NULL dereference (found by fuzzing) */
                         "\n", "# only a comment\n", "---\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i], strlen(bad[i]));
        qz_store s;
        assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
        if (!strstr(s.warning, "could not be read") || !strstr(s.warning, ".damaged-")) {
            print_error("file %zu: warning '%s'\n", i, s.warning);
            fail();
        }
        assert_int_equal(s.p->answers_count, 0);
        assert_false(s.no_save);
        assert_int_equal(access(path, F_OK), -1);   /* moved, not overwritten */
        qz_store_close(&s);
    }
    assert_int_equal(count_entries(dir, "progress.yaml.damaged-"), sizeof bad / sizeof bad[0]);
    remove_dir(dir);

    /* Every cut of a complete file either loads whole or is set aside. */
    dir = mem_dir();
    snprintf(path, sizeof path, "%s/progress.yaml", dir);
    qz_store s;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_store_record(&s, "self-test:q1", &right, 5, NULL);
    qz_store_record(&s, "self-test:q2", &right, 5, NULL);
    qz_store_set_position(&s, "self-test", 3, false, 5, NULL);
    assert_int_equal(qz_store_save(&s, NULL), AT_OK);
    qz_store_close(&s);
    FILE *f = fopen(path, "rb");
    char full[4096];
    size_t len = fread(full, 1, sizeof full, f);
    fclose(f);
    for (size_t cut = 0; cut < len; cut++) {
        write_file(path, full, cut);
        assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
        int whole = s.p->answers_count == 2;
        int aside = s.warning[0] != '\0';
        if (!(whole ^ aside)) {
            print_error("cut at %zu: %u answers, warning '%s'\n", cut, s.p->answers_count, s.warning);
            fail();
        }
        qz_store_close(&s);
    }
    remove_dir(dir);
}

/* A newer format is read but never overwritten. */
static void test_newer_version_kept(void **state)
{
    char *dir = make_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/progress.yaml", dir);
    const char *newer = "version: 9\nfuture_field: 3\nanswers_total: 1\nanswers:\n- id: self-test:q1\n"
                        "  attempts: 4\n  box: 2\n";
    write_file(path, newer, strlen(newer));
    qz_store s;
    at_error err;
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    assert_non_null(strstr(s.warning, "newer"));
    assert_int_equal(qz_store_answer(&s, "self-test:q1")->attempts, 4);
    assert_int_equal(qz_store_save(&s, &err), AT_EIO);
    qz_store_close(&s);
    FILE *f = fopen(path, "rb");
    char buf[512] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_string_equal(buf, newer);
    remove_dir(dir);
}

/* The folder cannot be created (a file stands where it should be): a clear error,
 * the state stays in memory. */
static void test_unwritable_folder(void **state)
{
    char *dir = make_dir();
    char blocker[600], inside[700];
    snprintf(blocker, sizeof blocker, "%s/blocker", dir);
    write_file(blocker, "x", 1);
    snprintf(inside, sizeof inside, "%s/attn-tutor", blocker);
    qz_store s;
    at_error err;
    assert_int_equal(qz_store_open(&s, inside, &err), AT_OK);
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    qz_store_record(&s, "self-test:q3", &right, 1, NULL);
    assert_int_equal(qz_store_save(&s, &err), AT_EIO);
    assert_non_null(strstr(err.msg, "progress not saved"));
    assert_non_null(strstr(err.msg, "create the folder"));
    assert_non_null(qz_store_answer(&s, "self-test:q3"));   /* still in memory */
    qz_store_close(&s);
    remove_dir(dir);
}

/* A write that fails midway (the file size limit stands in for a full disk): the
 * old file is intact and no temporary file is left behind. */
static void test_full_disk(void **state)
{
    char *dir = make_dir();
    qz_store s;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_store_record(&s, "old", &right, 1, NULL);
    assert_int_equal(qz_store_save(&s, NULL), AT_OK);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {.rlim_cur = 64, .rlim_max = 64};
        setrlimit(RLIMIT_FSIZE, &rl);
        for (int i = 0; i < 20; i++) {
            char id[32];
            snprintf(id, sizeof id, "new-%d", i);
            qz_store_record(&s, id, &right, 2, NULL);
        }
        at_error err;
        int rc = qz_store_save(&s, &err);
        _exit(rc == AT_EIO && strstr(err.msg, "the disk is full") ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    qz_store_close(&s);
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    assert_string_equal(s.warning, "");
    assert_int_equal(s.p->answers_count, 1);
    assert_non_null(qz_store_answer(&s, "old"));
    qz_store_close(&s);
    assert_int_equal(count_entries(dir, ".progress.yaml."), 0);
    remove_dir(dir);
}

/* ---- case 12 ---- */

/* State number k: k answers (1 … 40), each last answered at time k, position step k
 * set at time k. A mix of two states, or a cut one, cannot pass check_state. */
static void fill_state(qz_store *s, unsigned k)
{
    qz_result r = {.verdict = QZ_PARTIAL, .score = 0.5};
    unsigned n = 1 + k % 40;
    for (unsigned i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "lesson-%u:q%u", i % 7, i);
        qz_store_record(s, id, &r, k, NULL);
    }
    char lesson[32];
    snprintf(lesson, sizeof lesson, "state-%u", k);
    qz_store_set_position(s, lesson, k, false, k, NULL);
}

/* Returns the state number the store holds, or 0 when it is not a complete state. */
static unsigned state_of(const qz_store *s)
{
    const qz_progress *p = s->p;
    unsigned k;
    if (!p->lesson || sscanf(p->lesson, "state-%u", &k) != 1 || p->step != k)
        return 0;
    unsigned n = 1 + k % 40;
    if (p->answers_count < n)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (p->answers[i].last != k)
            return 0;
    return k;
}

/* The writer: saves state after state until killed; reports each completed save
 * on fd, and in *phase whether it is inside a save (1) or between saves (2). */
static void writer(const char *dir, unsigned first, int fd, volatile int *phase)
{
    qz_store s;
    if (qz_store_open(&s, dir, NULL) != AT_OK || s.warning[0])
        _exit(2);
    unsigned ready = 0;
    if (write(fd, &ready, sizeof ready) != sizeof ready)
        _exit(5);
    for (unsigned k = first;; k++) {
        fill_state(&s, k);
        *phase = 1;
        if (qz_store_save(&s, NULL) != AT_OK)
            _exit(4);
        *phase = 2;
        if (write(fd, &k, sizeof k) != sizeof k)
            _exit(5);
    }
}

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

#if defined(__SANITIZE_ADDRESS__)
#define CASE12_KILLS 60     /* each fork of an instrumented process is slow */
#else
#define CASE12_KILLS 200
#endif

static void test_case12_killed_while_saving(void **state)
{
    char *dir = mem_dir();
    qz_store s;
    /* How long one change-and-save takes here: kills land anywhere within three. */
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    long long t0 = now_us();
    for (unsigned k = 1; k <= 5; k++) {
        fill_state(&s, k);
        assert_int_equal(qz_store_save(&s, NULL), AT_OK);
    }
    long long span = (now_us() - t0) * 3 / 5 + 1;
    qz_store_close(&s);
    volatile int *phase = mmap(NULL, sizeof *phase, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(phase != MAP_FAILED);
    unsigned saved = 5, at[3] = {0, 0, 0}, kills = CASE12_KILLS;
    srand(12345);
    for (unsigned round = 0; round < kills; round++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        *phase = 0;
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            writer(dir, saved + 1, fds[1], phase);
        }
        close(fds[1]);
        unsigned ready;
        assert_int_equal(read(fds[0], &ready, sizeof ready), sizeof ready);
        long long wait = (long long)((double)rand() / RAND_MAX * (double)span);
        struct timespec ts = {(time_t)(wait / 1000000), (long)(wait % 1000000) * 1000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        if (!WIFSIGNALED(status)) {
            print_error("the writer exited on its own (status %d)\n", WEXITSTATUS(status));
            fail();
        }
        at[*phase]++;
        unsigned k, last = saved;
        while (read(fds[0], &k, sizeof k) == sizeof k)
            last = k;
        close(fds[0]);
        assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
        unsigned got = state_of(&s);
        if (s.warning[0] || (got != last && got != last + 1)) {
            print_error("round %u: last complete save %u, file holds state %u, warning '%s'\n",
                        round, last, got, s.warning);
            fail();
        }
        saved = got;
        qz_store_close(&s);
        /* A killed save leaves its temporary file; remove it as a new run would. */
        DIR *d = opendir(dir);
        struct dirent *e;
        char path[1024];
        while (d && (e = readdir(d)))
            if (!strncmp(e->d_name, ".progress.yaml.", 15)) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        if (d)
            closedir(d);
    }
    printf("# case 12: %u kills within %lld µs: %u before the first save, %u inside a save, "
           "%u between saves; %u saves completed\n", kills, span, at[0], at[1], at[2], saved - 5);
    munmap((void *)phase, sizeof *phase);
    remove_dir(dir);
}

/* ---- several processes, one file ---- */

/* Two stores on one folder stand for two processes (the tutor and check): each adds
 * its own attempts, a second save adds nothing twice, the best score and the newest
 * verdict win, the box follows the merged history, self-assessments and the newest
 * position are kept. */
static void test_two_writers_merge(void **state)
{
    char *dir = make_dir();
    qz_store a, b;
    at_error err;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1}, wrong = {.verdict = QZ_WRONG, .score = 0};
    qz_result part = {.verdict = QZ_PARTIAL, .score = 0.5};
    assert_int_equal(qz_store_open(&a, dir, &err), AT_OK);   /* the tutor, open all along */
    assert_int_equal(qz_store_open(&b, dir, &err), AT_OK);   /* check, while it is open */
    qz_store_record(&a, "self-test:q3", &right, 100, NULL);
    qz_store_record(&a, "self-test:q3", &right, 110, NULL);  /* box 3 here */
    qz_store_set_position(&a, "self-test", 4, false, 120, NULL);
    qz_store_record(&b, "self-test:q3", &wrong, 105, NULL);
    qz_store_record(&b, "self-test:q1", &part, 106, NULL);
    qz_store_self_assess(&b, "self-test:q5", QZ_PARTIAL, 107, NULL);
    qz_store_set_position(&b, "attention", 1, false, 90, NULL);   /* older than a's */
    assert_int_equal(qz_store_save(&b, &err), AT_OK);
    assert_int_equal(qz_store_save(&a, &err), AT_OK);
    assert_int_equal(qz_store_save(&a, &err), AT_OK);   /* nothing new: nothing added */
    assert_int_equal(qz_store_save(&b, &err), AT_OK);
    const qz_answer_rec *r = qz_store_answer(&a, "self-test:q3");
    assert_int_equal(r->attempts, 3);
    assert_int_equal(r->correct, 2);
    assert_true(r->best == 1.0);
    assert_int_equal(r->verdict, QZ_REC_CORRECT);   /* a's at 110 is the newest */
    assert_int_equal(r->last, 110);
    /* b's wrong (saved first) sent it to box 1, a's two right answers then to box 3. */
    assert_int_equal(r->box, 3);
    assert_int_equal(r->due, 110 + qz_leitner_interval(3));
    assert_non_null(qz_store_answer(&a, "self-test:q1"));          /* a sees b's records */
    assert_int_equal(qz_store_answer(&a, "self-test:q5")->self, QZ_REC_PARTIAL);
    assert_string_equal(a.p->lesson, "self-test");                  /* the newest position */
    assert_int_equal(a.p->step, 4);
    assert_int_equal(qz_store_lesson(&a, "attention")->step, 1);    /* b's lesson is kept */
    /* More from both, in turn, and a self-assessment made by a after b's attempt. */
    qz_store_record(&b, "self-test:q3", &part, 200, NULL);
    assert_int_equal(qz_store_save(&b, &err), AT_OK);
    qz_store_self_assess(&a, "self-test:q1", QZ_CORRECT, 210, NULL);
    qz_store_set_position(&b, "masking", 2, true, 220, NULL);
    assert_int_equal(qz_store_save(&a, &err), AT_OK);
    assert_int_equal(qz_store_save(&b, &err), AT_OK);
    qz_store_close(&a);
    qz_store_close(&b);

    qz_store c;   /* what the file holds */
    assert_int_equal(qz_store_open(&c, dir, &err), AT_OK);
    assert_string_equal(c.warning, "");
    r = qz_store_answer(&c, "self-test:q3");
    assert_int_equal(r->attempts, 4);
    assert_int_equal(r->correct, 2);
    assert_int_equal(r->verdict, QZ_REC_PARTIAL);
    assert_true(r->score == 0.5 && r->best == 1.0);
    assert_int_equal(r->box, 3);                     /* partly right keeps the box */
    r = qz_store_answer(&c, "self-test:q1");
    assert_int_equal(r->attempts, 1);
    assert_int_equal(r->self, QZ_REC_CORRECT);       /* a's self-assessment */
    assert_int_equal(r->verdict, QZ_REC_PARTIAL);    /* b's attempt */
    assert_int_equal(qz_store_answer(&c, "self-test:q5")->self, QZ_REC_PARTIAL);
    assert_string_equal(c.p->lesson, "masking");
    assert_int_equal(c.p->step, 2);
    assert_int_equal(c.p->position_at, 220);
    assert_true(qz_store_lesson(&c, "masking")->done);
    assert_int_equal(qz_store_lesson(&c, "self-test")->step, 4);
    /* A review (the grader could not judge) from a third: the newest verdict, no
     * attempt, the box stays. */
    qz_result review = {.verdict = QZ_REVIEW};
    qz_store_record(&c, "self-test:q3", &review, 300, NULL);
    assert_int_equal(qz_store_save(&c, &err), AT_OK);
    r = qz_store_answer(&c, "self-test:q3");
    assert_int_equal(r->verdict, QZ_REC_REVIEW);
    assert_int_equal(r->attempts, 4);
    assert_int_equal(r->box, 3);
    assert_int_equal(r->last, 300);
    qz_store_close(&c);
    assert_int_equal(count_entries(dir, ".progress.yaml."), 0);
    remove_dir(dir);
}

/* A failed save keeps what is pending: the next one adds it, once. A file set aside as
 * damaged in between loses nothing this process holds. */
static void test_pending_kept(void **state)
{
    char *dir = make_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/progress.yaml", dir);
    qz_store a;
    at_error err;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    assert_int_equal(qz_store_open(&a, dir, &err), AT_OK);
    qz_store_record(&a, "old", &right, 1, NULL);
    assert_int_equal(qz_store_save(&a, &err), AT_OK);
    qz_store_record(&a, "new", &right, 2, NULL);
    struct rlimit was, small;   /* the file size limit stands in for a full disk */
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    small = (struct rlimit){.rlim_cur = 16, .rlim_max = was.rlim_max};
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = qz_store_save(&a, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(rc, AT_EIO);
    assert_non_null(strstr(err.msg, "the disk is full"));
    assert_int_equal(qz_store_save(&a, &err), AT_OK);
    assert_int_equal(qz_store_answer(&a, "new")->attempts, 1);
    /* Someone breaks the file; the next save sets it aside and keeps both records. */
    write_file(path, "version: [", 10);
    qz_store_record(&a, "new", &right, 3, NULL);
    assert_int_equal(qz_store_save(&a, &err), AT_OK);
    assert_non_null(strstr(a.warning, ".damaged-"));
    qz_store_close(&a);
    assert_int_equal(qz_store_open(&a, dir, &err), AT_OK);
    assert_string_equal(a.warning, "");
    assert_int_equal(qz_store_answer(&a, "old")->attempts, 1);
    assert_int_equal(qz_store_answer(&a, "new")->attempts, 2);
    qz_store_close(&a);
    assert_int_equal(count_entries(dir, "progress.yaml.damaged-"), 1);
    remove_dir(dir);
}

/* One saving child: rounds × (open, one attempt, save, close), as `check` does. */
static void save_rounds(const char *dir, unsigned child, unsigned rounds)
{
    for (unsigned i = 0; i < rounds; i++) {
        qz_store s;
        qz_result r = {.verdict = (child + i) % 2 ? QZ_WRONG : QZ_CORRECT, .score = (child + i) % 2 ? 0 : 1};
        if (qz_store_open(&s, dir, NULL) != AT_OK || s.warning[0] ||
            qz_store_record(&s, "self-test:q3", &r, (long long)time(NULL), NULL) ||
            qz_store_save(&s, NULL) != AT_OK)
            _exit(3);
        qz_store_close(&s);
    }
    _exit(0);
}

/* N processes save at once, each many times: every attempt is in the file. */
static void test_parallel_writers(void **state)
{
    enum { CHILDREN = 16, ROUNDS = 12 };
    char *dir = mem_dir();
    pid_t pids[CHILDREN];
    for (unsigned c = 0; c < CHILDREN; c++) {
        pids[c] = fork();
        assert_true(pids[c] >= 0);
        if (pids[c] == 0)
            save_rounds(dir, c, ROUNDS);
    }
    for (unsigned c = 0; c < CHILDREN; c++) {
        int status;
        waitpid(pids[c], &status, 0);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    qz_store s;
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    assert_string_equal(s.warning, "");
    const qz_answer_rec *r = qz_store_answer(&s, "self-test:q3");
    assert_non_null(r);
    assert_int_equal(r->attempts, CHILDREN * ROUNDS);
    assert_int_equal(r->correct, CHILDREN * ROUNDS / 2);
    printf("# %d processes × %d saves: %u attempts in the file, %u correct\n", CHILDREN, ROUNDS,
           r->attempts, r->correct);
    qz_store_close(&s);
    assert_int_equal(count_entries(dir, ".progress.yaml."), 0);
    remove_dir(dir);
}

/* A process killed with SIGKILL while it holds the lock: the kernel lets go of it and
 * the next save goes on. (If it did not, the save would wait for ever: the alarm then
 * ends this test as a failure.) */
static void test_lock_holder_killed(void **state)
{
    char *dir = make_dir(), lock[600];
    snprintf(lock, sizeof lock, "%s/" QZ_PROGRESS_LOCK, dir);
    qz_store s;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_store_record(&s, "first", &right, 1, NULL);
    assert_int_equal(qz_store_save(&s, NULL), AT_OK);      /* makes the lock file */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(lock, O_RDWR);
        char c = 'L';
        if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(fds[1], &c, 1) != 1)
            _exit(3);
        for (;;)
            pause();
    }
    close(fds[1]);
    char c = 0;
    assert_int_equal(read(fds[0], &c, 1), 1);   /* the child holds the lock now */
    close(fds[0]);
    int probe = open(lock, O_RDWR);
    assert_true(probe >= 0);
    assert_int_equal(flock(probe, LOCK_EX | LOCK_NB), -1);   /* held indeed */
    assert_int_equal(errno, EWOULDBLOCK);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_int_equal(flock(probe, LOCK_EX | LOCK_NB), 0);    /* let go at its death */
    close(probe);
    qz_store_record(&s, "second", &right, 2, NULL);
    alarm(120);
    assert_int_equal(qz_store_save(&s, NULL), AT_OK);
    alarm(0);
    qz_store_close(&s);
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    assert_non_null(qz_store_answer(&s, "first"));
    assert_non_null(qz_store_answer(&s, "second"));
    qz_store_close(&s);
    remove_dir(dir);
}

/* A lock file that is not a regular file (a FIFO put there) stops the save with a
 * message, without blocking. */
static void test_lock_not_regular(void **state)
{
    char *dir = make_dir(), lock[600];
    snprintf(lock, sizeof lock, "%s/" QZ_PROGRESS_LOCK, dir);
    assert_int_equal(mkfifo(lock, 0600), 0);
    qz_store s;
    at_error err;
    qz_result right = {.verdict = QZ_CORRECT, .score = 1};
    assert_int_equal(qz_store_open(&s, dir, NULL), AT_OK);
    qz_store_record(&s, "q", &right, 1, NULL);
    assert_int_equal(qz_store_save(&s, &err), AT_EIO);
    assert_non_null(strstr(err.msg, "is not a regular file"));
    assert_non_null(qz_store_answer(&s, "q"));
    qz_store_close(&s);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_stale_temporaries),
        cmocka_unit_test(test_leitner),
        cmocka_unit_test(test_damaged_files),
        cmocka_unit_test(test_newer_version_kept),
        cmocka_unit_test(test_unwritable_folder),
        cmocka_unit_test(test_full_disk),
        cmocka_unit_test(test_case12_killed_while_saving),
        cmocka_unit_test(test_two_writers_merge),
        cmocka_unit_test(test_pending_kept),
        cmocka_unit_test(test_parallel_writers),
        cmocka_unit_test(test_lock_holder_killed),
        cmocka_unit_test(test_lock_not_regular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
