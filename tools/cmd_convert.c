/*
 * cmd_convert.c - `dsgx convert`: between NTRFD frame dumps and GX traces.
 *   dsgx convert DUMP(.ntrfd|.png) -o FILE.trace     the equivalent trace (replays the dump)
 *   dsgx convert TRACE -o FILE.ntrfd [--frame N]     an NTRFD dump of the trace's frame N (default
 * 0) dsgx convert TRACE -o FILE.ntrfd.png             the same inside a PNG of the frame The
 * direction follows the input's content and the output's extension.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/input.h"
#include "tools/core/ntrfd.h"
#include "tools/core/system.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int to_trace(const char *in, const char *out)
{
    dsgx_trace t = {0};
    char err[512];
    if (dsgx_input_load(in, &t, err, sizeof err)) {
        fprintf(stderr, "dsgx convert: %s\n", err);
        dsgx_trace_free(&t);
        return 1;
    }
    FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "dsgx convert: cannot create %s\n", out);
        dsgx_trace_free(&t);
        return 1;
    }
    fprintf(f, "# converted by dsgx convert from %s\n", in);
    int r = dsgx_trace_write(&t, f);
    if (f != stdout) r |= fclose(f);
    dsgx_trace_free(&t);
    if (r) fprintf(stderr, "dsgx convert: %s: write error\n", out);
    return r ? 1 : 0;
}

static int to_dump(const char *in, const char *out, unsigned frame)
{
    dsgx_trace t = {0};
    char err[512];
    if (dsgx_trace_load(&t, in, err, sizeof err)) {
        fprintf(stderr, "dsgx convert: %s\n", err);
        dsgx_trace_free(&t);
        return 1;
    }
    dsgx_ntrfd fd;
    int r = dsgx_ntrfd_from_trace(&fd, &t, frame, err, sizeof err);
    if (!r && ends_with(out, ".png")) {
        /* the image of the PNG is the frame the dump renders */
        dsgx_trace dt = {0};
        dsgx_system *s = dsgx_system_create();
        r = !s || dsgx_ntrfd_to_trace(&fd, &dt);
        if (!r) dsgx_system_replay(s, &dt, NULL, NULL);
        if (!r)
            r = dsgx_ntrfd_write_png(&fd, &s->frame, out, err, sizeof err);
        else
            snprintf(err, sizeof err, "out of memory");
        dsgx_system_destroy(s);
        dsgx_trace_free(&dt);
    } else if (!r) {
        r = dsgx_ntrfd_write(&fd, out, err, sizeof err);
    }
    if (r) fprintf(stderr, "dsgx convert: %s: %s\n", in, err);
    dsgx_ntrfd_free(&fd);
    dsgx_trace_free(&t);
    return r ? 1 : 0;
}

int cmd_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    unsigned frame = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--frame") && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || v[0] == '-' || n > 1000000ul) {
                fprintf(stderr,
                        "dsgx convert: --frame takes a frame number (0, 1, ...), not '%s'\n", v);
                return 2;
            }
            frame = (unsigned)n;
        } else if (!strcmp(argv[i], "--help")) {
            printf(
                "usage: dsgx convert FILE.ntrfd|FILE.png -o FILE.trace\n"
                "       dsgx convert FILE.trace -o FILE.ntrfd|FILE.ntrfd.png [--frame N]\n"
                "  a frame dump (NTRFD version 0, raw or in a PNG ndSf chunk) becomes the GX\n"
                "  trace that replays it (-o - writes to stdout); a dump whose saved swap\n"
                "  parameter selects W-buffering gets a set-up frame first (frame 0 of the\n"
                "  trace; the dump's frame is frame 1), as the hardware replayer shows one.\n"
                "  A trace becomes an NTRFD dump of its frame N (default 0): the geometry state\n"
                "  when frame N-1 was latched, frame N's commands, registers and VRAM\n");
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "dsgx convert: unknown option %s\n", argv[i]);
            return 2;
        } else if (!in)
            in = argv[i];
        else {
            fprintf(stderr, "dsgx convert: one input file only\n");
            return 2;
        }
    }
    if (!in || !out) {
        fprintf(stderr, "usage: dsgx convert FILE.ntrfd -o FILE.trace (see --help)\n");
        return 2;
    }
    if (ends_with(out, ".ntrfd") || ends_with(out, ".png")) return to_dump(in, out, frame);
    return to_trace(in, out);
}
