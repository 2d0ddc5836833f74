/*
 * boxtest.c - BOX_TEST (70h), POS_TEST (71h), VEC_TEST (72h).
 *
 * Hardware notes:
 * - BOX_TEST (GBATEK "DS 3D Tests"): the box x, y, z, w, h, d (1.3.12) has corners
 *   (x..x+w, y..y+h, z..z+d), the sums wrapping at 16 bits. The corners go through the clip
 *   matrix; the result is "inside" when any of the six faces keeps at least one vertex after
 *   clipping (melonDS GPU3D.cpp BoxTest, which clips each face as a quad with the polygon
 *   clipper, including the far-plane rule of the latched POLYGON_ATTR bit 12). Face order and
 *   corner order as melonDS; the order does not change the result.
 * - POS_TEST: the position (1.3.12) becomes the current vertex (later VTX_XY/XZ/YZ/DIFF start
 *   from it) and is transformed by the clip matrix; the four results are 1.19.12 (GBATEK).
 * - VEC_TEST: the 1.0.9 vector goes through the vector matrix; results are (sum >> 9) kept to 16
 *   bits with bit 12 copied into bits 13-15 when set (melonDS VecTest; GBATEK: "4.12 with the
 *   sign expanded").
 */
#include <string.h>

#include "gx/gx_internal.h"

void gx_cmd_box_test(gx_engine *gx, const uint32_t *params)
{
    /* corner indices of each face (melonDS BoxTest) */
    static const uint8_t faces[6][4] = {
        {0, 1, 2, 3}, {4, 5, 6, 7}, {0, 3, 4, 5}, {1, 2, 7, 6}, {0, 1, 6, 5}, {2, 3, 4, 7},
    };
    int16_t x0 = (int16_t)(uint16_t)(params[0] & 0xFFFFu);
    int16_t y0 = (int16_t)(uint16_t)(params[0] >> 16);
    int16_t z0 = (int16_t)(uint16_t)(params[1] & 0xFFFFu);
    int16_t x1 = (int16_t)(uint16_t)((params[1] >> 16) + (uint32_t)x0);
    int16_t y1 = (int16_t)(uint16_t)((params[2] & 0xFFFFu) + (uint32_t)y0);
    int16_t z1 = (int16_t)(uint16_t)((params[2] >> 16) + (uint32_t)z0);
    const int16_t corner[8][3] = {
        {x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0},
        {x0, y1, z1}, {x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1},
    };
    gx_vertex cube[8];
    bool far_clip = polyattr_far_clip(gx->geom.cur_polygon_attr) != 0;

    memset(cube, 0, sizeof(cube));
    for (int i = 0; i < 8; i++) gx_geom_transform(gx, corner[i], cube[i].clip);

    gx->geom.box_result = false;
    for (int f = 0; f < 6; f++) {
        gx_vertex face[GX_MAX_POLY_VERTS];
        for (int k = 0; k < 4; k++) face[k] = cube[faces[f][k]];
        if (gx_clip_polygon(face, 4, 0, false, far_clip) > 0) {
            gx->geom.box_result = true;
            return;
        }
    }
}

void gx_cmd_pos_test(gx_engine *gx, const uint32_t *params)
{
    gx_geom_state *g = &gx->geom;
    g->cur_vtx[0] = (int16_t)(uint16_t)(params[0] & 0xFFFFu);
    g->cur_vtx[1] = (int16_t)(uint16_t)(params[0] >> 16);
    g->cur_vtx[2] = (int16_t)(uint16_t)(params[1] & 0xFFFFu);
    gx_geom_transform(gx, g->cur_vtx, g->pos_result);
}

void gx_cmd_vec_test(gx_engine *gx, const uint32_t *params)
{
    const int32_t *m = gx->mtx.vec;
    int32_t n[3];

    for (int k = 0; k < 3; k++) n[k] = dsgx_sext(params[0] >> (10 * k), 10);
    for (int k = 0; k < 3; k++) {
        int32_t sum = dsgx_wrap32(dsgx_mul64(n[0], m[k]) + dsgx_mul64(n[1], m[4 + k]) +
                                  dsgx_mul64(n[2], m[8 + k]));
        uint16_t r = (uint16_t)(uint32_t)dsgx_asr32(sum, 9);
        if (r & 0x1000u) r |= 0xF000u;
        gx->geom.vec_result[k] = (int16_t)r;
    }
}
