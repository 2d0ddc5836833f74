/*
 * test_gx_fifo.c - GXFIFO packed command words, command ports, held commands and GXSTAT.
 * Expected values from GBATEK "DS 3D Geometry Commands" / "DS 3D Status" and melonDS's
 * WriteToGXFIFO behaviour (see gx/fifo.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx.h"

#define FIFO   0x04000400u
#define GXSTAT 0x04000600u

typedef struct log_ {
    unsigned n;
    uint8_t op[64];
    uint8_t np[64];
    uint32_t p0[64], p1[64], p2[64];
    uint32_t cyc[64];
} log_;

static void on_cmd(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    (void)gx;
    log_ *l = user;
    if (l->n >= 64) return;
    l->op[l->n] = ev->opcode;
    l->np[l->n] = ev->nparams;
    l->p0[l->n] = ev->params[0];
    l->p1[l->n] = ev->params[1];
    l->p2[l->n] = ev->params[2];
    l->cyc[l->n] = ev->cycles;
    l->n++;
}

static gx_engine *make(log_ *l)
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    memset(l, 0, sizeof(*l));
    gx_hooks h = {0};
    h.user = l;
    h.command = on_cmd;
    gx_set_hooks(gx, &h);
    return gx;
}

static uint32_t port(uint8_t op)
{
    return 0x04000400u + 4u * op;
}

/* MTX_MODE (10h, 1 parameter) in each slot, MTX_IDENTITY (15h, none) in the others: the
 * opcodes run in slot order and MTX_MODE receives the one parameter word. */
static void test_packed_every_slot(void **state)
{
    (void)state;
    for (unsigned slot = 0; slot < 4; slot++) {
        log_ l;
        gx_engine *gx = make(&l);
        uint32_t word = 0;
        for (unsigned s = 0; s < 4; s++) word |= (s == slot ? 0x10u : 0x15u) << (8 * s);
        gx_write32(gx, FIFO, word);
        /* the opcodes before MTX_MODE ran, MTX_MODE waits for its parameter */
        assert_int_equal(l.n, slot);
        gx_write32(gx, FIFO, 3);
        assert_int_equal(l.n, 4);
        for (unsigned s = 0; s < 4; s++) {
            assert_int_equal(l.op[s], s == slot ? 0x10 : 0x15);
            if (s == slot) {
                assert_int_equal(l.np[s], 1);
                assert_int_equal(l.p0[s], 3);
            } else {
                assert_int_equal(l.np[s], 0);
            }
        }
        /* the next word is a new packed word: MTX_IDENTITY alone */
        gx_write32(gx, FIFO, 0x15);
        assert_int_equal(l.n, 5);
        assert_int_equal(l.op[4], 0x15);
        gx_destroy(gx);
    }
}

/* Three VTX_16 (2 parameters each) and a TEXCOORD: parameters pair up in order. */
static void test_packed_multi_param(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, FIFO, 0x22232323);
    const uint32_t params[7] = {0x11, 0x12, 0x21, 0x22, 0x31, 0x32, 0x44};
    for (unsigned i = 0; i < 7; i++) {
        gx_write32(gx, FIFO, params[i]);
        /* a command issues exactly when its last parameter arrives */
        assert_int_equal(l.n, i < 6 ? (i + 1) / 2 : 4);
    }
    assert_int_equal(l.n, 4);
    for (unsigned v = 0; v < 3; v++) {
        assert_int_equal(l.op[v], 0x23);
        assert_int_equal(l.p0[v], 0x11 + 0x10 * v);
        assert_int_equal(l.p1[v], 0x12 + 0x10 * v);
    }
    assert_int_equal(l.op[3], 0x22);
    assert_int_equal(l.p0[3], 0x44);
    gx_destroy(gx);
}

