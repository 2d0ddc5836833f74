/*
 * nitro.h - the NitroSystem G3D file formats, parsed: NSBMD (BMD0: MDL0 models + TEX0), NSBTX
 * (BTX0: TEX0), and the animation containers NSBCA/NSBTP/NSBTA/NSBMA/NSBVA (BCA0, BTP0, BTA0,
 * BMA0, BVA0) at the container level. Also Nintendo LZ77 (types 0x10, 0x11) and NARC archives.
 *
 * Parsers take (const uint8_t *data, size_t size) and return a nitro_status naming the
 * structure, the absolute byte offset and the reason of the first problem. They never read out
 * of bounds, never loop on cyclic offsets, and allocate at most a constant times the input size.
 *
 * The parsed structures BORROW the input buffer: every nitro_slice (mesh display lists, texel
 * data, palettes, the raw render-command bytes) is an (offset, size) pair into it, so the buffer
 * must outlive the nitro_file. Every slice has been checked to lie inside the buffer and every
 * index a decoded render command carries has been checked against the model's counts.
 *
 * Field layouts: GBATEK "DS Files - 3D Video BMD0/BTX0/BCA0"; scurest/apicula nsbmd docs;
 * pret/pokeheartgold lib/include/nnsys/g3d/binres/res_struct.h (NNSG3dResMdlInfo, the TEX0
 * info blocks, NNSG3dResDict); HaroohiePals/MarioKartToolbox (MIT)
 * src/HaroohiePals.Nitro.NitroSystem/G3d/Binary/Model/ (G3dNodeData, G3dMaterial, G3dShape,
 * G3dEnvelope, G3dMaterialSet, G3dDictionarySerializer) and G3d/Sbc.cs (render command
 * operand layouts).
 */
#ifndef DSGX_NITRO_H
#define DSGX_NITRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dsgx_api.h"
#include "../gx/fixed.h"

DSGX_BEGIN_DECLS

/* ---------------------------------------------------------------------------------------------
 * Status
 * ------------------------------------------------------------------------------------------- */

/** Result of a parse. ok == false: the first problem found, nothing else is valid. */
typedef struct nitro_status {
    bool ok;
    size_t offset;      /**< absolute byte offset in the parsed buffer of the bad field */
    char structure[40]; /**< e.g. "MDL0 model dict", "material", "TEX0 header" */
    char reason[96];    /**< e.g. "offset 0x1234 beyond end of file (0x400)" */
} nitro_status;

/** Format "FILE: STRUCTURE at offset 0xNN: reason" (no newline) into buf. */
void nitro_status_format(const nitro_status *st, const char *file, char *buf, size_t buf_size);

/* ---------------------------------------------------------------------------------------------
 * Common pieces
 * ------------------------------------------------------------------------------------------- */

/** A 16-byte resource name, NUL-padded in the file; s is always NUL-terminated here. */
typedef struct nitro_name {
    char s[17];
} nitro_name;

/** Set a name from a C string (truncated to 16 characters). */
void nitro_name_set(nitro_name *n, const char *s);

/** A byte range of the parsed buffer: data + offset .. data + offset + size (checked). */
typedef struct nitro_slice {
    uint32_t offset;
    uint32_t size;
} nitro_slice;

/** A name dictionary (NNSG3dResDict) as read: names and the raw entry words. */
typedef struct nitro_dict_entry {
    nitro_name name;
    uint32_t value; /**< the first 4 bytes of the entry's data (an offset, for offset dicts) */
} nitro_dict_entry;

/* ---------------------------------------------------------------------------------------------
 * MDL0 models
 * ------------------------------------------------------------------------------------------- */

/** Node (bone) flag bits (MarioKartToolbox G3dNodeData; GBATEK BoneMatrix flags). */
enum {
    NITRO_NODE_TRANS_ZERO = 0x0001,   /**< no translation stored: (0,0,0) */
    NITRO_NODE_ROT_ZERO = 0x0002,     /**< no rotation stored: identity */
    NITRO_NODE_SCALE_ONE = 0x0004,    /**< no scale stored: (1,1,1) */
    NITRO_NODE_PIVOT = 0x0008,        /**< rotation given as a pivot (index, signs, A, B) */
    NITRO_NODE_PIVOT_INDEX_SHIFT = 4, /**< bits 4-7: pivot index 0..8 */
    NITRO_NODE_PIVOT_NEG = 0x0100,    /**< the pivot entry is -1 instead of +1 */
    NITRO_NODE_PIVOT_REV_C = 0x0200,  /**< C = -B instead of +B */
    NITRO_NODE_PIVOT_REV_D = 0x0400,  /**< D = -A instead of +A */
};

