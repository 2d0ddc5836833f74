/*
 * cmd_info.c - `dsgx info FILE [--json]`: describes an NSBMD/NSBTX/NSBCA/NSBTP/NSBTA/NSBMA/
 * NSBVA file (models, nodes, materials, meshes, textures, palettes, animation sections).
 * FILE may be `archive.narc:INDEX` or `archive.narc:NAME`; LZ77-compressed files (and archive
 * members) are decompressed transparently. A bare NARC lists its files.
 * Bad input: one line "FILE: STRUCTURE at offset 0xNN: reason" on stderr, exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nitro/anim.h"
#include "nitro/nitro.h"
#include "tools/commands.h"
#include "tools/core/nitro_open.h"
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

/* The file's description, plus each animation's kind, length, targets and curve statistics
 * (nitro/anim.h) for animation files; in JSON the details join the file's object as
 * "animation_details". */
static int print_with_animations(const char *name, const nitro_file *f, const char *text, bool json)
{
    if (!f->num_anim_sets) {
        fputs(text, stdout);
        return 0;
    }
    nitro_anims a;
    nitro_status st = nitro_anims_parse(f, &a);
    if (!st.ok) {
        fputs(text, stdout);
        return report(name, &st);
    }
    size_t n = strlen(text);
    if (json) {
        while (n && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
        if (n && text[n - 1] == '}') n--; /* reopen the file's object */
        fwrite(text, 1, n, stdout);
        fputs(",\"animation_details\":", stdout);
        nitro_anim_describe(&a, stdout, true);
        fputs("}\n", stdout);
    } else {
        fputs(text, stdout);
        nitro_anim_describe(&a, stdout, false);
    }
    nitro_anims_free(&a);
    return 0;
}

int cmd_info(int argc, char **argv)
{
    const char *arg = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!arg)
            arg = argv[i];
        else
            arg = NULL, i = argc; /* two files: usage */
    }
    if (!arg) {
        fprintf(stderr, "usage: dsgx info FILE[.narc:INDEX|NAME] [--json]\n");
        return 2;
    }
    if (t3dm_cli_is_t3dm(arg)) return t3dm_cli_info(arg, json); /* tools/t3dm_info.c */
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(arg, &in, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int rc = 0;
    bool listed = false;
    if (in.archive) {
        listed = true;
        rc = list_narc(arg, &in.narc, json);
    }
    uint8_t *data = in.data;
    size_t size = in.size;
    if (!rc && !listed) {
        nitro_file f;
        nitro_status st = nitro_parse(data, size, &f);
        if (!st.ok)
            rc = report(arg, &st);
        else {
            char *text = nitro_describe(&f, json);
            if (text)
                rc = print_with_animations(arg, &f, text, json);
            else
                rc = 1;
            free(text);
            nitro_file_free(&f);
        }
    }
    dsgx_nitro_input_free(&in);
    return rc;
}
