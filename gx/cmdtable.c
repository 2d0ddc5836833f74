/*
 * cmdtable.c - the geometry command table: opcode -> name, parameter count, issue wait class,
 * work cost and handler (STYLE.md 5).
 *
 * Hardware notes. Parameter counts: GBATEK "DS 3D Geometry Commands" (identical to melonDS
 * GPU3D.cpp CmdNumParams). Costs: melonDS's model (MODEL.md section 3 "Work costs"; the work
 * column is what is added on top of the issue entry and the 1-cycle parameter entries), which
 * our frames' cycle figures must match; the GBATEK figure is given beside each for reference.
 * Opcodes not in the table are "unknown": melonDS (CmdNumParams 0, ExecuteCommand default
 * case) queues them as zero-parameter entries that cost one cycle (plus the normal tail) and
 * do nothing; see README.md.
 */
#include "gx/gx_internal.h"

#define ROW(op, nm, np, w, kind, work, wtex, wm2, fn) [op] = {nm, np, w, kind, work, wtex, wm2, fn}

/* Columns: opcode, name, params, wait class, cost kind, work, work in texture mode, extra in
 * mode 2, handler. Sources (melonDS total = 1 issue + (params - 1) + work):
 *   MTX_*: MODEL.md 3 table / melonDS ExecuteCommand; GBATEK total in the comment. */
