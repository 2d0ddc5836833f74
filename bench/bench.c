/*
 * bench.c - `dsgx bench TRACE... [--repeat N] [--threads N] [--cycles SLICE]`: rendering and
 * geometry speed.
 *
 * Each trace is replayed N times (default 100) on one system (dsgx_system_replay_repeat: a
 * reset between runs, one stream of frames); for every frame the wall time of raster_render()
 * (latched polygon list -> finished frame), of executing that frame's bus writes (geometry) and
 * between two frames (the whole frame: throughput) are recorded. Prints one line per trace:
 *   NAME render_median_us X geometry_median_us Y frame_median_us F
 * With --threads 2 or more the replay is pipelined (tools/core/system.h): frame N's render
 * overlaps frame N+1's geometry, so F is below X + Y.
 * --cycles SLICE: each repeat also replays the trace in the geometry engine's cycle-driven mode
 * (docs/cycle.md; tools/core/cycle_replay.c: one bus write at a time, gx_run(SLICE) after
 * each), N times after the run-to-completion stream, and adds to the line
 *   cycles SLICE cycle_geometry_median_us Z cycle_ratio Z/Y stalls S
 * Figures, not a test: nothing here passes or fails on time. Rendering threads: --threads
 * (default: the cores, at most 8; raster/README.md "Threads"), printed to stderr.
 *
 * dsgx_system_replay reads the geometry time of a frame with ONE clock pair around the whole
 * run of bus writes before its `frame` directive. Timing every write (as dsgx_system_exec does for
 * the CLI's statistics) costs two clock reads, about 60-70 ns, per write: on g_heavy_1's 24,000
 * writes that is more than the geometry work itself. See bench/README.md for figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/cycle_replay.h"
#include "tools/core/input.h"
#include "tools/core/system.h"

typedef struct samples {
    uint64_t *render, *geometry, *frame;
    size_t n, cap;
} samples;

static void on_frame(samples *sm, uint64_t render_ns, uint64_t geometry_ns, uint64_t frame_ns)
{
    if (sm->n == sm->cap) {
        size_t nc = sm->cap ? sm->cap * 2 : 256;
        uint64_t *r = realloc(sm->render, nc * sizeof *r);
        if (r) sm->render = r;
        uint64_t *g = realloc(sm->geometry, nc * sizeof *g);
        if (g) sm->geometry = g;
        uint64_t *f = realloc(sm->frame, nc * sizeof *f);
        if (f) sm->frame = f;
        if (!r || !g || !f) return;
        sm->cap = nc;
    }
    sm->render[sm->n] = render_ns;
    sm->geometry[sm->n] = geometry_ns;
    sm->frame[sm->n] = frame_ns;
    sm->n++;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_us(uint64_t *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_u64);
    uint64_t m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return (double)m / 1000.0;
}

/* Per frame: dsgx_system_replay times each run of bus writes (geometry) and raster_render()
 * (render) with one clock pair each. */
static void frame_cb(void *user, unsigned index, dsgx_system *s)
{
    (void)index;
    on_frame(user, s->render_ns, s->geometry_ns, s->frame_ns);
}

int cmd_bench(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--state")) return bench_state(argc - 1, argv + 1);
    unsigned repeat = 100, threads = cli_default_threads();
    uint32_t slice = 0; /* --cycles: 0 = off */
    int first = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = (unsigned)strtoul(argv[++i], NULL, 10);
            if (!repeat) repeat = 1;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (cli_parse_threads("bench", argv[++i], &threads)) return 2;
        } else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > 1000000) {
                fprintf(stderr, "dsgx bench: --cycles wants a slice of 1..1000000 cycles\n");
                return 2;
            }
            slice = (uint32_t)v;
        } else if (!strcmp(argv[i], "--help")) {
            printf(
                "usage: dsgx bench TRACE... [--repeat N] [--threads N] [--cycles SLICE]\n"
                "  replays each trace N times (default 100) and prints\n"
                "  NAME render_median_us X geometry_median_us Y frame_median_us F\n"
                "  (F: wall time per whole frame, geometry and rendering)\n"
                "  --cycles SLICE  also replay in the cycle-driven mode, one bus write at a\n"
                "               time and gx_run(SLICE) after each (docs/cycle.md); adds\n"
                "               cycles SLICE cycle_geometry_median_us Z cycle_ratio Z/Y stalls S\n"
                "  --threads N  threads, 1..8 (default: the cores, at most 8, as replay;\n"
                "               2 or more: pipelined, the geometry of a frame overlaps the\n"
                "               rendering of the last; --threads 1 gives the one-core figure)\n"
                "  the number of threads is printed to stderr first\n"
                "usage: dsgx bench --state TRACE... [--repeat N]\n"
                "  save states: NAME state_bytes_max B save_median_us X restore_median_us Y\n"
                "  nochecksum_save_median_us X2 nochecksum_restore_median_us Y2\n"
                "  (the largest state between the trace's bus writes, saved and restored N\n"
                "  times, default 200)\n");
            return 0;
        } else {
            if (!nfiles) first = i;
            nfiles++;
            argv[first + nfiles - 1] = argv[i];
        }
    }
    if (!nfiles) {
        fprintf(stderr, "usage: dsgx bench TRACE... [--repeat N] [--threads N] [--cycles SLICE]\n");
        return 2;
    }
    fprintf(stderr, "dsgx bench: %u rendering thread%s\n", threads, threads == 1 ? "" : "s");
    int status = 0;
    for (int f = 0; f < nfiles; f++) {
        const char *path = argv[first + f];
        dsgx_trace t = {0};
        char err[512];
        if (dsgx_input_load(path, &t, err, sizeof err)) {
            fprintf(stderr, "dsgx bench: %s\n", err);
            dsgx_trace_free(&t);
            status = 1;
            continue;
        }
        samples sm = {0}, cm = {0};
        dsgx_cycle_stats cst = {0};
        dsgx_system *s = dsgx_system_create();
        dsgx_system *c = slice ? dsgx_system_create() : NULL;
        if (s) dsgx_system_set_threads(s, threads);
        if (c) raster_set_threads(c->raster, threads);
        /* one stream of frames: pipelined (threads > 1), a pass overlaps the last one's render */
        if (s) dsgx_system_replay_repeat(s, &t, repeat, frame_cb, &sm);
        for (unsigned r = 0; c && r < repeat; r++) {
            gx_reset(c->gx);
            dsgx_system_replay_cycles(c, &t, slice, frame_cb, &cm, &cst);
        }
        dsgx_system_destroy(s);
        dsgx_system_destroy(c);
        char name[256];
        cli_stem(path, name, sizeof name);
        double geo = median_us(sm.geometry, sm.n);
        printf("%s render_median_us %.1f geometry_median_us %.1f frame_median_us %.1f", name,
               median_us(sm.render, sm.n), geo, median_us(sm.frame, sm.n));
        if (slice) {
            double cgeo = median_us(cm.geometry, cm.n);
            printf(" cycles %u cycle_geometry_median_us %.1f cycle_ratio %.2f stalls %llu", slice,
                   cgeo, geo > 0 ? cgeo / geo : 0.0, (unsigned long long)cst.stalls);
        }
        printf("\n");
        fflush(stdout);
        free(sm.render);
        free(sm.geometry);
        free(sm.frame);
        free(cm.render);
        free(cm.geometry);
        free(cm.frame);
        dsgx_trace_free(&t);
    }
    return status;
}
