/* Terminal set-up and colour roles (the UI's global terminal state lives here). */
#include "ui/crt.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <term.h>

#include "ui/termprobe.h"

static struct {
    int active;
    crt_palette palette;
    SCREEN *screen;           /* from newterm, released by delscreen in crt_done */
    attr_t attrs[CRT_ROLES];
    ui_term_widths widths;    /* how it draws emoji sequences: the probe's answers */
    ui_probe probe;           /* the probe started by crt_init, until it is over */
    int out_fd;               /* the terminal's output */
    int in_fd;                /* its input (crt_input_closed) */
    unsigned failed_reads;    /* waits for a key that ended without one, in a row */
    int frame_marks;          /* ATTN_TUTOR_FRAME_MARKS: see crt_frame_begin */
    unsigned long frames;     /* frames drawn, for the marks */
    unsigned long keys;       /* keys read, for the marks */
    struct sigaction nc_winch;   /* ncurses' SIGWINCH handler, called from ours */
    int winch_chained;
} crt = {.out_fd = -1, .in_fd = -1};

/* Set by every SIGWINCH, taken by crt_take_resized. */
static volatile sig_atomic_t winched;

/* SIGWINCH: note it, then let ncurses do its part (it reads the new size at the next
 * get_wch and sends KEY_RESIZE when the size differs). */
static void on_winch(int sig, siginfo_t *info, void *uctx)
{
    winched = 1;
    const struct sigaction *nc = &crt.nc_winch;
    if (nc->sa_flags & SA_SIGINFO) {
        if (nc->sa_sigaction)
            nc->sa_sigaction(sig, info, uctx);
    } else if (nc->sa_handler != SIG_DFL && nc->sa_handler != SIG_IGN) {
        nc->sa_handler(sig);
    }
}

/* Put on_winch in front of the handler ncurses installed (newterm installs its own when
 * there was none); interrupted reads are not restarted, as with ncurses' own, so a
 * get_wch waiting for a key returns and the loop draws again. */
static void chain_winch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_winch;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGWINCH, &sa, &crt.nc_winch) == 0)
        crt.winch_chained = 1;
}

int crt_take_resized(void)
{
    if (!winched)
        return 0;
    winched = 0;
    return 1;
}

typedef struct role_colors {
    short fg, bg;
    attr_t extra;
} role_colors;

/* 256 colours: the heat ramp runs from dark blue-grey to bright yellow. */
static const role_colors palette_256[CRT_ROLES] = {
    [CRT_NORMAL] = {-1, -1, 0},
    [CRT_TITLE] = {75, -1, A_BOLD},
    [CRT_STATUS] = {252, 237, 0},
    [CRT_STATUS_KEY] = {229, 237, A_BOLD},
    [CRT_SELECTED] = {16, 117, 0},
    [CRT_DIM] = {244, -1, 0},
    [CRT_OK] = {114, -1, A_BOLD},
    [CRT_WRONG] = {203, -1, A_BOLD},
    [CRT_WARN] = {221, -1, 0},
    [CRT_INPUT] = {255, 236, 0},
    [CRT_BORDER] = {245, -1, 0},
    [CRT_CODE] = {150, -1, 0},
    [CRT_FORMULA] = {222, -1, A_BOLD},
    [CRT_HEAT_0] = {246, 234, 0},
    [CRT_HEAT_1] = {252, 17, 0},
    [CRT_HEAT_2] = {255, 18, 0},
    [CRT_HEAT_3] = {255, 25, 0},
    [CRT_HEAT_4] = {255, 31, 0},
    [CRT_HEAT_5] = {16, 78, 0},
    [CRT_HEAT_6] = {16, 185, 0},
    [CRT_HEAT_7] = {16, 226, A_BOLD},
};

/* 8 colours: fewer distinct levels, told apart by background colour and bold. */
static const role_colors palette_8[CRT_ROLES] = {
    [CRT_NORMAL] = {-1, -1, 0},
    [CRT_TITLE] = {COLOR_CYAN, -1, A_BOLD},
    [CRT_STATUS] = {COLOR_BLACK, COLOR_WHITE, 0},
    [CRT_STATUS_KEY] = {COLOR_BLUE, COLOR_WHITE, A_BOLD},
    [CRT_SELECTED] = {COLOR_BLACK, COLOR_CYAN, 0},
    [CRT_DIM] = {-1, -1, A_DIM},
    [CRT_OK] = {COLOR_GREEN, -1, A_BOLD},
    [CRT_WRONG] = {COLOR_RED, -1, A_BOLD},
    [CRT_WARN] = {COLOR_YELLOW, -1, 0},
    [CRT_INPUT] = {COLOR_WHITE, COLOR_BLUE, 0},
    [CRT_BORDER] = {-1, -1, 0},
    [CRT_CODE] = {COLOR_GREEN, -1, 0},
    [CRT_FORMULA] = {COLOR_YELLOW, -1, A_BOLD},
    [CRT_HEAT_0] = {COLOR_WHITE, COLOR_BLACK, A_DIM},
    [CRT_HEAT_1] = {COLOR_WHITE, COLOR_BLACK, 0},
    [CRT_HEAT_2] = {COLOR_WHITE, COLOR_BLUE, 0},
    [CRT_HEAT_3] = {COLOR_WHITE, COLOR_BLUE, A_BOLD},
    [CRT_HEAT_4] = {COLOR_BLACK, COLOR_CYAN, 0},
    [CRT_HEAT_5] = {COLOR_BLACK, COLOR_GREEN, 0},
    [CRT_HEAT_6] = {COLOR_BLACK, COLOR_YELLOW, 0},
    [CRT_HEAT_7] = {COLOR_BLACK, COLOR_WHITE, A_BOLD},
};

