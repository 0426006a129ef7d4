/* codegen_c_tex.c: texture and surface instructions over texture/surface
 * objects (CB_DIALECT_C): tex, tld4, txq, suld.b, sust.b, in 1D, 2D, 3D
 * and layered (a1d, a2d) forms.
 *
 * The object operand is a 64-bit CUtexObject/CUsurfObject: the address of a
 * cb_texobj (kernel_abi.h). Sampling is done by the helpers below, in the
 * generated unit:
 *   - coordinates: float coordinates are scaled by the size when the object
 *     has normalized coordinates; integer coordinates address texels;
 *   - addressing: wrap, clamp, mirror, border (wrap and mirror need
 *     normalized coordinates; otherwise they clamp, as in CUDA); layers are
 *     clamped to the layer count;
 *   - filtering: point, or linear with weights in 1.8 fixed point (the
 *     precision the CUDA programming guide states for the hardware); in 2D
 *     the corner weights are formed as an H200 forms them (checked there):
 *     w11 = round(a * b), w10 = a - w11, w01 = b - w11, w00 = the rest;
 *     3D uses the products of the axis weights (not checked on hardware);
 *   - read mode: integer formats read as normalized floats unless the
 *     object says CU_TRSF_READ_AS_INTEGER; missing channels read as 0.
 * Surfaces take x in bytes (suld.b/sust.b); .trap (the default) traps out
 * of range, .clamp clamps to the edge, .zero loads 0 and drops stores.
 * Not supported (translation error): texture references and independent
 * samplers, cube maps, mip levels and gradients, formatted sust.p.
 */