/** One node (NNSG3dResNodeData): the local transform used by render command NODEDESC. */
typedef struct nitro_node {
    nitro_name name;
    uint32_t offset;     /**< absolute offset of the node record */
    uint16_t flags;      /**< NITRO_NODE_* bits as stored */
    fx32 translation[3]; /**< 1.19.12; zero when TRANS_ZERO */
    /** Raw 1.3.12 rotation as stored (_00 always present; _01.._22 only for a stored 3x3),
     *  row-major _00,_01,_02,_10,.. */
    int16_t rot_raw[9];
    unsigned pivot_index;     /**< 0..8, only meaningful with NITRO_NODE_PIVOT */
    int16_t pivot_a, pivot_b; /**< 1.3.12 pivot values, only with NITRO_NODE_PIVOT */
    /** The rotation as a 3x3 of 1.19.12, row-major _00,_01,_02,_10,.. (the MTX_MULT_3x3
     *  parameter order); identity when ROT_ZERO; decoded with nitro_pivot_to_mtx33 for pivots. */
    fx32 rotation[9];
    fx32 scale[3];     /**< 1.19.12; 1.0 when SCALE_ONE */
    fx32 inv_scale[3]; /**< 1.19.12 reciprocal scale stored beside it; 1.0 when SCALE_ONE */
} nitro_node;

/** Material flag bits (NNSG3dResMatData.flag; MarioKartToolbox G3dMaterialFlags). */
enum {
    NITRO_MAT_TEXMTX_USE = 0x0001,
    NITRO_MAT_TEXMTX_SCALE_ONE = 0x0002,  /**< no scaleS/T stored */
    NITRO_MAT_TEXMTX_ROT_ZERO = 0x0004,   /**< no rotation sin/cos stored */
    NITRO_MAT_TEXMTX_TRANS_ZERO = 0x0008, /**< no translateS/T stored */
    NITRO_MAT_ORIG_WH_SAME = 0x0010,
    NITRO_MAT_WIREFRAME = 0x0020,
    NITRO_MAT_DIFFUSE = 0x0040, /**< DIF_AMB diffuse comes from the material */
    NITRO_MAT_AMBIENT = 0x0080,
    NITRO_MAT_VTXCOLOR = 0x0100, /**< DIF_AMB bit 15 */
    NITRO_MAT_SPECULAR = 0x0200,
    NITRO_MAT_EMISSION = 0x0400,
    NITRO_MAT_SHININESS = 0x0800, /**< SPE_EMI bit 15 */
    NITRO_MAT_PLTT_BASE = 0x1000,
    NITRO_MAT_EFFECT_MTX = 0x2000, /**< a 4x4 effect matrix follows */
};

/** One material (NNSG3dResMatData), every field. */
typedef struct nitro_material {
    nitro_name name;
    uint32_t offset;            /**< absolute offset of the material record */
    uint16_t item_tag;          /**< 0 = the standard material */
    uint16_t size;              /**< record size in bytes as stored */
    uint32_t dif_amb;           /**< DIF_AMB value */
    uint32_t spe_emi;           /**< SPE_EMI value */
    uint32_t polygon_attr;      /**< POLYGON_ATTR value ... */
    uint32_t polygon_attr_mask; /**< ... and which of its bits the material sets */
    uint32_t teximage_param;    /**< TEXIMAGE_PARAM bits the material sets (repeat/flip/texgen) */
    uint32_t teximage_param_mask;
    uint16_t pltt_base;               /**< PLTT_BASE value (used with NITRO_MAT_PLTT_BASE) */
    uint16_t flags;                   /**< NITRO_MAT_* */
    uint16_t orig_width, orig_height; /**< original texture size in texels */
    fx32 mag_w, mag_h;                /**< 1.19.12 magnification of the texture size */
    fx32 scale_s, scale_t;            /**< texture matrix scale, 1.0 when TEXMTX_SCALE_ONE */
    int16_t rot_sin, rot_cos;         /**< 1.3.12 texture rotation, (0, 1.0) when TEXMTX_ROT_ZERO */
    fx32 trans_s, trans_t;            /**< texture translation, 0 when TEXMTX_TRANS_ZERO */
    fx32 effect_mtx[16];              /**< 4x4 row-major as stored, identity without EFFECT_MTX */
    /* Pairings (from the material -> texture / palette name dictionaries). */
    bool has_texture;
    nitro_name texture_name; /**< the TEX0 texture this material uses, if has_texture */
    bool has_palette;
    nitro_name palette_name; /**< the TEX0 palette this material uses, if has_palette */
} nitro_material;

