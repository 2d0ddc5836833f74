/*
 * cmd_info.c - `dsgx info FILE [--json]`: describes an NSBMD/NSBTX/NSBCA/NSBTP/NSBTA/NSBMA/
 * NSBVA file (models, nodes, materials, meshes, textures, palettes, animation sections).
 * FILE may be `archive.narc:INDEX` or `archive.narc:NAME`; LZ77-compressed files (and archive
 * members) are decompressed transparently. A bare NARC lists its files. Models and
 * texture-pattern animations also list where each texture and palette name comes from
 * (tools/core/texfind.h: --tex files, the file, its archive, its folder).
 * Bad input: one line "FILE: STRUCTURE at offset 0xNN: reason" on stderr, exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nitro/anim.h"
#include "nitro/nitro.h"
#include "tools/commands.h"
#include "tools/core/nitro_open.h"
#include "tools/core/texfind.h"
#include "tools/t3dm_cli.h"

static int report(const char *name, const nitro_status *st)
{
    char msg[300];
    nitro_status_format(st, name, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return 1;
}

static int list_narc(const char *name, const nitro_narc *n, bool json)
{
    if (json)
        printf("{\"archive\":\"NARC\",\"files\":[");
    else
        printf("%s: NARC, %u files\n", name, n->num_files);
    for (unsigned i = 0; i < n->num_files; i++) {
        const char *nm = n->files[i].name ? n->files[i].name : "";
        if (json) {
            printf("%s{\"index\":%u,\"name\":", i ? "," : "", i);
            nitro_json_write_string(stdout, nm);
            printf(",\"size\":%u}", n->files[i].size);
        } else
            printf("  %u %s %u bytes\n", i, nm, n->files[i].size);
    }
    if (json) printf("]}\n");
    return 0;
}

/* Where each texture and palette name of the file's models and texture-pattern animations
 * comes from (tools/core/texfind.h): text lines, or a JSON array. */
static void print_sources(const dsgx_texplan *p, const dsgx_texlib *lib, bool models, bool json)
{
    static const char *const origin[] = {"option", "model", "archive", "folder"};
    if (!json) {
        /* an animation alone: its names usually live in the model it is played on */
        printf("texture sources%s:\n", models ? "" : " (besides the model the animation plays on)");
        char line[2600];
        for (unsigned i = 0; i < p->nneed; i++) {
            dsgx_texplan_format(p, lib, i, line, sizeof line);
            printf("  %s\n", line);
        }
        if (p->no_room)
            printf("  %u more texture file(s) left out: at most %u texture sets\n", p->no_room,
                   NITRO_MAX_TEX_SETS);
        return;
    }
    printf("[");
    for (unsigned i = 0; i < p->nneed; i++) {
        const dsgx_texneed *n = &p->need[i];
        printf("%s{\"kind\":\"%s\",\"name\":", i ? "," : "", n->palette ? "palette" : "texture");
        nitro_json_write_string(stdout, n->name.s);
        if (n->set < 0) {
            printf(",\"file\":null,\"origin\":null");
        } else {
            printf(",\"file\":");
            nitro_json_write_string(stdout, p->label[n->set]);
            printf(",\"origin\":\"%s\"", origin[p->origin[n->set]]);
        }
        if (n->also >= 0) {
            printf(",\"also\":");
            nitro_json_write_string(stdout, lib->src[n->also].label);
        }
        printf("}");
    }
    printf("]");
}

/* The file's description, plus each animation's kind, length, targets and curve statistics
 * (nitro/anim.h) for animation files, plus the texture sources when the file needs textures
 * (models, texture-pattern animations; p NULL otherwise). In JSON the details join the file's
 * object as "animation_details" and "texture_sources". */
