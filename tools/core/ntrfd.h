/*
 * ntrfd.h - NTRFD frame dumps (the format of Jaklyy/ndsframereplay, written by melonDS's
 * frame-dump code): reader, writer, the equivalent GX trace, and the PNG `ndSf` container.
 *
 * Supported: format version 0 (ndsframereplay CUR_FD_REV 0, the only version documented or
 * written so far), compression type 0 (uncompressed, the only one defined). Both variants of
 * the DISP_1DOT_DEPTH pseudo-command are read: 0x72 (the format text and main.h) and 0xFF (what
 * melonDS's writer and ndsframereplay's replayer use). The writer emits 0xFF, as dumps in the
 * wild do.
 *
 * Layout (all little endian): "NTRFD", u16 version, u8 compression; rendering registers latched
 * at VBlank (129 bytes); the initial geometry state (4696 bytes, matrix stacks included);
 * VRAMCNT A..G (7 bytes); the contents of each of banks A..G that is enabled and mapped to
 * texture image or palette (MST 3); u32 command count, u32 parameter count; one byte per command;
 * four bytes per parameter.
 */
#ifndef DSGX_NTRFD_H
#define DSGX_NTRFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../dsgx_api.h"
#include "../../raster/frame.h"
#include "trace.h"

DSGX_BEGIN_DECLS

#define NTRFD_VERSION            0u
#define NTRFD_CMD_1DOT_DEPTH     0xFFu /**< DISP_1DOT_DEPTH write, as melonDS writes it */
#define NTRFD_CMD_1DOT_DEPTH_ALT 0x72u /**< the same, as the format text defines it */
#define NTRFD_NBANKS             7     /**< VRAM banks A..G */
#define NTRFD_HEADER_SIZE        8u
#define NTRFD_STATE_SIZE         (129u + 4696u + 7u) /**< registers + geometry state + VRAMCNT */

typedef struct dsgx_ntrfd {
    uint16_t version;
    uint8_t compression;

    /* rendering registers, latched at VBlank (raw register values) */
    uint16_t disp3dcnt; /**< may carry status bits 12-13 of the dumped frame */
    uint16_t edge_color[8];
    uint8_t alpha_ref;
    uint32_t clear_color;
    uint32_t clear_depth; /**< CLEAR_DEPTH | CLRIMAGE_OFFSET << 16 */
    uint32_t fog_color;
    uint16_t fog_offset;
    uint8_t fog_table[32];
    uint16_t toon_table[32];

    /* geometry engine state before the first command of the frame (command-parameter form) */
    uint16_t zdot_depth;      /**< DISP_1DOT_DEPTH */
    uint32_t poly_attr;       /**< attributes of the polygon in progress (latched at BEGIN) */
    uint32_t poly_attr_unset; /**< POLYGON_ATTR written, for the next BEGIN_VTXS */
    uint32_t vtx_color;
    uint32_t viewport; /**< VIEWPORT parameter */
    uint32_t proj_stack[16];
    uint32_t pos_stack[32][16];
    uint32_t vec_stack[32][16];
    uint32_t tex_stack[16];
    uint32_t proj_mtx[16], pos_mtx[16], vec_mtx[16], tex_mtx[16];
    uint32_t mtx_mode;
    uint32_t polygon;  /**< BEGIN_VTXS primitive type */
    uint32_t vtx_xy;   /**< last vertex x | y << 16 */
    uint16_t vtx_z;    /**< last vertex z */
    uint32_t texcoord; /**< final texture coordinates s | t << 16 */
    uint32_t teximage_param, pltt_base, dif_amb, spe_emi;
    uint32_t shininess[32];
    uint32_t light_vec[4], light_color[4]; /**< LIGHT_VECTOR / LIGHT_COLOR parameters */
    uint32_t swap_param;
    uint8_t vramcnt[NTRFD_NBANKS];

    uint8_t *vram[NTRFD_NBANKS]; /**< bank contents, NULL for banks not saved */

    uint32_t ncmds, nparams;
    uint8_t *cmds;
    uint32_t *params;
} dsgx_ntrfd;

