/*
 * sheet.c - contact sheets (see sheet.h). No hardware involved: a tool-side helper. Colour
 * conversion matches dsgx_frame_write_png (6-bit channels expanded as (c << 2) | (c >> 4),
 * 5-bit alpha as (a << 3) | (a >> 2)).
 */
#include "nitro/sheet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nitro/font.h"

#define BG_RGBA    0x202428FFu
#define LABEL_RGBA 0xE0E0E0FFu

bool nitro_sheet_init(nitro_sheet *s, unsigned count, unsigned scale, bool labels)
{
    memset(s, 0, sizeof *s);
    if (count == 0 || scale == 0 || scale > 16) return false;
    unsigned cols = 1;
    while (cols * cols < count && cols < 8) cols++;
    s->cols = cols;
    s->rows = (count + cols - 1) / cols;
    s->scale = scale;
    s->label_h = labels ? 10u * scale : 0;
    s->cell_w = DSGX_FRAME_W * scale;
    s->cell_h = DSGX_FRAME_H * scale + s->label_h;
    s->width = s->cell_w * s->cols;
    s->height = s->cell_h * s->rows;
    s->rgba = malloc((size_t)s->width * s->height * 4);
    if (!s->rgba) return false;
    size_t row = (size_t)s->width * 4;
    for (size_t x = 0; x < s->width; x++)
        for (unsigned k = 0; k < 4; k++) s->rgba[x * 4 + k] = (uint8_t)(BG_RGBA >> (24 - 8 * k));
    for (size_t y = 1; y < s->height; y++) memcpy(s->rgba + y * row, s->rgba, row);
    return true;
}

void nitro_sheet_put(nitro_sheet *s, unsigned i, const dsgx_frame *f, const char *label,
                     bool opaque)
{
    if (!s->rgba || i >= s->cols * s->rows) return;
    unsigned x0 = (i % s->cols) * s->cell_w, y0 = (i / s->cols) * s->cell_h;
    for (unsigned y = 0; y < DSGX_FRAME_H * s->scale; y++) {
        uint8_t *row = s->rgba + ((size_t)(y0 + y) * s->width + x0) * 4;
        for (unsigned x = 0; x < DSGX_FRAME_W * s->scale; x++) {
            uint32_t p = f->px[(y / s->scale) * DSGX_FRAME_W + x / s->scale];
            if (opaque && dsgx_pixel_a(p) == 0) continue;
            uint32_t v = dsgx_pixel_rgba8(p) | (opaque ? 0xFF000000u : 0u);
            for (unsigned k = 0; k < 4; k++) row[x * 4 + k] = (uint8_t)(v >> (8 * k));
        }
    }
    if (label && s->label_h)
        nitro_font_draw(s->rgba, s->width, s->height, (int)(x0 + 2 * s->scale),
                        (int)(y0 + DSGX_FRAME_H * s->scale + s->scale), label, s->scale,
                        LABEL_RGBA);
}

int nitro_sheet_write_png(const nitro_sheet *s, const char *path, char *err, size_t err_size)
{
    if (!s->rgba) {
        snprintf(err, err_size, "%s: no image", path);
        return -1;
    }
    return dsgx_png_write_rgba(path, s->rgba, s->width, s->height, err, err_size);
}

void nitro_sheet_free(nitro_sheet *s)
{
    free(s->rgba);
    memset(s, 0, sizeof *s);
}
