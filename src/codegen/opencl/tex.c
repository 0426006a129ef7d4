/* tex.c: texture and surface objects in the OpenCL dialect (opencl.h).
 *
 * The instructions (tex, tld4, txq, suld, sust) are the C dialect's emitters
 * (c/tex.c) and sampling helpers (cb_codegen_c_prelude_tex), compiled as
 * OpenCL C after the text below, which says how this dialect reaches an
 * object and its texels: a handle is the device address of a descriptor in
 * the heap (texobj.h, written by src/backend/opencl/texture.c), whose
 * texels are reached relative to the descriptor (its self field), so the
 * helpers take no heap argument. A handle that is not a descriptor traps;
 * the helpers return NULL then and the emitted code ends the thread
 * (cg_target.trap_returns). The helpers compute in double and take the half
 * conversions of c/prelude_half.c, so a unit with textures needs
 * cl_khr_fp64, as one with half precision does.
 */
#include "codegen/opencl/opencl.h"
#include "codegen/opencl/texobj.h"

#define FIELD_TEXT(type, field) " " #type " " #field ";"
#define VALUE_TEXT(v) #v
#define TEXT(v) VALUE_TEXT(v)

const char cb_codegen_opencl_prelude_tex[] =
"/* ---- textures and surfaces: descriptors in the heap (codegen/opencl/texobj.h) ---- */\n"
"typedef struct cb_texobj {" CB_OCL_TEXOBJ_FIELDS(FIELD_TEXT) " } cb_texobj;\n"
"typedef char cb_texobj_layout[sizeof(cb_texobj) == " TEXT(CB_OCL_TEXOBJ_BYTES) " ? 1 : -1];   /* texobj.h's layout, no padding */\n"
"#define CB_TEXOBJ_MAGIC " TEXT(CB_OCL_TEXOBJ_MAGIC) "\n"
"#define CB_TXO __global const cb_texobj *\n"
"#define CB_TXB __global const uchar *\n"
"#define CB_SUB __global uchar *\n"
"#define CB_TX_CTX __global uchar *t\n"
"#define CB_TX_TRAP(t) (void)(t)   /* the emitted code traps when the helper returns NULL */\n"
"/* device address a, seen from descriptor o */\n"
"#define CB_TX_AT(o, a) ((__global uchar *)(o) + ((ulong)(a) - (o)->self))\n"
"#define CB_TX_BASE(o) CB_TX_AT(o, (o)->base)\n"
"#define CB_TX_LEVEL(o, l) ((CB_TXO)CB_TX_AT(o, (o)->level) + (l))\n"
"#define CB_TX_LD(T, p) (*(__global const T *)(p))\n"
"#define CB_TX_ST(T, p, v) (*(__global T *)(p) = (v))\n"
"#define CB_TX_TAB const\n"
"/* the descriptor at handle h, or NULL (the caller traps) */\n"
"CB_INL CB_TXO cb_tx(__global uchar *cb_heap, ulong h) {\n"
"  if (h - CB_HEAP_BASE > CB_HEAP_SIZE - sizeof(cb_texobj) || (h & 7u)) return 0;\n"
"  CB_TXO o = (CB_TXO)CB_GP(h); return o->magic == CB_TEXOBJ_MAGIC && o->self == h ? o : 0; }\n";

int ocl_unit_uses_textures(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t k = 0; m->funcs[i].defined && k < m->funcs[i].ninstrs; k++)
            if (ptx_ops[m->funcs[i].instrs[k].op].flags & PTX_OPF_TEXTURE)
                return 1;
    return 0;
}
