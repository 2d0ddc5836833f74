/*
 * dsgx.c - the command-line tool: dispatches to the subcommands in tools/cmd_*.c.
 */
#include <stdio.h>
#include <string.h>

#include "tools/commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *summary;
} command;

static const command commands[] = {
    {"demo", cmd_demo, "demo [-o demo.png] [--trace]",
     "render the built-in demo model (or, with --trace, the demo trace) and print its hash"},
    {"replay", cmd_replay, "replay FILE [-o DIR] [--raw] [--melonds-gaps] [--cycles SLICE]",
     "replay a GX trace or frame dump; write frameNNN.png, print one hash line per frame"},
    {"explain", cmd_explain, "explain TRACE [--frame N] [--summary]",
     "decode every command, its cycles and effect, and each frame's polygon list"},
    {"hash", cmd_hash, "hash FRAME...", "print the XXH3 frame hash of PNG or raw frames"},
    {"diff", cmd_diff, "diff A B [-o diff.png]",
     "count differing pixels of two frames and write a colour-coded diff image"},
    {"bench", cmd_bench,
     "bench TRACE... [--repeat N] [--threads N] [--cycles SLICE] [--json|--csv]",
     "median render, geometry and whole-frame time per frame of each trace"},
    {"golden", cmd_golden, "golden check|update [DIR...] [SCENE...]",
     "golden-image regression tests over every manifest below each DIR"},
    {"convert", cmd_convert, "convert FILE.ntrfd -o FILE.trace", "convert a frame dump to a trace"},
    {"render", cmd_render, "render MODEL.nsbmd|MODEL.t3dm [options] -o out.png",
     "render a Nitro or Tiny3D model (and animations) to PNG"},
    {"info", cmd_info, "info FILE [--json]", "describe a Nitro file or a Tiny3D model"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: dsgx COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-48s %s\n", commands[i].usage, commands[i].summary);
    fprintf(f, "\n`dsgx help COMMAND` or `dsgx COMMAND --help` shows a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
        if (argc >= 3) {
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
                if (!strcmp(commands[i].name, argv[2])) {
                    char *args[] = {argv[2], "--help", NULL};
                    return commands[i].run(2, args);
                }
            }
        }
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "dsgx: unknown command '%s'\n", name);
    usage(stderr);
    return 2;
}
