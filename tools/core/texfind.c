/*
 * texfind.c - texture lookup beside the model (see texfind.h for the rule).
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/core/texfind.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/core/nitro_open.h"

void dsgx_texlib_init(dsgx_texlib *lib)
{
    memset(lib, 0, sizeof *lib);
}

void dsgx_texlib_free(dsgx_texlib *lib)
{
    for (unsigned i = 0; i < lib->n; i++) {
        nitro_file_free(&lib->src[i].file);
        free(lib->src[i].buf);
    }
    free(lib->src);
    memset(lib, 0, sizeof *lib);
}

/* Take ownership of buf when it parses as a Nitro file with a TEX0 (and, for automatic
 * sources, is a BTX0). @return true when added (buf is then owned by the library). */
static bool add_buf(dsgx_texlib *lib, dsgx_tex_origin origin, const char *label, uint8_t *buf,
                    size_t size, char *why, size_t whylen)
{
    if (lib->n >= DSGX_TEXLIB_MAX_FILES || size > DSGX_TEXLIB_MAX_BYTES - lib->bytes) {
        snprintf(why, whylen, "%s: more than %u texture files or %u MiB", label,
                 DSGX_TEXLIB_MAX_FILES, DSGX_TEXLIB_MAX_BYTES >> 20);
        return false;
    }
    nitro_file f;
    nitro_status st = nitro_parse(buf, size, &f);
    if (!st.ok) {
        nitro_status_format(&st, label, why, whylen);
        return false;
    }
    bool want = f.tex0 && (origin == DSGX_TEX_OPTION || f.kind == NITRO_KIND_BTX0);
    if (!want) {
        snprintf(why, whylen, "%s: no textures in the file", label);
        nitro_file_free(&f);
        return false;
    }
    if (lib->n == lib->cap) {
        unsigned cap = lib->cap ? lib->cap * 2 : 8;
        dsgx_texsrc *s = realloc(lib->src, cap * sizeof *s);
        if (!s) {
            snprintf(why, whylen, "%s: out of memory", label);
            nitro_file_free(&f);
            return false;
        }
        lib->src = s;
        lib->cap = cap;
    }
    dsgx_texsrc *s = &lib->src[lib->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    s->origin = origin;
    s->buf = buf;
    s->size = size;
    s->file = f;
    lib->bytes += size;
    return true;
}

static void skip(dsgx_texlib *lib, const char *why)
{
    if (!lib->skipped++) snprintf(lib->first_skip, sizeof lib->first_skip, "%s", why);
}

int dsgx_texlib_add_option(dsgx_texlib *lib, const char *arg, char *err, size_t errlen)
{
    dsgx_nitro_input in;
    if (dsgx_nitro_open(arg, &in, err, errlen)) return -1;
    if (in.archive) {
        snprintf(err, errlen, "%s: a NARC archive: name a member (%s:INDEX or %s:NAME)", arg, arg,
                 arg);
        dsgx_nitro_input_free(&in);
        return -1;
    }
    if (!add_buf(lib, DSGX_TEX_OPTION, arg, in.data, in.size, err, errlen)) {
        dsgx_nitro_input_free(&in);
        return -1;
    }
    in.data = NULL; /* owned by the library now */
    dsgx_nitro_input_free(&in);
    return 0;
}

/* A member starts like a BTX0, plain or LZ77-compressed (the header's first bytes are then a
 * literal run that spells the magic a byte later): cheap test before unpacking everything. */
static bool maybe_btx0(const uint8_t *d, size_t n)
{
    if (n >= 4 && !memcmp(d, "BTX0", 4)) return true;
    return nitro_lz77_detect(d, n) && n >= 9 && !memcmp(d + 5, "BTX0", 4);
}

static unsigned add_archive(dsgx_texlib *lib, const char *archive_path)
{
    dsgx_nitro_input in;
    char err[600];
    if (dsgx_nitro_open(archive_path, &in, err, sizeof err)) return 0;
    unsigned added = 0;
    for (unsigned i = 0; in.archive && i < in.narc.num_files; i++) {
        const nitro_narc_file *nf = &in.narc.files[i];
        if (!maybe_btx0(in.data + nf->offset, nf->size)) continue;
        char label[1024];
        if (nf->name)
            snprintf(label, sizeof label, "%.700s:%u (%.300s)", archive_path, i, nf->name);
        else
            snprintf(label, sizeof label, "%.700s:%u", archive_path, i);
        uint8_t *buf = malloc(nf->size ? nf->size : 1);
        size_t size = nf->size;
        if (!buf) {
            skip(lib, "out of memory");
            continue;
        }
        memcpy(buf, in.data + nf->offset, nf->size);
        if (dsgx_nitro_unpack(label, &buf, &size, err, sizeof err) ||
            !add_buf(lib, DSGX_TEX_ARCHIVE, label, buf, size, err, sizeof err)) {
            free(buf);
            skip(lib, err);
            continue;
        }
        added++;
    }
    dsgx_nitro_input_free(&in);
    return added;
}

static bool ends_nsbtx(const char *name)
{
    static const char ext[] = ".nsbtx";
    size_t n = strlen(name), e = sizeof ext - 1;
    if (n <= e) return false;
    for (size_t i = 0; i < e; i++) {
        char c = name[n - e + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != ext[i]) return false;
    }
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned add_folder(dsgx_texlib *lib, const char *dir)
{
    DIR *d = opendir(dir[0] ? dir : ".");
    if (!d) return 0;
    char **names = NULL;
    unsigned n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < DSGX_TEXLIB_MAX_FILES;) {
        if (!ends_nsbtx(e->d_name)) continue;
        if (n == cap) {
            unsigned nc = cap ? cap * 2 : 16;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) break;
            names = nn;
            cap = nc;
        }
        names[n] = malloc(strlen(e->d_name) + 1);
        if (!names[n]) break;
        strcpy(names[n], e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    unsigned added = 0;
    for (unsigned i = 0; i < n; i++) {
        char path[4096], err[600];
        if (dir[0])
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        else
            snprintf(path, sizeof path, "%s", names[i]);
        free(names[i]);
        struct stat sb;
        if (stat(path, &sb) || !S_ISREG(sb.st_mode)) continue;
        dsgx_nitro_input in;
        if (dsgx_nitro_open(path, &in, err, sizeof err)) {
            skip(lib, err);
            continue;
        }
        if (in.archive) {
            snprintf(err, sizeof err, "%.500s: a NARC archive, not an NSBTX", path);
            skip(lib, err);
        } else if (add_buf(lib, DSGX_TEX_FOLDER, path, in.data, in.size, err, sizeof err)) {
            in.data = NULL;
            added++;
        } else {
            skip(lib, err);
        }
        dsgx_nitro_input_free(&in);
    }
    free(names);
    return added;
}

/* The folder of a path ("" for the current directory). */
static void folder_of(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", path);
    char *slash = strrchr(out, '/');
    if (!slash)
        out[0] = 0;
    else if (slash == out)
        out[1] = 0; /* "/x" -> "/" */
    else
        *slash = 0;
}

unsigned dsgx_texlib_add_around(dsgx_texlib *lib, const char *model_arg)
{
    char file[4096];
    snprintf(file, sizeof file, "%s", model_arg);
    struct stat sb;
    if (stat(file, &sb)) {
        /* ARCHIVE:MEMBER (the selector never holds a '/', as dsgx_nitro_open reads it) */
        char *colon = strrchr(file, ':');
        if (!colon || strchr(colon, '/')) return 0;
        *colon = 0;
        if (stat(file, &sb)) return 0;
    }
    unsigned added = 0;
    if (S_ISREG(sb.st_mode)) {
        FILE *f = fopen(file, "rb");
        char magic[4] = {0};
        bool narc = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "NARC", 4);
        if (f) fclose(f);
        if (narc) added += add_archive(lib, file);
    }
    char dir[4096];
    folder_of(file, dir, sizeof dir);
    return added + add_folder(lib, dir);
}

/* ---- the plan ---- */

void dsgx_texplan_init(dsgx_texplan *p)
{
    memset(p, 0, sizeof *p);
}

static void need(dsgx_texplan *p, const nitro_name *name, bool palette)
{
    for (unsigned i = 0; i < p->nneed; i++)
        if (p->need[i].palette == palette && !strncmp(p->need[i].name.s, name->s, 16)) return;
    if (p->nneed >= DSGX_TEXPLAN_MAX_NEED) return;
    dsgx_texneed *n = &p->need[p->nneed++];
    memset(n, 0, sizeof *n);
    memcpy(n->name.s, name->s, 16);
    n->palette = palette;
    n->set = n->also = -1;
}

void dsgx_texplan_need_model(dsgx_texplan *p, const nitro_model *m)
{
    for (unsigned i = 0; i < m->num_materials; i++) {
        const nitro_material *mat = &m->materials[i];
        if (mat->has_texture) need(p, &mat->texture_name, false);
        if (mat->has_palette) need(p, &mat->palette_name, true);
    }
}

void dsgx_texplan_need_anim(dsgx_texplan *p, const nitro_anim *a)
{
    if (a->kind != NITRO_ANIM_PAT) return;
    for (unsigned i = 0; i < a->num_tex_names; i++) need(p, &a->tex_names[i], false);
    for (unsigned i = 0; i < a->num_pltt_names; i++) need(p, &a->pltt_names[i], true);
}

static bool holds(const nitro_tex0 *t, const dsgx_texneed *n)
{
    return (n->palette ? nitro_find_palette(t, n->name.s) : nitro_find_texture(t, n->name.s)) >= 0;
}

static void add_set(dsgx_texplan *p, const nitro_tex0 *t, const uint8_t *d, const char *label,
                    dsgx_tex_origin o)
{
    p->tex[p->nsets] = t;
    p->data[p->nsets] = d;
    p->label[p->nsets] = label;
    p->origin[p->nsets++] = o;
}

unsigned dsgx_texplan_resolve(dsgx_texplan *p, const dsgx_texlib *lib, const nitro_tex0 *own,
                              const uint8_t *own_data, const char *own_label)
{
    p->nsets = 0;
    p->no_room = 0;
    for (unsigned s = 0; s < lib->n && p->nsets < NITRO_MAX_TEX_SETS; s++)
        if (lib->src[s].origin == DSGX_TEX_OPTION)
            add_set(p, lib->src[s].file.tex0, lib->src[s].buf, lib->src[s].label, DSGX_TEX_OPTION);
    if (own && p->nsets < NITRO_MAX_TEX_SETS) add_set(p, own, own_data, own_label, DSGX_TEX_MODEL);
    unsigned fixed = p->nsets;
    /* each name the fixed sets lack picks the first automatic source holding it */
    bool *pick = lib->n ? calloc(lib->n, sizeof *pick) : NULL;
    for (unsigned i = 0; i < p->nneed; i++) {
        dsgx_texneed *n = &p->need[i];
        n->set = n->also = -1;
        bool found = false;
        for (unsigned k = 0; k < fixed && !found; k++) found = holds(p->tex[k], n);
        if (found) continue;
        int first = -1;
        for (unsigned s = 0; s < lib->n; s++) {
            if (lib->src[s].origin == DSGX_TEX_OPTION || !holds(lib->src[s].file.tex0, n)) continue;
            if (first < 0) {
                first = (int)s;
            } else {
                n->also = (int)s;
                break;
            }
        }
        if (first >= 0 && pick) pick[first] = true;
    }
    /* upload the picked sources in library order, so the runtime's first-match binding agrees */
    for (unsigned s = 0; pick && s < lib->n; s++) {
        if (!pick[s]) continue;
        if (p->nsets < NITRO_MAX_TEX_SETS)
            add_set(p, lib->src[s].file.tex0, lib->src[s].buf, lib->src[s].label,
                    lib->src[s].origin);
        else
            p->no_room++;
    }
    free(pick);
    unsigned missing = 0;
    for (unsigned i = 0; i < p->nneed; i++) {
        dsgx_texneed *n = &p->need[i];
        for (unsigned k = 0; k < p->nsets && n->set < 0; k++)
            if (holds(p->tex[k], n)) n->set = (int)k;
        if (n->set < 0 || p->origin[n->set] < DSGX_TEX_ARCHIVE) n->also = -1;
        if (n->set < 0) missing++;
    }
    return missing;
}

void dsgx_texplan_format(const dsgx_texplan *p, const dsgx_texlib *lib, unsigned i, char *out,
                         size_t size)
{
    const dsgx_texneed *n = &p->need[i];
    const char *kind = n->palette ? "palette" : "texture";
    if (n->set < 0) {
        snprintf(out, size, "%s %s not found", kind, n->name.s);
        return;
    }
    bool own = p->origin[n->set] == DSGX_TEX_MODEL;
    int k = snprintf(out, size, "%s %s %s %s%s", kind, n->name.s, own ? "in" : "from",
                     p->label[n->set], p->origin[n->set] == DSGX_TEX_OPTION ? " (--tex)" : "");
    if (n->also >= 0 && k >= 0 && (size_t)k < size)
        snprintf(out + k, size - (size_t)k, "; also in %s (not used)", lib->src[n->also].label);
}
