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
 *
 * Thread safety (docs/embedding.md "Thread safety"): calls on one engine must not overlap (one
 * thread at a time); calls on different engines are independent. gx_create, gx_opcode_name and
 * gx_opcode_params may be called from any thread at any time. Callbacks (log, hooks) run on the
 * calling thread, inside the call, and must not call back into the same engine.
 */
#ifndef DSGX_GX_H
#define DSGX_GX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../dsgx_api.h"
#include "gx_frame.h"

DSGX_BEGIN_DECLS

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
/** Bytes the engine has allocated (its state, the two polygon/vertex RAMs (three:
 *  gx_set_frame_rams), VRAM banks and the texture/palette views, the queue of commands held
 *  behind a swap). */
size_t gx_memory_bytes(const gx_engine *gx);
/** How many polygon/vertex RAMs the engine takes in turn: 2 (the default: the DS's pair, one
 *  built while the other is drawn) or 3. With 3, the RAM a frame is built in is the one drawn
 *  two frames before, not the one drawn just before. That is for a host that draws each
 *  latched frame on another thread (on another core) while the next is built, as
 *  dsgx_system's pipelined replay does (raster_render_ram): the geometry engine's stores then
 *  land on cache lines the drawing core has had a whole frame to let go of, instead of lines
 *  it still holds (bench/README.md, fifteenth session: g_heavy_1's geometry beside the
 *  rendering ~141 -> ~131 us). Frames, RAM_COUNT and save states are the same either way. The
 *  third RAM costs sizeof(gx_frame) (~608 KiB). It may be called at any time: the RAM being
 *  built and the latched one stay where they are. @return false (nothing changed) when n is
 *  not 2 or 3 or memory ran out. */
bool gx_set_frame_rams(gx_engine *gx, unsigned n);
/** 2 or 3 (gx_set_frame_rams). */
unsigned gx_frame_rams(const gx_engine *gx);
/** Power-on state. */
void gx_reset(gx_engine *gx);
void gx_set_log(gx_engine *gx, dsgx_log_fn fn, void *user);

/** Bus writes. Unaligned addresses are aligned down as the ARM9 bus does. */
void gx_write32(gx_engine *gx, uint32_t addr, uint32_t val);
void gx_write16(gx_engine *gx, uint32_t addr, uint16_t val);
void gx_write8(gx_engine *gx, uint32_t addr, uint8_t val);
/** n 32-bit writes to GXFIFO: the same as gx_write32(gx, REG_GXFIFO, words[i]) for i = 0..n-1
 *  in order (packed command words and their parameters), without the address decode per
 *  word. For a host that holds a ready command list (t3dm's compiled draw lists). */
void gx_write_gxfifo(gx_engine *gx, const uint32_t *words, size_t n);
/** One 32-bit bus write (gx_write32_run). */
typedef struct gx_bus_word {
    uint32_t addr;
    uint32_t value;
} gx_bus_word;
/** n 32-bit bus writes in order: the same as gx_write32(gx, w[i].addr, w[i].value) for
 *  i = 0..n-1, with the GXFIFO and command-port writes executed in one loop (no call and no
 *  address decode per word). For a host that replays recorded writes (the trace replay). */
void gx_write32_run(gx_engine *gx, const gx_bus_word *w, size_t n);
/** n / 4 32-bit little-endian writes of @p bytes from @p addr on (n rounded down to a multiple
 *  of 4): the same as gx_write32(gx, addr + k, bytes[k..k+3]) for k = 0, 4, ..., with the
 *  words that land in the VRAM LCDC window copied there in blocks. For a host that uploads
 *  textures and the rear-plane image (a trace's `data` lines). */
void gx_write32_block(gx_engine *gx, uint32_t addr, const uint8_t *bytes, size_t n);
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

/** The frame latched by the last gx_vblank(); its VRAM views reflect VRAM as it is now (they are
 *  rebuilt by this call: no other call on this engine while the rendering engine reads the
 *  frame). Valid until the next gx_vblank, gx_reset, gx_destroy or dsgx_state_restore. */
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

