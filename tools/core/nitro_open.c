/*
 * nitro_open.c - FILE / ARCHIVE.narc:INDEX|NAME with transparent LZ77 (see nitro_open.h).
 */
#include "tools/core/nitro_open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/core/trace.h"

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

int dsgx_nitro_unpack(const char *name, uint8_t **data, size_t *size, char *err, size_t errlen)
{
    if (is_nitro(*data, *size) || is_narc(*data, *size) || !nitro_lz77_detect(*data, *size))
        return 0;
    uint8_t *out;
    size_t osz;
    nitro_status st = nitro_lz77_decompress(*data, *size, DSGX_NITRO_MAX_FILE, &out, &osz);
    if (!st.ok) {
        nitro_status_format(&st, name, err, errlen);
        return -1;
    }
    free(*data);
    *data = out;
    *size = osz;
    return 0;
}

static int unpack(const char *name, dsgx_nitro_input *in, char *err, size_t errlen)
{
    return dsgx_nitro_unpack(name, &in->data, &in->size, err, errlen);
}

int dsgx_nitro_open(const char *arg, dsgx_nitro_input *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    char path[4096];
    snprintf(path, sizeof path, "%s", arg);
    const char *sel = NULL;
    char rerr[512];
    if (dsgx_read_file(path, &in->data, &in->size, rerr, sizeof rerr)) {
        /* not a file: ARCHIVE:SELECTOR */
        char *colon = strrchr(path, ':');
        if (!colon || !colon[1] || strchr(colon, '/')) {
            snprintf(err, errlen, "%s", rerr);
            return -1;
        }
        *colon = 0;
        sel = colon + 1;
        if (dsgx_read_file(path, &in->data, &in->size, rerr, sizeof rerr)) {
            snprintf(err, errlen, "%s", rerr);
            return -1;
        }
    }
    if (in->size > DSGX_NITRO_MAX_FILE) {
        snprintf(err, errlen, "%s: file too large", path);
        goto fail;
    }
    if (unpack(path, in, err, errlen)) goto fail;
    if (!is_narc(in->data, in->size)) {
        if (sel) {
            snprintf(err, errlen, "%s: not a NARC archive (selector \"%s\")", path, sel);
            goto fail;
        }
        return 0;
    }
    nitro_status st = nitro_narc_parse(in->data, in->size, &in->narc);
    if (!st.ok) {
        nitro_status_format(&st, path, err, errlen);
        goto fail;
    }
    if (!sel) {
        in->archive = true;
        return 0;
    }
    char *end;
    long idx = strtol(sel, &end, 10);
    if (*end != 0) idx = nitro_narc_find(&in->narc, sel);
    if (idx < 0 || (unsigned long)idx >= in->narc.num_files) {
        snprintf(err, errlen, "%s: NARC: no member \"%s\" (%u members)", path, sel,
                 in->narc.num_files);
        nitro_narc_free(&in->narc);
        goto fail;
    }
    const nitro_narc_file *f = &in->narc.files[idx];
    uint8_t *copy = malloc(f->size ? f->size : 1);
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", path);
        nitro_narc_free(&in->narc);
        goto fail;
    }
    memcpy(copy, in->data + f->offset, f->size);
    free(in->data);
    in->data = copy;
    in->size = f->size;
    nitro_narc_free(&in->narc);
    memset(&in->narc, 0, sizeof in->narc);
    char member[4200];
    snprintf(member, sizeof member, "%s:%s", path, sel);
    if (unpack(member, in, err, errlen)) goto fail;
    return 0;
fail:
    dsgx_nitro_input_free(in);
    return -1;
}

void dsgx_nitro_input_free(dsgx_nitro_input *in)
{
    if (in->archive) nitro_narc_free(&in->narc);
    free(in->data);
    memset(in, 0, sizeof *in);
}
