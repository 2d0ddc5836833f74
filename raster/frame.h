/*
 * frame.h - the 3D engine's output frame: canonical bytes, XXH3 hash, PNG (specs/frame.md).
 *
 * A pixel is r6 | g6 << 8 | b6 << 16 | a5 << 24 (6-bit colour, 5-bit alpha); row 0 is the top.
 * The canonical bytes are the 256*192 pixels as little-endian u32, row-major; the frame hash is
 * XXH3-64 of those bytes printed as 16 lowercase hex digits (xxhsum -H3's canonical form).
 */
#ifndef DSGX_RASTER_FRAME_H
#define DSGX_RASTER_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"

DSGX_BEGIN_DECLS

#define DSGX_FRAME_W      256
#define DSGX_FRAME_H      192
#define DSGX_FRAME_PIXELS (DSGX_FRAME_W * DSGX_FRAME_H)
#define DSGX_FRAME_BYTES  (DSGX_FRAME_PIXELS * 4)

typedef struct dsgx_frame {
    uint32_t px[DSGX_FRAME_PIXELS];
} dsgx_frame;

static inline uint32_t dsgx_pixel(unsigned r6, unsigned g6, unsigned b6, unsigned a5)
{
    return (r6 & 63u) | ((g6 & 63u) << 8) | ((b6 & 63u) << 16) | ((a5 & 31u) << 24);
}
static inline unsigned dsgx_pixel_r(uint32_t p)
{
    return p & 63u;
}
static inline unsigned dsgx_pixel_g(uint32_t p)
{
    return (p >> 8) & 63u;
}
static inline unsigned dsgx_pixel_b(uint32_t p)
{
    return (p >> 16) & 63u;
}
static inline unsigned dsgx_pixel_a(uint32_t p)
{
    return (p >> 24) & 31u;
}

/** A pixel as RGBA8 in one word, R in the low byte: each 6-bit colour c becomes
 *  c << 2 | c >> 4, the 5-bit alpha a becomes a << 3 | a >> 2 (0 stays 0). */
static inline uint32_t dsgx_pixel_rgba8(uint32_t p)
{
    p &= 0x1F3F3F3Fu;
    return ((p << 2) & 0x00FCFCFCu) | ((p >> 4) & 0x00030303u) | ((p << 3) & 0xF8000000u) |
           ((p >> 2) & 0x07000000u);
}

/** Canonical bytes (DSGX_FRAME_BYTES) of a frame, independent of host byte order. */
void dsgx_frame_canonical(const dsgx_frame *f, uint8_t *out);
/** Frame from canonical bytes; bits outside the pixel fields are cleared. */
void dsgx_frame_from_canonical(dsgx_frame *f, const uint8_t *in);
/** XXH3-64 of the canonical bytes. */
uint64_t dsgx_frame_hash(const dsgx_frame *f);
/** The hash as 16 lowercase hex digits plus NUL. */
void dsgx_frame_hash_hex(const dsgx_frame *f, char out[17]);

/** The frame as RGBA8 bytes (DSGX_FRAME_BYTES, rows top to bottom): colour8 = c6 << 2 | c6 >> 4,
 *  alpha8 = a5 ? a5 << 3 | a5 >> 2 : 0. */
void dsgx_frame_rgba8(const dsgx_frame *f, uint8_t *out);
/** Write an RGBA8 PNG of the frame (dsgx_frame_rgba8's bytes).
 *  @return 0, or -1 with a message in err. */
int dsgx_frame_write_png(const dsgx_frame *f, const char *path, char *err, size_t errlen);
/** Write RGBA8 pixels (width * 4 bytes per row) as a PNG, encoded for speed (zlib level 1, no
 *  row filter; bench/README.md "Screenshots"). @return 0, or -1 with a message in err. */
int dsgx_png_write_rgba(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                        char *err, size_t errlen);
/** Read a 256x192 PNG written as above back into a frame (exact inverse for such PNGs). */
int dsgx_frame_read_png(dsgx_frame *f, const char *path, char *err, size_t errlen);
/** Read a PNG or canonical .raw frame (by content). */
int dsgx_frame_load(dsgx_frame *f, const char *path, char *err, size_t errlen);
int dsgx_frame_write_raw(const dsgx_frame *f, const char *path, char *err, size_t errlen);

/** Compare two frames: number of differing pixels and their bounding box (x0,y0)-(x1,y1)
 *  inclusive (all -1 when equal). */
typedef struct dsgx_frame_diff {
    uint32_t differing;
    int x0, y0, x1, y1;
} dsgx_frame_diff;
void dsgx_frame_compare(const dsgx_frame *a, const dsgx_frame *b, dsgx_frame_diff *d);
/** Diff image: differing pixels colour-coded by channel (red: r differs, green: g, blue: b,
 *  white: alpha only), equal pixels as a dimmed grey copy of a. */
void dsgx_frame_diff_image(const dsgx_frame *a, const dsgx_frame *b, dsgx_frame *out);

DSGX_END_DECLS

#endif