/* Zero-parameter commands in any slot; NOP bytes inside a word are skipped. */
static void test_packed_zero_param(void **state)
{
    (void)state;
    for (unsigned slot = 0; slot < 4; slot++) {
        log_ l;
        gx_engine *gx = make(&l);
        gx_write32(gx, FIFO, 0x41u << (8 * slot)); /* END_VTXS in one slot, NOP elsewhere */
        assert_int_equal(l.n, 1);
        assert_int_equal(l.op[0], 0x41);
        /* the word was complete: the next word is a command word again */
        gx_write32(gx, FIFO, 0x15);
        assert_int_equal(l.n, 2);
        assert_int_equal(l.op[1], 0x15);
        gx_destroy(gx);
    }
    /* 11h 00h 15h 00h: PUSH, (NOP skipped), IDENTITY, (NOP skipped) */
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, FIFO, 0x00150011);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.op[0], 0x11);
    assert_int_equal(l.op[1], 0x15);
    gx_destroy(gx);
}

/* An all-zero word is one NOP command costing one cycle, and completes at once. */
static void test_all_zero_word(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, FIFO, 0);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.op[0], 0x00);
    assert_int_equal(l.cyc[0], 1);
    gx_write32(gx, FIFO, 0);
    assert_int_equal(l.n, 2);
    gx_write32(gx, FIFO, 0x10); /* MTX_MODE: a command word, not a parameter */
    assert_int_equal(l.n, 2);
    gx_write32(gx, FIFO, 1);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.op[2], 0x10);
    gx_destroy(gx);
}

/* Unknown opcodes: zero parameters, one cycle, no effect (melonDS CmdNumParams = 0). */
static void test_unknown_opcode(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    assert_null(gx_opcode_name(0x2C));
    assert_int_equal(gx_opcode_params(0x2C), 0);
    assert_string_equal(gx_opcode_name(0x23), "VTX_16");
    assert_int_equal(gx_opcode_params(0x34), 32);
    gx_write32(gx, FIFO, 0x10152C7F); /* 7F unknown, 2C unknown, IDENTITY, MTX_MODE */
    assert_int_equal(l.n, 3);
    assert_int_equal(l.op[0], 0x7F);
    assert_int_equal(l.cyc[0], 1);
    assert_int_equal(l.op[1], 0x2C);
    assert_int_equal(l.op[2], 0x15);
    gx_write32(gx, FIFO, 2);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.op[3], 0x10);
    assert_int_equal(l.p0[3], 2);
    gx_destroy(gx);
}

/* Command ports: a command issues on its Nth parameter write; zero-parameter ports on any. */
static void test_ports(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, port(0x15), 0xDEADBEEF); /* IDENTITY: any value issues it */
    assert_int_equal(l.n, 1);
    assert_int_equal(l.op[0], 0x15);
    gx_write32(gx, port(0x10), 1); /* MTX_MODE 1 */
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(l.n, 2);
        gx_write32(gx, port(0x1C), 0x1000u * (i + 1)); /* TRANS 1, 2, 3 */
    }
    assert_int_equal(l.n, 3);
    assert_int_equal(l.op[2], 0x1C);
    assert_int_equal(l.p0[2], 0x1000);
    assert_int_equal(l.p2[2], 0x3000);
    int32_t m[16];
    gx_get_matrix(gx, 1, m);
    assert_int_equal(m[12], 0x1000);
    assert_int_equal(m[13], 0x2000);
    assert_int_equal(m[14], 0x3000);
    /* 040005CC..040005FF are unused */
    gx_write32(gx, 0x040005CC, 0);
    assert_int_equal(l.n, 3);
    /* 16-bit writes do not reach the ports */
    gx_write16(gx, port(0x15), 0);
    assert_int_equal(l.n, 3);
    gx_destroy(gx);
}

/* A port write between the parameters of a packed command is executed between them
 * (melonDS: entries share the FIFO; the packed command keeps collecting afterwards). */
static void test_port_during_packed(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, FIFO, 0x1C); /* TRANS */
    gx_write32(gx, FIFO, 1);
    gx_write32(gx, port(0x20), 0x7FFF); /* COLOR via its port */
    assert_int_equal(l.n, 1);
    assert_int_equal(l.op[0], 0x20);
    gx_write32(gx, FIFO, 2);
    gx_write32(gx, FIFO, 3);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.op[1], 0x1C);
    assert_int_equal(l.p0[1], 1);
    assert_int_equal(l.p1[1], 2);
    assert_int_equal(l.p2[1], 3);
    gx_destroy(gx);
}

