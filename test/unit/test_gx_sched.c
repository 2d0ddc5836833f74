/*
 * test_gx_sched.c - the cycle-driven mode (gx/sched.c): FIFO and PIPE levels over time, CPU
 * stalls, GXSTAT's timed bits, the GXFIFO IRQ and DMA request lines, SWAP_BUFFERS until VBlank.
 *
 * Expected values are worked by hand from the cycle table (gx/cycles.c, cmdtable.c; MODEL.md
 * section 3) with idle pipelines: MTX_IDENTITY costs 1 + 18 = 19, MTX_PUSH 1 + 16 = 17,
 * VEC_TEST 1 + 4 = 5, POS_TEST 1 + (1 + 5) = 7, BEGIN_VTXS 1, VTX_16 1 + (1 + 3) and leaves a
 * 4-cycle vertex tail, SWAP_BUFFERS 325 after VBlank; and from the FIFO rules (GBATEK "DS 3D
 * Status"; melonDS CmdFIFOWrite/CmdFIFORead): an entry enters the PIPE while the FIFO is empty
 * and the PIPE (4) has room; executing an entry that leaves 2 or fewer in the PIPE moves two
 * FIFO entries into it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx.h"

#define GXSTAT     0x04000600u
#define VEC_RESULT 0x04000630u
#define P_PUSH     0x04000444u
#define P_IDENTITY 0x04000454u
#define P_VTX16    0x0400048Cu
#define P_BEGIN    0x04000500u
#define P_SWAP     0x04000540u
#define P_POSTEST  0x040005C4u
#define P_VECTEST  0x040005C8u
#define BUSY       (1u << 27)
#define EMPTY      (1u << 26)
#define LESS_HALF  (1u << 25)
#define PUSHPOP    (1u << 14)
#define TEST_BUSY  (1u << 0)
#define IDENT_COST 19u

static unsigned level(gx_engine *gx)
{
    return (gx_read32(gx, GXSTAT) >> 16) & 0x1FFu;
}

static gx_engine *make(void)
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    assert_true(gx_set_cycle_mode(gx, true));
    assert_true(gx_cycle_mode(gx));
    return gx;
}

/* n MTX_IDENTITY writes at the current cycle; each must be taken without a stall */
static void identities(gx_engine *gx, unsigned n)
{
    for (unsigned i = 0; i < n; i++) assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), 0);
}

/* One command: busy while its cycles elapse, idle from the cycle they end. */
static void test_busy_for_the_command_cycles(void **state)
{
    (void)state;
    gx_engine *gx = make();
    assert_int_equal(gx_read32(gx, GXSTAT) & (BUSY | EMPTY | LESS_HALF), EMPTY | LESS_HALF);
    identities(gx, 1);
    assert_int_equal(gx_read32(gx, GXSTAT) & (BUSY | EMPTY), BUSY | EMPTY);
    gx_run(gx, IDENT_COST - 1);
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & BUSY);
    assert_int_equal(gx_clock(gx), IDENT_COST);
    gx_destroy(gx);
}

/* 15 identities at cycle 0: the first runs at once, 4 wait in the PIPE, 10 in the FIFO. The
 * PIPE refills (two entries) when the 3rd, 5th, 7th... entry starts: at 38, 76, 114... */
static void test_fifo_drains_in_time(void **state)
{
    (void)state;
    gx_engine *gx = make();
    identities(gx, 15);
    uint32_t st = gx_read32(gx, GXSTAT);
    assert_int_equal((st >> 16) & 0x1FFu, 10);
    assert_int_equal(st & (BUSY | EMPTY | LESS_HALF), BUSY | LESS_HALF);
    static const unsigned at[] = {38, 76, 114, 152, 190};
    unsigned expect = 10;
    uint64_t t = 0;
    for (unsigned i = 0; i < 5; i++) {
        gx_run(gx, (uint32_t)(at[i] - 1 - t));
        assert_int_equal(level(gx), expect);
        gx_run(gx, 1);
        t = at[i];
        expect -= 2;
        assert_int_equal(level(gx), expect);
    }
    assert_true(gx_read32(gx, GXSTAT) & EMPTY);
    /* the last entry starts at 14 * 19 = 266 and ends at 285 */
    gx_run(gx, 284 - 190);
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & BUSY);
    gx_destroy(gx);
}

