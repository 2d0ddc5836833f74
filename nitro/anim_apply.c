/*
 * anim_apply.c - binding animations to a model and feeding their results to the runtime, as
 * NNS_G3dAnmObjInit / NNS_G3dRenderObjAddAnmObj and the default blend functions do; and the
 * `dsgx info` description of animation files.
 *
 * Binding (pret/pokediamond NNS_G3D_nsbca.s NNSi_G3dAnmObjInitNsBca, NNS_G3D_nsbma.s /
 * NNS_G3D_nsbta.s init, pret/pokeplatinum anm/nsbtp.c, nsbva.c): joints by node index (data
 * index from each track's tag), materials by name through the model's material dictionary,
 * visibility by node index. Several animations: the last bound joint animation that covers a
 * node wins (the runtime blends with ratios; one animation per node is the common case);
 * material animations are applied in binding order (NNSi_G3dAnmBlendMat calls each).
 * Texture patterns: the key's texture/palette names are looked up in the uploaded TEX0 sets
 * with the runtime's own binding (nitro_texvram_bind_tex / _pltt in texupload.c, as
 * SetTexParamaters_ / SetPlttParamaters_ in pokeplatinum anm/nsbtp.c do: the texture's stored
 * parameter plus the block key >> 3; palette offset and key each halved unless 4-colour).
 */
#include <stdlib.h>
#include <string.h>

#include "nitro/anim_internal.h"

void nitro_anim_player_init(nitro_anim_player *p, const nitro_model *m)
{
    memset(p, 0, sizeof *p);
    p->model = m;
}

void nitro_anim_player_free(nitro_anim_player *p)
{
    for (unsigned i = 0; i < p->num; i++) {
        free(p->b[i].tex_binds);
        free(p->b[i].pltt_binds);
    }
    p->num = 0;
}

static int find_material(const nitro_model *m, const char *name)
{
    for (unsigned i = 0; i < m->num_materials; i++)
        if (!strncmp(m->materials[i].name.s, name, 16)) return (int)i;
    return -1;
}

/* SetTexParamaters_ (pret/pokeplatinum anm/nsbtp.c) binds the key's texture as
 * NNS_G3dBindMdlTex does, with origWidth/Height set to the texture's own size, so magW/H = 1.0
 * (the runtime then overwrites both from the material anyway, material.c). */
static bool find_tex(const nitro_texvram *v, const char *name, nitro_mat_bind *b)
{
    for (unsigned s = 0; v && s < v->nsets; s++) {
        int k = nitro_find_texture(v->sets[s].tex, name);
        if (k < 0) continue;
        uint32_t extra = v->sets[s].tex->textures[k].extra;
        return nitro_texvram_bind_tex(v, name, (uint16_t)(extra & 0x7ffu),
                                      (uint16_t)((extra >> 11) & 0x7ffu), b);
    }
    return false;
}

