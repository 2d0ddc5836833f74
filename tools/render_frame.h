/*
 * render_frame.h - `dsgx render` as a function: the golden workflow draws its render specs
 * (golden/README.md "Render specs") through the same option parsing, file loading, texture
 * binding, animation and camera code as the command, for Nitro and Tiny3D (.t3dm) models alike
 * (a T3DM goes to tools/t3dm_render.c, as `dsgx render` sends it).
 */
#ifndef DSGX_RENDER_FRAME_H
#define DSGX_RENDER_FRAME_H

#include "raster/frame.h"

/** Draw one frame as `dsgx render` would with these arguments (argv[0] is the command name,
 *  -o is not needed, --frames/--all/--trace are refused) into @p out. Messages go to stderr.
 *  Not reentrant: cmd_render.c keeps its large structures in static storage, so callers on
 *  several threads serialise the calls.
 *  @return 0, 1 (a file or model error) or 2 (bad options). */
int render_to_frame(int argc, char **argv, dsgx_frame *out);

#endif
