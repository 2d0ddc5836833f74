/*
 * gx.h - the DS 3D geometry engine, driven through its bus interface.
 *
 * Write the ARM9 bus addresses the 3D pipeline decodes (DISP3DCNT 04000060, VRAMCNT
 * 04000240..04000249, POWCNT1 04000304, 3D registers 04000320..040003BF, GXFIFO 04000400,
 * command ports 04000440..040005FF, DISP_1DOT_DEPTH 04000610, VRAM LCDC window 06800000..068A3FFF)
 * and read the status/result registers (GXSTAT 04000600, RAM_COUNT 04000604, results
 * 04000620..040006A3). Everything else is ignored.
 *
 * Each engine is a self-contained instance: no global state, so several can run side by side.
 * The library never prints; diagnostics go to the log callback.
 */
#ifndef DSGX_GX_H
#define DSGX_GX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gx/gx_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gx_engine gx_engine;

/** Log levels: DSGX_LOG_GAME means the program misused the hardware (the hardware's error
 *  behaviour was emulated); DSGX_LOG_BUG means dsgx itself hit something it does not model. */
enum dsgx_log_level {
    DSGX_LOG_DEBUG = 0,
    DSGX_LOG_INFO,
    DSGX_LOG_GAME,
    DSGX_LOG_WARN,
    DSGX_LOG_BUG
};
typedef void (*dsgx_log_fn)(void *user, enum dsgx_log_level level, const char *msg);

gx_engine *gx_create(void);
void gx_destroy(gx_engine *gx);
/** Bytes the engine has allocated (its state, the two polygon/vertex RAMs, VRAM banks and the
 *  texture/palette views, the queue of commands held behind a swap). */
size_t gx_memory_bytes(const gx_engine *gx);
/** Power-on state. */
void gx_reset(gx_engine *gx);
void gx_set_log(gx_engine *gx, dsgx_log_fn fn, void *user);

/** Bus writes. Unaligned addresses are aligned down as the ARM9 bus does. */
void gx_write32(gx_engine *gx, uint32_t addr, uint32_t val);
void gx_write16(gx_engine *gx, uint32_t addr, uint16_t val);
void gx_write8(gx_engine *gx, uint32_t addr, uint8_t val);
/** Bus reads (status and result registers, 3D registers that read back, VRAM LCDC window). */
uint32_t gx_read32(gx_engine *gx, uint32_t addr);
uint16_t gx_read16(gx_engine *gx, uint32_t addr);
uint8_t gx_read8(gx_engine *gx, uint32_t addr);

/** True when a SWAP_BUFFERS has been executed and the engine waits for VBlank. */
bool gx_swap_pending(const gx_engine *gx);

/**
 * VBlank: if a swap is pending, latch polygon RAM, vertex RAM and the rendering registers into
 * the frame the rendering engine will draw, empty the geometry RAM and resume command
 * execution. @return true when a new frame was latched.
 */
bool gx_vblank(gx_engine *gx);

/** The frame latched by the last gx_vblank(); its VRAM views reflect VRAM as it is now. */
const gx_frame *gx_render_frame(gx_engine *gx);

/** Feedback from the rendering engine: RDLINES_COUNT value and whether the line buffer
 *  underflowed (sets DISP3DCNT bit 12, sticky until acknowledged). */
void gx_report_render(gx_engine *gx, uint8_t rdlines, bool underflow);

/** Figures for one frame of geometry (from the first command after the previous swap through
 *  this frame's SWAP_BUFFERS). */
typedef struct gx_frame_stats {
    uint64_t cycles;   /**< geometry engine cycles (33.51 MHz), FIFO assumed always fed */
    uint32_t commands; /**< complete GX commands executed */
    uint32_t polygons; /**< polygon RAM count at the swap (RAM_COUNT) */
    uint32_t vertices; /**< vertex RAM count at the swap (RAM_COUNT) */
} gx_frame_stats;

/** Stats of the frame latched by the last gx_vblank(). */
void gx_last_frame_stats(const gx_engine *gx, gx_frame_stats *out);
/** Stats accumulated so far for the frame being built. */
void gx_current_frame_stats(const gx_engine *gx, gx_frame_stats *out);

/** GEOMETRY_CYCLES_PER_FRAME: one 60 Hz frame at 33.51 MHz (560,190 cycles). */
#define GX_CYCLES_PER_FRAME 560190u

/* ---- observation hooks, for `dsgx explain` and emulator developers ---- */

/** A command as executed. */
typedef struct gx_cmd_event {
    uint8_t opcode;
    uint8_t nparams;
    uint32_t params[32];
    uint32_t cycles; /**< cycles charged for it (including pipeline waits) */
} gx_cmd_event;

/** Why a polygon did not reach polygon RAM. */
enum gx_poly_fate {
    GX_POLY_STORED = 0,
    GX_POLY_CULLED_BACK,
    GX_POLY_CULLED_FRONT,
    GX_POLY_CLIPPED_AWAY,
    GX_POLY_DOT_REJECTED, /**< 1-dot polygon beyond DISP_1DOT_DEPTH */
    GX_POLY_RAM_FULL,     /**< polygon or vertex RAM overflow */
};

typedef struct gx_hooks {
    void *user;
    /** after each command has executed */
    void (*command)(void *user, gx_engine *gx, const gx_cmd_event *ev);
    /** after each vertex was transformed: clip-space position (1.19.12) and colour/texcoord */
    void (*vertex)(void *user, gx_engine *gx, const int32_t clip[4], const int32_t color5[3],
                   const int16_t texcoord[2]);
    /** for each completed polygon: its fate and, when stored, its polygon RAM entry */
    void (*polygon)(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *poly,
                    const gx_vertex *verts);
} gx_hooks;

void gx_set_hooks(gx_engine *gx, const gx_hooks *hooks);

/** Current matrices (1.19.12, row-major 4x4, DS row-vector convention), for explain/tests.
 *  which: 0 projection, 1 position, 2 vector, 3 texture, 4 clip (projection x position). */
void gx_get_matrix(gx_engine *gx, int which, int32_t out[16]);

/** Mnemonic of a command opcode ("VTX_16"), or NULL for an unknown opcode. */
const char *gx_opcode_name(uint8_t opcode);
/** Number of parameter words of a command opcode (0 for unknown opcodes). */
unsigned gx_opcode_params(uint8_t opcode);

#ifdef __cplusplus
}
#endif
#endif
