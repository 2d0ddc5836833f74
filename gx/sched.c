/*
 * sched.c - the cycle-driven mode: the one place where geometry-engine time moves.
 *
 * The host advances the engine clock with gx_run(); FIFO entries execute when the engine is free
 * at that clock; each entry keeps the engine busy for the cycles the cycle model charges it
 * (cycles.c through the executor, exec_internal.h; costs from cmdtable.c). Command handlers know
 * nothing of time, and nothing else moves the clock (STYLE: "time has one owner").
 *
 * Hardware notes. Facts from GBATEK "DS 3D Status" (GXSTAT 04000600), "DS 3D Geometry
 * Commands" (GXFIFO 256 entries, PIPE 4), "DS DMA Transfers" (start mode 7: geometry command
 * FIFO, while it is less than half full) and melonDS GPU3D.cpp (CmdFIFOWrite, CmdFIFORead, Run,
 * FinishWork, CheckFIFOIRQ, CheckFIFODMA, @ upstream master):
 * - A written entry goes to the PIPE when the FIFO is empty and the PIPE has room, else to the
 *   FIFO; with the FIFO full it waits in a stall queue and the writer (CPU or DMA) is halted
 *   until the queue has moved into the FIFO (melonDS: 64-entry CmdStallQueue, GXFIFOStall).
 * - Executing an entry takes it from the PIPE; when the PIPE then holds 2 or fewer, up to two
 *   FIFO entries move into it, the stall queue moves into the FIFO, and the DMA request and
 *   IRQ are re-evaluated (melonDS CmdFIFORead). Moves cost nothing.
 * - An entry executes when the previous one's cycles have elapsed (melonDS CycleCount <= 0);
 *   a run of entries costs exactly the sum of their costs. SWAP_BUFFERS halts execution until
 *   VBlank, and its 325 cycles elapse after VBlank (melonDS FlushRequest).
 * - GXSTAT bit 27 (busy) is set by every write into the FIFO/PIPE and cleared once the PIPE is
 *   empty, the last entry's cycles have elapsed and idle time has drained the vertex, normal and
 *   polygon pipelines (melonDS FinishWork). Bit 14 (matrix stack busy) and bit 0 (test busy)
 *   are set by writing an MTX_PUSH/POP or BOX/POS/VEC_TEST entry and cleared at the next
 *   execution boundary (before the next entry executes, or when the engine goes idle) once all
 *   such entries have executed (melonDS NumPushPopCommands/NumTestCommands).
 * - FIFO level (bits 16-24) counts the FIFO only, not the PIPE; bit 25 is level < 128, bit 26
 *   level == 0 (GBATEK; melonDS Read32).
 * - IRQ (GXSTAT bits 30-31): 1 = while less than half full, 2 = while empty (GBATEK). DMA
 *   request: while less than half full. We evaluate both at every level change and GXSTAT
 *   write (a level, not a pulse); melonDS evaluates them at PIPE refills only.
 * Where we are more exact than melonDS: melonDS catches up lazily at CPU-slice granularity, so
 * an entry written to an idle engine starts at the last catch-up and idle time drains the
 * pipelines in slices; here an entry starts at the cycle it is written (or the engine frees),
 * and idle time drains them cycle-exactly (draining is additive, cycles.c gx_cycles_idle).
 * Guess: the engine does not run while POWCNT1 bit 3 (geometry) is off (melonDS Run returns
 * early; no hardware test known).
 */
#include "gx/exec_internal.h"
#include "gx/gx_internal.h"

#include <string.h>

/* Kept out of line: the paths off the common case (a bus write or a gx_run that finds the engine
 * idle), so that gx_run and gx_sched_push decide without setting up a stack frame, and the
 * executor's frame is set up only where an entry runs. */
#define SCHED_NOINLINE __attribute__((noinline))

enum {
    /* GXSTAT (GBATEK "DS 3D Status") */
    GXSTAT_TEST_BUSY = 1u << 0,
    GXSTAT_PUSHPOP_BUSY = 1u << 14,
    GXSTAT_LEVEL_SHIFT = 16,
    GXSTAT_LESS_HALF = 1u << 25,
    GXSTAT_EMPTY = 1u << 26,
    GXSTAT_BUSY = 1u << 27,
    GXSTAT_IRQ_SHIFT = 30,
    IRQ_LESS_HALF = 1,
    IRQ_EMPTY = 2,
    POWCNT1_GEOMETRY = 1u << 3,
    PIPE_REFILL_AT = 2, /* the PIPE refills when it holds this many or fewer */
    PIPE_REFILL_N = 2,  /* entries moved per refill */
    IDLE_MAX = 1u << 16 /* idle cycles that drain every pipeline (the longest is 325) */
};

