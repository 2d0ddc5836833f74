/*
 * bench.c - `dsgx bench TRACE... [--repeat N] [--threads N] [--cycles SLICE] [--json | --csv]`:
 * rendering and geometry speed, and the memory of one engine pair.
 *
 * Each trace is replayed N times (default 100) on one system (gx_reset between runs); for every
 * frame the wall time of raster_render() (latched polygon list -> finished frame) and of
 * executing that frame's bus writes (geometry) and between two frames (the whole frame:
 * throughput) are recorded; with --threads 2 or more the replay is pipelined
 * (tools/core/system.h: frame N's render overlaps frame N+1's geometry, so the whole frame is
 * below render + geometry). The default output is one line per trace for people:
 *   NAME render_median_us X geometry_median_us Y frame_median_us Z
 * --json prints one object (bench/README.md "Machine-readable output" has its fields), --csv a
 * header and one row per trace. Figures, not a test: nothing here passes or fails on time.
 * --cycles SLICE: each repeat also replays the trace in the geometry engine's cycle-driven mode
 * (docs/cycle.md; tools/core/cycle_replay.c: one bus write at a time, gx_run(SLICE) after
 * each), alternating with the run-to-completion replay, and adds
 *   cycles SLICE cycle_geometry_median_us Z cycle_ratio Z/Y stalls S
 * (the same fields in --json and --csv). `dsgx bench --state`: save states (bench_state.c).
 * Rendering threads: --threads (default: the cores, at most 8; raster/README.md "Threads").
 *
 * dsgx_system_replay reads the geometry time of a frame with ONE clock pair around the whole
 * run of bus writes before its `frame` directive. Timing every write (as dsgx_system_exec does for
 * the CLI's statistics) costs two clock reads, about 60-70 ns, per write: on g_heavy_1's 24,000
 * writes that is more than the geometry work itself. See bench/README.md for figures.
 *
 * Memory: the bytes the engine pair allocates (gx_memory_bytes + raster_memory_bytes, exact)
 * and the growth of the process's peak resident set (getrusage ru_maxrss) from just before the
 * first trace's system is created to the end of its replays: what one engine pair actually
 * touches (the first trace should be a heavy one for that figure to mean something).
 * Instructions per frame come from the CPU's counter (Linux perf_event_open) where the kernel
 * and the machine allow it, else they are reported as unavailable (null / empty).
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

#include "bench/bench.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/cycle_replay.h"
#include "tools/core/input.h"
#include "tools/core/system.h"
#include "tools/sheet.h"

typedef struct samples {
    uint64_t *render, *geometry, *frame;
    size_t n, cap;
    bool oom;
    gx_frame_stats stats; /* of the last frame */
} samples;

static void on_frame(samples *sm, uint64_t render_ns, uint64_t geometry_ns, uint64_t frame_ns)
{
    if (sm->oom) return;
    if (sm->n == sm->cap) {
        size_t nc = sm->cap ? sm->cap * 2 : 256;
        uint64_t *r = realloc(sm->render, nc * sizeof *r);
        if (r) sm->render = r;
        uint64_t *g = realloc(sm->geometry, nc * sizeof *g);
        if (g) sm->geometry = g;
        uint64_t *f = realloc(sm->frame, nc * sizeof *f);
        if (f) sm->frame = f;
        if (!r || !g || !f) {
            sm->oom = true;
            return;
        }
        sm->cap = nc;
    }
    sm->render[sm->n] = render_ns;
    sm->geometry[sm->n] = geometry_ns;
    sm->frame[sm->n] = frame_ns;
    sm->n++;
}

static void samples_free(samples *sm)
{
    free(sm->render);
    free(sm->geometry);
    free(sm->frame);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

double bench_median_us(uint64_t *v, size_t n)
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
    samples *sm = user;
    on_frame(sm, s->render_ns, s->geometry_ns, s->frame_ns);
    sm->stats = s->stats;
}

/* ---- the instruction counter (where the machine has one) ---- */

typedef struct icounter {
    int fd; /* -1: none */
} icounter;

static void icounter_open(icounter *c)
{
    c->fd = -1;
#ifdef __linux__
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.inherit = 1; /* the rendering workers too */
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    c->fd = fd < 0 ? -1 : (int)fd;
#endif
}