#include "codegen/codegen.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_tex[] =
"/* ---- textures and surfaces ---- */\n"
"CB_INL const cb_texobj *cb_tx(cb_thread *t, uint64_t h) { const cb_texobj *o = (const cb_texobj *)(uintptr_t)h;\n"
"  if (!o || o->magic != CB_TEXOBJ_MAGIC) t->blk->rt->trap(t); return o; }\n"
"CB_INL void cb_tx_load(const cb_texobj *o, const unsigned char *p, float f[4], int32_t iv[4]) {\n"
"  int fb = (int)(o->elem_bytes / o->channels), nm = !(o->flags & 1u);\n"
"  for (int c = 0; c < 4; c++) { f[c] = 0; iv[c] = 0; }\n"
"  for (uint32_t c = 0; c < o->channels; c++) { const unsigned char *q = p + c * (uint32_t)fb;\n"
"    switch (o->format) {\n"
"    case 0x01: { uint8_t v = q[0]; iv[c] = v; f[c] = nm ? (float)v / 255.0f : (float)v; break; }\n"
"    case 0x02: { uint16_t v; memcpy(&v, q, 2); iv[c] = v; f[c] = nm ? (float)v / 65535.0f : (float)v; break; }\n"
"    case 0x03: { uint32_t v; memcpy(&v, q, 4); iv[c] = (int32_t)v; f[c] = (float)v; break; }\n"
"    case 0x08: { int8_t v = (int8_t)q[0]; iv[c] = v; f[c] = nm ? fmaxf((float)v / 127.0f, -1.0f) : (float)v; break; }\n"
"    case 0x09: { int16_t v; memcpy(&v, q, 2); iv[c] = v; f[c] = nm ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v; break; }\n"
"    case 0x0a: { int32_t v; memcpy(&v, q, 4); iv[c] = v; f[c] = (float)v; break; }\n"
"    case 0x10: { uint16_t v; memcpy(&v, q, 2); f[c] = (float)cb_hd(0, v); iv[c] = (int32_t)cb_bits32(f[c]); break; }\n"
"    default: { float v; memcpy(&v, q, 4); f[c] = v; iv[c] = (int32_t)cb_bits32(v); break; } } } }\n"
"/* texel index i of n under an address mode (0 wrap, 1 clamp, 2 mirror, 3 border); 0 when it is the border */\n"
"CB_INL int cb_tx_wrap(uint32_t mode, int64_t i, int64_t n, int64_t *out) {\n"
"  if (i >= 0 && i < n) { *out = i; return 1; }\n"
"  switch (mode) {\n"
"  case 0: { int64_t m = i % n; if (m < 0) m += n; *out = m; return 1; }\n"
"  case 2: { int64_t p2 = 2 * n, m = i % p2; if (m < 0) m += p2; *out = m < n ? m : p2 - 1 - m; return 1; }\n"
"  case 3: return 0;\n"
"  default: *out = i < 0 ? 0 : n - 1; return 1; } }\n"
"CB_INL void cb_tx_texel(const cb_texobj *o, int64_t x, int64_t y, int64_t z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  int64_t xi = 0, yi = 0, zi = 0; int ok = 1; uint32_t m[3];\n"
"  for (int d = 0; d < 3; d++) { m[d] = o->address[d]; if (!(o->flags & 2u) && m[d] != 3) m[d] = 1; }\n"
"  ok &= cb_tx_wrap(m[0], x, o->width, &xi);\n"
"  if (o->dims > 1) ok &= cb_tx_wrap(m[1], y, o->height, &yi);\n"
"  if (o->dims > 2) ok &= cb_tx_wrap(m[2], z, o->depth, &zi);\n"
"  if (!ok) { for (int c = 0; c < 4; c++) { f[c] = o->border[c]; iv[c] = (int32_t)o->border[c]; } return; }\n"
"  if (o->layers) layer = layer < 0 ? 0 : layer >= (int64_t)o->layers ? (int64_t)o->layers - 1 : layer; else layer = 0;\n"
"  cb_tx_load(o, o->base + (uint64_t)layer * o->layer_bytes + (uint64_t)zi * o->slice + (uint64_t)yi * o->pitch +\n"
"             (uint64_t)xi * o->elem_bytes, f, iv); }\n"
"/* the unnormalized coordinate of c along axis d */\n"
"CB_INL float cb_tx_coord(const cb_texobj *o, int d, float c) { uint32_t n = d == 0 ? o->width : d == 1 ? o->height : o->depth;\n"
"  return (o->flags & 2u) ? c * (float)n : c; }\n"
"CB_INL int cb_tx_frac8(float a) { return (int)floorf(a * 256.0f + 0.5f); }\n"
"/* tex with float coordinates: point or linear filtering */\n"
"CB_INL void cb_tx_sample(const cb_texobj *o, float x, float y, float z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  float u[3] = {cb_tx_coord(o, 0, x), cb_tx_coord(o, 1, y), cb_tx_coord(o, 2, z)}; int dims = (int)o->dims;\n"
"  if (o->filter != 1 || (o->flags & 1u)) {\n"
"    cb_tx_texel(o, (int64_t)floorf(u[0]), (int64_t)floorf(u[1]), (int64_t)floorf(u[2]), layer, f, iv); return; }\n"
"  int64_t i0[3] = {0, 0, 0}; int a[3] = {0, 0, 0}; double w[8], s[4] = {0, 0, 0, 0};\n"
"  for (int d = 0; d < dims; d++) { float b = u[d] - 0.5f; float fl = floorf(b); i0[d] = (int64_t)fl; a[d] = cb_tx_frac8(b - fl); }\n"
"  /* weights in 1/256: 2D as an H200 computes them (w11 = a*b rounded, the others by difference) */\n"
"  if (dims == 1) { w[0] = 256 - a[0]; w[1] = a[0]; }\n"
"  else if (dims == 2) { int w11 = (a[0] * a[1] + 128) >> 8; w[3] = w11; w[1] = a[0] - w11; w[2] = a[1] - w11;\n"
"    w[0] = 256 - a[0] - a[1] + w11; }\n"
"  else for (int k = 0; k < 8; k++) { double p = 256; for (int d = 0; d < 3; d++) p *= ((k >> d & 1) ? a[d] : 256 - a[d]) / 256.0; w[k] = p; }\n"
"  for (int c = 0; c < 4; c++) { f[c] = 0; iv[c] = 0; }\n"
"  for (int k = 0; k < (1 << dims); k++) { float tf[4]; int32_t ti[4];\n"
"    cb_tx_texel(o, i0[0] + (k & 1), i0[1] + (k >> 1 & 1), i0[2] + (k >> 2 & 1), layer, tf, ti);\n"
"    for (int c = 0; c < 4; c++) s[c] += w[k] * (double)tf[c]; }\n"
"  for (int c = 0; c < 4; c++) f[c] = (float)(s[c] / 256.0); }\n"
"/* tld4: component comp of the four texels of a bilinear footprint (2D) */\n"
"CB_INL void cb_tx_gather(const cb_texobj *o, int comp, float x, float y, float f[4], int32_t iv[4]) {\n"
"  float bx = cb_tx_coord(o, 0, x) - 0.5f, by = cb_tx_coord(o, 1, y) - 0.5f;\n"
"  int64_t x0 = (int64_t)floorf(bx), y0 = (int64_t)floorf(by); float tf[4]; int32_t ti[4];\n"
"  static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};\n"
"  for (int k = 0; k < 4; k++) { cb_tx_texel(o, x0 + dx[k], y0 + dy[k], 0, 0, tf, ti); f[k] = tf[comp]; iv[k] = ti[comp]; } }\n"
"/* suld.b/sust.b: the address of n bytes at byte x, row y, slice z, layer l; mode 0 trap, 1 clamp, 2 zero (NULL) */\n"
"CB_INL unsigned char *cb_su_addr(cb_thread *t, const cb_texobj *o, uint32_t n, int64_t x, int64_t y, int64_t z, int64_t l, int mode) {\n"
"  int64_t w = (int64_t)o->width * o->elem_bytes, h = o->dims > 1 ? o->height : 1, dp = o->dims > 2 ? o->depth : 1;\n"
"  int64_t nl = o->layers ? o->layers : 1;\n"
"  int out = x < 0 || x + n > w || y < 0 || y >= h || z < 0 || z >= dp || l < 0 || l >= nl;\n"
"  if (out) { if (mode == 2) return NULL; if (mode == 0) t->blk->rt->trap(t);\n"
"    x = x < 0 ? 0 : x + n > w ? w - n : x; y = y < 0 ? 0 : y >= h ? h - 1 : y; z = z < 0 ? 0 : z >= dp ? dp - 1 : z;\n"
"    l = l < 0 ? 0 : l >= nl ? nl - 1 : l; }\n"
"  return o->base + (uint64_t)l * o->layer_bytes + (uint64_t)z * o->slice + (uint64_t)y * o->pitch + (uint64_t)x; }\n";

