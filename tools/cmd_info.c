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

#define INFO_MAX_FILE ((size_t)64 << 20)

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap >= INFO_MAX_FILE) break;
            cap = cap ? cap * 2 : 65536;
            uint8_t *p = realloc(buf, cap);
            if (!p) break;
            buf = p;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (!got) break;
        len += got;
    }
    fclose(f);
    if (!buf) buf = malloc(1);
    *size = len;
    return buf;
}

static bool is_narc(const uint8_t *d, size_t n)
{
    return n >= 4 && !memcmp(d, "NARC", 4);
}

static bool is_nitro(const uint8_t *d, size_t n)
{
    static const char *const s[] = {"BMD0", "BTX0", "BCA0", "BTP0", "BTA0", "BMA0", "BVA0"};
    for (int i = 0; i < 7; i++)
        if (n >= 4 && !memcmp(d, s[i], 4)) return true;
    return false;
}

/* Replace *data by its decompression when it looks LZ77-compressed and is nothing else. */
static bool maybe_decompress(const char *name, uint8_t **data, size_t *size)
{
    if (is_nitro(*data, *size) || is_narc(*data, *size) || !nitro_lz77_detect(*data, *size))
        return true;
    uint8_t *out;
    size_t out_size;
    nitro_status st = nitro_lz77_decompress(*data, *size, INFO_MAX_FILE, &out, &out_size);
    if (!st.ok) {
        char msg[300];
        nitro_status_format(&st, name, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return false;
    }
    free(*data);
    *data = out;
    *size = out_size;
    return true;
}

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

/* Select a member of an archive; on success data and size become a copy of it. */
static int select_member(const char *arg, const char *sel, uint8_t **data, size_t *size, bool json,
                         bool *listed)
{
    nitro_narc n;
    nitro_status st = nitro_narc_parse(*data, *size, &n);
    if (!st.ok) return report(arg, &st);
    if (!sel) {
        *listed = true;
        int rc = list_narc(arg, &n, json);
        nitro_narc_free(&n);
        return rc;
    }
    char *end;
    long idx = strtol(sel, &end, 10);
    if (*sel == 0 || *end != 0) idx = nitro_narc_find(&n, sel);
    if (idx < 0 || (unsigned long)idx >= n.num_files) {
        fprintf(stderr, "%s: NARC: no member \"%s\"\n", arg, sel);
        nitro_narc_free(&n);
        return 1;
    }
    uint8_t *copy = malloc(n.files[idx].size ? n.files[idx].size : 1);
    if (!copy) {
        nitro_narc_free(&n);
        return 1;
    }
    memcpy(copy, *data + n.files[idx].offset, n.files[idx].size);
    *size = n.files[idx].size;
    free(*data);
    *data = copy;
    nitro_narc_free(&n);
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
    char path[4096];
    snprintf(path, sizeof path, "%s", arg);
    const char *sel = NULL;
    size_t size;
    uint8_t *data = load(path, &size);
    if (!data) {
        char *colon = strrchr(path, ':');
        if (colon) {
            *colon = 0;
            sel = colon + 1;
            data = load(path, &size);
        }
    }
    if (!data) {
        fprintf(stderr, "%s: cannot read file\n", arg);
        return 1;
    }
    int rc = 0;
    bool listed = false;
    if (!maybe_decompress(arg, &data, &size))
        rc = 1;
    else if (is_narc(data, size)) {
        rc = select_member(arg, sel, &data, &size, json, &listed);
        if (!rc && !listed && !maybe_decompress(arg, &data, &size)) rc = 1;
    } else if (sel) {
        fprintf(stderr, "%s: not a NARC archive\n", path);
        rc = 1;
    }
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
    free(data);
    return rc;
}
