/*
 * font.h - a tiny built-in 5x7 bitmap font (ASCII 32..126; lower case drawn as upper case) for
 * labels on contact sheets. Glyphs are our own, drawn for this project.
 */
#ifndef DSGX_NITRO_FONT_H
#define DSGX_NITRO_FONT_H

#include <stdint.h>

#define NITRO_FONT_W       5
#define NITRO_FONT_H       7
#define NITRO_FONT_ADVANCE 6 /**< glyph width plus one column of spacing */

/** The 7 rows of a glyph, top first; bit 4 of each row is the leftmost column. Characters
 *  outside 32..126 give a filled box. */
const uint8_t *nitro_font_glyph(char c);

/**
 * Draw text into an RGBA8 image (row stride w * 4 bytes), top-left at (x, y), each font pixel
 * a scale x scale block of colour rgba (0xRRGGBBAA); clipped to the image.
 */
void nitro_font_draw(uint8_t *rgba, unsigned w, unsigned h, int x, int y, const char *text,
                     unsigned scale, uint32_t color);

#endif
