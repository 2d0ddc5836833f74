/*
 * cmd_replay.c - `dsgx replay FILE [-o DIR] [--raw] [--cycles SLICE]`: replay a trace or frame
 * dump (--cycles: in the geometry engine's cycle-driven mode), print
 * `frame N <xxh3> rdlines R underflow U` per frame, write frameNNN.png (and .raw).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/cycle_replay.h"
#include "tools/core/input.h"
#include "tools/core/system.h"

typedef struct replay_ctx {
    const char *outdir;
    bool raw;
    int status;
} replay_ctx;

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    replay_ctx *c = user;
    char hex[17];
    dsgx_frame_hash_hex(&s->frame, hex);
    printf("frame %u %s rdlines %u underflow %u\n", index, hex, s->result.rdlines,
           s->result.underflow ? 1u : 0u);
    if (!c->outdir) return;
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/frame%03u.png", c->outdir, index);
    if (dsgx_frame_write_png(&s->frame, path, err, sizeof err)) {
        fprintf(stderr, "dsgx replay: %s\n", err);
        c->status = 1;
    }
    if (c->raw) {
        snprintf(path, sizeof path, "%s/frame%03u.raw", c->outdir, index);
        if (dsgx_frame_write_raw(&s->frame, path, err, sizeof err)) {
            fprintf(stderr, "dsgx replay: %s\n", err);
            c->status = 1;
        }
    }
}

int cmd_replay(int argc, char **argv)
{
    replay_ctx c = {0};
    const char *file = NULL;
    bool melonds_gaps = false;
    unsigned threads = cli_default_threads();
    uint32_t slice = 0; /* --cycles: 0 = run to completion */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            c.outdir = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (cli_parse_threads("replay", argv[++i], &threads)) return 2;
        } else if (!strcmp(argv[i], "--threads")) {
            fprintf(stderr, "dsgx replay: --threads wants a number\n");
            return 2;
        } else if (!strcmp(argv[i], "--cycles")) {
            char *end = NULL;
            unsigned long v = i + 1 < argc ? strtoul(argv[++i], &end, 10) : 0;
            if (!end || *end || v == 0 || v > 1000000) {
                fprintf(stderr, "dsgx replay: --cycles wants a slice of 1..1000000 cycles\n");
                return 2;
            }
            slice = (uint32_t)v;
        } else if (!strcmp(argv[i], "--raw"))
            c.raw = true;
        else if (!strcmp(argv[i], "--melonds-gaps"))
            melonds_gaps = true;
        else if (!strcmp(argv[i], "--help")) {
            printf(
                "usage: dsgx replay FILE [-o DIR] [--raw] [--melonds-gaps] [--threads N]\n"
                "                   [--cycles SLICE]\n"
                "  FILE            GX trace, NTRFD frame dump, or PNG with an ndSf chunk\n"
                "  -o DIR          write DIR/frameNNN.png for every frame\n"
                "  --raw           also write DIR/frameNNN.raw (canonical frame bytes)\n"
                "  --melonds-gaps  fill X-major edge gaps as melonDS does (hardware leaves "
                "them),\n"
                "                  and leave out the edge-marking overlapping-edge rule as\n"
                "                  melonDS does\n"
                "  --threads N     draw each frame's scanlines on N threads, 1..8 (default: the\n"
                "                  cores, at most 8), and from 2 draw a frame while the geometry\n"
                "                  engine runs the next, whose thread then helps draw it\n"
                "                  (pipelined; N threads at most); the frames are the same for\n"
                "                  every N\n"
                "  --cycles SLICE  drive the geometry engine in its cycle-driven mode, one bus\n"
                "                  write and SLICE cycles at a time (docs/cycle.md); the same\n"
                "                  frames, plus `cycles: S writes stalled for C cycles` on stderr\n"
                "                  (not pipelined)\n"
                "prints: frame N <xxh3> rdlines R underflow U\n");
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "dsgx replay: unknown option %s\n", argv[i]);
            return 2;
        } else if (!file)
            file = argv[i];
        else {
            fprintf(stderr, "dsgx replay: one input file only\n");
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: dsgx replay FILE [-o DIR] [--raw]\n");
        return 2;
    }
    if (c.raw && !c.outdir) c.outdir = ".";
    if (c.outdir && cli_mkdirs(c.outdir)) {
        fprintf(stderr, "dsgx replay: cannot create %s\n", c.outdir);
        return 1;
    }
    dsgx_trace t = {0};
    char err[512];
    int bad = dsgx_input_load(file, &t, err, sizeof err);
    dsgx_system *s = dsgx_system_create();
    if (!s) {
        fprintf(stderr, "dsgx replay: out of memory\n");
        dsgx_trace_free(&t);
        return 1;
    }
    dsgx_system_set_log(s, cli_log, NULL);
    raster_set_melonds_gaps(s->raster, melonds_gaps);
    if (slice) {
        raster_set_threads(s->raster, threads); /* (frames drawn one at a time) */
        dsgx_cycle_stats st;
        dsgx_system_replay_cycles(s, &t, slice, on_frame, &c, &st);
        fprintf(stderr, "cycles: %llu writes stalled for %llu cycles\n",
                (unsigned long long)st.stalls, (unsigned long long)st.stall_cycles);
    } else {
        dsgx_system_set_threads(s, threads);
        dsgx_system_replay(s, &t, on_frame, &c);
    }
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
    if (bad) {
        fprintf(stderr, "dsgx replay: %s\n", err);
        return 1;
    }
    return c.status;
}
