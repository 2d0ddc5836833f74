/*
 * cycle_replay.h - test helpers: replay a trace to completion (the golden path) or in the
 * cycle-driven mode (bus writes interleaved with gx_run slices), collecting each frame's hash,
 * RDLINES_COUNT and underflow bit; and the list of traces of a golden directory. Include it
 * after defining _POSIX_C_SOURCE 200809L.
 */
#ifndef DSGX_TEST_CYCLE_REPLAY_H
#define DSGX_TEST_CYCLE_REPLAY_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "tools/core/cycle_replay.h"
#include "tools/core/system.h"

#define REPLAY_MAX_FRAMES 64

typedef struct replay_out {
    unsigned nframes;
    uint64_t hash[REPLAY_MAX_FRAMES];
    uint8_t rdlines[REPLAY_MAX_FRAMES];
    bool underflow[REPLAY_MAX_FRAMES];
    uint64_t stall_cycles; /**< cycle mode: sum of the stalls gx_bus_write32 reported */
    unsigned stalls;       /**< cycle mode: writes that stalled */
} replay_out;

static void replay_collect(replay_out *o, dsgx_system *s)
{
    if (o->nframes >= REPLAY_MAX_FRAMES) return;
    o->hash[o->nframes] = dsgx_frame_hash(&s->frame);
    o->rdlines[o->nframes] = s->result.rdlines;
    o->underflow[o->nframes] = s->result.underflow;
    o->nframes++;
}

static void replay_cb(void *user, unsigned index, dsgx_system *s)
{
    (void)index;
    replay_collect(user, s);
}

static inline int replay_load(dsgx_trace *t, const char *path)
{
    char err[256];
    memset(t, 0, sizeof(*t));
    return dsgx_trace_load(t, path, err, sizeof err);
}

/** Run to completion (the default mode), as `dsgx replay` does. */
static inline void replay_complete(const dsgx_trace *t, replay_out *o)
{
    memset(o, 0, sizeof(*o));
    dsgx_system *s = dsgx_system_create();
    dsgx_system_replay(s, t, replay_cb, o);
    dsgx_system_destroy(s);
}

/** Cycle mode (tools/core/cycle_replay.c): bus writes one at a time, gx_run(slice) after
 *  each, enough cycles before each frame. */
static inline void replay_cycles(const dsgx_trace *t, uint32_t slice, replay_out *o)
{
    memset(o, 0, sizeof(*o));
    dsgx_system *s = dsgx_system_create();
    dsgx_cycle_stats st;
    dsgx_system_replay_cycles(s, t, slice, replay_cb, o, &st);
    o->stalls = (unsigned)st.stalls;
    o->stall_cycles = st.stall_cycles;
    dsgx_system_destroy(s);
}

/** The .trace files of @p dir, sorted (caller frees each and the array). */
static inline unsigned replay_list(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    unsigned n = 0, cap = 0;
    *names = NULL;
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".trace") != 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            *names = realloc(*names, cap * sizeof(char *));
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (unsigned i = 1; i < n; i++) /* insertion sort: a stable order for messages */
        for (unsigned j = i; j > 0 && strcmp((*names)[j - 1], (*names)[j]) > 0; j--) {
            char *tmp = (*names)[j];
            (*names)[j] = (*names)[j - 1];
            (*names)[j - 1] = tmp;
        }
    return n;
}

#endif
