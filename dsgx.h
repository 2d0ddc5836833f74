/*
 * dsgx.h - the umbrella header of libdsgx (installed as dsgx/dsgx.h): everything an emulator or
 * a tool embedding the DS 3D engine needs. docs/embedding.md walks through it.
 *
 *   dsgx_api.h          version macros, dsgx_version(), the export macros
 *   gx/gx.h             the geometry engine and its bus interface (gx_write32, gx_vblank, ...)
 *   gx/gx_frame.h       what the geometry engine hands the rendering engine at VBlank
 *   raster/raster.h     the rendering engine (gx_frame in, frame out)
 *   raster/frame.h      frames: pixels, canonical bytes, XXH3 hash, PNG
 *   nitro/nitro.h       Nitro model files (NSBMD, NSBTX, ...); nitro/anim.h their animations
 *   nitro/runtime.h     the G3D runtime that draws them through a geometry engine
 *   tools/core/trace.h  GX trace files (reader, writer)
 *   tools/core/ntrfd.h  NTRFD frame dumps
 *   tools/core/savestate.h  save states of an engine pair (geometry + rendering engine)
 *
 * Include paths resolve relative to this file, so -I<prefix>/include is all a compiler needs.
 */
#ifndef DSGX_DSGX_H
#define DSGX_DSGX_H

#include "dsgx_api.h"
#include "gx/gx.h"
#include "gx/gx_frame.h"
#include "tools/core/savestate.h"
#include "nitro/anim.h"
#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "tools/core/ntrfd.h"
#include "tools/core/trace.h"
#include "t3dm/t3dm.h"
#include "t3dm/draw.h"
#include "t3dm/sprite.h"

#endif
