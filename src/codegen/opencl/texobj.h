/* texobj.h: the texture/surface descriptor of the OpenCL dialect, the
 * contract between the OpenCL backend, which writes it into device memory
 * (src/backend/opencl/texture.c), and the generated OpenCL C, which reads it
 * (opencl/tex.c).
 *
 * A CUtexObject or CUsurfObject on the OpenCL backend is the device address
 * of one of these, followed, for a mipmapped texture, by one per level
 * (level is the device address of the first). The fields are kernel_abi.h's
 * cb_texobj (the C dialect's), with device addresses (uint64_t) in place of
 * pointers, and self, the descriptor's own device address: the generated
 * code reaches byte a of device memory from a descriptor at o as
 * (uchar *)o + (a - o->self), so the sampling helpers need no heap
 * argument. One field list makes both the host's struct and the OpenCL C
 * text; the padding is explicit, so the layout is that of natural alignment
 * with no gaps (160 bytes, little-endian as the heap's other data), which
 * the host checks (_Static_assert) and OpenCL C compilers lay out alike.
 */
#ifndef CB_CODEGEN_OPENCL_TEXOBJ_H
#define CB_CODEGEN_OPENCL_TEXOBJ_H

#include <stdint.h>

/* X(type, field) for each field, in order. */
#define CB_OCL_TEXOBJ_FIELDS(X)                                                                   \
    X(uint32_t, magic)              /*   0: CB_OCL_TEXOBJ_MAGIC */                                 \
    X(uint32_t, is_surface)         /*   4 */                                                     \
    X(uint64_t, base)               /*   8: device address of the texels */                       \
    X(uint64_t, pitch)              /*  16: bytes between rows, slices, layers */                 \
    X(uint64_t, slice)              /*  24 */                                                     \
    X(uint64_t, layer_bytes)        /*  32 */                                                     \
    X(uint32_t, width)              /*  40: elements; layers 0 = not layered */                   \
    X(uint32_t, height)             /*  44 */                                                     \
    X(uint32_t, depth)              /*  48 */                                                     \
    X(uint32_t, layers)             /*  52 */                                                     \
    X(uint32_t, dims)               /*  56: 1, 2 or 3 */                                          \
    X(uint32_t, format)             /*  60: CU_AD_FORMAT_* */                                     \
    X(uint32_t, channels)           /*  64 */                                                     \
    X(uint32_t, elem_bytes)         /*  68 */                                                     \
    X(uint32_t, address[3])         /*  72: CU_TR_ADDRESS_MODE_* */                               \
    X(uint32_t, filter)             /*  84: CU_TR_FILTER_MODE_* */                                \
    X(uint32_t, flags)              /*  88: CU_TRSF_* */                                          \
    X(float, border[4])             /*  92 */                                                     \
    X(uint32_t, cube)               /* 108: layers count faces, 6 per cube */                     \
    X(uint32_t, num_levels)         /* 112: > 1: mipmapped */                                     \
    X(uint32_t, pad0)               /* 116 */                                                     \
    X(uint64_t, level)              /* 120: device address of level 0's descriptor, or 0 */       \
    X(uint32_t, mip_filter)         /* 128 */                                                     \
    X(float, lod_bias)              /* 132 */                                                     \
    X(float, min_lod)               /* 136 */                                                     \
    X(float, max_lod)               /* 140 */                                                     \
    X(uint32_t, max_aniso)          /* 144: 0 or 1 isotropic */                                   \
    X(uint32_t, pad1)               /* 148 */                                                     \
    X(uint64_t, self)               /* 152: this descriptor's device address */

#define CB_OCL_TEXOBJ_BYTES 160
#define CB_OCL_TEXOBJ_MAGIC 0x54584f42u   /* kernel_abi.h's CB_TEXOBJ_MAGIC */

#include <stddef.h>

#define CB_OCL_TEXOBJ_FIELD(type, field) type field;
typedef struct cb_ocl_texobj {
    CB_OCL_TEXOBJ_FIELDS(CB_OCL_TEXOBJ_FIELD)
} cb_ocl_texobj;
#undef CB_OCL_TEXOBJ_FIELD

_Static_assert(sizeof(cb_ocl_texobj) == CB_OCL_TEXOBJ_BYTES, "cb_ocl_texobj has padding");
_Static_assert(offsetof(cb_ocl_texobj, base) == 8 && offsetof(cb_ocl_texobj, width) == 40 &&
                   offsetof(cb_ocl_texobj, border) == 92 && offsetof(cb_ocl_texobj, level) == 120 &&
                   offsetof(cb_ocl_texobj, max_aniso) == 144 && offsetof(cb_ocl_texobj, self) == 152,
               "cb_ocl_texobj's layout moved");

#endif