/** One entry of the texture -> materials or palette -> materials dictionary. */
typedef struct nitro_pairing {
    nitro_name name;      /**< texture or palette name */
    uint16_t list_offset; /**< offset of the index list from the material block (as stored) */
    uint8_t count;        /**< number of materials */
    uint8_t flag;         /**< as stored (a runtime "bound" flag, 0 in files) */
    uint8_t *materials;   /**< count material indices (each < model num_materials) */
} nitro_pairing;

/** One mesh (NNSG3dResShpData): a blob of packed GXFIFO commands. */
typedef struct nitro_mesh {
    nitro_name name;
    uint32_t offset;   /**< absolute offset of the mesh record */
    uint16_t item_tag; /**< 0 = standard shape */
    uint16_t size;     /**< record size as stored (16) */
    uint32_t flags;    /**< shape flags as stored */
    nitro_slice dl;    /**< the packed GX commands (absolute slice, size a multiple of 4) */
} nitro_mesh;

/** Inverse bind ("envelope") matrices of one node, for render command NODEMIX. */
typedef struct nitro_envelope {
    /** 4x3 position matrix, 1.19.12, rows of 3 (the MTX_MULT_4x3 parameter order). */
    fx32 pos[12];
    /** 3x3 direction matrix, 1.19.12, rows of 3 (MTX_MULT_3x3 order). */
    fx32 dir[9];
} nitro_envelope;

/** Render command operations: opcode & 0x1f (MarioKartToolbox Sbc.cs; NOTES.md). */
enum nitro_sbc_op {
    NITRO_SBC_NOP = 0x00,
    NITRO_SBC_RET = 0x01,
    NITRO_SBC_NODE = 0x02,     /**< node visibility */
    NITRO_SBC_MTX = 0x03,      /**< restore matrix from stack slot */
    NITRO_SBC_MAT = 0x04,      /**< bind material (0x20/0x40: material cache modes) */
    NITRO_SBC_SHP = 0x05,      /**< draw mesh */
    NITRO_SBC_NODEDESC = 0x06, /**< multiply by node transform (0x20 store, 0x40 restore) */
    NITRO_SBC_BB = 0x07,       /**< billboard */
    NITRO_SBC_BBY = 0x08,      /**< Y billboard */
    NITRO_SBC_NODEMIX = 0x09,  /**< skinning: weighted sum of envelope matrices */
    NITRO_SBC_CALLDL = 0x0a,   /**< call a display list */
    NITRO_SBC_POSSCALE = 0x0b, /**< scale by pos_scale (0x2b: by inv_pos_scale) */
    NITRO_SBC_ENVMAP = 0x0c,
    NITRO_SBC_PRJMAP = 0x0d,
};
#define NITRO_SBC_FLAG_STORE   0x20u /* opcode bit 5 */
#define NITRO_SBC_FLAG_RESTORE 0x40u /* opcode bit 6 */

/** One NODEMIX term: position matrix in stack slot `slot` x envelope[node] x weight/256. */
typedef struct nitro_sbc_mix_term {
    uint8_t slot;
    uint8_t node;
    uint8_t weight;
} nitro_sbc_mix_term;

