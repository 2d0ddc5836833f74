/*
 * progress.h - the progress line of long command-line runs (`dsgx golden check`, `dsgx render
 * --all`): on a terminal, once a run has lasted a second, one line on stderr rewritten in place
 * with the items done out of the total, the rate and the time left, e.g.
 *
 *     golden: 37/120 scenes, 12.4/s, 7s left
 *
 * and erased when the run ends. When the output is not a terminal nothing is written at all (logs
 * and pipes get only the command's own lines). The clock and the "is a terminal" decision are
 * the caller's (progress_init), so a test can drive the line with a fake clock and read the text
 * (progress_format); progress_init_stderr gives the usual ones.
 *
 * Not thread-safe: a caller with worker threads updates it under its own lock, the lock it
 * already holds to print results in order (progress_clear before printing, progress_update
 * after).
 */
#ifndef DSGX_PROGRESS_H
#define DSGX_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** A monotonic clock in seconds (any origin). */
typedef double (*progress_clock_fn)(void *user);

typedef struct progress {
    FILE *out;               /**< where the line goes (stderr) */
    bool tty;                /**< false: never write anything */
    progress_clock_fn clock; /**< the time source */
    void *clock_user;
    const char *prefix; /**< "golden" */
    const char *unit;   /**< "scenes" */
    size_t total, done;
    double start, last_draw;
    bool shown; /**< a line is on the terminal now */
} progress;

/** Seconds a run must last before the line appears, and the least time between redraws. */
#define PROGRESS_DELAY    1.0
#define PROGRESS_INTERVAL 0.1

/** Start a run of @p total items at the clock's current time. */
void progress_init(progress *p, FILE *out, bool tty, progress_clock_fn clock, void *clock_user,
                   const char *prefix, const char *unit, size_t total);
/** The same on stderr, tty = isatty(stderr), the monotonic clock. */
void progress_init_stderr(progress *p, const char *prefix, const char *unit, size_t total);
/** The monotonic clock (CLOCK_MONOTONIC), seconds. @p user is unused. */
double progress_monotonic(void *user);

/** @p done items are finished: redraw the line when it is due (a second into the run, at most
 *  every PROGRESS_INTERVAL, and always for the last item while a line is shown). */
void progress_update(progress *p, size_t done);
/** Erase the line (if shown) so the caller can print; the next update draws it again. */
void progress_clear(progress *p);
/** The run is over: erase the line. */
void progress_finish(progress *p);

/** The text of the line at time @p now, without "\r" or escapes: "PREFIX: D/T UNIT, R/s, Ns
 *  left" (rate and time left once something is done; "m:ss" from a minute, "h:mm:ss" from an
 *  hour). @return the length written (truncated to @p size - 1). */
size_t progress_format(const progress *p, double now, char *buf, size_t size);

#endif
