/* cmd_hash.c - `dsgx hash FRAME...`: XXH3 frame hash of PNG or raw frames. */
#include <stdio.h>
#include <string.h>

#include "raster/frame.h"
#include "tools/commands.h"

int cmd_hash(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        printf("usage: dsgx hash FRAME...\n  FRAME: a 256x192 PNG written by dsgx, or a "
               "196608-byte canonical .raw frame\nprints: <xxh3>  FRAME\n");
        return argc < 2 ? 2 : 0;
    }
    static dsgx_frame f;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        char err[512], hex[17];
        if (dsgx_frame_load(&f, argv[i], err, sizeof err)) {
            fprintf(stderr, "dsgx hash: %s\n", err);
            status = 1;
            continue;
        }
        dsgx_frame_hash_hex(&f, hex);
        printf("%s  %s\n", hex, argv[i]);
    }
    return status;
}
