/*
 * sheet.h - the pieces of `dsgx render` that render many models into one contact sheet
 * (--all), scale a frame for sharing (--scale) and set lights (--light).
 */
#ifndef DSGX_TOOLS_SHEET_H
#define DSGX_TOOLS_SHEET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gx/fixed.h"
#include "nitro/anim.h"
#include "nitro/runtime.h"
#include "raster/frame.h"
#include "tools/core/autofit.h"
#include "tools/core/texfind.h"

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

/** The default view direction of the auto-fit camera: a raised three-quarter view. */
#define RENDER_DEFAULT_YAW   30.0
#define RENDER_DEFAULT_PITCH 30.0
/** The fraction of the frame's half-width or half-height the fitted model reaches. */
#define RENDER_FIT_FILL 0.9

/** The camera the user asked for: auto-fit (default), --orbit YAW PITCH DIST (DIST <= 0:
 *  fitted distance), or --eye/--at. */
typedef struct render_camera {
    double fov; /**< vertical field of view, degrees */
    bool have_eye, have_orbit;
    double eye[3], at[3], orbit[3];
    double near, far; /**< --near/--far: the clip planes given (0: derived from the points) */
} render_camera;

/** The model's points (tools/core/autofit.h) as drawn at `frame` of the player's animations
 *  (player may be NULL), with an identity camera and projection, on `reuse` (reset first, its
 *  hooks removed after; the caller resets it again before drawing) or, when NULL, on an engine
 *  of its own. @return false when out of memory. */
bool render_measure(gx_engine *reuse, const nitro_model *m, const uint8_t *mdata,
                    nitro_anim_player *player, long frame, dsgx_fit_points *pts);
/** Set g's camera and projection as `c` asks, fitted to pts (README "Camera"). */
void render_set_camera(nitro_glb *g, const render_camera *c, const dsgx_fit_points *pts);
/** Print where each needed texture and palette comes from, one line each, prefixed with
 *  prefix: only the names from outside the model's file and the missing ones unless `every`. */
void render_report_textures(FILE *f, const char *prefix, const dsgx_texplan *p,
                            const dsgx_texlib *lib, bool every);

/** --shard I/N: I in 1..N. @return false on a malformed argument. */
bool render_parse_shard(const char *arg, unsigned *index, unsigned *count);

typedef struct sheet_opts {
    const char *const *tex_paths; /**< --tex files */
    unsigned ntex;
    render_camera cam;
    unsigned clear_rgb, clear_alpha;
    bool edge, fog, aa;
    unsigned scale;
    render_light lights[4];
    unsigned shard, shards; /**< --shard I/N (1-based), 1/1 for all */
} sheet_opts;

/**
 * `dsgx render --all FILE -o sheet.png`: every model of FILE (an NSBMD, or every NSBMD in a
 * NARC `archive.narc`, or one file of it `archive.narc:INDEX|NAME`; LZ77 unpacked), in archive
 * order (member index, then model index), or shard I of N of that list (the models k with
 * k mod N = I - 1), each rendered as `dsgx render` renders it alone (texture lookup, camera)
 * into one labelled grid (every k-th model when more than fit). Prints one line per model
 * (frame hash and label) and the sheet's path. @return the process exit status.
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
