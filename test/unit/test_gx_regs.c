/*
 * test_gx_regs.c - 3D registers on the bus, their latching at VBlank after SWAP_BUFFERS,
 * DISP3DCNT status bits, RDLINES_COUNT, RAM_COUNT, result registers, VRAMCNT/LCDC routing and
 * POWCNT1 gating. Expected values from GBATEK "DS 3D I/O Map" and melonDS GPU3D.cpp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

#define DISP3DCNT 0x04000060u
#define POWCNT1   0x04000304u
#define SWAP      0x04000540u

static void test_reset_values(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    /* melonDS Reset: clear colour 3F000000h (ID 63), clear depth 7FFFh; RDLINES 46 */
    assert_int_equal(gx->regs.clear_color, 0x3F000000);
    assert_int_equal(gx->regs.clear_depth, 0x7FFF);
    assert_int_equal(gx_read32(gx, 0x04000320), 46);
    assert_int_equal(gx_read16(gx, POWCNT1), 0x820F);
    assert_int_equal(gx_read32(gx, 0x04000604), 0);
    gx_destroy(gx);
}

static void test_disp3dcnt_status(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_write32(gx, DISP3DCNT, 0xFFFF);
    /* bits 12, 13 and 15 are not written */
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x4FFF);
    gx_report_render(gx, 30, true);
    assert_int_equal(gx_read32(gx, 0x04000320), 30);
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x5FFF);
    gx->disp3dcnt_status |= 1u << 13; /* what a RAM overflow sets */
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x7FFF);
    /* writing 0 to the status bits keeps them */
    gx_write16(gx, DISP3DCNT, 0x0001);
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x3001);
    /* writing 1 acknowledges: bit 13 only */
    gx_write16(gx, DISP3DCNT, 0x2001);
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x1001);
    /* an 8-bit write to the high byte: bit 12 acknowledged, bit 14 set, low byte kept */
    gx_write8(gx, DISP3DCNT + 1, 0x50);
    assert_int_equal(gx_read16(gx, DISP3DCNT), 0x4001);
    gx_destroy(gx);
}

static void test_register_widths(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_render_regs *r = &gx->regs;
    gx_write32(gx, 0x04000330, 0x22221111); /* EDGE_COLOR 0, 1 */
    gx_write16(gx, 0x0400033E, 0x7777);     /* EDGE_COLOR 7 */
    gx_write8(gx, 0x04000333, 0xAB);        /* high byte of EDGE_COLOR 1 */
    assert_int_equal(r->edge_color[0], 0x1111);
    assert_int_equal(r->edge_color[1], 0xAB22);
    assert_int_equal(r->edge_color[7], 0x7777);
    gx_write32(gx, 0x04000340, 0xFFFFFFFF); /* ALPHA_TEST_REF: 5 bits */
    assert_int_equal(r->alpha_ref, 0x1F);
    gx_write32(gx, 0x04000350, 0x3F1F7FFF);
    assert_int_equal(r->clear_color, 0x3F1F7FFF);
    gx_write16(gx, 0x04000352, 0x0102);
    assert_int_equal(r->clear_color, 0x01027FFF);
    gx_write32(gx, 0x04000354, 0x1234FFFF); /* CLEAR_DEPTH (15 bits) + CLEAR_IMAGE_OFFSET */
    assert_int_equal(r->clear_depth, 0x7FFF);
    assert_int_equal(r->clear_offset, 0x1234);
    gx_write16(gx, 0x04000356, 0x4321);
    assert_int_equal(r->clear_offset, 0x4321);
    assert_int_equal(r->clear_depth, 0x7FFF);
    gx_write32(gx, 0x04000358, 0x001F7C00); /* FOG_COLOR */
    assert_int_equal(r->fog_color, 0x001F7C00);
    gx_write32(gx, 0x0400035C, 0xFFFFFFFF); /* FOG_OFFSET: 15 bits */
    assert_int_equal(r->fog_offset, 0x7FFF);
    gx_write32(gx, 0x04000360, 0xFFFEFD7C); /* FOG_TABLE: 7 bits per byte */
    assert_int_equal(r->fog_table[0], 0x7C);
    assert_int_equal(r->fog_table[1], 0x7D);
    assert_int_equal(r->fog_table[2], 0x7E);
    assert_int_equal(r->fog_table[3], 0x7F);
    gx_write16(gx, 0x0400037E, 0x4180);
    assert_int_equal(r->fog_table[30], 0x00);
    assert_int_equal(r->fog_table[31], 0x41);
    gx_write8(gx, 0x04000365, 0x12);
    assert_int_equal(r->fog_table[5], 0x12);
    gx_write32(gx, 0x040003BC, 0x7FFF001F); /* TOON_TABLE 30, 31 */
    assert_int_equal(r->toon_table[30], 0x001F);
    assert_int_equal(r->toon_table[31], 0x7FFF);
    gx_write16(gx, 0x04000380, 0x03E0);
    assert_int_equal(r->toon_table[0], 0x03E0);
    /* write-only registers read 0 */
    assert_int_equal(gx_read32(gx, 0x04000350), 0);
    gx_destroy(gx);
}