enum { OP_PUSH = 0x11, OP_POP = 0x12, OP_BOX = 0x70, OP_VEC = 0x72 };

/* ---- rings of FIFO entries ---- */

static void ring_put(gx_fifo_entry *buf, unsigned size, gx_sched_ring *r, gx_fifo_entry e)
{
    buf[(r->head + r->count) % size] = e;
    r->count++;
}

static gx_fifo_entry ring_take(gx_fifo_entry *buf, unsigned size, gx_sched_ring *r)
{
    gx_fifo_entry e = buf[r->head];
    r->head = (uint16_t)((r->head + 1u) % size);
    r->count--;
    return e;
}

#define FIFO_N  ((unsigned)(sizeof(((gx_sched_state *)0)->fifo) / sizeof(gx_fifo_entry)))
#define PIPE_N  ((unsigned)(sizeof(((gx_sched_state *)0)->pipe) / sizeof(gx_fifo_entry)))
#define STALL_N ((unsigned)GX_STALL_QUEUE_SIZE)

/* ---- lines ---- */

static bool level_line(uint32_t level, uint32_t irq_mode, enum gx_line line)
{
    if (line == GX_LINE_FIFO_DMA) return level < FIFO_N / 2;
    switch (irq_mode >> GXSTAT_IRQ_SHIFT) {
    case IRQ_LESS_HALF: return level < FIFO_N / 2;
    case IRQ_EMPTY: return level == 0;
    default: return false;
    }
}

bool gx_line_level(const gx_engine *gx, enum gx_line line)
{
    uint32_t level = (gx_gxstat(gx) >> GXSTAT_LEVEL_SHIFT) & 0x1FFu;
    return level_line(level, gx->cmd.irq_mode, line);
}

void gx_sched_update_lines(gx_engine *gx)
{
    gx_sched_state *s = &gx->sched;
    if (!s->cycle_mode) return;
    for (unsigned i = 0; i < 2; i++) {
        bool lv = level_line(s->fifo_ring.count, gx->cmd.irq_mode, (enum gx_line)i);
        if (lv == s->line[i]) continue;
        s->line[i] = lv;
        if (!gx->line_fn) continue;
        s->in_callback++;
        gx->line_fn(gx->line_user, gx, (enum gx_line)i, lv);
        s->in_callback--;
    }
}

void gx_set_line_callback(gx_engine *gx, gx_line_fn fn, void *user)
{
    gx->line_fn = fn;
    gx->line_user = user;
}

/* ---- the queues ---- */

/* An entry entered the PIPE or the FIFO: busy, and the matrix-stack / test bits. */
static void note_written(gx_sched_state *s, uint8_t opcode)
{
    s->busy = true;
    if (opcode == OP_PUSH || opcode == OP_POP) {
        s->pushpop_left++;
        s->pushpop_busy = true;
    } else if (opcode >= OP_BOX && opcode <= OP_VEC) {
        s->test_left++;
        s->test_busy = true;
    }
}

/* melonDS CmdFIFOWrite: into the PIPE while the FIFO is empty, else the FIFO (the lines follow
 * the FIFO level). @return false when the FIFO is full. */
static bool fifo_accept(gx_engine *gx, gx_fifo_entry e)
{
    gx_sched_state *s = &gx->sched;
    if (s->fifo_ring.count == 0 && s->pipe_ring.count < PIPE_N) {
        ring_put(s->pipe, PIPE_N, &s->pipe_ring, e);
    } else if (s->fifo_ring.count < FIFO_N) {
        ring_put(s->fifo, FIFO_N, &s->fifo_ring, e);
        gx_sched_update_lines(gx);
    } else {
        return false;
    }
    note_written(s, e.opcode);
    return true;
}