/* ---- geometry -------------------------------------------------------------------------- */

typedef struct tgeom {
    int dims, layered;     /* 1..3; a1d/a2d */
    int ncoords;           /* elements of the coordinate vector */
} tgeom;

static tgeom geometry(cg *c, const ptx_instr *in)
{
    tgeom g = {0, 0, 0};
    if (ptx_has(in, PTX_MOD_t1d)) g = (tgeom){1, 0, 1};
    else if (ptx_has(in, PTX_MOD_t2d)) g = (tgeom){2, 0, 2};
    else if (ptx_has(in, PTX_MOD_t3d)) g = (tgeom){3, 0, 4};
    else if (ptx_has(in, PTX_MOD_a1d)) g = (tgeom){1, 1, 2};
    else if (ptx_has(in, PTX_MOD_a2d)) g = (tgeom){2, 1, 4};
    else cg_fail(c, "needs a geometry: .1d, .2d, .3d, .a1d or .a2d (cube maps are not supported)");
    return g;
}

/* The object operand [h, {coords}]: emits "const cb_texobj *cb_o = ...;" and
 * returns the coordinate vector (elements in cs[0..3]). */
static void object_and_coords(cg *c, const ptx_operand *mem, const tgeom *g, const ptx_operand **cs)
{
    if (mem->kind != PTX_OPD_mem || mem->reg < 0 || mem->offset != 0)
        cg_fail(c, "the texture/surface operand must be a 64-bit object register (texture references are not supported)");
    if (mem->nelems != 1)
        cg_fail(c, mem->nelems ? "independent samplers are not supported" : "missing coordinates");
    const ptx_operand *v = &mem->elems[0];
    uint32_t n = v->kind == PTX_OPD_vec ? v->nelems : 1;
    if ((int)n < g->ncoords)
        cg_fail(c, "too few coordinates for the geometry");
    for (int i = 0; i < 4; i++)
        cs[i] = i < (int)n ? (v->kind == PTX_OPD_vec ? &v->elems[i] : v) : NULL;
    cg_puts(c, "const cb_texobj *cb_o = cb_tx(t, ");
    ptx_operand r = *mem;
    r.kind = PTX_OPD_reg;
    cg_read(c, &r, PTX_TYPE_u64);
    cg_puts(c, ");\n");
}

