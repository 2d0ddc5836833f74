/*
 * sheet.h - the pieces of `dsgx render` that render many models into one contact sheet
 * (--all), scale a frame for sharing (--scale) and set lights (--light).
 */
#ifndef DSGX_TOOLS_SHEET_H
#define DSGX_TOOLS_SHEET_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/fixed.h"
#include "nitro/runtime.h"
#include "raster/frame.h"

/** Camera set-up helpers (CLI only; float converted once to 1.19.12 by render_fx). */
fx32 render_fx(double v);
double render_sqrt(double x);
double render_sin(double x);
double render_cos(double x);

/** A --light I:X,Y,Z:RRGGBB setting (direction 1.19.12, colour RGB555). */
typedef struct render_light {
    bool set;
    fx32 dir[3];
    uint16_t color;
} render_light;

/** Parse "I:X,Y,Z:RRGGBB" (I = 0..3, X/Y/Z decimal numbers, RRGGBB 24-bit hex reduced to
 *  RGB555) into lights[I]. @return false on a malformed argument. */
bool render_parse_light(const char *arg, render_light lights[4]);
/** Apply the set lights to the global state (nitro_glb_light_vector / _color). */
void render_apply_lights(nitro_glb *g, const render_light lights[4]);
/** Write f scaled by scale (nearest neighbour) as an RGBA8 PNG. @return 0 or -1 (err). */
int render_write_scaled(const dsgx_frame *f, unsigned scale, const char *path, char *err,
                        size_t err_size);

typedef struct sheet_opts {
    const char *const *tex_paths;
    unsigned ntex;
    double fov;
    unsigned clear_rgb, clear_alpha;
    bool edge, fog, aa;
    unsigned scale;
    render_light lights[4];
} sheet_opts;

/**
 * `dsgx render --all FILE -o sheet.png`: every model of FILE (an NSBMD, or every NSBMD in a
 * NARC `archive.narc`, or one file of it `archive.narc:INDEX|NAME`; LZ77 unpacked) rendered
 * with the front camera into one labelled grid. Prints the sheet's path and one line per cell
 * (frame hash and label). @return the process exit status.
 */
int render_sheet(const char *path, const sheet_opts *o, const char *out);

/**
 * `dsgx bench --models`: every model of the NSBMD @p path (with its own textures) rendered as
 * render --all draws it, @p repeat times, each written as a PNG (OUT_DIR/FILE.I.png, or to
 * /dev/null when @p out_dir is NULL: encoded all the same), on one pair of engines reused from
 * model to model, as a program using the library would. @p count receives the screenshots
 * written. @return 0, or 1 after printing the error.
 */
int render_model_pngs(const char *path, const sheet_opts *o, const char *out_dir, unsigned repeat,
                      unsigned *count);

#endif