/** Where and why parsing stopped. */
typedef struct dsgx_ntrfd_error {
    size_t offset;
    char reason[160];
} dsgx_ntrfd_error;

/** Size of VRAM bank 0..6 (A..G) in bytes. */
uint32_t dsgx_ntrfd_bank_size(unsigned bank);
/** True when bank 0..6 with VRAMCNT value @p cnt is saved in a dump (enabled, MST 3). */
bool dsgx_ntrfd_bank_saved(unsigned bank, uint8_t cnt);
/** Parameter words that follow command @p cmd in a dump, or -1 for an id a dump cannot hold. */
int dsgx_ntrfd_cmd_params(uint8_t cmd);

/** Initialise @p fd to the state of a DS after reset (as melonDS's writer dumps it for the
 *  first frame after reset), with no commands. */
void dsgx_ntrfd_init_reset(dsgx_ntrfd *fd);

/** Parse a raw NTRFD dump. @return 0, or -1 with the offset and reason in @p e. */
int dsgx_ntrfd_parse(dsgx_ntrfd *fd, const uint8_t *data, size_t size, dsgx_ntrfd_error *e);

/** Find the `ndSf` chunk of a PNG (chunk CRCs are not checked: melonDS writes zero).
 *  @return 0 with the chunk data's offset and length, or -1 with the offset and reason. */
int dsgx_ntrfd_png_chunk(const uint8_t *data, size_t size, size_t *off, size_t *len,
                         dsgx_ntrfd_error *e);

/** Parse a raw dump or a PNG carrying one. Errors read "name: offset 0xNN: reason". */
int dsgx_ntrfd_load_buffer(dsgx_ntrfd *fd, const char *name, const uint8_t *data, size_t size,
                           char *err, size_t errlen);
int dsgx_ntrfd_load(dsgx_ntrfd *fd, const char *path, char *err, size_t errlen);

void dsgx_ntrfd_free(dsgx_ntrfd *fd);

/** Serialize (raw NTRFD). @return 0, or -1 when out of memory. *out is malloc'ed. */
int dsgx_ntrfd_serialize(const dsgx_ntrfd *fd, uint8_t **out, size_t *len);
/** Write a raw dump to a file. @return 0, or -1 with a message. */
int dsgx_ntrfd_write(const dsgx_ntrfd *fd, const char *path, char *err, size_t errlen);
/** Write a PNG of @p frame carrying the dump in an `ndSf` chunk right after IHDR (where
 *  melonDS puts it; we do write a correct CRC). @return 0, or -1 with a message. */
int dsgx_ntrfd_write_png(const dsgx_ntrfd *fd, const dsgx_frame *frame, const char *path, char *err,
                         size_t errlen);

/** Append the bus writes that replay the dump to @p t: rendering registers, VRAM uploads through
 *  the LCDC window, the initial state through geometry commands, the command stream through the
 *  command ports, a SWAP_BUFFERS if the stream has none, and one `frame`. When the saved swap
 *  parameter selects W-buffering, a SWAP_BUFFERS with it and a TRACE_VBLANK come before the
 *  stream (ntrfd_trace.c). @return 0 or -1 (out of memory). */
int dsgx_ntrfd_to_trace(const dsgx_ntrfd *fd, dsgx_trace *t);

/** Writer: dump frame @p frame of a trace by replaying it (any frame with a SWAP_BUFFERS of its
 *  own; the initial state is the engine's when the frame before was latched, see
 *  ntrfd_writer.c). @return 0, or -1 with a message. */
int dsgx_ntrfd_from_trace(dsgx_ntrfd *fd, const dsgx_trace *t, unsigned frame, char *err,
                          size_t errlen);

DSGX_END_DECLS

#endif
