/*
 * sheet.h - contact sheets: frames laid out in a labelled grid (or one frame scaled up),
 * nearest-neighbour scaled, written as an RGBA8 PNG. Used by `dsgx render --all` / `--scale`.
 */
#ifndef DSGX_NITRO_SHEET_H
#define DSGX_NITRO_SHEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raster/frame.h"

typedef struct nitro_sheet {
    unsigned cols, rows, scale;
    unsigned cell_w, cell_h, label_h; /**< pixels in the output image */
    unsigned width, height;
    uint8_t *rgba; /**< width * height * 4 bytes */
} nitro_sheet;

/**
 * Set up a sheet for count frames: cols = ceil(sqrt(count)) (at most 8) columns, each cell
 * 256x192 * scale plus, when labels, a label strip of 10 * scale pixels under the frame.
 * Background opaque dark grey. @return false on out of memory or a zero count/scale.
 */
bool nitro_sheet_init(nitro_sheet *s, unsigned count, unsigned scale, bool labels);
/** Put frame i (row-major) with its label (may be NULL). Pixels keep the frame's alpha
 *  (a5 expanded to 8 bits, as dsgx_frame_write_png) unless opaque, where alpha-0 pixels show
 *  the background and the rest are drawn opaque. */
void nitro_sheet_put(nitro_sheet *s, unsigned i, const dsgx_frame *f, const char *label,
                     bool opaque);
/** Write the sheet as an RGBA8 PNG. @return 0, or -1 with a message in err. */
int nitro_sheet_write_png(const nitro_sheet *s, const char *path, char *err, size_t err_size);
void nitro_sheet_free(nitro_sheet *s);

#endif