/* 261 entries fill the PIPE (4) and the FIFO (256) behind the running one; the 262nd write
 * stalls until the next refill (the 3rd entry starts at 38), the 264th from 39 to 76. */
static void test_stall_on_full_fifo(void **state)
{
    (void)state;
    gx_engine *gx = make();
    identities(gx, 261);
    assert_int_equal(level(gx), 256);
    assert_false(gx_read32(gx, GXSTAT) & LESS_HALF);
    assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), 38);
    assert_false(gx_stalled(gx));
    assert_int_equal(gx_clock(gx), 38);
    assert_int_equal(level(gx), 255);
    /* the host catches up with the 38 stalled cycles: they are not run again */
    gx_run(gx, 38);
    assert_int_equal(gx_clock(gx), 38);
    gx_run(gx, 1);
    assert_int_equal(gx_clock(gx), 39);
    assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), 0); /* level 256 */
    assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), 76 - 39);
    assert_int_equal(level(gx), 255);
    /* plain gx_write32 stalls the same way (the clock runs ahead) */
    gx_write32(gx, P_IDENTITY, 0);
    assert_int_equal(gx_clock(gx), 76);
    gx_write32(gx, P_IDENTITY, 0);
    assert_int_equal(gx_clock(gx), 114);
    gx_destroy(gx);
}

typedef struct lines_log {
    unsigned n;
    enum gx_line line[16];
    bool level[16];
    uint64_t at[16];
} lines_log;

static void on_line(void *user, gx_engine *gx, enum gx_line line, bool lv)
{
    lines_log *l = user;
    if (l->n >= 16) return;
    l->line[l->n] = line;
    l->level[l->n] = lv;
    l->at[l->n] = gx_clock(gx);
    l->n++;
}

/* IRQ mode 1 (less than half full) and the DMA request: low from the write that makes the
 * level 128, high again at the refill that takes it to 126 (the 3rd entry, cycle 38). */
static void test_irq_half_and_dma(void **state)
{
    (void)state;
    lines_log l = {0};
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    gx_set_line_callback(gx, on_line, &l);
    assert_true(gx_set_cycle_mode(gx, true));
    assert_int_equal(l.n, 1); /* an empty FIFO requests DMA */
    assert_int_equal(l.line[0], GX_LINE_FIFO_DMA);
    assert_true(l.level[0]);
    assert_false(gx_line_level(gx, GX_LINE_FIFO_IRQ));
    gx_write32(gx, GXSTAT, 1u << 30);
    assert_int_equal(gx_read32(gx, GXSTAT) >> 30, 1);
    assert_int_equal(l.n, 2);
    assert_true(l.line[1] == GX_LINE_FIFO_IRQ && l.level[1]);

    identities(gx, 1 + 4 + 127);
    assert_int_equal(l.n, 2);
    assert_true(gx_line_level(gx, GX_LINE_FIFO_DMA));
    identities(gx, 1); /* level 128 */
    assert_int_equal(l.n, 4);
    assert_false(gx_line_level(gx, GX_LINE_FIFO_IRQ));
    assert_false(gx_line_level(gx, GX_LINE_FIFO_DMA));
    gx_run(gx, 1000);
    assert_int_equal(l.n, 6);
    for (unsigned i = 4; i < 6; i++) {
        assert_true(l.level[i]);
        assert_int_equal(l.at[i], 38);
    }
    /* mode 0: never */
    gx_write32(gx, GXSTAT, 0);
    assert_int_equal(l.n, 7);
    assert_false(l.level[6]);
    gx_destroy(gx);
}

/* IRQ mode 2 (empty): high from the refill that empties the FIFO (10 entries: cycle 190). */
static void test_irq_empty(void **state)
{
    (void)state;
    lines_log l = {0};
    gx_engine *gx = make();
    gx_write32(gx, GXSTAT, 2u << 30);
    assert_true(gx_line_level(gx, GX_LINE_FIFO_IRQ));
    identities(gx, 15);
    assert_false(gx_line_level(gx, GX_LINE_FIFO_IRQ));
    gx_set_line_callback(gx, on_line, &l);
    gx_run(gx, 189);
    assert_int_equal(l.n, 0);
    gx_run(gx, 1);
    assert_int_equal(l.n, 1);
    assert_true(l.line[0] == GX_LINE_FIFO_IRQ && l.level[0]);
    assert_int_equal(l.at[0], 190);
    gx_destroy(gx);
}