bool nitro_anim_player_add(nitro_anim_player *p, const nitro_anim *a, const uint8_t *data,
                           const nitro_texvram *vram, char *err, size_t err_size)
{
    const nitro_model *m = p->model;
    if (p->num >= NITRO_MAX_BOUND_ANIMS) {
        snprintf(err, err_size, "too many animations (at most %d)", NITRO_MAX_BOUND_ANIMS);
        return false;
    }
    nitro_anim_binding *b = &p->b[p->num];
    memset(b, 0, sizeof *b);
    b->anim = a;
    b->data = data;
    unsigned hits = 0;
    switch (a->kind) {
    case NITRO_ANIM_JNT:
        if (a->num_tracks > m->num_nodes) {
            snprintf(err, err_size,
                     "joint animation \"%s\" has %u tracks but model \"%s\" has %u nodes",
                     a->name.s, a->num_tracks, m->name.s, m->num_nodes);
            return false;
        }
        for (unsigned i = 0; i < a->num_tracks; i++) {
            unsigned data_idx = a->jnt[i].tag >> 24;
            if (data_idx >= a->num_tracks) {
                snprintf(err, err_size, "joint animation \"%s\": track %u names data %u of %u",
                         a->name.s, i, data_idx, a->num_tracks);
                return false;
            }
            b->map[i] = (uint16_t)(data_idx | NITRO_MAP_EXIST);
            hits++;
        }
        break;
    case NITRO_ANIM_VIS:
        if (a->vis_nodes != m->num_nodes) {
            snprintf(err, err_size,
                     "visibility animation \"%s\" has %u nodes but model \"%s\" has %u", a->name.s,
                     a->vis_nodes, m->name.s, m->num_nodes);
            return false;
        }
        for (unsigned i = 0; i < m->num_nodes; i++) b->map[i] = (uint16_t)(i | NITRO_MAP_EXIST);
        hits = m->num_nodes;
        break;
    default: /* PAT, SRT, MAT: by material name */
        for (unsigned i = 0; i < a->num_tracks; i++) {
            const char *name = a->kind == NITRO_ANIM_PAT ? a->pat[i].name.s : a->mat[i].name.s;
            int k = find_material(m, name);
            if (k < 0 || k >= NITRO_MAX_MATERIALS) continue;
            b->map[k] = (uint16_t)(i | NITRO_MAP_EXIST);
            hits++;
        }
        if (!hits) {
            snprintf(err, err_size,
                     "%s animation \"%s\": none of its %u materials is in model \"%s\"",
                     nitro_anim_kind_name(a->kind), a->name.s, a->num_tracks, m->name.s);
            return false;
        }
        if (a->kind == NITRO_ANIM_PAT) {
            b->tex_binds = calloc(a->num_tex_names + 1u, sizeof *b->tex_binds);
            b->pltt_binds = calloc(a->num_pltt_names + 1u, sizeof *b->pltt_binds);
            if (!b->tex_binds || !b->pltt_binds) {
                free(b->tex_binds);
                free(b->pltt_binds);
                snprintf(err, err_size, "out of memory");
                return false;
            }
            for (unsigned i = 0; i < a->num_tex_names; i++)
                if (!find_tex(vram, a->tex_names[i].s, &b->tex_binds[i])) {
                    snprintf(err, err_size, "pattern animation \"%s\": texture \"%s\" not loaded",
                             a->name.s, a->tex_names[i].s);
                    goto fail;
                }
            for (unsigned i = 0; i < a->num_pltt_names; i++)
                if (!nitro_texvram_bind_pltt(vram, a->pltt_names[i].s, &b->pltt_binds[i])) {
                    snprintf(err, err_size, "pattern animation \"%s\": palette \"%s\" not loaded",
                             a->name.s, a->pltt_names[i].s);
                    goto fail;
                }
        }
        break;
    }
    p->num++;
    return true;
fail:
    free(b->tex_binds);
    free(b->pltt_binds);
    b->tex_binds = b->pltt_binds = NULL;
    return false;
}

void nitro_anim_player_set_frame(nitro_anim_player *p, fx32 frame)
{
    for (unsigned i = 0; i < p->num; i++) {
        int64_t len = (int64_t)p->b[i].anim->num_frames << 12;
        int64_t f = frame % len;
        if (f < 0) f += len;
        p->b[i].frame = (fx32)f;
    }
}

static bool hook_joint(void *user, unsigned node, nitro_jnt_result *out)
{
    nitro_anim_player *p = user;
    bool done = false;
    for (unsigned i = 0; i < p->num; i++) {
        const nitro_anim_binding *b = &p->b[i];
        if (b->anim->kind != NITRO_ANIM_JNT || node >= NITRO_MAX_NODES ||
            !(b->map[node] & NITRO_MAP_EXIST))
            continue;
        nitro_jnt_eval(b->anim, b->data, b->map[node] & 0xffu, &p->model->nodes[node], b->frame,
                       out);
        done = true;
    }
    return done;
}

static bool hook_vis(void *user, unsigned node, bool *vis)
{
    nitro_anim_player *p = user;
    bool done = false;
    for (unsigned i = 0; i < p->num; i++) {
        const nitro_anim_binding *b = &p->b[i];
        if (b->anim->kind != NITRO_ANIM_VIS || node >= NITRO_MAX_NODES ||
            !(b->map[node] & NITRO_MAP_EXIST))
            continue;
        *vis = nitro_vis_eval(b->anim, b->data, node, (unsigned)(b->frame >> 12));
        done = true;
    }
    return done;
}

static void apply_pat(const nitro_anim_binding *b, unsigned t, unsigned f, nitro_mat_result *r)
{
    uint8_t tex, pl;
    nitro_pat_key(b->anim, b->data, t, f, NULL, &tex, &pl);
    /* SetTexParamaters_: keep texgen, flip and repeat bits, replace the rest. */
    r->teximage = (r->teximage & 0xc00f0000u) | b->tex_binds[tex].teximage;
    if (pl != 255) r->pltt_base = b->pltt_binds[pl].pltt_base;
}