/* ---- cycle-driven mode, for emulators (docs/cycle.md) ---- */

/**
 * Select how commands are timed. false (the default): run to completion, every FIFO entry
 * executes when it is written (only a pending SWAP_BUFFERS holds entries until VBlank), the
 * trace-replay model. true: cycle-driven, the host advances the engine with gx_run(); commands
 * execute as their cycles elapse, the 256-entry GXFIFO and the 4-entry PIPE fill and drain in
 * time, a write to a full FIFO stalls the CPU, and GXSTAT, the GXFIFO IRQ and the DMA request
 * follow the cycle. Frames are identical in both modes. The mode survives gx_reset().
 * @return false (mode unchanged) while commands are queued or held: switch when idle, e.g.
 *         right after gx_create()/gx_reset().
 */
bool gx_set_cycle_mode(gx_engine *gx, bool on);
bool gx_cycle_mode(const gx_engine *gx);

/** Cycle mode: advance the host clock by @p cycles (33.51 MHz ARM9 bus cycles; 560,190 a
 *  frame) and run the engine up to it. Cycles the engine already ran ahead during a CPU stall
 *  (gx_bus_write32) are not run again. No effect in run-to-completion mode. */
void gx_run(gx_engine *gx, uint32_t cycles);

/** gx_bus_write32() result: a pending SWAP_BUFFERS keeps the full FIFO from draining; keep
 *  the CPU halted until VBlank, call gx_vblank(), then gx_unstall(). */
#define GX_STALL_VBLANK UINT32_MAX

/**
 * gx_write32() for a CPU's (or DMA's) bus handler. @return the cycles the write stalls the
 * writer: 0 when the GXFIFO had room (always 0 in run-to-completion mode and for addresses other
 * than GXFIFO/command ports); N > 0 when the FIFO was full: the engine has run N cycles ahead of
 * the host clock until the entry fitted, so resume the writer N cycles later (and keep passing
 * elapsed time to gx_run as usual: the N cycles are not run twice); GX_STALL_VBLANK (see there).
 */
uint32_t gx_bus_write32(gx_engine *gx, uint32_t addr, uint32_t val);
/** For a host that runs the engine the same @p cycles after every bus write (the cycle-mode
 *  trace replay): gx_bus_write32(gx, w[i].addr, w[i].value) then gx_run(gx, cycles) for
 *  i = 0.. in order, until a write stalls. @return the writes done: n, or the index i of the
 *  write that stalled (it was made, gx_run was not called after it: *stall holds its result,
 *  handle it as gx_bus_write32's); *stall is 0 when all n were done. */
size_t gx_bus_write32_run(gx_engine *gx, const gx_bus_word *w, size_t n, uint32_t cycles,
                          uint32_t *stall);
/** After GX_STALL_VBLANK and gx_vblank(): run until the held write fits the FIFO. @return the
 *  further cycles the writer stalls (0 if none), or GX_STALL_VBLANK if no swap was latched. */
uint32_t gx_unstall(gx_engine *gx);
/** True while a write waits for room in the FIFO (the writer must stay halted). */
bool gx_stalled(const gx_engine *gx);

/** The engine clock: cycles run since gx_reset() (cycle mode). Every call on one engine,
 *  and its callbacks, belong to one thread at a time (docs/cycle.md "Thread safety"). */
uint64_t gx_clock(const gx_engine *gx);

/** Output lines of the geometry engine (cycle mode; run-to-completion mode reports them from
 *  the held entries). */
enum gx_line {
    GX_LINE_FIFO_IRQ = 0, /**< GXFIFO IRQ condition (GXSTAT bits 30-31: 1 less than half
                               full, 2 empty; 0 and 3 never): IF bit 21 while high */
    GX_LINE_FIFO_DMA = 1, /**< geometry-FIFO DMA request (DMA start mode 7): FIFO less than
                               half full */
};
/** The current level of a line. */
bool gx_line_level(const gx_engine *gx, enum gx_line line);
/** Called (cycle mode only) when a line changes level, at the engine time gx_clock(), from
 *  inside gx_run, a GXFIFO/port or GXSTAT write, gx_unstall, gx_set_cycle_mode or gx_reset.
 *  Record the level and act when the call returns: writes made from the callback are queued
 *  in order and run later, gx_run only advances the host clock, and no stall is resolved. */
