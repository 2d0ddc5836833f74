/*
 * test_nitro_parse.c - MDL0/TEX0 parsing of writer fixtures: every field against the values
 * the fixture was built from, the pivot decoding against GBATEK/MarioKartToolbox's table
 * worked by hand, the render command decoding, and writer -> parser -> writer identity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "nitro/nitro.h"
#include "test_nitro_fixtures.h"

static void test_pivot_forms(void **state)
{
    (void)state;
    fx32 m[9];
    /* index 0: [1 0 0; 0 A B; 0 C D] with C = B, D = A (no sign bits) */
    nitro_pivot_to_mtx33(0, false, false, false, 0x0800, 0x0DDB, m);
    const fx32 e0[9] = {0x1000, 0, 0, 0, 0x0800, 0x0DDB, 0, 0x0DDB, 0x0800};
    assert_memory_equal(m, e0, sizeof e0);
    /* index 4 (Y axis), neg, rev_c: [A 0 B; 0 -1 0; -B 0 A] */
    nitro_pivot_to_mtx33(4, true, true, false, 0x0B50, 0x0400, m);
    const fx32 e4[9] = {0x0B50, 0, 0x0400, 0, -0x1000, 0, -0x0400, 0, 0x0B50};
    assert_memory_equal(m, e4, sizeof e4);
    /* index 8 (Z axis), rev_d: [A B 0; C -A 0; 0 0 1] */
    nitro_pivot_to_mtx33(8, false, false, true, 0x1000, 0, m);
    const fx32 e8[9] = {0x1000, 0, 0, 0, -0x1000, 0, 0, 0, 0x1000};
    assert_memory_equal(m, e8, sizeof e8);
    /* index 5: pivot at row 1 col 2; free entries 0,1,6,7 */
    nitro_pivot_to_mtx33(5, false, false, false, 3, 5, m);
    const fx32 e5[9] = {3, 5, 0, 0, 0, 0x1000, 5, 3, 0};
    assert_memory_equal(m, e5, sizeof e5);
    /* invalid index: identity */
    nitro_pivot_to_mtx33(9, true, true, true, 3, 5, m);
    const fx32 id[9] = {0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000};
    assert_memory_equal(m, id, sizeof id);
}

static void test_models(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, true));
    nitro_file f;
    nitro_status st = nitro_parse(fx.file.data, fx.file.size, &f);
    assert_true(st.ok);
    assert_int_equal(f.kind, NITRO_KIND_BMD0);
    assert_int_equal(f.num_sections, 2);
    assert_string_equal(f.sections[0].stamp, "MDL0");
    assert_string_equal(f.sections[1].stamp, "TEX0");
    assert_int_equal(f.num_models, 2);
    assert_int_equal(nitro_find_model(&f, "pebble"), 1);
    const nitro_model *m = &f.models[0];
    assert_string_equal(m->name.s, "figure");
    assert_int_equal(m->info.num_nodes, 3);
    assert_int_equal(m->info.scaling_rule, 1);
    assert_int_equal(m->info.pos_scale, 0x2000);
    assert_int_equal(m->info.box[3], 0x2000);
    assert_int_equal(m->info.box[2], -0x100);
    /* nodes */
    assert_int_equal(m->num_nodes, 3);
    assert_string_equal(m->nodes[1].name.s, "arm");
    assert_int_equal(m->nodes[0].rotation[0], 0x1000);
    assert_int_equal(m->nodes[0].scale[2], 0x1000);
    assert_int_equal(m->nodes[1].translation[1], -0x2000);
    assert_int_equal(m->nodes[1].rotation[5], -0x1000);
    assert_int_equal(m->nodes[1].rotation[7], 0x1000);
    assert_int_equal(m->nodes[1].scale[0], 0x2000);
    assert_int_equal(m->nodes[1].inv_scale[2], 0x0800);
    const fx32 hand[9] = {0x0B50, 0, 0x0B50, 0, -0x1000, 0, -0x0B50, 0, 0x0B50};
    assert_memory_equal(m->nodes[2].rotation, hand, sizeof hand);
    assert_int_equal(m->nodes[2].pivot_index, 4);
    /* materials and pairings */
    assert_int_equal(m->num_materials, 2);
    const nitro_material *a = &m->materials[0], *b = &m->materials[1];
    assert_int_equal(a->dif_amb, 0x4210C210u);
    assert_int_equal(a->polygon_attr_mask, 0x1F3FF8FFu);
    assert_int_equal(a->size, 0x2C);
    assert_int_equal(a->scale_s, 0x1000);
    assert_int_equal(a->rot_cos, 0x1000);
    assert_true(a->has_texture && a->has_palette);
    assert_string_equal(a->texture_name.s, "t_a3i5");
    assert_string_equal(a->palette_name.s, "p_sixteen");
    assert_int_equal(b->size, 0x2C + 8 + 4 + 8 + 64);
    assert_int_equal(b->scale_t, -0x1000);
    assert_int_equal(b->rot_sin, 0x0B50);
    assert_int_equal(b->trans_s, 0x00123000);
    assert_int_equal(b->effect_mtx[15], 15 * 0x100 - 0x800);
    assert_int_equal(b->pltt_base, 0x12);
    assert_false(b->has_palette);
    assert_string_equal(b->texture_name.s, "t_direct");
    assert_int_equal(m->num_texture_pairings, 2);
    assert_int_equal(m->texture_pairings[1].count, 1);
    assert_int_equal(m->texture_pairings[1].materials[0], 1);
    /* meshes: the display list is the builder's bytes */
    assert_int_equal(m->num_meshes, 2);
    assert_int_equal(m->meshes[1].flags, 5);
    assert_int_equal(m->meshes[0].dl.size, fx.dl[0].buf.size);
    assert_memory_equal(f.data + m->meshes[0].dl.offset, fx.dl[0].buf.data, fx.dl[0].buf.size);
    /* first packet of mesh 0: BEGIN, COLOR, NORMAL, TEXCOORD; BEGIN's parameter 0 (tris) */
    const uint8_t *dl = f.data + m->meshes[0].dl.offset;
    assert_int_equal(dl[0] | dl[1] << 8 | dl[2] << 16 | (uint32_t)dl[3] << 24, 0x22212040u);
    assert_int_equal(dl[4], 0);
    assert_int_equal(dl[8], 0x1F); /* COLOR red */
    /* envelopes */
    assert_int_equal(m->num_envelopes, 3);
    assert_int_equal(m->envelopes[2].pos[11], 2 * 0x10000 + 11 * 0x100);
    assert_int_equal(m->envelopes[1].dir[8], -0x1000 - 8);
    /* model 1 has no envelopes */
    assert_int_equal(f.models[1].num_envelopes, 0);
    assert_int_equal(f.models[1].ofs_evp, f.models[1].size);
    nitro_file_free(&f);
    fixture_free(&fx);
}