static void hook_mat(void *user, unsigned mat, nitro_mat_result *r)
{
    nitro_anim_player *p = user;
    for (unsigned i = 0; i < p->num; i++) {
        const nitro_anim_binding *b = &p->b[i];
        if (mat >= NITRO_MAX_MATERIALS || !(b->map[mat] & NITRO_MAP_EXIST)) continue;
        unsigned t = b->map[mat] & 0xffu, f = (unsigned)(b->frame >> 12);
        switch (b->anim->kind) {
        case NITRO_ANIM_MAT: nitro_mat_eval(b->anim, b->data, t, f, r); break;
        case NITRO_ANIM_SRT: nitro_srt_eval(b->anim, b->data, t, f, r); break;
        case NITRO_ANIM_PAT: apply_pat(b, t, f, r); break;
        default: break;
        }
    }
}

nitro_anim_hooks nitro_anim_player_hooks(nitro_anim_player *p)
{
    nitro_anim_hooks h = {p, hook_joint, hook_mat, hook_vis};
    return h;
}

/* ---- description ---- */

typedef struct curve_stats {
    unsigned constant, sampled, step[5], fx16;
} curve_stats;

static void count(curve_stats *s, const nitro_curve *c)
{
    if (c->constant) {
        s->constant++;
        return;
    }
    s->sampled++;
    s->step[c->step]++;
    if (c->fx16) s->fx16++;
}

void nitro_anim_describe(const nitro_anims *as, FILE *out, bool json)
{
    if (json) fprintf(out, "[");
    for (unsigned i = 0; i < as->num; i++) {
        const nitro_anim *a = &as->anims[i];
        curve_stats s = {0};
        for (unsigned t = 0; t < a->num_tracks; t++) {
            if (a->kind == NITRO_ANIM_JNT) {
                const nitro_jnt_track *j = &a->jnt[t];
                uint32_t g = j->tag;
                if (g & NITRO_JNT_IDENTITY) continue;
                if (!(g & (NITRO_JNT_IDENTITY_T | NITRO_JNT_BASE_T)))
                    for (int k = 0; k < 3; k++) count(&s, &j->trans[k]);
                if (!(g & (NITRO_JNT_IDENTITY_R | NITRO_JNT_BASE_R))) count(&s, &j->rot);
                if (!(g & (NITRO_JNT_IDENTITY_S | NITRO_JNT_BASE_S)))
                    for (int k = 0; k < 3; k++) count(&s, &j->scale[k]);
            } else if (a->kind == NITRO_ANIM_MAT || a->kind == NITRO_ANIM_SRT) {
                for (int k = 0; k < 5; k++) count(&s, &a->mat[t].ch[k]);
            }
        }
        unsigned targets = a->kind == NITRO_ANIM_VIS ? a->vis_nodes : a->num_tracks;
        if (json) {
            fprintf(out, "%s{\"name\":", i ? "," : "");
            nitro_json_write_string(out, a->name.s);
            fprintf(out,
                    ",\"kind\":\"%s\",\"frames\":%u,\"targets\":%u,"
                    "\"constant\":%u,\"sampled\":%u,\"step1\":%u,\"step2\":%u,\"step4\":%u,"
                    "\"fx16\":%u,\"flag\":%u}",
                    nitro_anim_kind_name(a->kind), a->num_frames, targets, s.constant, s.sampled,
                    s.step[1], s.step[2], s.step[4], s.fx16, a->flag);
            continue;
        }
        fprintf(out, "animation %u \"%s\": %s, %u frames, %u %s\n", i, a->name.s,
                nitro_anim_kind_name(a->kind), a->num_frames, targets,
                a->kind == NITRO_ANIM_JNT || a->kind == NITRO_ANIM_VIS ? "nodes" : "materials");
        if (a->kind == NITRO_ANIM_JNT || a->kind == NITRO_ANIM_MAT || a->kind == NITRO_ANIM_SRT)
            fprintf(out,
                    "  curves: %u constant, %u sampled (step 1: %u, 2: %u, 4: %u; %u 16-bit)\n",
                    s.constant, s.sampled, s.step[1], s.step[2], s.step[4], s.fx16);
        if (a->kind == NITRO_ANIM_JNT)
            fprintf(out, "  options: %s%s; %u pivot / %u basis rotations available\n",
                    a->flag & 1 ? "fractional frames" : "whole frames",
                    a->flag & 2 ? ", end-to-start" : "", a->num_rot3, a->num_rot5);
        if (a->kind != NITRO_ANIM_JNT && a->kind != NITRO_ANIM_VIS)
            for (unsigned t = 0; t < a->num_tracks; t++)
                fprintf(out, "  target \"%s\"\n",
                        a->kind == NITRO_ANIM_PAT ? a->pat[t].name.s : a->mat[t].name.s);
        if (a->kind == NITRO_ANIM_PAT)
            fprintf(out, "  %u texture names, %u palette names\n", a->num_tex_names,
                    a->num_pltt_names);
    }
    if (json) fprintf(out, "]\n");
}