/* melonDS CmdFIFORead: the next entry, refilling the PIPE and draining the stall queue. */
static gx_fifo_entry pipe_take(gx_engine *gx)
{
    gx_sched_state *s = &gx->sched;
    gx_fifo_entry e = ring_take(s->pipe, PIPE_N, &s->pipe_ring);
    if (s->pipe_ring.count <= PIPE_REFILL_AT && s->fifo_ring.count) {
        for (unsigned i = 0; i < PIPE_REFILL_N && s->fifo_ring.count; i++)
            ring_put(s->pipe, PIPE_N, &s->pipe_ring, ring_take(s->fifo, FIFO_N, &s->fifo_ring));
        while (s->stall_ring.count && s->fifo_ring.count < FIFO_N)
            fifo_accept(gx, ring_take(s->stall, STALL_N, &s->stall_ring));
        gx_sched_update_lines(gx);
    }
    return e;
}

/* An execution boundary: bits 14 and 0 clear once their entries have all executed. */
static inline void boundary(gx_sched_state *s)
{
    if (!(s->pushpop_busy | s->test_busy)) return; /* (the common case: neither is set) */
    if (s->pushpop_left == 0) s->pushpop_busy = false;
    if (s->test_left == 0) s->test_busy = false;
}

/* MTX_PUSH/POP and BOX/POS/VEC_TEST: the entries bits 14 and 0 count. */
static inline bool counted_op(uint8_t opcode)
{
    return (unsigned)(opcode - OP_PUSH) <= (unsigned)(OP_POP - OP_PUSH) ||
           (unsigned)(opcode - OP_BOX) <= (unsigned)(OP_VEC - OP_BOX);
}

/* Execute entry @p e now (taken from the PIPE): it keeps the engine busy for its cost. */
static void start_entry(gx_engine *gx, gx_fifo_entry e)
{
    gx_sched_state *s = &gx->sched;
    uint32_t cost = gx_fifo_run_entry(gx, e.opcode, e.param);
    if ((e.opcode == OP_PUSH || e.opcode == OP_POP) && s->pushpop_left) s->pushpop_left--;
    if (e.opcode >= OP_BOX && e.opcode <= OP_VEC && gx->cmd.exec_count == 0) {
        /* the test ran: its parameter entries leave the count (melonDS) */
        unsigned n = gx_opcode_params(e.opcode);
        s->test_left = (uint16_t)(s->test_left > n ? s->test_left - n : 0);
    }
    s->rem = cost ? cost : 1;
}

static void execute_next(gx_engine *gx)
{
    boundary(&gx->sched);
    start_entry(gx, pipe_take(gx));
}

/* Idle time with busy set: the pipelines drain (melonDS FinishWork); busy clears once they are
 * empty. */
SCHED_NOINLINE static void idle_drain(gx_engine *gx, uint32_t n)
{
    gx->sched.busy = gx_cycles_idle(gx, n);
}

static inline void idle_for(gx_engine *gx, uint64_t cycles)
{
    uint32_t n = cycles > IDLE_MAX ? IDLE_MAX : (uint32_t)cycles;
    if (gx_cycles_idle_runs_out(&gx->cmd.cyc, n))
        gx->sched.busy = false;
    else
        idle_drain(gx, n);
}

static inline bool halted(const gx_engine *gx)
{
    return gx->cmd.swap_pending || !(gx->powcnt1 & POWCNT1_GEOMETRY);
}

/* Run the engine from its clock to @p target (>= now): the only code that moves time. After
 * it, an entry is in progress, the engine is halted, or the PIPE is empty. */
SCHED_NOINLINE static void advance_to(gx_engine *gx, uint64_t target)
{
    gx_sched_state *s = &gx->sched;
    for (;;) {
        if (halted(gx)) { /* time passes; nothing runs, nothing drains */
            s->now = target;
            return;
        }
        if (s->rem) {
            uint64_t left = target - s->now;
            if (left < s->rem) {
                s->rem -= (uint32_t)left;
                s->now = target;
                return;
            }
            s->now += s->rem;
            s->rem = 0;
        }
        if (s->pipe_ring.count) {
            execute_next(gx);
            continue;
        }
        /* idle until target: the pipelines drain; busy clears once they are empty */
        boundary(s);
        if (s->busy) idle_for(gx, target - s->now);
        s->now = target;
        return;
    }
}

/* The writer is halted: run ahead of the host until the stall queue has moved into the FIFO,
 * or the engine halts (SWAP_BUFFERS until VBlank). */
static void run_until_room(gx_engine *gx)
{
    gx_sched_state *s = &gx->sched;
    while (s->stall_ring.count && !halted(gx)) advance_to(gx, s->now + (s->rem ? s->rem : 1u));
}