/* GXSTAT bit 14 while an MTX_PUSH is queued or running, bit 0 for the tests; VEC_TEST's result
 * is there when bit 0 clears. */
static void test_pushpop_and_test_busy(void **state)
{
    (void)state;
    gx_engine *gx = make();
    assert_int_equal(gx_bus_write32(gx, P_PUSH, 0), 0);
    assert_true(gx_read32(gx, GXSTAT) & PUSHPOP);
    gx_run(gx, 16);
    assert_true(gx_read32(gx, GXSTAT) & PUSHPOP);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & (PUSHPOP | BUSY));

    gx_write32(gx, P_VECTEST, 0x1FFu); /* x = +511/512 */
    assert_true(gx_read32(gx, GXSTAT) & TEST_BUSY);
    gx_run(gx, 4);
    assert_true(gx_read32(gx, GXSTAT) & TEST_BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & TEST_BUSY);
    assert_int_equal(gx_read16(gx, VEC_RESULT), 0x0FF8); /* 511 << 3, 1.3.12 */

    /* POS_TEST: two entries at once, 1 + 6 cycles; busy through cycle 6 of it */
    gx_write32(gx, P_POSTEST, 0);
    gx_write32(gx, P_POSTEST, 0);
    gx_run(gx, 6);
    assert_true(gx_read32(gx, GXSTAT) & TEST_BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & TEST_BUSY);
    gx_destroy(gx);
}

/* Idle time drains the vertex tail: busy until it is empty (BEGIN_VTXS 0..1, VTX_16 1..6, tail
 * 4 more cycles). */
static void test_busy_until_pipelines_drain(void **state)
{
    (void)state;
    gx_engine *gx = make();
    gx_write32(gx, P_BEGIN, 0);
    gx_write32(gx, P_VTX16, 0);
    gx_write32(gx, P_VTX16, 0);
    gx_run(gx, 9);
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & BUSY);
    gx_destroy(gx);
}

typedef struct count_ {
    unsigned n;
} count_;
static void on_cmd(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    (void)gx;
    (void)ev;
    ((count_ *)user)->n++;
}

/* SWAP_BUFFERS halts execution until VBlank; its 325 cycles elapse after it. A write that finds
 * the FIFO full behind it stalls until VBlank (GX_STALL_VBLANK), then gx_unstall gives the rest:
 * 325, the 1st held entry (19), the 2nd starts at 344 and refills the PIPE. */
static void test_swap_waits_for_vblank(void **state)
{
    (void)state;
    count_ c = {0};
    gx_engine *gx = make();
    gx_hooks h = {.user = &c, .command = on_cmd};
    gx_set_hooks(gx, &h);
    gx_write32(gx, P_SWAP, 0);
    identities(gx, 4 + 256);
    assert_int_equal(c.n, 1);
    assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), GX_STALL_VBLANK);
    assert_true(gx_stalled(gx));
    gx_run(gx, 100000);
    assert_int_equal(c.n, 1);
    assert_true(gx_swap_pending(gx));
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    assert_int_equal(gx_unstall(gx), GX_STALL_VBLANK); /* no VBlank yet */
    assert_true(gx_vblank(gx));
    assert_int_equal(gx_unstall(gx), 344);
    assert_false(gx_stalled(gx));
    assert_int_equal(c.n, 3);
    assert_int_equal(gx_clock(gx), 100000 + 344);
    gx_destroy(gx);
}

/* After VBlank the swap's 325 cycles pass before the next command starts; until VBlank the
 * engine stays busy and runs nothing, however long. */
static void test_swap_325_after_vblank(void **state)
{
    (void)state;
    count_ c = {0};
    gx_engine *gx = make();
    gx_hooks h = {.user = &c, .command = on_cmd};
    gx_set_hooks(gx, &h);
    gx_write32(gx, P_SWAP, 0);
    identities(gx, 1);
    gx_run(gx, 5000);
    assert_int_equal(c.n, 1);
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    assert_true(gx_vblank(gx));
    gx_run(gx, 324);
    assert_int_equal(c.n, 1);
    gx_run(gx, 1);
    assert_int_equal(c.n, 2);
    gx_run(gx, IDENT_COST - 1);
    assert_true(gx_read32(gx, GXSTAT) & BUSY);
    gx_run(gx, 1);
    assert_false(gx_read32(gx, GXSTAT) & BUSY);
    gx_destroy(gx);
}