static int print_all(const nitro_file *f, const nitro_anims *a, const char *text,
                     const dsgx_texplan *p, const dsgx_texlib *lib, bool json)
{
    if (!json) {
        fputs(text, stdout);
        if (a) nitro_anim_describe(a, stdout, false);
        if (p) print_sources(p, lib, f->num_models > 0, false);
        return 0;
    }
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    if (n && text[n - 1] == '}') n--; /* reopen the file's object */
    fwrite(text, 1, n, stdout);
    if (a) {
        fputs(",\"animation_details\":", stdout);
        nitro_anim_describe(a, stdout, true);
    }
    if (p) {
        fputs(",\"texture_sources\":", stdout);
        print_sources(p, lib, f->num_models > 0, true);
    }
    fputs("}\n", stdout);
    return 0;
}

/* Describe one parsed file; the texture lookup is done for its models and NSBTP names. */
static int describe(const char *arg, const nitro_file *f, const char *const *tex, unsigned ntex,
                    bool json)
{
    char *text = nitro_describe(f, json);
    if (!text) return 1;
    int rc = 0;
    nitro_anims a;
    bool have_anims = false;
    if (f->num_anim_sets) {
        nitro_status st = nitro_anims_parse(f, &a);
        if (!st.ok) {
            fputs(text, stdout);
            free(text);
            return report(arg, &st);
        }
        have_anims = true;
    }
    dsgx_texplan *plan = malloc(sizeof *plan);
    dsgx_texlib lib;
    dsgx_texlib_init(&lib);
    bool lookup = false;
    if (plan) {
        dsgx_texplan_init(plan);
        for (unsigned i = 0; i < f->num_models; i++) dsgx_texplan_need_model(plan, &f->models[i]);
        for (unsigned i = 0; have_anims && i < a.num; i++)
            dsgx_texplan_need_anim(plan, &a.anims[i]);
        lookup = plan->nneed > 0;
    }
    if (lookup) {
        char err[600];
        for (unsigned i = 0; i < ntex && !rc; i++)
            if (dsgx_texlib_add_option(&lib, tex[i], err, sizeof err)) {
                fprintf(stderr, "dsgx info: %s\n", err);
                rc = 1;
            }
        if (dsgx_texplan_resolve(plan, &lib, f->tex0, f->data, arg)) {
            dsgx_texlib_add_around(&lib, arg); /* read only when a name is missing */
            dsgx_texplan_resolve(plan, &lib, f->tex0, f->data, arg);
        }
        if (lib.skipped)
            fprintf(stderr, "dsgx info: %u texture file(s) could not be used (first: %s)\n",
                    lib.skipped, lib.first_skip);
    }
    if (!rc) rc = print_all(f, have_anims ? &a : NULL, text, lookup ? plan : NULL, &lib, json);
    dsgx_texlib_free(&lib);
    free(plan);
    if (have_anims) nitro_anims_free(&a);
    free(text);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    const char *arg = NULL, *tex[NITRO_MAX_TEX_SETS];
    unsigned ntex = 0;
    bool json = false, bad = false, help = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            help = true;
        else if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--tex") && i + 1 < argc && ntex < NITRO_MAX_TEX_SETS)
            tex[ntex++] = argv[++i];
        else if (!arg && argv[i][0] != '-')
            arg = argv[i];
        else
            bad = true;
    }
    if (!arg || bad || help) {
        fprintf(help ? stdout : stderr,
                "usage: dsgx info FILE[.narc:INDEX|NAME] [--tex FILE.nsbtx ...] [--json]\n"
                "  models and texture-pattern animations also list where each texture\n"
                "  and palette comes from (the --tex files, the file, its archive, the\n"
                "  NSBTX files of its folder: as `dsgx render` finds them)\n");
        return help ? 0 : 2;
    }
    if (t3dm_cli_is_t3dm(arg)) return t3dm_cli_info(arg, json); /* tools/t3dm_info.c */
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(arg, &in, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int rc = 0;
    if (in.archive) {
        rc = list_narc(arg, &in.narc, json);
    } else {
        nitro_file f;
        nitro_status st = nitro_parse(in.data, in.size, &f);
        if (!st.ok) {
            rc = report(arg, &st);
        } else {
            rc = describe(arg, &f, tex, ntex, json);
            nitro_file_free(&f);
        }
    }
    dsgx_nitro_input_free(&in);
    return rc;
}