/* No colour: attributes only (the heatmap draws shade characters instead). */
static const attr_t palette_none[CRT_ROLES] = {
    [CRT_TITLE] = A_BOLD,
    [CRT_STATUS] = A_REVERSE,
    [CRT_STATUS_KEY] = A_REVERSE | A_BOLD,
    [CRT_SELECTED] = A_REVERSE,
    [CRT_DIM] = A_DIM,
    [CRT_OK] = A_BOLD,
    [CRT_WRONG] = A_BOLD,
    [CRT_WARN] = A_UNDERLINE,
    [CRT_INPUT] = A_UNDERLINE,
    [CRT_FORMULA] = A_BOLD,
    [CRT_HEAT_7] = A_BOLD,
};

/* 1 when TERM names a terminal type that can draw full screens (known to terminfo,
 * with cursor addressing); "dumb", unset or unknown types cannot. */
static int term_can_draw(const char *term)
{
    if (!term || !*term || !strcmp(term, "dumb"))
        return 0;
    int err = 0;
    if (setupterm(term, STDOUT_FILENO, &err) != OK)
        return 0;
    char *cup = tigetstr("cup");
    int ok = cup && cup != (char *)-1;
    del_curterm(cur_term);
    return ok;
}

const char *crt_unusable(void)
{
    static char why[512];
    const char *term = getenv("TERM");
    /* the terminal type first: in a real terminal with TERM=dumb, that is the reason */
    if (isatty(STDOUT_FILENO) && !term_can_draw(term)) {
        snprintf(why, sizeof why,
                 "attn-tutor: this terminal type (TERM=%s) cannot draw the tutor's screens.\n"
                 "Set TERM (e.g. TERM=xterm-256color), or use the commands that need none:\n"
                 "attn-tutor attend SENTENCE, softmax, compute, show ID, check QID ANSWER, practice.",
                 term && *term ? term : "unset");
        return why;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return "attn-tutor: the tutor needs a terminal (stdin and stdout are not one).\n"
               "Without a terminal use: attn-tutor attend SENTENCE, softmax, compute, show ID,\n"
               "check QID ANSWER, practice (attn-tutor --help lists them).";
    return NULL;
}

static void pick_palette(void)
{
    const char *nc = getenv("NO_COLOR");
    crt.palette = CRT_PALETTE_NONE;
    if ((!nc || !*nc) && has_colors() && start_color() == OK) {
        use_default_colors();
        crt.palette = COLORS >= 256 && COLOR_PAIRS >= CRT_ROLES + 1 ? CRT_PALETTE_256
                      : COLORS >= 8 && COLOR_PAIRS >= CRT_ROLES + 1 ? CRT_PALETTE_8
                                                                    : CRT_PALETTE_NONE;
    }
    for (int r = 0; r < CRT_ROLES; r++) {
        if (crt.palette == CRT_PALETTE_NONE) {
            crt.attrs[r] = palette_none[r];
            continue;
        }
        const role_colors *c = crt.palette == CRT_PALETTE_256 ? &palette_256[r] : &palette_8[r];
        if (r == CRT_NORMAL) {
            crt.attrs[r] = 0;
            continue;
        }
        init_pair((short)r, c->fg, c->bg);
        crt.attrs[r] = COLOR_PAIR(r) | c->extra;
    }
}

static void setup(void)
{
    crt.active = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    pick_palette();
}

/* One title sequence on the terminal (the frame marks). */
static void put_title(const char *title)
{
    char b[96];
    int n = snprintf(b, sizeof b, "\033]2;%s\033\\", title);
    if (crt.out_fd < 0 || n <= 0 || (size_t)n >= sizeof b)
        return;
    fflush(stdout);   /* after anything ncurses or stdio still holds */
    for (const char *p = b; n > 0;) {
        ssize_t r = write(crt.out_fd, p, (size_t)n);
        if (r <= 0)
            return;
        p += r;
        n -= (int)r;
    }
}

void crt_frame_begin(void)
{
    if (crt.frame_marks)
        put_title("attn-tutor:drawing");
}

/* The mark after a frame (next: a new one) or again for the one on screen. */
static void put_frame_mark(int next)
{
    if (!crt.frame_marks)
        return;
    char t[96];
    if (crt.active)
        snprintf(t, sizeof t, "attn-tutor:frame %lu keys %lu size %dx%d%s",
                 next ? ++crt.frames : crt.frames, crt.keys, COLS, LINES,
                 crt.probe.waiting ? " probing" : "");
    else
        snprintf(t, sizeof t, "attn-tutor:ended keys %lu", crt.keys);
    put_title(t);
}

void crt_frame_end(void)
{
    put_frame_mark(1);
}

void crt_key_read(void)
{
    crt.keys++;
    crt.failed_reads = 0;
}

int crt_input_closed(void)
{
    if (crt.in_fd < 0)
        return 0;
    struct pollfd p = {crt.in_fd, POLLIN, 0};
    int r = poll(&p, 1, 0);
    if ((r < 0 && errno != EINTR) || (r > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))))
        return 1;
    /* an end of input that poll reports as readable: a thousand empty waits in a row
     * (a signal ends one now and then; never that many) */
    return ++crt.failed_reads >= 1000;
}