typedef void (*gx_line_fn)(void *user, gx_engine *gx, enum gx_line line, bool level);
void gx_set_line_callback(gx_engine *gx, gx_line_fn fn, void *user);

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
    /** at a VBlank that latched a new frame, after the swap and before the commands held
     *  behind the SWAP_BUFFERS run: the state the next frame starts from */
    void (*vblank)(void *user, gx_engine *gx);
} gx_hooks;

void gx_set_hooks(gx_engine *gx, const gx_hooks *hooks);

/** Current matrices (1.19.12, row-major 4x4, DS row-vector convention), for explain/tests.
 *  which: 0 projection, 1 position, 2 vector, 3 texture, 4 clip (projection x position). */
void gx_get_matrix(gx_engine *gx, int which, int32_t out[16]);

/**
 * The geometry state in command-parameter form: the parameter words that re-create it when
 * sent as commands (DISP_1DOT_DEPTH, POLYGON_ATTR, COLOR, VIEWPORT, MTX_LOAD_4X4 ...). This is
 * what a frame dump (NTRFD) records before a frame's first command, in the form melonDS's
 * frame-dump writer uses (melonDS src/FrameDump.cpp StartFrameDump). Lossy where that form
 * is: light vectors are the transformed directions (send them with an identity vector
 * matrix), texture coordinates the final ones (send them with texgen off).
 */
typedef struct gx_param_state {
    uint32_t dot_depth;       /**< DISP_1DOT_DEPTH (15 bits) */
    uint32_t poly_attr;       /**< POLYGON_ATTR latched by the last BEGIN_VTXS */
    uint32_t poly_attr_unset; /**< POLYGON_ATTR as last written */
    uint32_t vtx_color;       /**< COLOR */
    uint32_t viewport;        /**< VIEWPORT */
    int32_t proj_stack[16];
    int32_t pos_stack[32][16];
    int32_t vec_stack[32][16];
    int32_t tex_stack[16];
    int32_t proj[16], pos[16], vec[16], tex[16];
    uint32_t mtx_mode;       /**< MTX_MODE */
    uint32_t polygon;        /**< BEGIN_VTXS primitive type */
    uint32_t vtx_xy;         /**< last vertex: x | y << 16 (1.3.12) */
    uint32_t vtx_z;          /**< last vertex: z (16 bits) */
    uint32_t texcoord;       /**< final texture coordinates s | t << 16 */
    uint32_t teximage_param; /**< TEXIMAGE_PARAM */
    uint32_t pltt_base;      /**< PLTT_BASE */
    uint32_t dif_amb;        /**< DIF_AMB (bit 15 clear) */
    uint32_t spe_emi;        /**< SPE_EMI (bit 15: shininess table enabled) */
    uint32_t shininess[32];  /**< SHININESS */
    uint32_t light_vec[4];   /**< LIGHT_VECTOR, already transformed (identity vector matrix) */
    uint32_t light_color[4]; /**< LIGHT_COLOR */
    uint32_t swap_param;     /**< parameter of the last SWAP_BUFFERS (bit 1: the W-buffer mode of
                                  the polygons submitted now) */
} gx_param_state;

/** The current geometry state in command-parameter form (see gx_param_state). */
void gx_get_param_state(const gx_engine *gx, gx_param_state *out);

/** Mnemonic of a command opcode ("VTX_16"), or NULL for an unknown opcode. Thread-safe. */
const char *gx_opcode_name(uint8_t opcode);
/** Number of parameter words of a command opcode (0 for unknown opcodes). Thread-safe. */
unsigned gx_opcode_params(uint8_t opcode);

DSGX_END_DECLS
#endif