/* After SWAP_BUFFERS, commands wait for VBlank; GXSTAT shows them (4 in the PIPE, the rest in
 * the FIFO) and the engine busy. */
static void test_held_until_vblank(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    uint32_t st = gx_read32(gx, GXSTAT);
    assert_int_equal(st & (1u << 27), 0);        /* not busy */
    assert_int_equal(st & (1u << 26), 1u << 26); /* FIFO empty */
    assert_int_equal(st & (1u << 25), 1u << 25); /* less than half full */
    assert_int_equal((st >> 16) & 0x1FF, 0);     /* level 0 */
    gx_write32(gx, port(0x50), 0);
    assert_true(gx_swap_pending(gx));
    assert_int_equal(gx_read32(gx, GXSTAT) & (1u << 27), 1u << 27); /* busy until VBlank */
    gx_write32(gx, port(0x10), 1);
    for (unsigned i = 0; i < 5; i++) gx_write32(gx, port(0x11), 0); /* 5 x PUSH */
    assert_int_equal(l.n, 1);                                       /* only the swap ran */
    st = gx_read32(gx, GXSTAT);
    assert_int_equal((st >> 16) & 0x1FF, 2); /* 6 held: 4 in the PIPE, 2 in the FIFO */
    assert_int_equal(st & (1u << 26), 0);
    assert_int_equal(st & (1u << 14), 1u << 14); /* matrix stack busy: PUSHes pending */
    assert_int_equal((st >> 8) & 0x1F, 0);       /* they have not run */
    assert_true(gx_vblank(gx));
    assert_false(gx_swap_pending(gx));
    assert_int_equal(l.n, 7);
    st = gx_read32(gx, GXSTAT);
    assert_int_equal((st >> 8) & 0x1F, 5); /* position stack pointer 5 */
    assert_int_equal(st & ((1u << 27) | (1u << 14)), 0);
    assert_int_equal(st & (1u << 26), 1u << 26);
    gx_frame_stats fs;
    gx_current_frame_stats(gx, &fs);
    assert_int_equal(fs.commands, 6); /* the held commands belong to the new frame */
    assert_int_equal(fs.cycles, 1 + 5 * 17);
    gx_destroy(gx);
}

/* A second swap among the held commands holds the rest until the next VBlank. */
static void test_two_swaps_held(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, port(0x50), 0);
    gx_write32(gx, port(0x15), 0);
    gx_write32(gx, port(0x50), 1);
    gx_write32(gx, port(0x15), 0);
    assert_int_equal(l.n, 1);
    assert_true(gx_vblank(gx));
    assert_int_equal(l.n, 3);
    assert_true(gx_swap_pending(gx));
    assert_true(gx_vblank(gx));
    assert_int_equal(l.n, 4);
    assert_int_equal(gx_render_frame(gx)->regs.swap_param, 1);
    gx_destroy(gx);
}

/* Test-busy (bit 0) while a BOX_TEST is being collected; IRQ mode bits read back. */
static void test_gxstat_misc(void **state)
{
    (void)state;
    log_ l;
    gx_engine *gx = make(&l);
    gx_write32(gx, port(0x70), 0);
    assert_int_equal(gx_read32(gx, GXSTAT) & 1u, 1u);
    gx_write32(gx, GXSTAT, 2u << 30);
    assert_int_equal(gx_read32(gx, GXSTAT) >> 30, 2);
    gx_write8(gx, GXSTAT + 3, 0x40);
    assert_int_equal(gx_read32(gx, GXSTAT) >> 30, 1);
    assert_int_equal(gx_read8(gx, GXSTAT + 3) & 0xC0, 0x40);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_every_slot),  cmocka_unit_test(test_packed_multi_param),
        cmocka_unit_test(test_packed_zero_param),  cmocka_unit_test(test_all_zero_word),
        cmocka_unit_test(test_unknown_opcode),     cmocka_unit_test(test_ports),
        cmocka_unit_test(test_port_during_packed), cmocka_unit_test(test_held_until_vblank),
        cmocka_unit_test(test_two_swaps_held),     cmocka_unit_test(test_gxstat_misc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
