/*
 * paramstate.c - the geometry state in command-parameter form (gx_get_param_state).
 *
 * Hardware notes: nothing here is hardware behaviour; it is the inverse of the command
 * handlers, so that the state can be re-created by sending commands. The form follows what
 * melonDS's frame-dump writer records at the start of a frame (melonDS src/FrameDump.cpp,
 * StartFrameDump), field by field:
 * - DISP_1DOT_DEPTH from the W limit: (limit - 0x1FF) / 0x200 (0 when the limit is 0);
 * - VIEWPORT from the stored corners: x1 | (191 - y1') << 8 | x2 << 16 | (191 - y2') << 24,
 *   the inverse of the flip the VIEWPORT command applies;
 * - colours as 5-bit fields, the shininess table as 32 little-endian words;
 * - light vectors: the directions already transformed by the vector matrix (so they are sent
 *   with an identity vector matrix). Our engine keeps -(L x vector matrix) (light.c); the
 *   parameter is its negation in 10 bits;
 * - texture coordinates: the final ones (after texgen mode 1), to be sent with texgen off.
 * One deliberate difference: SPE_EMI carries bit 15 when the shininess table is enabled.
 * melonDS's writer drops that bit, so its dumps of frames that start with the table enabled
 * replay without it; ours keep it (the replayer sends the word as it is).
 */
#include <string.h>

#include "gx/gx_internal.h"

static uint32_t pack_rgb15(const uint8_t c[3])
{
    return (uint32_t)c[0] | (uint32_t)c[1] << 5 | (uint32_t)c[2] << 10;
}

static uint32_t lo16(int32_t v)
{
    return (uint32_t)v & 0xFFFFu;
}

void gx_get_param_state(const gx_engine *gx, gx_param_state *out)
{
    const gx_geom_state *g = &gx->geom;
    const gx_mtx_state *m = &gx->mtx;
    memset(out, 0, sizeof(*out));

    out->dot_depth = g->dot_w_limit == 0 ? 0 : ((g->dot_w_limit - 0x1FFu) / 0x200u) & 0x7FFFu;
    out->poly_attr = g->cur_polygon_attr;
    out->poly_attr_unset = g->polygon_attr;
    out->vtx_color = pack_rgb15(g->vtx_color);
    out->viewport = g->viewport[0] | ((191u - g->viewport[1]) & 0xFFu) << 8 | g->viewport[2] << 16 |
                    ((191u - g->viewport[3]) & 0xFFu) << 24;

    memcpy(out->proj_stack, m->proj_stack, sizeof out->proj_stack);
    memcpy(out->pos_stack, m->pos_stack, sizeof out->pos_stack);
    memcpy(out->vec_stack, m->vec_stack, sizeof out->vec_stack);
    memcpy(out->tex_stack, m->tex_stack, sizeof out->tex_stack);
    memcpy(out->proj, m->proj, sizeof out->proj);
    memcpy(out->pos, m->pos, sizeof out->pos);
    memcpy(out->vec, m->vec, sizeof out->vec);
    memcpy(out->tex, m->tex, sizeof out->tex);
    out->mtx_mode = m->mode;

    out->polygon = g->prim_type;
    out->vtx_xy = lo16(g->cur_vtx[0]) | lo16(g->cur_vtx[1]) << 16;
    out->vtx_z = lo16(g->cur_vtx[2]);
    out->texcoord = lo16(g->tex_cur[0]) | lo16(g->tex_cur[1]) << 16;
    out->teximage_param = g->teximage;
    out->pltt_base = g->pltt_base;
    out->dif_amb = pack_rgb15(g->mat_diffuse) | pack_rgb15(g->mat_ambient) << 16;
    out->spe_emi = pack_rgb15(g->mat_specular) | pack_rgb15(g->mat_emission) << 16 |
                   (g->shininess_enable ? 0x8000u : 0u);
    for (unsigned i = 0; i < 32; i++)
        out->shininess[i] = (uint32_t)g->shininess[4 * i] | (uint32_t)g->shininess[4 * i + 1] << 8 |
                            (uint32_t)g->shininess[4 * i + 2] << 16 |
                            (uint32_t)g->shininess[4 * i + 3] << 24;
    for (uint32_t l = 0; l < 4; l++) {
        uint32_t v = l << 30;
        for (unsigned k = 0; k < 3; k++)
            v |= ((uint32_t) - (int32_t)g->light_dir[l][k] & 0x3FFu) << (10 * k);
        out->light_vec[l] = v;
        out->light_color[l] = pack_rgb15(g->light_color[l]) | l << 30;
    }
    out->swap_param = gx->cmd.swap_param & 3u;
}