int crt_init(void)
{
    if (crt.active)
        return 0;
    crt.out_fd = STDOUT_FILENO;
    crt.frame_marks = getenv("ATTN_TUTOR_FRAME_MARKS") != NULL;
    crt_frame_begin();   /* the probe's test text is no frame */
    if (crt_init_on(NULL, stdout, stdin) < 0) {   /* initscr() without its exit on failure */
        crt_frame_end();   /* no frame will come */
        return -1;
    }
    /* Whole frames: doupdate would stop drawing at pending input, and the probe's
     * answers are pending input until crt_probe_finish reads them. */
    typeahead(-1);
    /* Sent now, after curses made the input non-canonical without echo; the answers
     * are read after the first frame (crt_probe_finish). */
    ui_probe_start(&crt.probe, STDIN_FILENO, STDOUT_FILENO);
    return 0;
}

int crt_probe_finish(void)
{
    char typed[256];
    size_t n_typed = 0, n;
    if (!crt.probe.waiting)
        return 0;
    ui_term_widths before = crt.widths;
    int over;
    do {
        over = ui_probe_poll(&crt.probe, UI_PROBE_WAIT_MS, typed + n_typed,
                             sizeof typed - n_typed, &n);
        n_typed += n;
    } while (!over);
    ui_probe_widths(&crt.probe, &crt.widths);
    while (n_typed > 0)   /* keys typed meanwhile, back in order */
        ungetch((unsigned char)typed[--n_typed]);
    if (memcmp(&crt.widths, &before, sizeof before) != 0)
        return 1;
    put_frame_mark(0);   /* the frame on screen stays: the probe is over */
    return 0;
}

int crt_init_on(const char *term, FILE *out, FILE *in)
{
    if (crt.active)
        return 0;
    /* The size comes from the terminal (TIOCGWINSZ), never from LINES and COLUMNS: a
     * stale pair exported by a shell (LINES=5, or 1000) would otherwise win over the
     * real window. They are removed rather than ignored with use_env(FALSE): with
     * that, ncurses 6.4 takes the terminfo size at each resize (80×24), not the
     * window's. use_tioctl: the size from the terminal, also at every resize. */
    unsetenv("LINES");
    unsetenv("COLUMNS");
    use_tioctl(TRUE);
    if (!(crt.screen = newterm(term, out, in)))
        return -1;
    crt.in_fd = fileno(in);
    crt.failed_reads = 0;
    setup();
    winched = 0;
    chain_winch();
    return 0;
}

/* endwin, then delscreen: the screen, its terminal and ncurses' caches are freed, so
 * valgrind sees no memory of ours or of ncurses left behind. */
void crt_done(void)
{
    if (!crt.active)
        return;
    if (crt.winch_chained) {
        sigaction(SIGWINCH, &crt.nc_winch, NULL);
        crt.winch_chained = 0;
    }
    curs_set(1);
    endwin();
    delscreen(crt.screen);
    crt.screen = NULL;
    crt.active = 0;
    crt_frame_end();   /* the last frame is over: what follows is the shell's */
    crt.frame_marks = 0;
    crt.out_fd = -1;
}

const ui_term_widths *crt_term_widths(void)
{
    return &crt.widths;
}

crt_palette crt_palette_in_use(void)
{
    return crt.palette;
}

attr_t crt_attr(crt_role role)
{
    return role < CRT_ROLES ? crt.attrs[role] : 0;
}

crt_role crt_heat_role(float w)
{
    if (!(w > 0))
        return CRT_HEAT_0;
    if (w >= 1)
        return CRT_HEAT_7;
    /* square root spreads the small weights, where most of a row lives */
    int level = (int)floorf(sqrtf(w) * CRT_HEAT_LEVELS);
    if (level >= CRT_HEAT_LEVELS)
        level = CRT_HEAT_LEVELS - 1;
    return (crt_role)(CRT_HEAT_0 + level);
}

const char *crt_shade(float w)
{
    static const char *shades[] = {" ", "░", "▒", "▓", "█"};
    if (!(w > 0.02f))
        return shades[0];
    int level = 1 + (int)(w * 4);
    return shades[level > 4 ? 4 : level];
}
