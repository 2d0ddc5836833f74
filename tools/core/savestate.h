/*
 * savestate.h - save states: the whole state of a geometry engine and its rendering engine as
 * a versioned byte blob, and back (docs/embedding.md "Save states").
 *
 * A blob holds what the hardware holds: registers, matrices and stacks, the command decoder
 * and executor, the entries held while a swap waits for VBlank, the polygon/vertex RAM being
 * built and the one latched for rendering, VRAM, and what the rendering engine carries from one
 * frame to the next. Not in it: host settings (log callback, hooks, threads, melonDS gaps).
 * Restoring into any engine pair, then running the same bus writes, gives the same frames bit
 * for bit. Blobs are for the same library version on the same kind of machine (the format
 * version and every section's size are checked; a blob from another layout is refused).
 *
 * Thread safety: saving reads the engines, restoring writes them: no other call on the same
 * engines may run at the same time. Different engine pairs are independent.
 */
#ifndef DSGX_SAVESTATE_H
#define DSGX_SAVESTATE_H

#include <stddef.h>
#include <stdint.h>

#include "../../dsgx_api.h"
#include "../../gx/gx.h"
#include "../../raster/raster.h"

DSGX_BEGIN_DECLS

/** Format version written by this library (bumped whenever a section changes). */
#define DSGX_STATE_VERSION 2u

/** dsgx_state_save flag: end the blob with an XXH3-64 checksum of it, which restore verifies
 *  (for blobs that go to files). It reads the whole blob once more on save and on restore
 *  (about 18 us each way for the heaviest reference frame with xxHash's AVX2/AVX-512 code,
 *  ~35 us with its SSE2 code), so in-memory rewind buffers leave it out; every other check
 *  applies to blobs without it. */
#define DSGX_STATE_CHECKSUM 1u

/** Exact size in bytes of the blob dsgx_state_save would write now. */
size_t dsgx_state_size(const gx_engine *gx, const raster_engine *r);

/**
 * Write the state of @p gx and @p r into @p buf (@p flags: 0 or DSGX_STATE_CHECKSUM).
 * @return the blob's size, or 0 when it does not fit in @p cap (nothing useful written; ask
 *         dsgx_state_size()).
 */
size_t dsgx_state_save(const gx_engine *gx, const raster_engine *r, uint8_t *buf, size_t cap,
                       unsigned flags);

/**
 * Restore a blob written by dsgx_state_save. Everything is checked before anything changes:
 * magic, format version, byte order, every section's tag and size, the checksum (when the blob
 * has one), and every
 * value the engines use as an index. On failure the engines are unchanged.
 * The first restore into a geometry engine allocates two spare polygon/vertex RAMs (1.2 MB)
 * that later restores reuse; call gx_render_frame() again afterwards.
 * @return 0, or -1 with "offset N: reason" in @p err (may be NULL).
 */
int dsgx_state_restore(gx_engine *gx, raster_engine *r, const uint8_t *data, size_t size, char *err,
                       size_t errlen);

/** Check a blob without restoring it (same checks as dsgx_state_restore). @return 0 or -1. */
int dsgx_state_check(const uint8_t *data, size_t size, char *err, size_t errlen);

DSGX_END_DECLS

#endif