SCHED_NOINLINE static void push_slow(gx_engine *gx, uint8_t opcode, uint32_t param)
{
    gx_sched_state *s = &gx->sched;
    gx_fifo_entry e = {.opcode = opcode, .param = param};
    if ((s->rem | s->pipe_ring.count | s->fifo_ring.count | s->in_callback) == 0 && !halted(gx)) {
        /* an idle engine: the entry passes through the empty PIPE and starts at once (the
         * FIFO level, hence the lines, stays 0; the stall queue is empty with the FIFO) */
        note_written(s, opcode);
        boundary(s);
        start_entry(gx, e);
        return;
    }
    if (s->in_callback) { /* a write from a line callback: queued behind, run later */
        if (!fifo_accept(gx, e) && s->stall_ring.count < STALL_N)
            ring_put(s->stall, STALL_N, &s->stall_ring, e);
        return;
    }
    if (s->stall_ring.count == 0 && fifo_accept(gx, e)) {
        if (s->rem == 0) advance_to(gx, s->now); /* a free engine starts it at once */
        return;
    }
    s->stalled_write = true;
    if (s->stall_ring.count == STALL_N) {
        gx_log(gx, DSGX_LOG_WARN,
               "geometry FIFO write while the writer should be stalled: entry %02Xh dropped",
               opcode);
        return;
    }
    ring_put(s->stall, STALL_N, &s->stall_ring, e);
    run_until_room(gx);
}

/* The common case, push_slow's first one without its bookkeeping: an idle engine starts the
 * entry at once, and bits 14 and 0 are not involved (note_written sets busy only). Out of line
 * with the executor's frame, which the dispatch below and push_slow do not need. */
static GX_ALWAYS_INLINE void push_now_inline(gx_engine *gx, uint8_t opcode, uint32_t param)
{
    gx_sched_state *s = &gx->sched;
    s->busy = true;
    boundary(s);
    uint32_t cost = gx_exec_entry(gx, opcode, param);
    s->rem = cost ? cost : 1;
}

SCHED_NOINLINE static void push_now(gx_engine *gx, uint8_t opcode, uint32_t param)
{
    push_now_inline(gx, opcode, param);
}

/* Whether an entry with @p opcode starts at once (push_now). */
static inline bool starts_now(const gx_engine *gx, uint8_t opcode)
{
    const gx_sched_state *s = &gx->sched;
    return (s->rem | s->pipe_ring.count | s->fifo_ring.count | s->in_callback) == 0 &&
           !halted(gx) && !counted_op(opcode);
}

void gx_sched_push(gx_engine *gx, uint8_t opcode, uint32_t param)
{
    if (starts_now(gx, opcode))
        push_now(gx, opcode, param);
    else
        push_slow(gx, opcode, param);
}

/* ---- the public calls ---- */

void gx_sched_reset(gx_engine *gx)
{
    gx_sched_state *s = &gx->sched;
    bool mode = s->cycle_mode, line[2] = {s->line[0], s->line[1]};
    memset(s, 0, sizeof(*s));
    s->cycle_mode = mode;
    s->line[0] = line[0];
    s->line[1] = line[1];
    gx_sched_update_lines(gx); /* (reports the levels of the empty FIFO where they changed) */
}

bool gx_sched_idle(const gx_engine *gx)
{
    const gx_sched_state *s = &gx->sched;
    return s->pipe_ring.count == 0 && s->fifo_ring.count == 0 && s->stall_ring.count == 0;
}

bool gx_set_cycle_mode(gx_engine *gx, bool on)
{
    gx_sched_state *s = &gx->sched;
    if (on == s->cycle_mode) return true;
    if (!gx_sched_idle(gx) || gx->cmd.ndeferred != gx->cmd.deferred_head) return false;
    s->cycle_mode = on;
    s->rem = 0;
    s->busy = s->pushpop_busy = s->test_busy = false;
    s->pushpop_left = s->test_left = 0;
    s->line[0] = s->line[1] = false;
    gx_sched_update_lines(gx);
    return true;
}

bool gx_cycle_mode(const gx_engine *gx)
{
    return gx->sched.cycle_mode;
}

static GX_ALWAYS_INLINE void run_inline(gx_engine *gx, uint32_t cycles)
{
    gx_sched_state *s = &gx->sched;
    if (!s->cycle_mode) return;
    s->host += cycles;
    if (s->host <= s->now || s->in_callback)
        return; /* (ran ahead during a stall; or called
                 * from a line callback: caught up by
                 * the next gx_run) */
    uint64_t left = s->host - s->now;
    if (s->pipe_ring.count == 0 && left >= s->rem && !halted(gx)) {
        /* the common case between two bus writes: the entry in progress ends, then idle time
         * (advance_to's last step, without its loop) */
        uint64_t idle = left - s->rem;
        s->rem = 0;
        s->now = s->host;
        boundary(s);
        if (s->busy) idle_for(gx, idle);
        return;
    }
    advance_to(gx, s->host);
}