static void coord(cg *c, const ptx_operand *o, ptx_type ty)
{
    if (!o)
        cg_puts(c, ty == PTX_TYPE_f32 ? "0.0f" : "0");
    else
        cg_read(c, o, ty);
}

/* Writes the four results (floats cb_f or integers cb_i) to the destination vector. */
static void write_rgba(cg *c, const ptx_operand *d, ptx_type dt)
{
    if (d->kind != PTX_OPD_vec || d->nelems != 4)
        cg_fail(c, "the destination must be a vector of four registers (.v4)");
    for (int i = 0; i < 4; i++) {
        if (d->elems[i].kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, &d->elems[i], dt);
        if (dt == PTX_TYPE_f32)
            cg_printf(c, "cb_f[%d]", i);
        else
            cg_printf(c, "(%s)cb_i[%d]", dt == PTX_TYPE_s32 ? "int32_t" : "uint32_t", i);
        cg_dst_close(c, &d->elems[i], dt);
    }
}

/* ---- tex, tld4 -------------------------------------------------------------------------- */

void emit_tex(cg *c, const ptx_instr *in)
{
    tgeom g = geometry(c, in);
    if (in->ntypes != 2 || !ptx_has(in, PTX_MOD_v4))
        cg_fail(c, "tex needs .v4.dtype.ctype");
    ptx_type dt = in->types[0], ct = in->types[1];
    if ((dt != PTX_TYPE_f32 && dt != PTX_TYPE_s32 && dt != PTX_TYPE_u32) || (ct != PTX_TYPE_f32 && ct != PTX_TYPE_s32))
        cg_fail(c, "tex: results .f32/.s32/.u32 and coordinates .f32/.s32 are supported (no half results, levels or gradients)");
    const ptx_operand *cs[4];
    object_and_coords(c, &in->ops[1], &g, cs);
    int first = g.layered ? 1 : 0;
    cg_puts(c, "    float cb_f[4]; int32_t cb_i[4];\n    ");
    cg_puts(c, ct == PTX_TYPE_f32 ? "cb_tx_sample(cb_o, " : "cb_tx_texel(cb_o, ");
    for (int d = 0; d < 3; d++) {
        coord(c, d < g.dims ? cs[first + d] : NULL, ct == PTX_TYPE_f32 ? PTX_TYPE_f32 : PTX_TYPE_s32);
        cg_puts(c, ", ");
    }
    if (g.layered)
        cg_read(c, cs[0], PTX_TYPE_s32);
    else
        cg_puts(c, "0");
    cg_puts(c, ", cb_f, cb_i);\n");
    write_rgba(c, &in->ops[0], dt);
}

void emit_tld4(cg *c, const ptx_instr *in)
{
    tgeom g = geometry(c, in);
    int comp = ptx_has(in, PTX_MOD_r) ? 0 : ptx_has(in, PTX_MOD_g) ? 1 : ptx_has(in, PTX_MOD_b) ? 2
               : ptx_has(in, PTX_MOD_a) ? 3 : -1;
    if (comp < 0 || g.dims != 2 || g.layered || in->ntypes != 2 || !ptx_has(in, PTX_MOD_v4) ||
        in->types[1] != PTX_TYPE_f32)
        cg_fail(c, "tld4 needs .r/.g/.b/.a, .2d, .v4.dtype.f32");
    ptx_type dt = in->types[0];
    if (dt != PTX_TYPE_f32 && dt != PTX_TYPE_s32 && dt != PTX_TYPE_u32)
        cg_fail(c, "tld4: results .f32/.s32/.u32");
    const ptx_operand *cs[4];
    object_and_coords(c, &in->ops[1], &g, cs);
    cg_printf(c, "    float cb_f[4]; int32_t cb_i[4];\n    cb_tx_gather(cb_o, %d, ", comp);
    coord(c, cs[0], PTX_TYPE_f32);
    cg_puts(c, ", ");
    coord(c, cs[1], PTX_TYPE_f32);
    cg_puts(c, ", cb_f, cb_i);\n");
    write_rgba(c, &in->ops[0], dt);
}

