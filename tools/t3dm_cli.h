/*
 * t3dm_cli.h - the T3DM side of `dsgx info` and `dsgx render` (tools/t3dm_info.c,
 * tools/t3dm_render.c). cmd_info.c and cmd_render.c hand a Tiny3D model over to these.
 */
#ifndef DSGX_TOOLS_T3DM_CLI_H
#define DSGX_TOOLS_T3DM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raster/frame.h"

/** True when path names a Tiny3D model: it ends in ".t3dm" or starts with "T3M". */
bool t3dm_cli_is_t3dm(const char *path);
/** `dsgx info MODEL.t3dm [--json]`. @return the exit status. */
int t3dm_cli_info(const char *path, bool json);
/** `dsgx render` when a T3DM is among the arguments (argv as cmd_render got it). With
 *  @p result (render_to_frame) the one frame is returned instead of written: -o is not needed,
 *  --frames/--all/--trace are refused.
 *  @return the exit status, or -1 when no argument is a T3DM (cmd_render goes on). */
int t3dm_cli_render(int argc, char **argv, dsgx_frame *result);

/** Read a whole file (malloc'ed). NULL when it cannot be read. */
uint8_t *t3dm_cli_read(const char *path, size_t *size);
/** Read the .sdata of every animation from beside the model (file name of the stored path,
 *  or its path after "rom:/"); prints the error and returns false on a missing or bad one
 *  when `need` (else only marks it missing). */
struct t3dm_model;
bool t3dm_cli_load_sdata(struct t3dm_model *m, const char *model_path, int only, bool need);

#endif