/** One decoded render command. Indices are validated against the model. -1 = absent. */
typedef struct nitro_sbc_cmd {
    uint32_t offset; /**< absolute offset of the opcode byte */
    uint16_t size;   /**< total bytes including the opcode */
    uint8_t opcode;  /**< raw byte */
    uint8_t op;      /**< enum nitro_sbc_op = opcode & 0x1f */
    union {
        struct {
            uint8_t node, flags;
        } node; /**< NODE; flags bit0 visible */
        struct {
            uint8_t slot;
        } mtx; /**< MTX */
        struct {
            uint8_t material;
        } mat; /**< MAT */
        struct {
            uint8_t mesh;
        } shp; /**< SHP */
        struct {
            uint8_t node, parent, flags; /**< flags: bit0 apply parent's inverse scale (Maya
                                              SSC), bit1 this node is an SSC parent */
            int16_t store, restore;      /**< stack slots or -1 */
        } nodedesc;                      /**< NODEDESC */
        struct {
            uint8_t node;
            int16_t store, restore;
        } bb; /**< BB, BBY */
        struct {
            uint8_t dest, count;
            uint32_t first;
        } nodemix; /**< NODEMIX: terms are
model->mix_terms[first .. first+count) */
        struct {
            uint32_t rel_offset;
            nitro_slice dl;
        } calldl; /**< CALLDL, rel to opcode */
        struct {
            bool inverse;
        } posscale; /**< POSSCALE */
        struct {
            uint8_t material, flags;
        } map; /**< ENVMAP, PRJMAP */
    } u;
} nitro_sbc_cmd;

/** The model header (NNSG3dResMdlInfo), every field. */
typedef struct nitro_model_info {
    uint8_t sbc_type;
    uint8_t scaling_rule; /**< 0 standard, 1 Maya (segment scale compensation), 2 XSI */
    uint8_t texmtx_mode;  /**< 0 Maya, 1 Softimage, 2 3ds Max, 3 XSI */
    uint8_t num_nodes;
    uint8_t num_materials;
    uint8_t num_meshes;
    uint8_t first_unused_mtx_stack;
    uint8_t pad;
    fx32 pos_scale, inv_pos_scale; /**< 1.19.12, for POSSCALE */
    uint16_t num_vertices, num_polygons, num_triangles, num_quads;
    int16_t box[6]; /**< 1.3.12 box x, y, z, width, height, depth (BOX_TEST) */
    fx32 box_pos_scale, box_inv_pos_scale;
} nitro_model_info;

typedef struct nitro_model {
    nitro_name name;
    uint32_t offset;                             /**< absolute offset of the model */
    uint32_t size;                               /**< model size as stored */
    uint32_t ofs_sbc, ofs_mat, ofs_shp, ofs_evp; /**< raw offsets relative to the model */
    nitro_model_info info;

    unsigned num_nodes;
    nitro_node *nodes;
    unsigned num_materials;
    nitro_material *materials;
    unsigned num_texture_pairings;
    nitro_pairing *texture_pairings;
    unsigned num_palette_pairings;
    nitro_pairing *palette_pairings;
    unsigned num_meshes;
    nitro_mesh *meshes;
    unsigned num_envelopes; /**< one per node when present, else 0 */
    nitro_envelope *envelopes;

    nitro_slice sbc; /**< raw render command bytes (up to and including RET) */
    unsigned num_cmds;
    nitro_sbc_cmd *cmds;
    unsigned num_mix_terms;
    nitro_sbc_mix_term *mix_terms;
} nitro_model;

/* ---------------------------------------------------------------------------------------------
 * TEX0 textures and palettes
 * ------------------------------------------------------------------------------------------- */

/** GX texture formats (TEXIMAGE_PARAM bits 26-28). */
enum nitro_tex_format {
    NITRO_TEX_NONE = 0,
    NITRO_TEX_A3I5 = 1,
    NITRO_TEX_PLTT4 = 2,
    NITRO_TEX_PLTT16 = 3,
    NITRO_TEX_PLTT256 = 4,
    NITRO_TEX_4X4 = 5,
    NITRO_TEX_A5I3 = 6,
    NITRO_TEX_DIRECT = 7,
};