/* The default mode is untouched: gx_run does nothing, writes never stall; the mode cannot
 * change while entries are held or queued. */
static void test_modes(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    assert_false(gx_cycle_mode(gx));
    gx_write32(gx, P_SWAP, 0);
    for (unsigned i = 0; i < 300; i++) assert_int_equal(gx_bus_write32(gx, P_IDENTITY, 0), 0);
    gx_run(gx, 1000);
    assert_int_equal(gx_clock(gx), 0);
    assert_false(gx_set_cycle_mode(gx, true)); /* 300 entries held */
    assert_true(gx_vblank(gx));
    assert_true(gx_set_cycle_mode(gx, true));
    identities(gx, 2);
    assert_false(gx_set_cycle_mode(gx, false)); /* one queued */
    gx_run(gx, 2 * IDENT_COST);
    assert_true(gx_set_cycle_mode(gx, false));
    /* the mode survives a reset, the clock does not */
    assert_true(gx_set_cycle_mode(gx, true));
    gx_run(gx, 5);
    gx_reset(gx);
    assert_true(gx_cycle_mode(gx));
    assert_int_equal(gx_clock(gx), 0);
    gx_destroy(gx);
}

/* Writes while the writer should be halted are dropped beyond the 64-entry stall queue, and
 * nothing breaks. */
static void test_stall_queue_overrun(void **state)
{
    (void)state;
    gx_engine *gx = make();
    gx_write32(gx, P_SWAP, 0);
    identities(gx, 260);
    for (unsigned i = 0; i < 100; i++) gx_write32(gx, P_IDENTITY, 0);
    assert_true(gx_stalled(gx));
    assert_true(gx_vblank(gx));
    uint32_t s = gx_unstall(gx);
    assert_true(s > 0 && s != GX_STALL_VBLANK);
    gx_run(gx, 1000000);
    assert_false(gx_read32(gx, GXSTAT) & BUSY);
    assert_true(gx_read32(gx, GXSTAT) & EMPTY);
    gx_destroy(gx);
}

typedef struct dma_ {
    unsigned writes, commands, mode_at; /* mode_at: command index of MTX_MODE (1-based) */
} dma_;

/* a DMA that reacts at once: one MTX_MODE word when the request rises */
static void on_dma(void *user, gx_engine *gx, enum gx_line line, bool lv)
{
    dma_ *d = user;
    if (line != GX_LINE_FIFO_DMA || !lv) return;
    gx_write32(gx, 0x04000440u, 1);
    gx_run(gx, 1000); /* (nothing runs from inside the engine) */
    d->writes++;
}

static void on_cmd_order(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    (void)gx;
    dma_ *d = user;
    d->commands++;
    if (ev->opcode == 0x10) d->mode_at = d->commands;
}

/* A write from inside a line callback is queued behind the FIFO and runs in order. */
static void test_write_from_callback(void **state)
{
    (void)state;
    dma_ d = {0};
    gx_engine *gx = make();
    gx_hooks h = {.user = &d, .command = on_cmd_order};
    gx_set_hooks(gx, &h);
    identities(gx, 1 + 4 + 128);
    assert_false(gx_line_level(gx, GX_LINE_FIFO_DMA));
    gx_set_line_callback(gx, on_dma, &d);
    gx_run(gx, 37);
    assert_int_equal(d.writes, 0);
    assert_int_equal(gx_clock(gx), 37);
    gx_run(gx, 1); /* cycle 38: the refill takes the level to 126 */
    assert_int_equal(d.writes, 1);
    assert_int_equal(gx_clock(gx), 38);
    assert_int_equal(level(gx), 127);
    gx_run(gx, 10000);
    assert_int_equal(d.commands, 134);
    assert_int_equal(d.mode_at, 134);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_for_the_command_cycles),
        cmocka_unit_test(test_fifo_drains_in_time),
        cmocka_unit_test(test_stall_on_full_fifo),
        cmocka_unit_test(test_irq_half_and_dma),
        cmocka_unit_test(test_irq_empty),
        cmocka_unit_test(test_pushpop_and_test_busy),
        cmocka_unit_test(test_busy_until_pipelines_drain),
        cmocka_unit_test(test_swap_waits_for_vblank),
        cmocka_unit_test(test_swap_325_after_vblank),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_stall_queue_overrun),
        cmocka_unit_test(test_write_from_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