static void test_sbc(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, false));
    nitro_file f;
    assert_true(nitro_parse(fx.file.data, fx.file.size, &f).ok);
    const nitro_model *m = &f.models[0];
    assert_int_equal(m->sbc.size, fx.sbc[0].size);
    assert_memory_equal(f.data + m->sbc.offset, fx.sbc[0].data, fx.sbc[0].size);
    assert_int_equal(m->num_cmds, 24);
    const nitro_sbc_cmd *c = m->cmds;
    assert_int_equal(c[0].op, NITRO_SBC_NOP);
    assert_int_equal(c[0].offset, m->sbc.offset);
    assert_int_equal(c[1].op, NITRO_SBC_NODE);
    assert_int_equal(c[1].u.node.flags, 1);
    assert_int_equal(c[1].offset, m->sbc.offset + 1);
    assert_int_equal(c[2].size, 4);
    assert_int_equal(c[2].u.nodedesc.store, -1);
    assert_int_equal(c[3].opcode, 0x26);
    assert_int_equal(c[3].u.nodedesc.store, 1);
    assert_int_equal(c[3].u.nodedesc.restore, -1);
    assert_int_equal(c[4].opcode, 0x46);
    assert_int_equal(c[4].u.nodedesc.restore, 1);
    assert_int_equal(c[5].opcode, 0x66);
    assert_int_equal(c[5].size, 6);
    assert_int_equal(c[5].u.nodedesc.store, 2);   /* byte 4 */
    assert_int_equal(c[5].u.nodedesc.restore, 1); /* byte 5 */
    assert_int_equal(c[5].u.nodedesc.parent, 1);
    assert_int_equal(c[5].u.nodedesc.flags, 3);
    assert_int_equal(c[6].u.mtx.slot, 1);
    assert_int_equal(c[8].opcode, 0x24);
    assert_int_equal(c[9].opcode, 0x44);
    assert_int_equal(c[10].u.shp.mesh, 0);
    assert_int_equal(c[12].opcode, 0x67);
    assert_int_equal(c[12].u.bb.store, 3);
    assert_int_equal(c[12].u.bb.restore, 2);
    assert_int_equal(c[13].opcode, 0x28);
    assert_int_equal(c[14].opcode, 0x48);
    assert_int_equal(c[14].u.bb.restore, 4);
    assert_int_equal(c[15].op, NITRO_SBC_NODEMIX);
    assert_int_equal(c[15].size, 9);
    assert_int_equal(c[15].u.nodemix.dest, 5);
    assert_int_equal(c[15].u.nodemix.count, 2);
    const nitro_sbc_mix_term *t = &m->mix_terms[c[15].u.nodemix.first];
    assert_int_equal(t[1].slot, 2);
    assert_int_equal(t[1].node, 2);
    assert_int_equal(t[1].weight, 128);
    assert_int_equal(c[16].op, NITRO_SBC_CALLDL);
    assert_int_equal(c[16].size, 9);
    assert_false(c[17].u.posscale.inverse);
    assert_true(c[19].u.posscale.inverse);
    assert_int_equal(c[20].op, NITRO_SBC_ENVMAP);
    assert_int_equal(c[21].op, NITRO_SBC_PRJMAP);
    assert_int_equal(c[21].u.map.material, 1);
    assert_int_equal(c[22].u.node.flags, 0);
    assert_int_equal(c[23].op, NITRO_SBC_RET);
    nitro_file_free(&f);
    fixture_free(&fx);
}

