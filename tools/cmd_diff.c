/* cmd_diff.c - `dsgx diff A B [-o diff.png]`: differing pixels of two frames. */
#include <stdio.h>
#include <string.h>

#include "raster/frame.h"
#include "tools/commands.h"

int cmd_diff(int argc, char **argv)
{
    const char *a = NULL, *b = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--help")) {
            printf(
                "usage: dsgx diff A B [-o diff.png]\n"
                "  A, B: frames (PNG or raw). Prints the number of differing pixels and their\n"
                "  bounding box; the diff image shows equal pixels as dimmed grey and differing\n"
                "  ones coloured by channel (red/green/blue: that channel differs, white: alpha "
                "only).\n  Exit status 0 when equal, 1 when they differ.\n");
            return 0;
        } else if (!a)
            a = argv[i];
        else if (!b)
            b = argv[i];
        else {
            fprintf(stderr, "dsgx diff: too many arguments\n");
            return 2;
        }
    }
    if (!a || !b) {
        fprintf(stderr, "usage: dsgx diff A B [-o diff.png]\n");
        return 2;
    }
    static dsgx_frame fa, fb, fd;
    char err[512];
    if (dsgx_frame_load(&fa, a, err, sizeof err) || dsgx_frame_load(&fb, b, err, sizeof err)) {
        fprintf(stderr, "dsgx diff: %s\n", err);
        return 2;
    }
    dsgx_frame_diff d;
    dsgx_frame_compare(&fa, &fb, &d);
    unsigned ch[4] = {0};
    for (size_t i = 0; i < DSGX_FRAME_PIXELS; i++) {
        uint32_t x = fa.px[i] ^ fb.px[i];
        ch[0] += (x & 0x3F) != 0;
        ch[1] += (x & 0x3F00) != 0;
        ch[2] += (x & 0x3F0000) != 0;
        ch[3] += (x & 0x1F000000) != 0;
    }
    if (d.differing)
        printf("%u differing pixels in (%d,%d)-(%d,%d); r %u g %u b %u a %u\n", d.differing, d.x0,
               d.y0, d.x1, d.y1, ch[0], ch[1], ch[2], ch[3]);
    else
        printf("0 differing pixels\n");
    if (out) {
        dsgx_frame_diff_image(&fa, &fb, &fd);
        if (dsgx_frame_write_png(&fd, out, err, sizeof err)) {
            fprintf(stderr, "dsgx diff: %s\n", err);
            return 2;
        }
    }
    return d.differing ? 1 : 0;
}
