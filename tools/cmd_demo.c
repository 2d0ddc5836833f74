/*
 * cmd_demo.c - `dsgx demo [-o demo.png]`: the main job on a built-in default: replay the built-in
 * demo scene (tools/demo.trace: a fogged, lit, textured terrain with edge-marked trees), write
 * the frame as PNG and print its XXH3 frame hash.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/core/system.h"

extern const unsigned char dsgx_demo_trace[];
extern const size_t dsgx_demo_trace_size;

int cmd_demo(int argc, char **argv)
{
    const char *out = "demo.png";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--help")) {
            printf("usage: dsgx demo [-o demo.png]\n  renders the built-in demo scene, writes "
                   "the PNG and prints its XXH3 frame hash\n");
            return 0;
        } else {
            fprintf(stderr, "dsgx demo: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    dsgx_trace t = {0};
    char err[512];
    if (dsgx_trace_parse(&t, "demo.trace", (const char *)dsgx_demo_trace, dsgx_demo_trace_size,
                         err, sizeof err)) {
        fprintf(stderr, "dsgx demo: %s\n", err);
        return 1;
    }
    dsgx_system *s = dsgx_system_create();
    if (!s) return 1;
    dsgx_system_set_log(s, cli_log, NULL);
    unsigned frames = dsgx_system_replay(s, &t, NULL, NULL);
    int status = 0;
    if (!frames) {
        fprintf(stderr, "dsgx demo: the demo scene emitted no frame\n");
        status = 1;
    } else if (dsgx_frame_write_png(&s->frame, out, err, sizeof err)) {
        fprintf(stderr, "dsgx demo: %s\n", err);
        status = 1;
    } else {
        char hex[17];
        dsgx_frame_hash_hex(&s->frame, hex);
        printf("%s %s\n", out, hex);
    }
    dsgx_system_destroy(s);
    dsgx_trace_free(&t);
    return status;
}
