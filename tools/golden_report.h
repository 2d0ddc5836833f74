/*
 * golden_report.h - what a `dsgx golden check` run found, frame by frame, and the two files it
 * can write about it: a static HTML page (--report DIR: DIR/index.html and PNG files in DIR/img, no
 * script, no server) and JUnit XML (--junit FILE, one test case per frame).
 */
#ifndef DSGX_GOLDEN_REPORT_H
#define DSGX_GOLDEN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum golden_verdict { GOLDEN_PASS, GOLDEN_FAIL, GOLDEN_XFAIL, GOLDEN_XPASS, GOLDEN_NVERDICTS };

/** One manifest row: a frame of a scene. */
typedef struct golden_frame_result {
    long frame;
    enum golden_verdict verdict;
    char expected[17], actual[17]; /**< hashes; actual "" when not rendered */
    char why[600];                 /**< what differs ("" on a pass) */
    char xfail[160];               /**< the xfail reason of the row ("" when none) */
    bool compared;                 /**< an expected PNG was read: differing/box are valid */
    unsigned differing;
    int x0, y0, x1, y1;
    /** images in the report directory (relative to it): expected, actual, diff; "" if none */
    char img[3][96];
} golden_frame_result;

/** One scene (the rows of a manifest with one scene name). */
typedef struct golden_scene_result {
    const char *dir, *name; /**< the manifest directory and the scene name */
    enum golden_verdict verdict;
    double seconds; /**< rendering and comparing */
    golden_frame_result *frames;
    size_t nframes;
} golden_scene_result;

/** Totals of a run. */
typedef struct golden_totals {
    unsigned scenes[GOLDEN_NVERDICTS], frames[GOLDEN_NVERDICTS];
    double seconds;          /**< wall time */
    unsigned jobs;           /**< worker threads */
    unsigned shard, nshards; /**< 0/0: no sharding */
} golden_totals;

/** Write DIR/index.html (DIR and DIR/img/ must exist; the images are the caller's).
 *  @return 0, or -1 with a message. */
int golden_write_html(const char *dir, const golden_scene_result *s, size_t n,
                      const golden_totals *t, char *err, size_t errlen);
/** Write JUnit XML to @p path: one <testsuite> per manifest directory, one <testcase> per
 *  frame (failure: the hashes, pixel count and box; xfail: skipped). @return 0 or -1. */
int golden_write_junit(const char *path, const golden_scene_result *s, size_t n,
                       const golden_totals *t, char *err, size_t errlen);

/** Write @p text with the five XML/HTML special characters escaped. */
void golden_put_escaped(FILE *f, const char *text);

#endif