/* The rendering registers and the polygon list reach the rendering engine at VBlank after a
 * swap; writes after that VBlank belong to the next frame. */
static void test_latch_at_vblank(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_write32(gx, 0x04000350, 0x001F0011);
    gx_write32(gx, DISP3DCNT, 0x0008);
    gx_write32(gx, 0x04000380, 0x0000001F);
    gx_write32(gx, SWAP, 1); /* manual sort */
    assert_true(gx_swap_pending(gx));
    /* nothing latched before VBlank */
    assert_int_equal(gx_render_frame(gx)->regs.clear_color, 0x3F000000);
    assert_true(gx_vblank(gx));
    const gx_frame *f = gx_render_frame(gx);
    assert_int_equal(f->regs.clear_color, 0x001F0011);
    assert_int_equal(f->regs.disp3dcnt, 0x0008);
    assert_int_equal(f->regs.toon_table[0], 0x001F);
    assert_int_equal(f->regs.swap_param, 1);
    assert_non_null(f->tex_vram);
    assert_non_null(f->pal_vram);

    /* after the VBlank: the latched frame keeps its values */
    gx_write32(gx, 0x04000350, 0x001F0022);
    assert_int_equal(gx_render_frame(gx)->regs.clear_color, 0x001F0011);
    gx_write32(gx, SWAP, 2);
    assert_true(gx_vblank(gx));
    f = gx_render_frame(gx);
    assert_int_equal(f->regs.clear_color, 0x001F0022);
    assert_int_equal(f->regs.swap_param, 2);
    /* the swap parameter uses bits 0-1 */
    gx_write32(gx, SWAP, 0xFFFFFFFF);
    assert_true(gx_vblank(gx));
    assert_int_equal(gx_render_frame(gx)->regs.swap_param, 3);
    /* VBlank without a swap: no new frame (melonDS still refreshes the registers) */
    assert_false(gx_vblank(gx));
    gx_destroy(gx);
}

/* RAM_COUNT reports the RAM being built; frame stats report it at the swap. */
static void test_ram_count(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx->build->npolys = 0x123;
    gx->build->nverts = 0x1456;
    assert_int_equal(gx_read32(gx, 0x04000604), 0x14560123);
    assert_int_equal(gx_read16(gx, 0x04000606), 0x1456);
    gx_frame_stats st;
    gx_current_frame_stats(gx, &st);
    assert_int_equal(st.polygons, 0x123);
    gx_write32(gx, SWAP, 0);
    assert_true(gx_vblank(gx));
    gx_last_frame_stats(gx, &st);
    assert_int_equal(st.polygons, 0x123);
    assert_int_equal(st.vertices, 0x1456);
    assert_int_equal(st.commands, 1);
    assert_int_equal(st.cycles, 325);
    assert_int_equal(gx_render_frame(gx)->npolys, 0x123);
    assert_int_equal(gx_read32(gx, 0x04000604), 0); /* the new build RAM is empty */
    gx_destroy(gx);
}

