/*
 * writer_cmds.c - byte buffer, packed GX display-list builder and render-command emitters used
 * by the fixture writer (writer.c).
 *
 * Packed GXFIFO format (GBATEK "DS 3D Geometry Commands", "Packed commands"): a word holding up
 * to four opcodes (first in bits 0-7), followed by the parameters of each in order; unused
 * opcode slots are 0 (NOP). Parameter counts: GBATEK's command table (10h-72h).
 * Render-command layouts: see sbc.c (MarioKartToolbox Sbc.cs).
 */
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "nitro/writer.h"

void nitro_buf_free(nitro_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static bool buf_reserve(nitro_buf *b, size_t n)
{
    if (b->oom) return false;
    if (n <= b->cap - b->size) return true;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap - b->size < n) {
        if (ncap > ((size_t)1 << 30)) {
            b->oom = true;
            return false;
        }
        ncap *= 2;
    }
    uint8_t *p = realloc(b->data, ncap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = ncap;
    return true;
}

void nitro_buf_bytes(nitro_buf *b, const void *p, size_t n)
{
    if (!n || !buf_reserve(b, n)) return;
    if (p)
        memcpy(b->data + b->size, p, n);
    else
        memset(b->data + b->size, 0, n);
    b->size += n;
}

void nitro_buf_u8(nitro_buf *b, uint8_t v)
{
    nitro_buf_bytes(b, &v, 1);
}

void nitro_buf_u16(nitro_buf *b, uint16_t v)
{
    uint8_t p[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    nitro_buf_bytes(b, p, 2);
}

void nitro_buf_u32(nitro_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    nitro_buf_bytes(b, p, 4);
}

void nitro_buf_align(nitro_buf *b, size_t a)
{
    while (!b->oom && b->size % a) nitro_buf_u8(b, 0);
}

void nitro_buf_put16(nitro_buf *b, size_t at, uint16_t v)
{
    if (b->oom || at + 2 > b->size) return;
    b->data[at] = (uint8_t)v;
    b->data[at + 1] = (uint8_t)(v >> 8);
}

void nitro_buf_put32(nitro_buf *b, size_t at, uint32_t v)
{
    if (b->oom || at + 4 > b->size) return;
    for (int i = 0; i < 4; i++) b->data[at + i] = (uint8_t)(v >> (8 * i));
}

/* ---- GX display lists ---- */

int nitro_gx_param_count(uint8_t op)
{
    /* the geometry engine's command table is the one source of parameter counts */
    return gx_opcode_name(op) ? (int)gx_opcode_params(op) : -1;
}

static void dl_flush(nitro_dl *dl)
{
    if (!dl->nops) return;
    uint32_t head = 0;
    for (unsigned i = 0; i < dl->nops; i++) head |= (uint32_t)dl->ops[i] << (8 * i);
    nitro_buf_u32(&dl->buf, head);
    for (unsigned i = 0; i < dl->nops; i++)
        for (unsigned k = 0; k < dl->nparams[i]; k++) nitro_buf_u32(&dl->buf, dl->params[i][k]);
    dl->nops = 0;
}

void nitro_dl_cmd(nitro_dl *dl, uint8_t op, const uint32_t *params, unsigned n)
{
    if (n > 32) n = 32;
    dl->ops[dl->nops] = op;
    dl->nparams[dl->nops] = n;
    for (unsigned i = 0; i < n; i++) dl->params[dl->nops][i] = params[i];
    if (++dl->nops == 4) dl_flush(dl);
}

void nitro_dl_finish(nitro_dl *dl)
{
    dl_flush(dl);
}

static void dl1(nitro_dl *dl, uint8_t op, uint32_t p)
{
    nitro_dl_cmd(dl, op, &p, 1);
}

void nitro_dl_begin(nitro_dl *dl, unsigned prim)
{
    dl1(dl, 0x40, prim & 3u);
}
void nitro_dl_end(nitro_dl *dl)
{
    nitro_dl_cmd(dl, 0x41, NULL, 0);
}

void nitro_dl_vtx16(nitro_dl *dl, vtx16 x, vtx16 y, vtx16 z)
{
    uint32_t p[2] = {(uint16_t)x | ((uint32_t)(uint16_t)y << 16), (uint16_t)z};
    nitro_dl_cmd(dl, 0x23, p, 2);
}

void nitro_dl_vtx10(nitro_dl *dl, vtx10 x, vtx10 y, vtx10 z)
{
    dl1(dl, 0x24,
        ((uint32_t)x & 0x3FFu) | (((uint32_t)y & 0x3FFu) << 10) | (((uint32_t)z & 0x3FFu) << 20));
}

static uint32_t pack16x2(int16_t a, int16_t b)
{
    return (uint16_t)a | ((uint32_t)(uint16_t)b << 16);
}

void nitro_dl_vtx_xy(nitro_dl *dl, vtx16 x, vtx16 y)
{
    dl1(dl, 0x25, pack16x2(x, y));
}
void nitro_dl_vtx_xz(nitro_dl *dl, vtx16 x, vtx16 z)
{
    dl1(dl, 0x26, pack16x2(x, z));
}
void nitro_dl_vtx_yz(nitro_dl *dl, vtx16 y, vtx16 z)
{
    dl1(dl, 0x27, pack16x2(y, z));
}

void nitro_dl_vtx_diff(nitro_dl *dl, int16_t dx, int16_t dy, int16_t dz)
{
    dl1(dl, 0x28,
        ((uint32_t)dx & 0x3FFu) | (((uint32_t)dy & 0x3FFu) << 10) |
            (((uint32_t)dz & 0x3FFu) << 20));
}

void nitro_dl_normal(nitro_dl *dl, nrm10 x, nrm10 y, nrm10 z)
{
    dl1(dl, 0x21,
        ((uint32_t)x & 0x3FFu) | (((uint32_t)y & 0x3FFu) << 10) | (((uint32_t)z & 0x3FFu) << 20));
}

void nitro_dl_color(nitro_dl *dl, rgb15 c)
{
    dl1(dl, 0x20, c & 0x7FFFu);
}
void nitro_dl_texcoord(nitro_dl *dl, tex16 s, tex16 t)
{
    dl1(dl, 0x22, pack16x2(s, t));
}
void nitro_dl_mtx_restore(nitro_dl *dl, unsigned slot)
{
    dl1(dl, 0x14, slot & 0x1Fu);
}

void nitro_dl_mtx_scale(nitro_dl *dl, fx32 x, fx32 y, fx32 z)
{
    uint32_t p[3] = {(uint32_t)x, (uint32_t)y, (uint32_t)z};
    nitro_dl_cmd(dl, 0x1B, p, 3);
}

/* ---- render commands ---- */

void nitro_sbc_nop(nitro_buf *b)
{
    nitro_buf_u8(b, NITRO_SBC_NOP);
}
void nitro_sbc_ret(nitro_buf *b)
{
    nitro_buf_u8(b, NITRO_SBC_RET);
}

void nitro_sbc_node(nitro_buf *b, uint8_t node, bool visible)
{
    nitro_buf_u8(b, NITRO_SBC_NODE);
    nitro_buf_u8(b, node);
    nitro_buf_u8(b, visible ? 1 : 0);
}

void nitro_sbc_mtx(nitro_buf *b, uint8_t slot)
{
    nitro_buf_u8(b, NITRO_SBC_MTX);
    nitro_buf_u8(b, slot);
}

void nitro_sbc_mat(nitro_buf *b, unsigned mode, uint8_t material)
{
    nitro_buf_u8(b, (uint8_t)(NITRO_SBC_MAT | ((mode & 3u) << 5)));
    nitro_buf_u8(b, material);
}

void nitro_sbc_shp(nitro_buf *b, uint8_t mesh)
{
    nitro_buf_u8(b, NITRO_SBC_SHP);
    nitro_buf_u8(b, mesh);
}

static uint8_t with_flags(uint8_t op, int store, int restore)
{
    return (uint8_t)(op | (store >= 0 ? NITRO_SBC_FLAG_STORE : 0u) |
                     (restore >= 0 ? NITRO_SBC_FLAG_RESTORE : 0u));
}

void nitro_sbc_nodedesc(nitro_buf *b, uint8_t node, uint8_t parent, uint8_t flags, int store,
                        int restore)
{
    nitro_buf_u8(b, with_flags(NITRO_SBC_NODEDESC, store, restore));
    nitro_buf_u8(b, node);
    nitro_buf_u8(b, parent);
    nitro_buf_u8(b, flags);
    if (store >= 0) nitro_buf_u8(b, (uint8_t)store);
    if (restore >= 0) nitro_buf_u8(b, (uint8_t)restore);
}

void nitro_sbc_bb(nitro_buf *b, bool y, uint8_t node, int store, int restore)
{
    nitro_buf_u8(b, with_flags(y ? NITRO_SBC_BBY : NITRO_SBC_BB, store, restore));
    nitro_buf_u8(b, node);
    if (store >= 0) nitro_buf_u8(b, (uint8_t)store);
    if (restore >= 0) nitro_buf_u8(b, (uint8_t)restore);
}

void nitro_sbc_nodemix(nitro_buf *b, uint8_t dest, unsigned n, const nitro_sbc_mix_term *terms)
{
    nitro_buf_u8(b, NITRO_SBC_NODEMIX);
    nitro_buf_u8(b, dest);
    nitro_buf_u8(b, (uint8_t)n);
    for (unsigned i = 0; i < n && i < 255; i++) {
        nitro_buf_u8(b, terms[i].slot);
        nitro_buf_u8(b, terms[i].node);
        nitro_buf_u8(b, terms[i].weight);
    }
}

void nitro_sbc_calldl(nitro_buf *b, uint32_t rel_offset, uint32_t size)
{
    nitro_buf_u8(b, NITRO_SBC_CALLDL);
    nitro_buf_u32(b, rel_offset);
    nitro_buf_u32(b, size);
}

void nitro_sbc_posscale(nitro_buf *b, bool inverse)
{
    nitro_buf_u8(b, (uint8_t)(NITRO_SBC_POSSCALE | (inverse ? NITRO_SBC_FLAG_STORE : 0u)));
}

void nitro_sbc_map(nitro_buf *b, bool projection, uint8_t material, uint8_t flags)
{
    nitro_buf_u8(b, projection ? NITRO_SBC_PRJMAP : NITRO_SBC_ENVMAP);
    nitro_buf_u8(b, material);
    nitro_buf_u8(b, flags);
}