/* txq.{width,height,depth,array_size,normalized_coords,filter_mode}.b32 d, [h] */
void emit_txq(cg *c, const ptx_instr *in)
{
    const char *what = ptx_has(in, PTX_MOD_width) ? "cb_o->width" : ptx_has(in, PTX_MOD_height) ? "cb_o->height"
                       : ptx_has(in, PTX_MOD_depth) ? "cb_o->depth" : ptx_has(in, PTX_MOD_array_size) ? "cb_o->layers"
                       : ptx_has(in, PTX_MOD_normalized_coords) ? "((cb_o->flags & 2u) != 0)"
                       : ptx_has(in, PTX_MOD_filter_mode) ? "cb_o->filter" : NULL;
    if (!what || in->ntypes != 1 || ptx_type_size(in->types[0]) != 4)
        cg_fail(c, "txq supports .width .height .depth .array_size .normalized_coords .filter_mode with .b32");
    const ptx_operand *mem = &in->ops[1];
    if (mem->kind != PTX_OPD_mem || mem->reg < 0 || mem->nelems)
        cg_fail(c, "txq takes [object register]");
    cg_puts(c, "const cb_texobj *cb_o = cb_tx(t, ");
    ptx_operand r = *mem;
    r.kind = PTX_OPD_reg;
    cg_read(c, &r, PTX_TYPE_u64);
    cg_puts(c, ");\n    ");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_b32);
    cg_printf(c, "(uint32_t)%s", what);
    cg_dst_close(c, &in->ops[0], PTX_TYPE_b32);
}

/* ---- suld.b, sust.b ------------------------------------------------------------------------ */

static void emit_surface(cg *c, const ptx_instr *in, int store)
{
    tgeom g = geometry(c, in);
    if (!ptx_has(in, PTX_MOD_b) || in->ntypes != 1)
        cg_fail(c, store ? "only unformatted sust.b is supported" : "suld needs .b");
    ptx_type ty = in->types[0];
    uint32_t sz = ptx_type_size(ty);
    char k = ptx_type_kind(ty);
    if ((k != 'b' && k != 'u' && k != 's' && k != 'f') || sz < 1 || sz > 8)
        cg_fail(c, "surface element types: .b8 .b16 .b32 .b64");
    int n = ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
    int mode = ptx_has(in, PTX_MOD_clamp) ? 1 : ptx_has(in, PTX_MOD_zero) ? 2 : 0;
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *vals = &in->ops[store ? 1 : 0];
    const ptx_operand *cs[4];
    object_and_coords(c, mem, &g, cs);
    int first = g.layered ? 1 : 0;
    cg_printf(c, "    unsigned char *cb_p = cb_su_addr(t, cb_o, %uu, ", (unsigned)sz * (unsigned)n);
    for (int d = 0; d < 3; d++) {
        coord(c, d < g.dims ? cs[first + d] : NULL, PTX_TYPE_s32);
        cg_puts(c, ", ");
    }
    if (g.layered)
        cg_read(c, cs[0], PTX_TYPE_s32);
    else
        cg_puts(c, "0");
    cg_printf(c, ", %d);\n", mode);
    ptx_type ut = sz == 8 ? PTX_TYPE_u64 : sz == 4 ? PTX_TYPE_u32 : sz == 2 ? PTX_TYPE_u16 : PTX_TYPE_u8;
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = vals->kind == PTX_OPD_vec ? &vals->elems[i] : vals;
        if ((n > 1) != (vals->kind == PTX_OPD_vec) || (n > 1 && vals->nelems != (uint32_t)n))
            cg_fail(c, "vector width does not match the operand");
        if (store) {
            cg_printf(c, "    if (cb_p) cb_st_%s(cb_p + %u, ", cg_tname(ut), (unsigned)(i * (int)sz));
            cg_read(c, e, ut);
            cg_puts(c, ");\n");
        } else if (e->kind != PTX_OPD_sink) {
            cg_puts(c, "    ");
            cg_dst_open(c, e, ut);
            cg_printf(c, "cb_p ? cb_ld_%s(cb_p + %u) : 0", cg_tname(ut), (unsigned)(i * (int)sz));
            cg_dst_close(c, e, ut);
        }
    }
}

void emit_suld(cg *c, const ptx_instr *in) { emit_surface(c, in, 0); }
void emit_sust(cg *c, const ptx_instr *in) { emit_surface(c, in, 1); }