static void test_textures(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_btx0(&fx));
    nitro_file f;
    nitro_status st = nitro_parse(fx.file.data, fx.file.size, &f);
    assert_true(st.ok);
    assert_int_equal(f.kind, NITRO_KIND_BTX0);
    const nitro_tex0 *t = f.tex0;
    assert_non_null(t);
    assert_int_equal(t->num_textures, 7);
    /* Bytes per format, worked from GBATEK bits per texel: */
    const unsigned w[7] = {8, 8, 8, 16, 8, 8, 8}, h[7] = {8, 8, 8, 8, 8, 8, 16};
    const unsigned bytes[7] = {64, 16, 32, 128, 16, 64, 256};
    for (unsigned i = 0; i < 7; i++) {
        const nitro_texture *x = &t->textures[i];
        assert_int_equal(x->format, i + 1);
        assert_int_equal(x->width, w[i]);
        assert_int_equal(x->height, h[i]);
        assert_int_equal(x->data.size, bytes[i]);
        assert_memory_equal(f.data + x->data.offset, fx.texels[i], bytes[i]);
    }
    assert_true(t->textures[1].color0_transparent);
    assert_false(t->textures[0].color0_transparent);
    /* ordinary texels packed in order: A3I5 at 0, 4-colour at 64, 16-colour at 80 ... */
    assert_int_equal(t->textures[1].data_offset, 64);
    assert_int_equal(t->textures[2].data_offset, 80);
    assert_int_equal(t->textures[6].data_offset, 64 + 16 + 32 + 128 + 64);
    assert_int_equal(t->tex_data.size, 64 + 16 + 32 + 128 + 64 + 256);
    assert_int_equal(t->tex4x4_data.size, 16);
    assert_int_equal(t->tex4x4_pidx.size, 8);
    assert_int_equal(t->textures[4].pidx.size, 8);
    assert_memory_equal(f.data + t->textures[4].pidx.offset, fx.pidx, 8);
    assert_int_equal(t->num_palettes, 2);
    assert_int_equal(t->palettes[0].flags, 1);
    /* the 16-colour palette after the 8-byte 4-colour one starts at the next 16 bytes (the
     * writer aligns palettes other than 4-colour: PLTT_BASE counts 16 bytes for them) */
    assert_int_equal(t->palettes[1].data_offset, 16);
    assert_int_equal(t->palettes[1].offset_raw, 2);
    assert_int_equal(t->pltt_data.size, 48);
    assert_memory_equal(f.data + t->palettes[1].data.offset, fx.pal[1], 32);
    assert_int_equal(nitro_find_palette(t, "p_sixteen"), 1);
    assert_int_equal(nitro_find_texture(t, "t_4x4"), 4);
    assert_int_equal(nitro_find_texture(t, "nope"), -1);
    nitro_file_free(&f);
    fixture_free(&fx);
}

static void roundtrip(const nitro_buf *file)
{
    nitro_file f;
    assert_true(nitro_parse(file->data, file->size, &f).ok);
    nitro_wfile w;
    assert_true(nitro_wfile_from_parsed(&f, &w));
    nitro_buf again = {0};
    char err[128] = "";
    assert_true(nitro_write_wfile(&w, &again, err, sizeof err));
    assert_int_equal(again.size, file->size);
    assert_memory_equal(again.data, file->data, file->size);
    nitro_buf_free(&again);
    nitro_wfile_free(&w);
    nitro_file_free(&f);
}

static void test_roundtrip(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, true));
    roundtrip(&fx.file);
    fixture_free(&fx);
    assert_true(fixture_bmd0(&fx, false));
    roundtrip(&fx.file);
    fixture_free(&fx);
    assert_true(fixture_btx0(&fx));
    roundtrip(&fx.file);
    fixture_free(&fx);
}

static void test_describe(void **state)
{
    (void)state;
    fixture fx;
    assert_true(fixture_bmd0(&fx, true));
    nitro_file f;
    assert_true(nitro_parse(fx.file.data, fx.file.size, &f).ok);
    char *text = nitro_describe(&f, false);
    assert_non_null(strstr(text, "model \"figure\": 3 nodes, 2 materials, 2 meshes"));
    assert_non_null(strstr(text, "texture 4 \"t_4x4\" 4x4 8x8, 16 bytes"));
    free(text);
    char *json = nitro_describe(&f, true);
    assert_non_null(strstr(json, "\"format\":\"direct\",\"width\":8,\"height\":16"));
    free(json);
    nitro_file_free(&f);
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pivot_forms), cmocka_unit_test(test_models),
        cmocka_unit_test(test_sbc),         cmocka_unit_test(test_textures),
        cmocka_unit_test(test_roundtrip),   cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