typedef struct nitro_texture {
    nitro_name name;
    uint32_t teximage_param; /**< as stored: bits 0-15 offset>>3, 20-22 sizeS, 23-25 sizeT,
                                  26-28 format, 29 colour 0 transparent */
    uint32_t extra;          /**< as stored: bits 0-10 original width, 11-21 original height,
                                  bit 31 original size equals the GX size */
    unsigned format;         /**< enum nitro_tex_format */
    unsigned width, height;  /**< 8 << sizeS, 8 << sizeT */
    bool color0_transparent;
    uint32_t data_offset; /**< offset in the TEX0 texel block ((param & 0xffff) << 3);
                               for 4x4 in the 4x4 texel block */
    nitro_slice data;     /**< the texels (absolute slice, nitro_texture_size bytes) */
    nitro_slice pidx;     /**< 4x4 only: the palette-index data (half the texel size) */
} nitro_texture;

typedef struct nitro_palette {
    nitro_name name;
    uint16_t offset_raw;  /**< as stored: offset >> 3 */
    uint16_t flags;       /**< as stored: bit 0 = 4-colour palette (PLTT_BASE in 8-byte units) */
    uint32_t data_offset; /**< byte offset in the palette block */
    nitro_slice data;     /**< from the palette's start to the end of the palette block */
} nitro_palette;

typedef struct nitro_tex0 {
    uint32_t offset; /**< absolute offset of the TEX0 block */
    uint32_t size;   /**< block size as stored */
    /* Info blocks (NNSG3dResTexInfo / Tex4x4Info / PlttInfo), raw fields. */
    uint32_t tex_vram_key;
    uint16_t tex_size_raw; /**< texel block size >> 3 */
    uint16_t tex_flags;
    uint32_t tex4x4_vram_key;
    uint16_t tex4x4_size_raw; /**< 4x4 texel block size >> 3 */
    uint16_t tex4x4_flags;
    uint32_t pltt_vram_key;
    uint16_t pltt_size_raw; /**< palette block size >> 3 */
    uint16_t pltt_flags;
    nitro_slice tex_data;    /**< all non-4x4 texels */
    nitro_slice tex4x4_data; /**< 4x4 texel words */
    nitro_slice tex4x4_pidx; /**< 4x4 palette-index halfwords (half of tex4x4_data) */
    nitro_slice pltt_data;   /**< all palettes */
    unsigned num_textures;
    nitro_texture *textures;
    unsigned num_palettes;
    nitro_palette *palettes;
} nitro_tex0;

/** Bytes of texel data for a texture (for 4x4: the texel words only, pidx is half of it). */
uint32_t nitro_texture_size(unsigned format, unsigned width, unsigned height);
/** "A3I5", "4-colour", "16-colour", "256-colour", "4x4", "A5I3", "direct", "none". */
const char *nitro_tex_format_name(unsigned format);

/* ---------------------------------------------------------------------------------------------
 * Containers
 * ------------------------------------------------------------------------------------------- */

enum nitro_kind {
    NITRO_KIND_BMD0, /**< .nsbmd models (+ textures) */
    NITRO_KIND_BTX0, /**< .nsbtx textures */
    NITRO_KIND_BCA0, /**< .nsbca joint animation (JNT0) */
    NITRO_KIND_BTP0, /**< .nsbtp texture pattern animation (PAT0) */
    NITRO_KIND_BTA0, /**< .nsbta texture SRT animation (SRT0) */
    NITRO_KIND_BMA0, /**< .nsbma material colour animation (MAT0) */
    NITRO_KIND_BVA0, /**< .nsbva visibility animation (VIS0) */
};

/** One section (block) of a container. */
typedef struct nitro_section {
    char stamp[5];   /**< "MDL0", "TEX0", "JNT0", ... NUL-terminated */
    uint32_t offset; /**< absolute */
    uint32_t size;   /**< block size as stored (checked to fit the file) */
} nitro_section;

/** An animation section (JNT0/PAT0/SRT0/MAT0/VIS0): its dictionary of animations. */
typedef struct nitro_anim_set {
    unsigned section; /**< index into nitro_file.sections */
    unsigned num_anims;
    nitro_dict_entry *anims; /**< name + offset of each animation relative to the section */
    uint32_t *anim_offsets;  /**< absolute offsets of each animation (checked inside section) */
    char (*anim_stamps)[5];  /**< first 4 bytes of each animation ("J\0AC" shown as "J.AC") */
    uint16_t *anim_frames;   /**< the u16 frame count at +4 of each animation */
} nitro_anim_set;

