/*
 * bench.c - `dsgx bench TRACE... [--repeat N]`: rendering and geometry speed.
 *
 * Each trace is replayed N times (default 100) on one system (gx_reset between runs); for every
 * frame the wall time of raster_render() (latched polygon list -> finished frame) and of
 * executing that frame's bus writes (geometry) are recorded. Prints one line per trace:
 *   NAME render_median_us X geometry_median_us Y
 * Figures, not a test: nothing here passes or fails on time.
 *
 * The replay loop is bench's own (same operations as dsgx_system_replay): the geometry time of
 * a frame is read with ONE clock pair around the whole run of bus writes before its `frame`
 * directive. Timing every write (as dsgx_system_exec does for the CLI's statistics) costs two
 * clock reads, about 60-70 ns, per write: on g_heavy_1's 24,000 writes that is more than the
 * geometry work itself. See bench/README.md for figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/input.h"
#include "tools/core/system.h"

typedef struct samples {
    uint64_t *render, *geometry;
    size_t n, cap;
} samples;

static void on_frame(samples *sm, uint64_t render_ns, uint64_t geometry_ns)
{
    if (sm->n == sm->cap) {
        size_t nc = sm->cap ? sm->cap * 2 : 256;
        uint64_t *r = realloc(sm->render, nc * sizeof *r);
        if (r) sm->render = r;
        uint64_t *g = realloc(sm->geometry, nc * sizeof *g);
        if (g) sm->geometry = g;
        if (!r || !g) return;
        sm->cap = nc;
    }
    sm->render[sm->n] = render_ns;
    sm->geometry[sm->n] = geometry_ns;
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

/* One bus operation, untimed (dsgx_system_exec without its per-write clock reads). */
static void exec_item(dsgx_system *s, const dsgx_trace *t, const dsgx_trace_item *it)
{
    switch (it->op) {
    case TRACE_W32: gx_write32(s->gx, it->addr, it->value); break;
    case TRACE_W16: gx_write16(s->gx, it->addr, (uint16_t)it->value); break;
    case TRACE_W8: gx_write8(s->gx, it->addr, (uint8_t)it->value); break;
    case TRACE_DATA:
        for (uint32_t k = 0; k + 4 <= it->data_len; k += 4) {
            const uint8_t *b = t->data + it->data_off + k;
            uint32_t v =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            gx_write32(s->gx, it->addr + k, v);
        }
        break;
    default: break;
    }
}

/* One replay of the trace: geometry timed per run of writes, rendering per frame. */
static void replay(dsgx_system *s, const dsgx_trace *t, samples *sm)
{
    size_t i = 0;
    while (i < t->n) {
        uint64_t t0 = dsgx_now_ns();
        while (i < t->n && t->items[i].op != TRACE_FRAME) exec_item(s, t, &t->items[i++]);
        uint64_t geometry_ns = dsgx_now_ns() - t0;
        if (i == t->n) break; /* writes after the last frame belong to no frame */
        i++;
        dsgx_system_frame(s); /* times raster_render() into s->render_ns */
        on_frame(sm, s->render_ns, geometry_ns);
    }
}

int cmd_bench(int argc, char **argv)
{
    unsigned repeat = 100;
    int first = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = (unsigned)strtoul(argv[++i], NULL, 10);
            if (!repeat) repeat = 1;
        } else if (!strcmp(argv[i], "--help")) {
            printf("usage: dsgx bench TRACE... [--repeat N]\n"
                   "  replays each trace N times (default 100) and prints\n"
                   "  NAME render_median_us X geometry_median_us Y\n");
            return 0;
        } else {
            if (!nfiles) first = i;
            nfiles++;
            argv[first + nfiles - 1] = argv[i];
        }
    }
    if (!nfiles) {
        fprintf(stderr, "usage: dsgx bench TRACE... [--repeat N]\n");
        return 2;
    }
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
        samples sm = {0};
        dsgx_system *s = dsgx_system_create();
        for (unsigned r = 0; s && r < repeat; r++) {
            gx_reset(s->gx);
            replay(s, &t, &sm);
        }
        dsgx_system_destroy(s);
        char name[256];
        cli_stem(path, name, sizeof name);
        printf("%s render_median_us %.1f geometry_median_us %.1f\n", name,
               median_us(sm.render, sm.n), median_us(sm.geometry, sm.n));
        fflush(stdout);
        free(sm.render);
        free(sm.geometry);
        dsgx_trace_free(&t);
    }
    return status;
}