const gx_cmd_info gx_cmd_table[256] = {
    /* 00 NOP: 1 (GBATEK: "N/A") */
    ROW(0x00, "NOP", 0, GX_WAIT_4, GX_COST_FIXED, 0, 0, 0, gx_cmd_nop),
    /* 10 MTX_MODE: 1 (GBATEK 1) */
    ROW(0x10, "MTX_MODE", 1, GX_WAIT_4, GX_COST_FIXED, 0, 0, 0, gx_cmd_mtx_mode),
    /* 11 MTX_PUSH: 1+16 = 17 in every mode (GBATEK 17) */
    ROW(0x11, "MTX_PUSH", 0, GX_WAIT_4, GX_COST_MTX, 16, 16, 0, gx_cmd_mtx_push),
    /* 12 MTX_POP: 1+35 = 36, texture 1+17 = 18 (GBATEK 36) */
    ROW(0x12, "MTX_POP", 1, GX_WAIT_4, GX_COST_MTX, 35, 17, 0, gx_cmd_mtx_pop),
    /* 13 MTX_STORE: 1+16 = 17 (GBATEK 17) */
    ROW(0x13, "MTX_STORE", 1, GX_WAIT_4, GX_COST_MTX, 16, 16, 0, gx_cmd_mtx_store),
    /* 14 MTX_RESTORE: 1+35 = 36, texture 18 (GBATEK 36) */
    ROW(0x14, "MTX_RESTORE", 1, GX_WAIT_4, GX_COST_MTX, 35, 17, 0, gx_cmd_mtx_restore),
    /* 15 MTX_IDENTITY: 1+18 = 19, texture 1 (GBATEK 19) */
    ROW(0x15, "MTX_IDENTITY", 0, GX_WAIT_4, GX_COST_MTX, 18, 0, 0, gx_cmd_mtx_identity),
    /* 16 MTX_LOAD_4x4: 16 entries +18 = 34, texture +10 = 26 (GBATEK 34) */
    ROW(0x16, "MTX_LOAD_4x4", 16, GX_WAIT_4, GX_COST_MTX, 18, 10, 0, gx_cmd_mtx_load_4x4),
    /* 17 MTX_LOAD_4x3: 12 +18 = 30, texture +7 = 19 (GBATEK 30) */
    ROW(0x17, "MTX_LOAD_4x3", 12, GX_WAIT_4, GX_COST_MTX, 18, 7, 0, gx_cmd_mtx_load_4x3),
    /* 18 MTX_MULT_4x4: 16 +19 = 35, mode 2 65, texture 33 (GBATEK 35, +30 mode 2) */
    ROW(0x18, "MTX_MULT_4x4", 16, GX_WAIT_4, GX_COST_MTX, 19, 17, 30, gx_cmd_mtx_mult_4x4),
    /* 19 MTX_MULT_4x3: 12 +23 = 35, mode 2 65, texture 33 (GBATEK 31, +30) */
    ROW(0x19, "MTX_MULT_4x3", 12, GX_WAIT_4, GX_COST_MTX, 23, 21, 30, gx_cmd_mtx_mult_4x3),
    /* 1A MTX_MULT_3x3: 9 +26 = 35, mode 2 65, texture 33 (GBATEK 28, +30) */
    ROW(0x1A, "MTX_MULT_3x3", 9, GX_WAIT_4, GX_COST_MTX, 26, 24, 30, gx_cmd_mtx_mult_3x3),
    /* 1B MTX_SCALE: 3 +32 = 35 (no mode-2 extra), texture 33 (GBATEK 22) */
    ROW(0x1B, "MTX_SCALE", 3, GX_WAIT_4, GX_COST_MTX, 32, 30, 0, gx_cmd_mtx_scale),
    /* 1C MTX_TRANS: 3 +32 = 35, mode 2 65, texture 33 (GBATEK 22, +30) */
    ROW(0x1C, "MTX_TRANS", 3, GX_WAIT_4, GX_COST_MTX, 32, 30, 30, gx_cmd_mtx_trans),
    /* 20 COLOR: 1, 6-cycle class (GBATEK 1) */
    ROW(0x20, "COLOR", 1, GX_WAIT_6, GX_COST_FIXED, 0, 0, 0, gx_cmd_color),
    /* 21 NORMAL: 1 + max(1, lights), normal tail 7 (GBATEK 9..12) */
    ROW(0x21, "NORMAL", 1, GX_WAIT_4, GX_COST_NORMAL, 0, 0, 0, gx_cmd_normal),
    /* 22 TEXCOORD: 1 (GBATEK 1) */
    ROW(0x22, "TEXCOORD", 1, GX_WAIT_4, GX_COST_FIXED, 0, 0, 0, gx_cmd_texcoord),
    /* 23 VTX_16: 1 + 1 + 3 = 5, vertex tail 7 (GBATEK 9) */
    ROW(0x23, "VTX_16", 2, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx16),
    /* 24..28: 1 + 3 = 4, vertex tail 7 (GBATEK 8) */
    ROW(0x24, "VTX_10", 1, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx10),
    ROW(0x25, "VTX_XY", 1, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx_xy),
    ROW(0x26, "VTX_XZ", 1, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx_xz),
    ROW(0x27, "VTX_YZ", 1, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx_yz),
    ROW(0x28, "VTX_DIFF", 1, GX_WAIT_VERTEX, GX_COST_VERTEX, 0, 0, 0, gx_cmd_vtx_diff),
    /* 29..2B: 1, 8-cycle class (GBATEK 1) */
    ROW(0x29, "POLYGON_ATTR", 1, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_polygon_attr),
    ROW(0x2A, "TEXIMAGE_PARAM", 1, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_teximage_param),
    ROW(0x2B, "PLTT_BASE", 1, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_pltt_base),
    /* 30, 31: 1 + 3 = 4, 6-cycle class (GBATEK 4) */
    ROW(0x30, "DIF_AMB", 1, GX_WAIT_6, GX_COST_FIXED, 3, 0, 0, gx_cmd_dif_amb),
    ROW(0x31, "SPE_EMI", 1, GX_WAIT_6, GX_COST_FIXED, 3, 0, 0, gx_cmd_spe_emi),
    /* 32 LIGHT_VECTOR: 1 + 5 = 6 after a polygon-pipeline stall (+9) (GBATEK 6) */
    ROW(0x32, "LIGHT_VECTOR", 1, GX_WAIT_LIGHTVEC, GX_COST_FIXED, 5, 0, 0, gx_cmd_light_vector),
    /* 33 LIGHT_COLOR: 1 + 1 = 2, 8-cycle class (GBATEK 1) */
    ROW(0x33, "LIGHT_COLOR", 1, GX_WAIT_8, GX_COST_FIXED, 1, 0, 0, gx_cmd_light_color),
    /* 34 SHININESS: 32 entries = 32, 8-cycle class (GBATEK 32) */
    ROW(0x34, "SHININESS", 32, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_shininess),
    /* 40 BEGIN_VTXS: 1 after the polygon-pipeline stall (+1) (GBATEK 1) */
    ROW(0x40, "BEGIN_VTXS", 1, GX_WAIT_BEGIN, GX_COST_FIXED, 0, 0, 0, gx_cmd_begin_vtxs),
    /* 41 END_VTXS: 1, 8-cycle class (GBATEK 1) */
    ROW(0x41, "END_VTXS", 0, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_end_vtxs),
    /* 50 SWAP_BUFFERS: 325 (GBATEK 392, after VBlank) */
    ROW(0x50, "SWAP_BUFFERS", 1, GX_WAIT_4, GX_COST_SWAP, 0, 0, 0, gx_cmd_swap_buffers),
    /* 60 VIEWPORT: 1, 8-cycle class (GBATEK 1) */
    ROW(0x60, "VIEWPORT", 1, GX_WAIT_8, GX_COST_FIXED, 0, 0, 0, gx_cmd_viewport),
    /* 70 BOX_TEST: 3 entries + 254 = 257 after the stall (+11) (GBATEK 103) */
    ROW(0x70, "BOX_TEST", 3, GX_WAIT_BOX, GX_COST_FIXED, 254, 0, 0, gx_cmd_box_test),
    /* 71 POS_TEST: 2 entries + 5 = 7, 8-cycle class (GBATEK 9) */
    ROW(0x71, "POS_TEST", 2, GX_WAIT_8, GX_COST_FIXED, 5, 0, 0, gx_cmd_pos_test),
    /* 72 VEC_TEST: 1 + 4 = 5, 6-cycle class (GBATEK 5) */
    ROW(0x72, "VEC_TEST", 1, GX_WAIT_6, GX_COST_FIXED, 4, 0, 0, gx_cmd_vec_test),
};

const char *gx_opcode_name(uint8_t opcode)
{
    const gx_cmd_info *info = gx_cmd_lookup(opcode);
    return info ? info->name : NULL;
}

unsigned gx_opcode_params(uint8_t opcode)
{
    const gx_cmd_info *info = gx_cmd_lookup(opcode);
    return info ? info->nparams : 0;
}
