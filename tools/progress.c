/*
 * progress.c - the progress line of long runs (see progress.h).
 *
 * The line is drawn with a carriage return and erased with "\r" + ESC[K (erase to the end of
 * the line, ECMA-48 EL 0), which every terminal emulator in use understands. Time left is the
 * items still to do divided by the mean rate so far: scenes and models differ in cost, so a
 * short moving window would jump around more than the mean does.
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/progress.h"

#include <time.h>
#include <unistd.h>

double progress_monotonic(void *user)
{
    (void)user;
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts)) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(progress *p, FILE *out, bool tty, progress_clock_fn clock, void *clock_user,
                   const char *prefix, const char *unit, size_t total)
{
    p->out = out;
    p->tty = tty;
    p->clock = clock;
    p->clock_user = clock_user;
    p->prefix = prefix;
    p->unit = unit;
    p->total = total;
    p->done = 0;
    p->start = clock(clock_user);
    p->last_draw = p->start;
    p->shown = false;
}

void progress_init_stderr(progress *p, const char *prefix, const char *unit, size_t total)
{
    progress_init(p, stderr, isatty(fileno(stderr)) != 0, progress_monotonic, NULL, prefix, unit,
                  total);
}

/* "7s", "1:05", "2:03:04" */
static void format_duration(double sec, char *buf, size_t size)
{
    unsigned long s = sec <= 0 ? 0 : (unsigned long)(sec + 0.999); /* whole seconds, rounded up */
    if (s < 60)
        snprintf(buf, size, "%lus", s);
    else if (s < 3600)
        snprintf(buf, size, "%lu:%02lu", s / 60, s % 60);
    else
        snprintf(buf, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
}

size_t progress_format(const progress *p, double now, char *buf, size_t size)
{
    if (!size) return 0;
    double elapsed = now - p->start;
    int n = snprintf(buf, size, "%s: %zu/%zu %s", p->prefix, p->done, p->total, p->unit);
    if (n >= 0 && (size_t)n < size && p->done > 0 && elapsed > 0) {
        double rate = (double)p->done / elapsed;
        char left[32];
        format_duration((double)(p->total - p->done) / rate, left, sizeof left);
        n += snprintf(buf + n, size - (size_t)n,
                      rate < 100 ? ", %.1f/s, %s left" : ", %.0f/s, %s left", rate, left);
    }
    if (n < 0) {
        buf[0] = 0;
        return 0;
    }
    return (size_t)n < size ? (size_t)n : size - 1;
}

void progress_clear(progress *p)
{
    if (!p->shown) return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = false;
}

void progress_update(progress *p, size_t done)
{
    p->done = done < p->total ? done : p->total;
    if (!p->tty) return;
    double now = p->clock(p->clock_user);
    if (now - p->start < PROGRESS_DELAY) return;
    bool last = p->done == p->total;
    if (p->shown && !last && now - p->last_draw < PROGRESS_INTERVAL) return;
    char line[256];
    progress_format(p, now, line, sizeof line);
    fprintf(p->out, "\r%s\033[K", line);
    fflush(p->out);
    p->shown = true;
    p->last_draw = now;
}

void progress_finish(progress *p)
{
    progress_clear(p);
}
