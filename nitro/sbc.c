/*
 * sbc.c - decodes a model's render commands (NitroSystem "SBC" bytecode) into a list of
 * operations with their operands and offsets; the runtime executes the list (STYLE.md:
 * decode first, execute second).
 *
 * Operand layouts (HaroohiePals/MarioKartToolbox G3d/Sbc.cs command lengths; GBATEK BMD0
 * "RenderCommandList"; NOTES.md): low 5 bits = operation, bits 5-7 = flags.
 *   00 NOP (1 byte)            01 RET (1)                 02 NODE node, visible (3)
 *   03 MTX slot (2)            04 MAT material (2)        05 SHP mesh (2)
 *   06 NODEDESC node, parent, flags [, store if 0x20] [, restore if 0x40] (4..6): with both,
 *      store is byte 4 and restore byte 5; with 0x40 alone restore is byte 4.
 *   07 BB / 08 BBY node [, store] [, restore] (2..4): store byte 2; restore byte 2 (0x40) or 3
 *      (0x60).
 *   09 NODEMIX dest, n, n x (slot, node, weight) (3 + 3n)
 *   0A CALLDL u32 offset (from the opcode), u32 size (9)
 *   0B POSSCALE (1; 0x2B = inverse scale)    0C ENVMAP / 0D PRJMAP material, flags (3)
 * Checks: every node/material/mesh/envelope index is below the model's count, matrix stack
 * slots are below 32, NODEMIX has at least one term, CALLDL's range is inside the file, the
 * list ends with RET inside its region. Opcodes 0E-1F are errors (no known use).
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/nitro_internal.h"

#define SBC_STACK_SLOTS 32u

static int16_t slot_or_none(nitro_cursor *c, bool present)
{
    if (!present) return -1;
    size_t at = c->pos;
    unsigned v = nitro_cur_u8(c);
    if (nitro_cur_ok(c) && v >= SBC_STACK_SLOTS)
        nitro_cur_fail(c, at, "matrix stack slot %u >= 32", v);
    return (int16_t)v;
}

static uint8_t index_below(nitro_cursor *c, unsigned limit, const char *what)
{
    size_t at = c->pos;
    unsigned v = nitro_cur_u8(c);
    if (nitro_cur_ok(c) && v >= limit) nitro_cur_fail(c, at, "%s index %u >= %u", what, v, limit);
    return (uint8_t)v;
}

static bool push_mix_term(nitro_cursor *c, nitro_model *m, size_t *cap, nitro_sbc_mix_term t)
{
    if (m->num_mix_terms == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        nitro_sbc_mix_term *p = realloc(m->mix_terms, ncap * sizeof *p);
        if (!p) return nitro_cur_fail(c, c->pos, "out of memory");
        m->mix_terms = p;
        *cap = ncap;
    }
    m->mix_terms[m->num_mix_terms++] = t;
    return true;
}

static void decode_nodemix(nitro_cursor *c, nitro_model *m, nitro_sbc_cmd *cmd, size_t *mix_cap)
{
    cmd->u.nodemix.dest = (uint8_t)slot_or_none(c, true);
    size_t n_at = c->pos;
    cmd->u.nodemix.count = nitro_cur_u8(c);
    cmd->u.nodemix.first = m->num_mix_terms;
    if (nitro_cur_ok(c) && cmd->u.nodemix.count == 0)
        nitro_cur_fail(c, n_at, "NODEMIX with 0 terms");
    for (unsigned i = 0; i < cmd->u.nodemix.count && nitro_cur_ok(c); i++) {
        nitro_sbc_mix_term t;
        t.slot = (uint8_t)slot_or_none(c, true);
        t.node = index_below(c, m->num_envelopes, "envelope");
        t.weight = nitro_cur_u8(c);
        if (nitro_cur_ok(c)) push_mix_term(c, m, mix_cap, t);
    }
}

static void decode_calldl(nitro_cursor *c, nitro_sbc_cmd *cmd)
{
    size_t at = c->pos;
    uint32_t rel = nitro_cur_u32(c);
    uint32_t size = nitro_cur_u32(c);
    if (!nitro_cur_ok(c)) return;
    uint64_t start = (uint64_t)cmd->offset + rel;
    if (start > c->size || size > c->size - start) {
        nitro_cur_fail(c, at, "display list 0x%llx+0x%x outside the file",
                       (unsigned long long)start, size);
        return;
    }
    cmd->u.calldl.rel_offset = rel;
    cmd->u.calldl.dl.offset = (uint32_t)start;
    cmd->u.calldl.dl.size = size;
}

/* Decode the operands of one command; the opcode byte has been read. */
static void decode_one(nitro_cursor *c, nitro_model *m, nitro_sbc_cmd *cmd, size_t *mix_cap)
{
    bool store = (cmd->opcode & NITRO_SBC_FLAG_STORE) != 0;
    bool restore = (cmd->opcode & NITRO_SBC_FLAG_RESTORE) != 0;
    switch (cmd->op) {
    case NITRO_SBC_NOP:
    case NITRO_SBC_RET: break;
    case NITRO_SBC_NODE:
        cmd->u.node.node = index_below(c, m->num_nodes, "node");
        cmd->u.node.flags = nitro_cur_u8(c);
        break;
    case NITRO_SBC_MTX: cmd->u.mtx.slot = (uint8_t)slot_or_none(c, true); break;
    case NITRO_SBC_MAT: cmd->u.mat.material = index_below(c, m->num_materials, "material"); break;
    case NITRO_SBC_SHP: cmd->u.shp.mesh = index_below(c, m->num_meshes, "mesh"); break;
    case NITRO_SBC_NODEDESC:
        cmd->u.nodedesc.node = index_below(c, m->num_nodes, "node");
        cmd->u.nodedesc.parent = nitro_cur_u8(c);
        cmd->u.nodedesc.flags = nitro_cur_u8(c);
        cmd->u.nodedesc.store = slot_or_none(c, store);
        cmd->u.nodedesc.restore = slot_or_none(c, restore);
        break;
    case NITRO_SBC_BB:
    case NITRO_SBC_BBY:
        cmd->u.bb.node = index_below(c, m->num_nodes, "node");
        cmd->u.bb.store = slot_or_none(c, store);
        cmd->u.bb.restore = slot_or_none(c, restore);
        break;
    case NITRO_SBC_NODEMIX: decode_nodemix(c, m, cmd, mix_cap); break;
    case NITRO_SBC_CALLDL: decode_calldl(c, cmd); break;
    case NITRO_SBC_POSSCALE: cmd->u.posscale.inverse = store; break;
    case NITRO_SBC_ENVMAP:
    case NITRO_SBC_PRJMAP:
        cmd->u.map.material = index_below(c, m->num_materials, "material");
        cmd->u.map.flags = nitro_cur_u8(c);
        break;
    default: nitro_cur_fail(c, cmd->offset, "unknown render command 0x%02X", cmd->opcode);
    }
}