static void icounter_start(icounter *c)
{
#ifdef __linux__
    if (c->fd < 0) return;
    ioctl(c->fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
#else
    (void)c;
#endif
}

/* @return the instructions since icounter_start, or -1 when there is no counter. */
static int64_t icounter_stop(icounter *c)
{
#ifdef __linux__
    if (c->fd < 0) return -1;
    ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t v = 0;
    if (read(c->fd, &v, sizeof v) != (ssize_t)sizeof v) return -1;
    return (int64_t)v;
#else
    (void)c;
    return -1;
#endif
}

static void icounter_close(icounter *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
}

static long peak_rss_kib(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss; /* KiB on Linux */
}

/* ---- output ---- */

enum bench_format { FMT_TEXT, FMT_JSON, FMT_CSV };

typedef struct trace_result {
    char name[256];
    unsigned frames;
    double render_us, geometry_us, frame_us;
    int64_t instructions; /* per frame, -1: unavailable */
    gx_frame_stats stats;
    uint32_t slice; /* --cycles: 0 = off */
    double cycle_geometry_us;
    uint64_t stalls;
} trace_result;

static double cycle_ratio(const trace_result *t)
{
    return t->geometry_us > 0 ? t->cycle_geometry_us / t->geometry_us : 0.0;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* CSV field: quoted when it holds a comma, quote or line break. */
static void csv_string(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void print_text(const trace_result *t)
{
    printf("%s render_median_us %.1f geometry_median_us %.1f frame_median_us %.1f", t->name,
           t->render_us, t->geometry_us, t->frame_us);
    if (t->slice)
        printf(" cycles %u cycle_geometry_median_us %.1f cycle_ratio %.2f stalls %llu", t->slice,
               t->cycle_geometry_us, cycle_ratio(t), (unsigned long long)t->stalls);
    printf("\n");
}

static const char CSV_HEADER[] = "trace,frames,render_median_us,geometry_median_us,"
                                 "frame_median_us,instructions_per_frame,commands,polygons,"
                                 "vertices,threads,cycles,cycle_geometry_median_us,cycle_ratio,"
                                 "stalls\n";

static void print_csv(const trace_result *t, unsigned threads)
{
    csv_string(stdout, t->name);
    printf(",%u,%.1f,%.1f,%.1f,", t->frames, t->render_us, t->geometry_us, t->frame_us);
    if (t->instructions >= 0) printf("%lld", (long long)t->instructions);
    printf(",%u,%u,%u,%u,", t->stats.commands, t->stats.polygons, t->stats.vertices, threads);
    if (t->slice)
        printf("%u,%.1f,%.2f,%llu", t->slice, t->cycle_geometry_us, cycle_ratio(t),
               (unsigned long long)t->stalls);
    else
        printf(",,,");
    printf("\n");
}

static void print_json_trace(const trace_result *t, bool first)
{
    printf("%s\n    {\"name\": ", first ? "" : ",");
    json_string(stdout, t->name);
    printf(", \"frames\": %u, \"render_median_us\": %.1f, \"geometry_median_us\": %.1f, "
           "\"frame_median_us\": %.1f, \"instructions_per_frame\": ",
           t->frames, t->render_us, t->geometry_us, t->frame_us);
    if (t->instructions >= 0)
        printf("%lld", (long long)t->instructions);
    else
        printf("null");
    printf(", \"commands\": %u, \"polygons\": %u, \"vertices\": %u", t->stats.commands,
           t->stats.polygons, t->stats.vertices);
    if (t->slice)
        printf(", \"cycles\": %u, \"cycle_geometry_median_us\": %.1f, \"cycle_ratio\": %.2f, "
               "\"stalls\": %llu",
               t->slice, t->cycle_geometry_us, cycle_ratio(t), (unsigned long long)t->stalls);
    printf("}");
}

static const char USAGE[] =
    "usage: dsgx bench TRACE... [--repeat N] [--threads N] [--cycles SLICE] [--json | --csv]\n"
    "       dsgx bench --models MODEL.nsbmd... [--repeat N] [-o DIR]\n"
    "       dsgx bench --state TRACE... [--repeat N]\n";

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --models: PNG screenshots of every model of each file, on one pair of engines in this
 * process (render_model_pngs); screenshots per second of wall time and of CPU time (the
 * per-core figure on a shared machine). */
static int bench_models(char **files, int nfiles, unsigned repeat, const char *out_dir,
                        enum bench_format fmt)
{
    sheet_opts so = {.cam = {.fov = 30}, .scale = 1, .shard = 1, .shards = 1};
    int status = 0;
    unsigned total = 0;
    double wall = 0, cpu = 0;
    if (fmt == FMT_CSV) printf("file,screenshots,wall_s,cpu_s,per_s,per_cpu_s\n");
    if (fmt == FMT_JSON)
        printf("{\"tool\": \"dsgx bench --models\", \"repeat\": %u, \"files\": [", repeat);
    for (int f = 0; f < nfiles; f++) {
        unsigned n = 0;
        double w0 = (double)dsgx_now_ns() * 1e-9, c0 = cpu_seconds();
        if (render_model_pngs(files[f], &so, out_dir, repeat, &n)) status = 1;
        double w = (double)dsgx_now_ns() * 1e-9 - w0, c = cpu_seconds() - c0;
        total += n;
        wall += w;
        cpu += c;
        char name[256];
        cli_stem(files[f], name, sizeof name);
        double ps = w > 0 ? n / w : 0, pc = c > 0 ? n / c : 0;
        switch (fmt) {
        case FMT_TEXT:
            printf("%s screenshots %u wall_s %.4f cpu_s %.4f per_s %.0f per_cpu_s %.0f\n", name, n,
                   w, c, ps, pc);
            break;
        case FMT_CSV:
            csv_string(stdout, name);
            printf(",%u,%.4f,%.4f,%.0f,%.0f\n", n, w, c, ps, pc);
            break;
        case FMT_JSON:
            printf("%s\n    {\"name\": ", f ? "," : "");
            json_string(stdout, name);
            printf(", \"screenshots\": %u, \"wall_s\": %.4f, \"cpu_s\": %.4f, \"per_s\": %.0f, "
                   "\"per_cpu_s\": %.0f}",
                   n, w, c, ps, pc);
            break;
        }
    }
    double ps = wall > 0 ? total / wall : 0, pc = cpu > 0 ? total / cpu : 0;
    if (fmt == FMT_JSON)
        printf("\n  ],\n  \"total\": {\"screenshots\": %u, \"wall_s\": %.4f, \"cpu_s\": %.4f, "
               "\"per_s\": %.0f, \"per_cpu_s\": %.0f}\n}\n",
               total, wall, cpu, ps, pc);
    else if (fmt == FMT_TEXT)
        printf("total screenshots %u wall_s %.4f cpu_s %.4f per_s %.0f per_cpu_s %.0f\n", total,
               wall, cpu, ps, pc);
    return status;
}

static void print_help(void)
{
    printf("%s"
           "  replays each trace N times (default 100) and prints per trace the medians over\n"
           "  all frames of the rendering time, the geometry time (its bus writes) and the\n"
           "  whole frame (wall time between frames: with 2 or more threads geometry and\n"
           "  rendering overlap), in microseconds:\n"
           "    NAME render_median_us X geometry_median_us Y frame_median_us Z\n"
           "  --threads N  threads, 1..8 (default: the cores, at most 8, as replay;\n"
           "               2 or more: pipelined, the geometry of a frame overlaps the\n"
           "               rendering of the last, then helps draw it; --threads 1 gives\n"
           "               the one-core figure)\n"
           "  --cycles SLICE  also replay in the cycle-driven mode, one bus write at a\n"
           "               time and gx_run(SLICE) after each (docs/cycle.md); adds\n"
           "               cycles SLICE cycle_geometry_median_us Z cycle_ratio Z/Y stalls S\n"
           "  --json       one JSON object: threads, repeat, cores, the memory of one engine\n"
           "               pair (allocated bytes and resident growth) and one entry per trace\n"
           "               (frames, the three medians, instructions per frame where the\n"
           "               machine has a counter, else null; commands, polygons, vertices)\n"
           "  --csv        the same per-trace figures as CSV (header line first); the memory\n"
           "               figures go to stderr\n"
           "  the number of threads is printed to stderr first (text output)\n"
           "  --models     PNG screenshots instead: every model of each NSBMD (its own\n"
           "               textures, render --all's camera) rendered and written as a PNG,\n"
           "               N times (default 100), on one pair of engines in this process;\n"
           "               prints screenshots per second of wall and of CPU time. -o DIR\n"
           "               keeps the PNGs (FILE.I.png), else they are encoded to /dev/null\n"
           "  --state      save states instead: NAME state_bytes_max B save_median_us X\n"
           "               restore_median_us Y nochecksum_save_median_us X2\n"
           "               nochecksum_restore_median_us Y2 (the largest state between the\n"
           "               trace's bus writes, saved and restored N times, default 200)\n",
           USAGE);
}

int cmd_bench(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--state")) return bench_state(argc - 1, argv + 1);
    unsigned repeat = 100, threads = cli_default_threads();
    uint32_t slice = 0; /* --cycles: 0 = off */
    enum bench_format fmt = FMT_TEXT;
    int first = 0, nfiles = 0;
    bool models = false;
    const char *out_dir = NULL;
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
        } else if (!strcmp(argv[i], "--json")) {
            fmt = FMT_JSON;
        } else if (!strcmp(argv[i], "--csv")) {
            fmt = FMT_CSV;
        } else if (!strcmp(argv[i], "--models")) {
            models = true;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--help")) {
            print_help();
            return 0;
        } else {
            if (!nfiles) first = i;
            nfiles++;
            argv[first + nfiles - 1] = argv[i];
        }
    }
    if (!nfiles) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (models) return bench_models(argv + first, nfiles, repeat, out_dir, fmt);
    if (fmt == FMT_TEXT)
        fprintf(stderr, "dsgx bench: %u rendering thread%s\n", threads, threads == 1 ? "" : "s");

    icounter ic;
    icounter_open(&ic);
    size_t alloc_bytes = 0;
    long rss_growth = -1;
    int status = 0;
    bool first_out = true;
    if (fmt == FMT_JSON)
        printf("{\"tool\": \"dsgx bench\", \"threads\": %u, \"repeat\": %u, \"cores\": %ld,\n"
               "  \"traces\": [",
               threads, repeat, sysconf(_SC_NPROCESSORS_ONLN));
    if (fmt == FMT_CSV) fputs(CSV_HEADER, stdout);
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
        long rss0 = peak_rss_kib();
        dsgx_system *s = dsgx_system_create();
        if (s) dsgx_system_set_threads(s, threads);
        dsgx_system *c = slice ? dsgx_system_create() : NULL;
        if (c) raster_set_threads(c->raster, threads);
        int64_t instr = -1;
        if (s) { /* one stream of frames: pipelined (threads > 1), a pass overlaps the last
                  * one's render (tools/core/system.h) */
            icounter_start(&ic);
            dsgx_system_replay_repeat(s, &t, repeat, frame_cb, &sm);
            instr = icounter_stop(&ic);
        }
        for (unsigned r = 0; c && r < repeat; r++) {
            gx_reset(c->gx);
            dsgx_system_replay_cycles(c, &t, slice, frame_cb, &cm, &cst);
        }
        if (s && rss_growth < 0) {
            long rss1 = peak_rss_kib();
            rss_growth = rss0 >= 0 && rss1 >= rss0 ? rss1 - rss0 : -1;
        }
        if (s) {
            size_t a = gx_memory_bytes(s->gx) + raster_memory_bytes(s->raster);
            if (a > alloc_bytes) alloc_bytes = a;
        }
        dsgx_system_destroy(s);
        dsgx_system_destroy(c);
        if (!s || sm.oom || cm.oom) {
            fprintf(stderr, "dsgx bench: %s: out of memory\n", path);
            status = 1;
        }

        trace_result res;
        memset(&res, 0, sizeof res);
        cli_stem(path, res.name, sizeof res.name);
        res.frames = (unsigned)(repeat ? sm.n / repeat : 0);
        res.render_us = bench_median_us(sm.render, sm.n);
        res.geometry_us = bench_median_us(sm.geometry, sm.n);
        res.frame_us = bench_median_us(sm.frame, sm.n);
        res.instructions = instr >= 0 && sm.n ? instr / (int64_t)sm.n : -1;
        res.stats = sm.stats;
        res.slice = slice;
        res.cycle_geometry_us = bench_median_us(cm.geometry, cm.n);
        res.stalls = cst.stalls;
        switch (fmt) {
        case FMT_TEXT: print_text(&res); break;
        case FMT_CSV: print_csv(&res, threads); break;
        case FMT_JSON: print_json_trace(&res, first_out); break;
        }
        first_out = false;
        fflush(stdout);
        samples_free(&sm);
        samples_free(&cm);
        dsgx_trace_free(&t);
    }
    icounter_close(&ic);

    double alloc_mib = (double)alloc_bytes / (1024.0 * 1024.0);
    if (fmt == FMT_JSON) {
        printf("\n  ],\n  \"memory\": {\"engine_pair_allocated_bytes\": %zu, "
               "\"engine_pair_resident_growth_kib\": %ld, \"process_peak_rss_kib\": %ld}\n}\n",
               alloc_bytes, rss_growth, peak_rss_kib());
    } else {
        fprintf(stderr,
                "dsgx bench: engine pair (gx + raster, %u thread%s): %zu bytes allocated "
                "(%.2f MiB), peak resident growth %ld KiB; process peak %ld KiB\n",
                threads, threads == 1 ? "" : "s", alloc_bytes, alloc_mib, rss_growth,
                peak_rss_kib());
    }
    return status;
}
