/*
 * bench_state.c - `dsgx bench --state TRACE... [--repeat N]`: save-state size and speed.
 *
 * Each trace is replayed once; between its bus writes the state is measured at two points per
 * frame: just before the `frame` directive (the polygon/vertex RAM being built is full, the
 * previous frame is still latched for rendering) and just after it (the frame latched and
 * drawn, VRAM holding its textures). At the point with the largest blob, dsgx_state_save into
 * a buffer and dsgx_state_restore into a second engine pair are timed N times (default 200,
 * wall clock, one clock pair each). Prints one line per trace:
 *   NAME state_bytes_max B save_median_us X restore_median_us Y
 *        nochecksum_save_median_us X2 nochecksum_restore_median_us Y2
 * (the first pair: blobs saved with DSGX_STATE_CHECKSUM, the second without).
 * Figures, not a test (bench/README.md "Save states").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/input.h"
#include "tools/core/savestate.h"
#include "tools/core/system.h"

/* Time save and restore of @p s's current state @p repeat times. */
static void time_state(dsgx_system *s, unsigned repeat, unsigned flags, double *save_us,
                       double *restore_us)
{
    size_t size = dsgx_state_size(s->gx, s->raster);
    uint8_t *blob = malloc(size);
    uint64_t *ts = malloc(repeat * sizeof *ts), *tr = malloc(repeat * sizeof *tr);
    dsgx_system *dst = dsgx_system_create();
    *save_us = *restore_us = -1;
    if (blob && ts && tr && dst) {
        for (unsigned i = 0; i < repeat; i++) {
            uint64_t t0 = dsgx_now_ns();
            dsgx_state_save(s->gx, s->raster, blob, size, flags);
            uint64_t t1 = dsgx_now_ns();
            dsgx_state_restore(dst->gx, dst->raster, blob, size, NULL, 0);
            uint64_t t2 = dsgx_now_ns();
            ts[i] = t1 - t0;
            tr[i] = t2 - t1;
        }
        *save_us = bench_median_us(ts, repeat);
        *restore_us = bench_median_us(tr, repeat);
    }
    dsgx_system_destroy(dst);
    free(blob);
    free(ts);
    free(tr);
}

int bench_state(int argc, char **argv)
{
    unsigned repeat = 200;
    int status = 0, nfiles = 0;
    /* (options first, wherever they are: `--state TRACE --repeat N` times TRACE N times too) */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--repeat")) {
            repeat = (unsigned)strtoul(argv[i + 1], NULL, 10);
            if (!repeat) repeat = 1;
        }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            i++;
            continue;
        }
        nfiles++;
        const char *path = argv[i];
        dsgx_trace t = {0};
        char err[512];
        if (dsgx_input_load(path, &t, err, sizeof err)) {
            fprintf(stderr, "dsgx bench: %s\n", err);
            dsgx_trace_free(&t);
            status = 1;
            continue;
        }
        /* find the item index with the largest state (before or after a `frame`) */
        dsgx_system *s = dsgx_system_create();
        size_t best = 0, best_at = 0;
        for (size_t k = 0; s && k < t.n; k++) {
            int frame = t.items[k].op == TRACE_FRAME;
            if (frame) {
                size_t before = dsgx_state_size(s->gx, s->raster);
                if (before > best) best = before, best_at = k;
                dsgx_system_frame(s);
                size_t after = dsgx_state_size(s->gx, s->raster);
                if (after > best) best = after, best_at = k + 1;
            } else {
                dsgx_system_exec(s, &t, &t.items[k]);
            }
        }
        dsgx_system_destroy(s);
        /* replay up to that point again and time there */
        s = dsgx_system_create();
        for (size_t k = 0; s && k < best_at; k++) {
            if (t.items[k].op == TRACE_FRAME)
                dsgx_system_frame(s);
            else
                dsgx_system_exec(s, &t, &t.items[k]);
        }
        double save_us = -1, restore_us = -1, save_fast = -1, restore_fast = -1;
        if (s) time_state(s, repeat, DSGX_STATE_CHECKSUM, &save_us, &restore_us);
        if (s) time_state(s, repeat, 0, &save_fast, &restore_fast);
        dsgx_system_destroy(s);
        char name[256];
        cli_stem(path, name, sizeof name);
        printf("%s state_bytes_max %zu save_median_us %.1f restore_median_us %.1f "
               "nochecksum_save_median_us %.1f nochecksum_restore_median_us %.1f\n",
               name, best, save_us, restore_us, save_fast, restore_fast);
        fflush(stdout);
        dsgx_trace_free(&t);
    }
    if (!nfiles) {
        fprintf(stderr, "usage: dsgx bench --state TRACE... [--repeat N]\n");
        return 2;
    }
    return status;
}