bool nitro_sbc_decode(nitro_cursor *c, nitro_model *m)
{
    size_t cap = 0, mix_cap = 0;
    size_t start = c->lo;
    c->what = "render commands";
    for (;;) {
        if (c->pos >= c->hi)
            return nitro_cur_fail(c, c->pos, "no RET before the end of the command list");
        if (m->num_cmds == cap) {
            /* Each command takes at least one byte: the list never exceeds the region. */
            size_t ncap = cap ? cap * 2 : 32;
            nitro_sbc_cmd *p = realloc(m->cmds, ncap * sizeof *p);
            if (!p) return nitro_cur_fail(c, c->pos, "out of memory");
            m->cmds = p;
            cap = ncap;
        }
        nitro_sbc_cmd *cmd = &m->cmds[m->num_cmds];
        memset(cmd, 0, sizeof *cmd);
        cmd->offset = (uint32_t)c->pos;
        cmd->opcode = nitro_cur_u8(c);
        cmd->op = cmd->opcode & 0x1Fu;
        decode_one(c, m, cmd, &mix_cap);
        if (!nitro_cur_ok(c)) return false;
        cmd->size = (uint16_t)(c->pos - cmd->offset);
        m->num_cmds++;
        if (cmd->op == NITRO_SBC_RET) break;
    }
    m->sbc.offset = (uint32_t)start;
    m->sbc.size = (uint32_t)(c->pos - start);
    return true;
}