static uint32_t stall_result(const gx_engine *gx, uint64_t t0)
{
    const gx_sched_state *s = &gx->sched;
    if (s->stall_ring.count) return GX_STALL_VBLANK;
    uint64_t n = s->now - t0;
    return n >= GX_STALL_VBLANK ? GX_STALL_VBLANK - 1u : (uint32_t)n;
}

void gx_run(gx_engine *gx, uint32_t cycles)
{
    run_inline(gx, cycles);
}

static GX_ALWAYS_INLINE uint32_t bus_write32_inline(gx_engine *gx, uint32_t addr, uint32_t val)
{
    gx_sched_state *s = &gx->sched;
    /* the common case, decided here: a command-port write that an idle engine starts at once
     * (gx_write32's port path and gx_sched_push's first case, without their calls); it cannot
     * stall */
    uint32_t port = (addr & ~3u) - REG_CMD_PORTS;
    if (port < REG_CMD_PORTS_END - REG_CMD_PORTS && s->cycle_mode) {
        uint8_t op = (uint8_t)(((addr & 0x1FCu) >> 2));
        if (starts_now(gx, op)) { /* (halted() covers POWCNT1) */
            s->stalled_write = false;
            push_now_inline(gx, op, val);
            return 0;
        }
    }
    s->stalled_write = false;
    uint64_t t0 = s->now;
    gx_write32(gx, addr, val);
    return s->stalled_write ? stall_result(gx, t0) : 0;
}

uint32_t gx_bus_write32(gx_engine *gx, uint32_t addr, uint32_t val)
{
    return bus_write32_inline(gx, addr, val);
}

size_t gx_bus_write32_run(gx_engine *gx, const gx_bus_word *w, size_t n, uint32_t cycles,
                          uint32_t *stall)
{
    if (cycles < GX_BATCH_MIN_SLICE) { /* (no vertex batch: see batch.c) */
        for (size_t i = 0; i < n; i++) {
            uint32_t st = bus_write32_inline(gx, w[i].addr, w[i].value);
            if (st) {
                *stall = st;
                return i;
            }
            run_inline(gx, cycles);
        }
        *stall = 0;
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        if ((w[i].addr & ~3u) - REG_PORT_COLOR < REG_PORT_VERTEX_END - REG_PORT_COLOR) {
            /* COLOR, NORMAL, TEXCOORD, VTX_16: a batch when it applies (batch.c) */
            size_t taken = gx_batch_ports(gx, w + i, n - i, cycles);
            if (taken) {
                i += taken - 1;
                continue;
            }
        }
        uint32_t st = bus_write32_inline(gx, w[i].addr, w[i].value);
        if (st) {
            *stall = st;
            return i;
        }
        run_inline(gx, cycles);
    }
    *stall = 0;
    return n;
}

uint32_t gx_unstall(gx_engine *gx)
{
    uint64_t t0 = gx->sched.now;
    if (!gx->sched.in_callback) run_until_room(gx);
    return stall_result(gx, t0);
}

bool gx_stalled(const gx_engine *gx)
{
    return gx->sched.stall_ring.count != 0;
}

uint64_t gx_clock(const gx_engine *gx)
{
    return gx->sched.now;
}

void gx_sched_vblank(gx_engine *gx)
{
    gx_sched_state *s = &gx->sched;
    if (s->now < s->host) s->now = s->host; /* the halt lasted until now */
}

uint32_t gx_sched_gxstat(const gx_engine *gx)
{
    const gx_sched_state *s = &gx->sched;
    uint32_t level = s->fifo_ring.count;
    uint32_t v = level << GXSTAT_LEVEL_SHIFT;
    if (level < FIFO_N / 2) v |= GXSTAT_LESS_HALF;
    if (level == 0) v |= GXSTAT_EMPTY;
    if (s->busy) v |= GXSTAT_BUSY;
    if (s->pushpop_busy) v |= GXSTAT_PUSHPOP_BUSY;
    if (s->test_busy) v |= GXSTAT_TEST_BUSY;
    return v;
}
