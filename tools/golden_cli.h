/*
 * golden_cli.h - what the parts of `dsgx golden` share (cmd_golden.c: options and the manifest
 * directories; golden_check.c: check; golden_update.c: update): the options, the text buffer
 * workers print through, and the drawing of one scene whatever its kind (trace, frame dump or
 * render spec).
 */
#ifndef DSGX_GOLDEN_CLI_H
#define DSGX_GOLDEN_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "tools/core/golden.h"

typedef struct golden_options {
    char **dirs;  /**< the manifest directories, in the order of the run */
    char **label; /**< per directory: "" or "sub/dir/" put before scene names and in
                       OUTDIR when a run has several directories */
    size_t ndirs;
    const char **scenes;
    unsigned nscenes;
    const char *outdir, *note, *report, *junit;
    bool melonds_gaps;
    unsigned jobs;
    unsigned threads;        /**< threads per scene (dsgx_system_set_threads: pipelined from 2) */
    unsigned shard, nshards; /**< --shard I/N; 0/0 none */
} golden_options;

/* ---- text accumulated by a worker, printed in order ---- */

typedef struct strbuf {
    char *s;
    size_t n, cap;
} strbuf;

void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

bool golden_scene_selected(const golden_options *opt, const char *scene);

/** The frames of one scene, found by frame number. */
typedef struct scene_frames {
    golden_frame *f;
    long *num; /**< frame number of f[i] */
    long n;
} scene_frames;

/** Draw the frames of a scene: a trace or dump emits all its frames (numbered 0..), a render
 *  spec (golden_is_render_spec) is drawn once per wanted frame number, through `dsgx render`
 *  (render_to_frame, serialised by @p render_lock when not NULL).
 *  @return 0, or -1 with a message in err. */
int golden_draw_scene(const golden_options *opt, pthread_mutex_t *render_lock, const char *path,
                      const long *want, size_t nwant, scene_frames *out, char *err, size_t errlen);
void scene_frames_free(scene_frames *sf);

int golden_check(const golden_options *opt);
int golden_update(const golden_options *opt);

#endif