static void test_result_registers(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx->geom.pos_result[0] = -1;
    gx->geom.pos_result[3] = 0x12345;
    gx->geom.vec_result[0] = -2;
    gx->geom.vec_result[1] = 0x0FFF;
    gx->geom.vec_result[2] = 0x1000;
    assert_int_equal(gx_read32(gx, 0x04000620), 0xFFFFFFFF);
    assert_int_equal(gx_read32(gx, 0x0400062C), 0x12345);
    assert_int_equal(gx_read16(gx, 0x04000630), 0xFFFE);
    assert_int_equal(gx_read16(gx, 0x04000632), 0x0FFF);
    assert_int_equal(gx_read16(gx, 0x04000634), 0x1000);
    assert_int_equal(gx_read32(gx, 0x04000630), 0x0FFFFFFE);
    gx->geom.box_result = true;
    assert_int_equal(gx_read32(gx, 0x04000600) & 2u, 2u);
    gx_destroy(gx);
}

static void test_vram_routing(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_write8(gx, 0x04000240, 0x80); /* VRAMCNT_A: enabled, LCDC */
    gx_write32(gx, 0x06800000, 0x11223344);
    assert_int_equal(gx_read32(gx, 0x06800000), 0x11223344);
    assert_int_equal(gx_read8(gx, 0x06800001), 0x33);
    gx_write16(gx, 0x06800002, 0xBEEF);
    assert_int_equal(gx_read32(gx, 0x06800000), 0xBEEF3344);
    assert_int_equal(gx_read8(gx, 0x04000240), 0x80);
    /* a 32-bit VRAMCNT write sets A-D; H and I live at 48h, 49h (47h is WRAMCNT) */
    gx_write32(gx, 0x04000240, 0x83838383);
    assert_int_equal(gx->vram.cnt[VRAM_D], 0x83);
    gx_write16(gx, 0x04000248, 0x8180);
    assert_int_equal(gx->vram.cnt[VRAM_H], 0x80);
    assert_int_equal(gx->vram.cnt[VRAM_I], 0x81);
    /* A is now a texture slot: the LCDC window no longer reaches it */
    assert_int_equal(gx_read32(gx, 0x06800000), 0);
    gx_destroy(gx);
}

/* POWCNT1 bit 2 gates 0320..03FF, bit 3 gates 0400..06FF (melonDS). */
static void test_powcnt1(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_write16(gx, POWCNT1, 0x0003); /* no 3D */
    gx_write32(gx, 0x04000350, 0x12345678);
    assert_int_equal(gx->regs.clear_color, 0x3F000000);
    gx_write32(gx, SWAP, 0);
    assert_false(gx_swap_pending(gx));
    gx_write16(gx, POWCNT1, 0x000B); /* geometry only */
    gx_write32(gx, 0x04000350, 0x12345678);
    assert_int_equal(gx->regs.clear_color, 0x3F000000);
    gx_write32(gx, SWAP, 0);
    assert_true(gx_swap_pending(gx));
    gx_write16(gx, POWCNT1, 0x000F);
    gx_write32(gx, 0x04000350, 0x12345678);
    assert_int_equal(gx->regs.clear_color, 0x12345678);
    gx_destroy(gx);
}

static void test_1dot_depth(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_write16(gx, 0x04000610, 0xFFFF);
    assert_int_equal(gx->disp_1dot_depth, 0x7FFF);
    gx_write8(gx, 0x04000610, 0x34);
    assert_int_equal(gx->disp_1dot_depth, 0x7F34);
    gx_destroy(gx);
}

/* 040003C0..040003FF (after TOON_TABLE) are unused: writes change no register (they once
 * reached past the toon table; found by fuzz_cycle_api). */
static void test_unused_after_toon_table(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    gx_render_regs before = gx->regs;
    for (uint32_t a = 0x040003C0; a < 0x04000400; a += 4) gx_write32(gx, a, 0xFFFFFFFFu);
    for (uint32_t a = 0x040003C0; a < 0x04000400; a += 2) gx_write16(gx, a, 0xFFFF);
    assert_memory_equal(&gx->regs, &before, sizeof before);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_values),    cmocka_unit_test(test_disp3dcnt_status),
        cmocka_unit_test(test_register_widths), cmocka_unit_test(test_latch_at_vblank),
        cmocka_unit_test(test_ram_count),       cmocka_unit_test(test_result_registers),
        cmocka_unit_test(test_vram_routing),    cmocka_unit_test(test_powcnt1),
        cmocka_unit_test(test_1dot_depth),      cmocka_unit_test(test_unused_after_toon_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