typedef struct nitro_file {
    const uint8_t *data; /**< the borrowed buffer */
    size_t size;
    enum nitro_kind kind;
    char stamp[5];
    uint16_t bom; /**< 0xFEFF */
    uint16_t version;
    uint32_t file_size;   /**< as stored (<= size) */
    uint16_t header_size; /**< 16 */
    unsigned num_sections;
    nitro_section *sections;

    unsigned num_models; /**< MDL0 models (BMD0 only) */
    nitro_model *models;
    nitro_tex0 *tex0; /**< the TEX0 block, NULL if none */

    unsigned num_anim_sets;
    nitro_anim_set *anim_sets;
} nitro_file;

/**
 * Parse a BMD0/BTX0/BCA0/BTP0/BTA0/BMA0/BVA0 container. On failure *out is left empty (safe
 * to pass to nitro_file_free). The buffer must outlive *out.
 */
nitro_status nitro_parse(const uint8_t *data, size_t size, nitro_file *out);
void nitro_file_free(nitro_file *f);

/** Lookups by name (exact, up to 16 characters). @return index or -1. */
int nitro_find_model(const nitro_file *f, const char *name);
int nitro_find_texture(const nitro_tex0 *tex, const char *name);
int nitro_find_palette(const nitro_tex0 *tex, const char *name);

/**
 * Decode a pivot-compressed rotation to a 3x3 of 1.19.12, row-major _00.._22 (the order of
 * nitro_node.rotation). Entry `index` (0..8) is -1 if neg else +1, the rest of its row and
 * column are 0, and the remaining four entries, in storage order, are A, B, C = rev_c ? -B : B,
 * D = rev_d ? -A : A (MarioKartToolbox G3dUtil.DecodePivotRotation / PivotUtil table). Used by
 * node records and by NSBCA pivot matrices. index > 8 (invalid; the parser rejects such
 * nodes) gives the identity.
 */
void nitro_pivot_to_mtx33(unsigned index, bool neg, bool rev_c, bool rev_d, int16_t a, int16_t b,
                          fx32 out[9]);

/* ---------------------------------------------------------------------------------------------
 * LZ77 and NARC
 * ------------------------------------------------------------------------------------------- */

/** True if data starts like a Nintendo LZ77 stream (0x10 or 0x11 with a plausible size). */
bool nitro_lz77_detect(const uint8_t *data, size_t size);
/**
 * Decompress a type 0x10 (LZ77) or 0x11 (LZ11) stream. *out is malloc'd (free it); its size is
 * the header's, which must be <= max_out. Truncated input or a back-reference before the start
 * is an error.
 */
nitro_status nitro_lz77_decompress(const uint8_t *data, size_t size, size_t max_out, uint8_t **out,
                                   size_t *out_size);

typedef struct nitro_narc_file {
    uint32_t offset; /**< absolute offset of the file's data */
    uint32_t size;
    char *name; /**< full path ("dir/file") when the archive has names, else NULL */
} nitro_narc_file;

typedef struct nitro_narc {
    unsigned num_files;
    nitro_narc_file *files;
    bool has_names;
} nitro_narc;

nitro_status nitro_narc_parse(const uint8_t *data, size_t size, nitro_narc *out);
void nitro_narc_free(nitro_narc *n);
/** Index of the file whose path (or final name component) equals name, or -1. */
int nitro_narc_find(const nitro_narc *n, const char *name);

/* ---------------------------------------------------------------------------------------------
 * Description (dsgx info)
 * ------------------------------------------------------------------------------------------- */

/** A human-readable (json=false) or JSON description of f; malloc'd, NUL-terminated. */
/** Write s as a JSON string literal (quotes, backslashes and non-printable bytes escaped). */
void nitro_json_write_string(FILE *out, const char *s);
char *nitro_describe(const nitro_file *f, bool json);

DSGX_END_DECLS

#endif
