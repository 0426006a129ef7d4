/* tex.c: texture and surface instructions over texture/surface
 * objects (CB_DIALECT_C, and CB_DIALECT_OPENCL through its hooks and access
 * text, opencl/tex.c): tex (plain, .base, .level, .grad), tld4, txq,
 * suld.b, sust.b and sust.p, in 1D, 2D, 3D, layered (a1d, a2d) and cube
 * (cube, acube) forms.
 *
 * The object operand is a 64-bit CUtexObject/CUsurfObject: the address of a
 * cb_texobj (kernel_abi.h; on OpenCL the device address of opencl/texobj.h's
 * descriptor). Sampling is done by the helpers below, in the generated unit:
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
 *   - mipmaps: the level of detail (explicit, 0 for plain tex, or from the
 *     gradients: log2 of the longer of the two derivative vectors measured
 *     in level-0 texels) gets the bias, the min/max clamps and the level
 *     range; point mip filtering takes level floor(lod + 0.5), linear blends
 *     levels floor(lod) and floor(lod) + 1 with the fraction in 1/256 steps
 *     like the bilinear weights (trilinear optimization off); anisotropy
 *     (max_aniso > 1, tex.grad only) is approximated: N = min(ceil(major /
 *     minor), max_aniso) samples along the major axis at level log2(major/N);
 *   - cube maps: the face and face coordinates per the CUDA programming
 *     guide's cubemap table (ties go to x, then y); each face is clamped at
 *     its edges, or, with CU_TRSF_SEAMLESS_CUBEMAP and linear filtering,
 *     texels past an edge come from the neighbouring face (past a corner,
 *     from one of the two: the hardware averages three); acube layer c
 *     picks faces 6c..6c+5;
 *   - read mode: integer formats read as normalized floats unless the
 *     object says CU_TRSF_READ_AS_INTEGER; missing channels read as 0;
 *   - half formats: texels widen exactly to float; a result that involved
 *     linear (or linear mip) filtering is rounded to fp16, nearest even, at
 *     the end (an H200 returned -1.32226562 where the 1/256-weight sum is
 *     -1.32177734, the tie between two halves).
 * Surfaces take x in bytes (suld.b/sust.b) or in elements (sust.p); .trap
 * (the default) traps out of range, .clamp clamps to the edge, .zero loads 0
 * and drops stores.
 * Not supported (translation error): texture references and independent
 * samplers, texel offsets and depth compare operands, multisample (2dms)
 * geometries, txq.channel_data_type/channel_order/num_samples and sampler
 * queries other than filter_mode and addr_mode_N.
 */
#include "codegen/c/c.h"

#include <stdio.h>
#include <string.h>

/* The C dialect's side of the helpers below: the object is kernel_abi.h's
 * cb_texobj in host memory, its texels at host addresses. */
const char cb_codegen_c_prelude_tex_c[] =
"/* ---- textures and surfaces: how the C dialect reaches objects and texels ---- */\n"
"#define CB_TXO const cb_texobj *\n"
"#define CB_TXB const unsigned char *\n"
"#define CB_SUB unsigned char *\n"
"#define CB_TX_CTX cb_thread *t\n"
"#define CB_TX_TRAP(t) (t)->blk->rt->trap(t)\n"
"#define CB_TX_BASE(o) ((o)->base)\n"
"#define CB_TX_LEVEL(o, l) (&(o)->level[l])\n"
"#define CB_TX_LD(T, p) ({ T cb_v_; memcpy(&cb_v_, (p), sizeof cb_v_); cb_v_; })\n"
"#define CB_TX_ST(T, p, v) do { T cb_v_ = (v); memcpy((p), &cb_v_, sizeof cb_v_); } while (0)\n"
"#define CB_TX_TAB static const\n"
"CB_INL const cb_texobj *cb_tx(cb_thread *t, uint64_t h) { const cb_texobj *o = (const cb_texobj *)(uintptr_t)h;\n"
"  if (!o || o->magic != CB_TEXOBJ_MAGIC) t->blk->rt->trap(t); return o; }\n";

/* The helpers, written once for both dialects (C11 and OpenCL C): the
 * dialect's text before them (cb_codegen_c_prelude_tex_c above, or the
 * OpenCL dialect's, opencl/tex.c) defines
 *   CB_TXO, CB_TXB, CB_SUB  the types of an object pointer, of texel bytes
 *                           read and of surface bytes written;
 *   CB_TX_CTX               the first parameter of a helper that can trap, t;
 *   CB_TX_TRAP(t)           the trap (it returns where the dialect's traps do:
 *                           then the helper returns NULL and the emitter ends
 *                           the thread, cg_target.trap_returns);
 *   CB_TX_BASE(o), CB_TX_LEVEL(o, l)  byte 0 of o's texels, o's mip level l;
 *   CB_TX_LD(T, p), CB_TX_ST(T, p, v) a T at texel byte p, which may be unaligned
 *                           in C (memcpy);
 *   CB_TX_TAB               the storage of a constant table in a function;
 * and cb_tx(ctx, handle), the object of a handle or NULL (after a trap). */
const char cb_codegen_c_prelude_tex[] =
"/* ---- textures and surfaces ---- */\n"
"CB_INL void cb_tx_load(CB_TXO o, CB_TXB p, float f[4], int32_t iv[4]) {\n"
"  int fb = (int)(o->elem_bytes / o->channels), nm = !(o->flags & 1u);\n"
"  for (int c = 0; c < 4; c++) { f[c] = 0; iv[c] = 0; }\n"
"  for (uint32_t c = 0; c < o->channels; c++) { CB_TXB q = p + c * (uint32_t)fb;\n"
"    switch (o->format) {\n"
"    case 0x01: { uint8_t v = q[0]; iv[c] = v; f[c] = nm ? (float)v / 255.0f : (float)v; break; }\n"
"    case 0x02: { uint16_t v = CB_TX_LD(uint16_t, q); iv[c] = v; f[c] = nm ? (float)v / 65535.0f : (float)v; break; }\n"
"    case 0x03: { uint32_t v = CB_TX_LD(uint32_t, q); iv[c] = (int32_t)v; f[c] = (float)v; break; }\n"
"    case 0x08: { int8_t v = (int8_t)q[0]; iv[c] = v; f[c] = nm ? fmaxf((float)v / 127.0f, -1.0f) : (float)v; break; }\n"
"    case 0x09: { int16_t v = CB_TX_LD(int16_t, q); iv[c] = v; f[c] = nm ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v; break; }\n"
"    case 0x0a: { int32_t v = CB_TX_LD(int32_t, q); iv[c] = v; f[c] = (float)v; break; }\n"
"    case 0x10: { uint16_t v = CB_TX_LD(uint16_t, q); f[c] = (float)cb_hd(0, v); iv[c] = (int32_t)cb_bits32(f[c]); break; }\n"
"    default: { float v = CB_TX_LD(float, q); f[c] = v; iv[c] = (int32_t)cb_bits32(v); break; } } } }\n"
"/* texel index i of n under an address mode (0 wrap, 1 clamp, 2 mirror, 3 border); 0 when it is the border */\n"
"CB_INL int cb_tx_wrap(uint32_t mode, int64_t i, int64_t n, int64_t *out) {\n"
"  if (i >= 0 && i < n) { *out = i; return 1; }\n"
"  switch (mode) {\n"
"  case 0: { int64_t m = i % n; if (m < 0) m += n; *out = m; return 1; }\n"
"  case 2: { int64_t p2 = 2 * n, m = i % p2; if (m < 0) m += p2; *out = m < n ? m : p2 - 1 - m; return 1; }\n"
"  case 3: return 0;\n"
"  default: *out = i < 0 ? 0 : n - 1; return 1; } }\n"
"CB_INL void cb_tx_texel(CB_TXO o, int64_t x, int64_t y, int64_t z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  int64_t xi = 0, yi = 0, zi = 0; int ok = 1; uint32_t m[3];\n"
"  for (int d = 0; d < 3; d++) { m[d] = o->address[d]; if (!(o->flags & 2u) && m[d] != 3) m[d] = 1; }\n"
"  ok &= cb_tx_wrap(m[0], x, o->width, &xi);\n"
"  if (o->dims > 1) ok &= cb_tx_wrap(m[1], y, o->height, &yi);\n"
"  if (o->dims > 2) ok &= cb_tx_wrap(m[2], z, o->depth, &zi);\n"
"  if (!ok) { for (int c = 0; c < 4; c++) { f[c] = o->border[c]; iv[c] = (int32_t)o->border[c]; } return; }\n"
"  if (o->layers) layer = layer < 0 ? 0 : layer >= (int64_t)o->layers ? (int64_t)o->layers - 1 : layer; else layer = 0;\n"
"  cb_tx_load(o, CB_TX_BASE(o) + (uint64_t)layer * o->layer_bytes + (uint64_t)zi * o->slice + (uint64_t)yi * o->pitch +\n"
"             (uint64_t)xi * o->elem_bytes, f, iv); }\n"
"/* the unnormalized coordinate of c along axis d */\n"
"CB_INL float cb_tx_coord(CB_TXO o, int d, float c) { uint32_t n = d == 0 ? o->width : d == 1 ? o->height : o->depth;\n"
"  return (o->flags & 2u) ? c * (float)n : c; }\n"
"CB_INL int cb_tx_frac8(float a) { return (int)floorf(a * 256.0f + 0.5f); }\n"
"/* point or linear filtering of one level at unnormalized coordinates u */\n"
"CB_INL void cb_tx_filter(CB_TXO o, const float u[3], int64_t layer, float f[4], int32_t iv[4]) {\n"
"  int dims = (int)o->dims;\n"
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
"/* tex with float coordinates on one level: point or linear filtering */\n"
"CB_INL void cb_tx_sample(CB_TXO o, float x, float y, float z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  float u[3] = {cb_tx_coord(o, 0, x), cb_tx_coord(o, 1, y), cb_tx_coord(o, 2, z)}; cb_tx_filter(o, u, layer, f, iv); }\n"
"/* ---- mip levels ---- */\n"
"CB_INL void cb_tx_seamless(CB_TXO o, const float u[3], int64_t layer, float f[4], int32_t iv[4]);\n"
"CB_INL CB_TXO cb_tx_lv(CB_TXO o, uint32_t l) { return o->num_levels > 1 && o->level ? CB_TX_LEVEL(o, l) : o; }\n"
"/* the level of detail after bias and clamps, within the levels (NaN -> 0) */\n"
"CB_INL float cb_tx_clamp_lod(CB_TXO o, float lod) { float top = (float)(o->num_levels - 1);\n"
"  lod += o->lod_bias; if (lod > o->max_lod) lod = o->max_lod; if (lod < o->min_lod) lod = o->min_lod;\n"
"  return lod > top ? top : lod >= 0.0f ? lod : 0.0f; }\n"
"/* level l at float coordinates (normalized face coordinates when face is set) */\n"
"CB_INL void cb_tx_at_level(CB_TXO o, uint32_t l, int face, float x, float y, float z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  CB_TXO v = cb_tx_lv(o, l);\n"
"  if (face) { float u[3] = {x * (float)v->width, y * (float)v->height, 0.0f};\n"
"    if ((o->flags & 0x40u) && v->filter == 1 && !(o->flags & 1u)) cb_tx_seamless(v, u, layer, f, iv); else cb_tx_filter(v, u, layer, f, iv);\n"
"    return; }\n"
"  if (v == o || (o->flags & 2u)) { cb_tx_sample(v, x, y, z, layer, f, iv); return; }\n"
"  cb_tx_sample(v, x * (float)v->width / (float)o->width, y * (float)v->height / (float)o->height,\n"
"               z * (float)v->depth / (float)o->depth, layer, f, iv); }\n"
"/* sampling at a level of detail: mip point or linear (fraction in 1/256) */\n"
"CB_INL void cb_tx_at_lod(CB_TXO o, int face, float x, float y, float z, int64_t layer, float lod, float f[4], int32_t iv[4]) {\n"
"  if (o->num_levels <= 1) { cb_tx_at_level(o, 0, face, x, y, z, layer, f, iv); return; }\n"
"  lod = cb_tx_clamp_lod(o, lod);\n"
"  if (o->mip_filter != 1) { cb_tx_at_level(o, (uint32_t)floorf(lod + 0.5f), face, x, y, z, layer, f, iv); return; }\n"
"  uint32_t l0 = (uint32_t)floorf(lod); int w = cb_tx_frac8(lod - (float)l0); float g[4]; int32_t gi[4];\n"
"  cb_tx_at_level(o, l0, face, x, y, z, layer, f, iv);\n"
"  if (w == 0 || l0 + 1 >= o->num_levels) return;\n"
"  cb_tx_at_level(o, l0 + 1, face, x, y, z, layer, g, gi);\n"
"  for (int c = 0; c < 4; c++) f[c] = (float)(((256 - w) * (double)f[c] + w * (double)g[c]) / 256.0); }\n"
"/* how many anisotropic samples for derivative lengths major >= minor (1: isotropic) */\n"
"CB_INL uint32_t cb_tx_aniso(CB_TXO o, double major, double minor) {\n"
"  if (o->max_aniso <= 1 || !(major > 0)) return 1; double r = minor > 0 ? ceil(major / minor) : (double)o->max_aniso;\n"
"  return r < (double)o->max_aniso ? (uint32_t)r : o->max_aniso; }\n"
"/* tex.grad: lod from the derivative vectors dx, dy (texture coordinates per pixel) */\n"
"CB_INL void cb_tx_grad(CB_TXO o, float x, float y, float z, int64_t layer, const float dx[3], const float dy[3], float f[4], int32_t iv[4]) {\n"
"  double r[2] = {0, 0}; const float *q[2] = {dx, dy};\n"
"  for (int k = 0; k < 2; k++) { for (int d = 0; d < (int)o->dims; d++) {\n"
"      double n = (o->flags & 2u) ? (double)(d == 0 ? o->width : d == 1 ? o->height : o->depth) : 1.0, e = (double)q[k][d] * n;\n"
"      r[k] += e * e; } r[k] = sqrt(r[k]); }\n"
"  int mj = r[1] > r[0]; uint32_t n = cb_tx_aniso(o, r[mj], r[!mj]); float lod = (float)log2(r[mj] / n);\n"
"  if (n == 1) { cb_tx_at_lod(o, 0, x, y, z, layer, lod, f, iv); return; }\n"
"  double s[4] = {0, 0, 0, 0};\n"
"  for (uint32_t i = 0; i < n; i++) { float t = ((float)i + 0.5f) / (float)n - 0.5f, g[4];\n"
"    cb_tx_at_lod(o, 0, x + q[mj][0] * t, y + q[mj][1] * t, z + q[mj][2] * t, layer, lod, g, iv);\n"
"    for (int c = 0; c < 4; c++) s[c] += g[c]; }\n"
"  for (int c = 0; c < 4; c++) f[c] = (float)(s[c] / n); }\n"
"/* a filtered result of a half-format texture rounded to fp16 (nearest even), as an H200 returns it;\n"
"   point sampling (texels are already halves) is left alone */\n"
"CB_INL void cb_tx_half_out(CB_TXO o, float f[4]) {\n"
"  if (o->format != 0x10 || (o->flags & 1u) || (o->filter != 1 && (o->mip_filter != 1 || o->num_levels <= 1))) return;\n"
"  for (int c = 0; c < 4; c++) f[c] = (float)cb_hd(0, cb_dh(0, (double)f[c], 0)); }\n"
"/* tex with float coordinates; mode 0 plain (lod 0), 1 .base, 2 .level, 3 .grad */\n"
"CB_INL void cb_tx_fetch_f32(CB_TXO o, int mode, float x, float y, float z, int64_t layer, float lod,\n"
"                            const float dx[3], const float dy[3], float f[4], int32_t iv[4]) {\n"
"  if (mode == 1 || o->num_levels <= 1) { cb_tx_at_level(o, 0, 0, x, y, z, layer, f, iv); return; }\n"
"  if (mode == 3) { cb_tx_grad(o, x, y, z, layer, dx, dy, f, iv); return; }\n"
"  cb_tx_at_lod(o, 0, x, y, z, layer, mode == 2 ? lod : 0.0f, f, iv); }\n"
"/* cb_tx_fetch_f32, then half-format results rounded (cb_tx_half_out) */\n"
"CB_INL void cb_tx_fetch(CB_TXO o, int mode, float x, float y, float z, int64_t layer, float lod,\n"
"                        const float dx[3], const float dy[3], float f[4], int32_t iv[4]) {\n"
"  cb_tx_fetch_f32(o, mode, x, y, z, layer, lod, dx, dy, f, iv); cb_tx_half_out(o, f); }\n"
"/* tex with integer coordinates: the texel of level lod (clamped to the levels) */\n"
"CB_INL void cb_tx_fetch_int(CB_TXO o, int32_t lod, int64_t x, int64_t y, int64_t z, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  uint32_t l = lod < 0 ? 0u : (uint32_t)lod >= o->num_levels ? o->num_levels - 1 : (uint32_t)lod;\n"
"  cb_tx_texel(cb_tx_lv(o, l), x, y, z, layer, f, iv); }\n"
"/* ---- cube maps ---- */\n"
"/* the face of direction p: the major axis, ties to x then y */\n"
"CB_INL int cb_tx_cube_face(const float p[3]) { float ax = fabsf(p[0]), ay = fabsf(p[1]), az = fabsf(p[2]);\n"
"  if (ax >= ay && ax >= az) return p[0] >= 0 ? 0 : 1; if (ay >= az) return p[1] >= 0 ? 2 : 3; return p[2] >= 0 ? 4 : 5; }\n"
"/* where m (0), s (1) and t (2) of face f come from, per the programming guide's table: axis * 2 + negated */\n"
"CB_INL int cb_tx_cube_code(int f, int which) {\n"
"  CB_TX_TAB unsigned char k[6][3] = {{0, 5, 3}, {1, 4, 3}, {2, 0, 4}, {3, 0, 5}, {4, 0, 3}, {5, 1, 3}};\n"
"  return k[f][which]; }\n"
"CB_INL float cb_tx_cube_part(const float p[3], int f, int which) {\n"
"  int code = cb_tx_cube_code(f, which); return code & 1 ? -p[code >> 1] : p[code >> 1]; }\n"
"/* face and normalized face coordinates (s/m + 1)/2, (t/m + 1)/2 of direction p */\n"
"CB_INL int cb_tx_cube_uv(const float p[3], float *u, float *v) { int f = cb_tx_cube_face(p); float m = cb_tx_cube_part(p, f, 0);\n"
"  *u = (cb_tx_cube_part(p, f, 1) / m + 1.0f) * 0.5f; *v = (cb_tx_cube_part(p, f, 2) / m + 1.0f) * 0.5f; return f; }\n"
"/* seamless cubemaps: texel (i, j) of face f, a texel past an edge read from the neighbouring face\n"
"   (the direction of its centre, projected again; past a corner this picks one of the two faces) */\n"
"CB_INL void cb_tx_cube_texel(CB_TXO o, int64_t layer0, int f, int64_t i, int64_t j, float out[4], int32_t iv[4]) {\n"
"  int64_t n = o->width;\n"
"  if (i < 0 || j < 0 || i >= n || j >= n) { float p[3], u, v;\n"
"    float val[3] = {1.0f, 2.0f * ((float)i + 0.5f) / (float)n - 1.0f, 2.0f * ((float)j + 0.5f) / (float)n - 1.0f};\n"
"    for (int w = 0; w < 3; w++) { int code = cb_tx_cube_code(f, w); p[code >> 1] = code & 1 ? -val[w] : val[w]; }\n"
"    f = cb_tx_cube_uv(p, &u, &v); i = (int64_t)floorf(u * (float)n); j = (int64_t)floorf(v * (float)n); }\n"
"  cb_tx_texel(o, i, j, 0, layer0 + f, out, iv); }\n"
"/* bilinear filtering across cube faces (CU_TRSF_SEAMLESS_CUBEMAP), weights as cb_tx_filter's 2D ones */\n"
"CB_INL void cb_tx_seamless(CB_TXO o, const float u[3], int64_t layer, float f[4], int32_t iv[4]) {\n"
"  int face = (int)(layer % 6); float bx = u[0] - 0.5f, by = u[1] - 0.5f, fx = floorf(bx), fy = floorf(by);\n"
"  int a = cb_tx_frac8(bx - fx), b = cb_tx_frac8(by - fy), w11 = (a * b + 128) >> 8;\n"
"  int w[4] = {256 - a - b + w11, a - w11, b - w11, w11}; double s[4] = {0, 0, 0, 0};\n"
"  for (int k = 0; k < 4; k++) { float tf[4]; int32_t ti[4];\n"
"    cb_tx_cube_texel(o, layer - face, face, (int64_t)fx + (k & 1), (int64_t)fy + (k >> 1), tf, ti);\n"
"    for (int c = 0; c < 4; c++) s[c] += w[k] * (double)tf[c]; }\n"
"  for (int c = 0; c < 4; c++) { f[c] = (float)(s[c] / 256.0); iv[c] = 0; } }\n"
"/* the first layer of cube c (clamped to the cubes) */\n"
"CB_INL int64_t cb_tx_cube_layer(CB_TXO o, int64_t c) { int64_t n = o->layers >= 6 ? o->layers / 6 : 1;\n"
"  return 6 * (c < 0 ? 0 : c >= n ? n - 1 : c); }\n"
"/* tex.cube/acube: modes as cb_tx_fetch; gradients are direction derivatives (isotropic) */\n"
"CB_INL void cb_tx_cube_f32(CB_TXO o, int mode, float x, float y, float z, int64_t cube, float lod,\n"
"                           const float dx[3], const float dy[3], float f[4], int32_t iv[4]) {\n"
"  float p[3] = {x, y, z}, u, v; int fc = cb_tx_cube_uv(p, &u, &v); int64_t layer = cb_tx_cube_layer(o, cube) + fc;\n"
"  if (mode == 1 || o->num_levels <= 1) { cb_tx_at_level(o, 0, 1, u, v, 0, layer, f, iv); return; }\n"
"  if (mode == 3) { double m = cb_tx_cube_part(p, fc, 0), s = cb_tx_cube_part(p, fc, 1), t = cb_tx_cube_part(p, fc, 2), r = 0;\n"
"    const float *q[2] = {dx, dy};\n"
"    for (int k = 0; k < 2; k++) { double dm = cb_tx_cube_part(q[k], fc, 0), ds = cb_tx_cube_part(q[k], fc, 1),\n"
"        dt = cb_tx_cube_part(q[k], fc, 2), du = 0.5 * (ds * m - s * dm) / (m * m) * o->width,\n"
"        dv = 0.5 * (dt * m - t * dm) / (m * m) * o->height, e = sqrt(du * du + dv * dv); if (e > r) r = e; }\n"
"    lod = (float)log2(r); }\n"
"  else if (mode == 0) lod = 0.0f;\n"
"  cb_tx_at_lod(o, 1, u, v, 0, layer, lod, f, iv); }\n"
"/* cb_tx_cube_f32, then half-format results rounded (cb_tx_half_out) */\n"
"CB_INL void cb_tx_cube(CB_TXO o, int mode, float x, float y, float z, int64_t cube, float lod,\n"
"                       const float dx[3], const float dy[3], float f[4], int32_t iv[4]) {\n"
"  cb_tx_cube_f32(o, mode, x, y, z, cube, lod, dx, dy, f, iv); cb_tx_half_out(o, f); }\n"
"/* tld4: component comp of the four texels of a bilinear footprint at unnormalized (ux, uy) of level 0 */\n"
"CB_INL void cb_tx_gather(CB_TXO o, int comp, float ux, float uy, int64_t layer, float f[4], int32_t iv[4]) {\n"
"  float bx = ux - 0.5f, by = uy - 0.5f;\n"
"  int64_t x0 = (int64_t)floorf(bx), y0 = (int64_t)floorf(by); float tf[4]; int32_t ti[4];\n"
"  CB_TX_TAB int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};\n"
"  for (int k = 0; k < 4; k++) { cb_tx_texel(o, x0 + dx[k], y0 + dy[k], 0, layer, tf, ti); f[k] = tf[comp]; iv[k] = ti[comp]; } }\n"
"CB_INL void cb_tx_gather_cube(CB_TXO o, int comp, float x, float y, float z, int64_t cube, float f[4], int32_t iv[4]) {\n"
"  float p[3] = {x, y, z}, u, v; int fc = cb_tx_cube_uv(p, &u, &v);\n"
"  cb_tx_gather(o, comp, u * (float)o->width, v * (float)o->height, cb_tx_cube_layer(o, cube) + fc, f, iv); }\n"
"/* txq.level: the size of level l (clamped to the levels) along axis d */\n"
"CB_INL uint32_t cb_tx_level_size(CB_TXO o, int32_t l, int d) {\n"
"  CB_TXO v = cb_tx_lv(o, l < 0 ? 0u : (uint32_t)l >= o->num_levels ? o->num_levels - 1 : (uint32_t)l);\n"
"  return d == 0 ? v->width : d == 1 ? v->height : v->depth; }\n"
"/* suld.b/sust.b: the address of n bytes at byte x, row y, slice z, layer l; mode 0 trap, 1 clamp, 2 zero (NULL) */\n"
"CB_INL CB_SUB cb_su_addr(CB_TX_CTX, CB_TXO o, uint32_t n, int64_t x, int64_t y, int64_t z, int64_t l, int mode) {\n"
"  int64_t w = (int64_t)o->width * o->elem_bytes, h = o->dims > 1 ? o->height : 1, dp = o->dims > 2 ? o->depth : 1;\n"
"  int64_t nl = o->layers ? o->layers : 1;\n"
"  int out = x < 0 || x + n > w || y < 0 || y >= h || z < 0 || z >= dp || l < 0 || l >= nl;\n"
"  if (out) { if (mode == 2) return NULL; if (mode == 0) { CB_TX_TRAP(t); return 0; }\n"
"    x = x < 0 ? 0 : x + n > w ? w - n : x; y = y < 0 ? 0 : y >= h ? h - 1 : y; z = z < 0 ? 0 : z >= dp ? dp - 1 : z;\n"
"    l = l < 0 ? 0 : l >= nl ? nl - 1 : l; }\n"
"  return CB_TX_BASE(o) + (uint64_t)l * o->layer_bytes + (uint64_t)z * o->slice + (uint64_t)y * o->pitch + (uint64_t)x; }\n"
"/* sust.p: n 32-bit values (R, G, B, A) converted to o's format: f32 for float and half formats,\n"
"   u32/s32 (saturated to the channel width) for unsigned/signed integer formats */\n"
"CB_INL void cb_su_store_p(CB_TXO o, CB_SUB p, const uint32_t *v, int n) {\n"
"  uint32_t fb = o->elem_bytes / o->channels;\n"
"  for (uint32_t c = 0; p && c < o->channels && (int)c < n; c++) { CB_SUB q = p + c * fb; uint32_t u = v[c];\n"
"    int32_t s = (int32_t)u; uint16_t h;\n"
"    switch (o->format) {\n"
"    case 0x01: q[0] = (uint8_t)(u > 255u ? 255u : u); break;\n"
"    case 0x02: h = (uint16_t)(u > 65535u ? 65535u : u); CB_TX_ST(uint16_t, q, h); break;\n"
"    case 0x08: q[0] = (uint8_t)(int8_t)(s > 127 ? 127 : s < -128 ? -128 : s); break;\n"
"    case 0x09: h = (uint16_t)(int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s); CB_TX_ST(uint16_t, q, h); break;\n"
"    case 0x10: h = cb_dh(0, (double)cb_f32(u), 0); CB_TX_ST(uint16_t, q, h); break;\n"
"    default: CB_TX_ST(uint32_t, q, u); break; } } }\n"
"/* suld.b/sust.b elements at surface byte p */\n"
"#define CB_SU_ELEM(N, T) CB_INL T cb_su_ld_##N(CB_SUB p) { return CB_TX_LD(T, p); } \\\n"
"  CB_INL void cb_su_st_##N(CB_SUB p, T v) { CB_TX_ST(T, p, v); }\n"
"CB_SU_ELEM(u8, uint8_t) CB_SU_ELEM(u16, uint16_t) CB_SU_ELEM(u32, uint32_t) CB_SU_ELEM(u64, uint64_t)\n";

/* ---- geometry -------------------------------------------------------------------------- */

typedef struct tgeom {
    int dims, layered, cube;   /* 1..3 (2 for cubes); a1d/a2d/acube; cube/acube */
    int ncoords;               /* elements of the coordinate vector */
} tgeom;

static tgeom geometry(cg *c, const ptx_instr *in)
{
    tgeom g = {0, 0, 0, 0};
    if (ptx_has(in, PTX_MOD_t1d)) g = (tgeom){1, 0, 0, 1};
    else if (ptx_has(in, PTX_MOD_t2d)) g = (tgeom){2, 0, 0, 2};
    else if (ptx_has(in, PTX_MOD_t3d)) g = (tgeom){3, 0, 0, 4};
    else if (ptx_has(in, PTX_MOD_a1d)) g = (tgeom){1, 1, 0, 2};
    else if (ptx_has(in, PTX_MOD_a2d)) g = (tgeom){2, 1, 0, 4};
    else if (ptx_has(in, PTX_MOD_cube)) g = (tgeom){2, 0, 1, 4};
    else if (ptx_has(in, PTX_MOD_acube)) g = (tgeom){2, 1, 1, 4};
    else cg_fail(c, "needs a geometry: .1d, .2d, .3d, .a1d, .a2d, .cube or .acube (multisample .2dms/.a2dms are not supported)");
    return g;
}

/* The first argument of the helpers that can trap: the dialect's (cg_target.tex_ctx), else the C
 * dialect's thread. */
static const char *trap_ctx(const cg *c) { return c->target->tex_ctx ? c->target->tex_ctx : "t"; }

/* Where the dialect's traps return (cg_target.trap_returns): "if (!<ptr>) <trap>", which ends the
 * thread after a helper that trapped returned NULL. */
static void end_if_trapped(cg *c, const char *ptr)
{
    if (!c->target->trap_returns)
        return;
    cg_printf(c, "    if (!%s) { ", ptr);
    c->target->op[PTX_OP_trap](c, c->in);
    cg_puts(c, "    }\n");
}

/* Emits "CB_TXO cb_o = ...;" for the object register of mem. */
static void object(cg *c, const ptx_operand *mem)
{
    if (mem->kind != PTX_OPD_mem || mem->reg < 0 || mem->offset != 0)
        cg_fail(c, "the texture/surface operand must be a 64-bit object register (texture references are not supported)");
    cg_printf(c, "CB_TXO cb_o = cb_tx(%s, ", trap_ctx(c));
    ptx_operand r = *mem;
    r.kind = PTX_OPD_reg;
    cg_read(c, &r, PTX_TYPE_u64);
    cg_puts(c, ");\n");
    end_if_trapped(c, "cb_o");
}

/* The object operand [h, {coords}]: emits the object and returns the
 * coordinate vector (elements in cs[0..3]). */
static void object_and_coords(cg *c, const ptx_operand *mem, const tgeom *g, const ptx_operand **cs)
{
    if (mem->kind == PTX_OPD_mem && mem->nelems != 1)
        cg_fail(c, mem->nelems ? "independent samplers are not supported" : "missing coordinates");
    const ptx_operand *v = mem->kind == PTX_OPD_mem ? &mem->elems[0] : NULL;
    uint32_t n = v && v->kind == PTX_OPD_vec ? v->nelems : 1;
    if ((int)n < g->ncoords)
        cg_fail(c, "too few coordinates for the geometry");
    for (int i = 0; i < 4; i++)
        cs[i] = i < (int)n ? (v->kind == PTX_OPD_vec ? &v->elems[i] : v) : NULL;
    object(c, mem);
}

static void coord(cg *c, const ptx_operand *o, ptx_type ty)
{
    if (!o)
        cg_puts(c, ty == PTX_TYPE_f32 ? "0.0f" : "0");
    else
        cg_read(c, o, ty);
}

/* Emits the x, y, z coordinates and the layer (or cube index): "x, y, z, layer". */
static void coords_and_layer(cg *c, const tgeom *g, const ptx_operand **cs, ptx_type ct)
{
    int first = g->layered ? 1 : 0, n = g->cube ? 3 : g->dims;
    for (int d = 0; d < 3; d++) {
        coord(c, d < n ? cs[first + d] : NULL, ct);
        cg_puts(c, ", ");
    }
    if (g->layered)
        cg_read(c, cs[0], PTX_TYPE_s32);
    else
        cg_puts(c, "0");
}

/* Declares float cb_<name>[3] from a gradient vector operand (missing elements 0). */
static void gradient(cg *c, const char *name, const ptx_operand *o, int n)
{
    cg_printf(c, "    float %s[3] = {", name);
    for (int i = 0; i < 3; i++) {
        const ptx_operand *e = o->kind == PTX_OPD_vec ? (i < (int)o->nelems ? &o->elems[i] : NULL) : i == 0 ? o : NULL;
        coord(c, i < n ? e : NULL, PTX_TYPE_f32);
        cg_puts(c, i < 2 ? ", " : "};\n");
    }
}

/* Writes the results (floats cb_f or integers cb_i) to the destination
 * vector: four f32/s32/u32/f16 registers, or two f16x2 (R,G then B,A, the
 * first component in the low half); sets a residency predicate (d|p) true. */
static void write_rgba(cg *c, const ptx_operand *d, ptx_type dt)
{
    int pairs = dt == PTX_TYPE_f16x2;
    if (d->kind != PTX_OPD_vec || d->nelems != (pairs ? 2u : 4u))
        cg_fail(c, pairs ? "the destination must be a vector of two registers (.v2.f16x2)"
                         : "the destination must be a vector of four registers (.v4)");
    for (uint32_t i = 0; i < d->nelems; i++) {
        if (d->elems[i].kind == PTX_OPD_sink)
            continue;
        ptx_type wt = pairs ? PTX_TYPE_b32 : dt == PTX_TYPE_f16 ? PTX_TYPE_b16 : dt;
        cg_puts(c, "    ");
        cg_dst_open(c, &d->elems[i], wt);
        if (pairs)
            cg_printf(c, "(uint32_t)cb_dh(0, cb_f[%u], 0) | (uint32_t)cb_dh(0, cb_f[%u], 0) << 16", 2 * i, 2 * i + 1);
        else if (dt == PTX_TYPE_f16)
            cg_printf(c, "cb_dh(0, cb_f[%u], 0)", i);
        else if (dt == PTX_TYPE_f32)
            cg_printf(c, "cb_f[%u]", i);
        else
            cg_printf(c, "(%s)cb_i[%u]", dt == PTX_TYPE_s32 ? "int32_t" : "uint32_t", i);
        cg_dst_close(c, &d->elems[i], wt);
    }
    if (d->reg2 >= 0) {   /* sparse residency: every texel is resident */
        ptx_operand p = {0};
        p.kind = PTX_OPD_reg;
        p.reg = d->reg2;
        p.reg2 = -1;
        cg_puts(c, "    ");
        cg_dst_open(c, &p, PTX_TYPE_pred);
        cg_puts(c, "1");
        cg_dst_close(c, &p, PTX_TYPE_pred);
    }
}

static void check_result_type(cg *c, const ptx_instr *in, const char *what)
{
    ptx_type dt = in->types[0];
    int v4 = ptx_has(in, PTX_MOD_v4), v2 = ptx_has(in, PTX_MOD_v2);
    if (!((v4 && (dt == PTX_TYPE_f32 || dt == PTX_TYPE_s32 || dt == PTX_TYPE_u32 || dt == PTX_TYPE_f16)) ||
          (v2 && dt == PTX_TYPE_f16x2))) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: results .v4 of .f32/.s32/.u32/.f16 or .v2.f16x2", what);
        cg_fail(c, msg);
    }
}

/* ---- tex, tld4 -------------------------------------------------------------------------- */

void c_emit_tex(cg *c, const ptx_instr *in)
{
    tgeom g = geometry(c, in);
    if (in->ntypes != 2)
        cg_fail(c, "tex needs .v4.dtype.ctype");
    check_result_type(c, in, "tex");
    ptx_type dt = in->types[0], ct = in->types[1];
    if (ct != PTX_TYPE_f32 && ct != PTX_TYPE_s32)
        cg_fail(c, "tex: coordinates are .f32 or .s32");
    if (g.cube && ct != PTX_TYPE_f32)
        cg_fail(c, "tex.cube/.acube need .f32 coordinates");
    int mode = ptx_has(in, PTX_MOD_grad) ? 3 : ptx_has(in, PTX_MOD_level) ? 2 : ptx_has(in, PTX_MOD_base) ? 1 : 0;
    int want = 2 + (mode == 2) + 2 * (mode == 3);
    if (in->nops != want)
        cg_fail(c, in->nops > want ? "tex: texel offset and depth-compare operands are not supported"
                                   : "tex: missing level or gradient operands");
    if (mode == 3 && ct != PTX_TYPE_f32)
        cg_fail(c, "tex.grad needs .f32 coordinates");
    const ptx_operand *cs[4];
    object_and_coords(c, &in->ops[1], &g, cs);
    cg_puts(c, "    float cb_f[4]; int32_t cb_i[4];\n");
    if (ct == PTX_TYPE_s32) {
        cg_puts(c, "    cb_tx_fetch_int(cb_o, ");
        if (mode == 2)
            cg_read(c, &in->ops[2], PTX_TYPE_s32);
        else
            cg_puts(c, "0");
        cg_puts(c, ", ");
        coords_and_layer(c, &g, cs, PTX_TYPE_s32);
        cg_puts(c, ", cb_f, cb_i);\n");
        write_rgba(c, &in->ops[0], dt);
        return;
    }
    int n = g.cube ? 3 : g.dims;
    if (mode == 3) {
        gradient(c, "cb_dx", &in->ops[2], n);
        gradient(c, "cb_dy", &in->ops[3], n);
    }
    cg_printf(c, "    %s(cb_o, %d, ", g.cube ? "cb_tx_cube" : "cb_tx_fetch", mode);
    coords_and_layer(c, &g, cs, PTX_TYPE_f32);
    cg_puts(c, ", ");
    if (mode == 2)
        cg_read(c, &in->ops[2], PTX_TYPE_f32);
    else
        cg_puts(c, "0.0f");
    cg_puts(c, mode == 3 ? ", cb_dx, cb_dy, cb_f, cb_i);\n" : ", NULL, NULL, cb_f, cb_i);\n");
    write_rgba(c, &in->ops[0], dt);
}

void c_emit_tld4(cg *c, const ptx_instr *in)
{
    tgeom g = geometry(c, in);
    int comp = ptx_has(in, PTX_MOD_r) ? 0 : ptx_has(in, PTX_MOD_g) ? 1 : ptx_has(in, PTX_MOD_b) ? 2
               : ptx_has(in, PTX_MOD_a) ? 3 : -1;
    if (comp < 0 || g.dims != 2 || in->ntypes != 2 || in->types[1] != PTX_TYPE_f32)
        cg_fail(c, "tld4 needs .r/.g/.b/.a, .2d/.a2d/.cube/.acube, .v4.dtype.f32");
    check_result_type(c, in, "tld4");
    if (in->nops != 2)
        cg_fail(c, "tld4: texel offset and depth-compare operands are not supported");
    const ptx_operand *cs[4];
    object_and_coords(c, &in->ops[1], &g, cs);
    int first = g.layered ? 1 : 0;
    cg_puts(c, "    float cb_f[4]; int32_t cb_i[4];\n");
    if (g.cube) {
        cg_printf(c, "    cb_tx_gather_cube(cb_o, %d, ", comp);
        coords_and_layer(c, &g, cs, PTX_TYPE_f32);
    } else {
        cg_printf(c, "    cb_tx_gather(cb_o, %d, cb_tx_coord(cb_o, 0, ", comp);
        coord(c, cs[first], PTX_TYPE_f32);
        cg_puts(c, "), cb_tx_coord(cb_o, 1, ");
        coord(c, cs[first + 1], PTX_TYPE_f32);
        cg_puts(c, "), ");
        if (g.layered)
            cg_read(c, cs[0], PTX_TYPE_s32);
        else
            cg_puts(c, "0");
    }
    cg_puts(c, ", cb_f, cb_i);\n");
    write_rgba(c, &in->ops[0], in->types[0]);
}

/* txq.{width,height,depth,array_size,num_mipmap_levels,normalized_coords,filter_mode,addr_mode_N}.b32 d, [h]
 * and txq.level.{width,height,depth}.b32 d, [h], lod */
void c_emit_txq(cg *c, const ptx_instr *in)
{
    int level = ptx_has(in, PTX_MOD_level);
    int axis = ptx_has(in, PTX_MOD_width) ? 0 : ptx_has(in, PTX_MOD_height) ? 1 : ptx_has(in, PTX_MOD_depth) ? 2 : -1;
    const char *what = axis == 0 ? "cb_o->width" : axis == 1 ? "cb_o->height" : axis == 2 ? "cb_o->depth"
                       : ptx_has(in, PTX_MOD_array_size) ? "(cb_o->cube ? cb_o->layers / 6 : cb_o->layers)"
                       : ptx_has(in, PTX_MOD_num_mipmap_levels) ? "cb_o->num_levels"
                       : ptx_has(in, PTX_MOD_normalized_coords) ? "((cb_o->flags & 2u) != 0)"
                       : ptx_has(in, PTX_MOD_filter_mode) ? "cb_o->filter"
                       : ptx_has(in, PTX_MOD_addr_mode_0) ? "cb_o->address[0]"
                       : ptx_has(in, PTX_MOD_addr_mode_1) ? "cb_o->address[1]"
                       : ptx_has(in, PTX_MOD_addr_mode_2) ? "cb_o->address[2]" : NULL;
    if (!what || in->ntypes != 1 || ptx_type_size(in->types[0]) != 4 || (level && axis < 0))
        cg_fail(c, "txq supports .width .height .depth .array_size .num_mipmap_levels .normalized_coords "
                   ".filter_mode .addr_mode_0/1/2 and .level.{width,height,depth}, with .b32 "
                   "(not .channel_data_type, .channel_order, .num_samples, .force_unnormalized_coords)");
    const ptx_operand *mem = &in->ops[1];
    if (mem->kind != PTX_OPD_mem || mem->reg < 0 || mem->nelems || in->nops != 2 + level)
        cg_fail(c, level ? "txq.level takes [object register], lod" : "txq takes [object register]");
    object(c, mem);
    cg_puts(c, "    ");
    cg_dst_open(c, &in->ops[0], PTX_TYPE_b32);
    if (level) {
        cg_puts(c, "cb_tx_level_size(cb_o, ");
        cg_read(c, &in->ops[2], PTX_TYPE_s32);
        cg_printf(c, ", %d)", axis);
    } else {
        cg_printf(c, "(uint32_t)%s", what);
    }
    cg_dst_close(c, &in->ops[0], PTX_TYPE_b32);
}

/* ---- suld.b, sust.b, sust.p ------------------------------------------------------------ */

static void emit_surface(cg *c, const ptx_instr *in, int store)
{
    tgeom g = geometry(c, in);
    int formatted = ptx_has(in, PTX_MOD_p);
    if (g.cube)
        cg_fail(c, "surfaces have no .cube geometry (cubemap faces are .a2d layers)");
    if ((!ptx_has(in, PTX_MOD_b) && !formatted) || (formatted && !store) || in->ntypes != 1)
        cg_fail(c, store ? "sust needs .b or .p" : "suld needs .b");
    ptx_type ty = in->types[0];
    uint32_t sz = ptx_type_size(ty);
    char k = ptx_type_kind(ty);
    if ((k != 'b' && k != 'u' && k != 's' && k != 'f') || sz < 1 || sz > 8)
        cg_fail(c, "surface element types: .b8 .b16 .b32 .b64");
    if (formatted && sz != 4)
        cg_fail(c, "sust.p stores .b32 values");
    int n = ptx_has(in, PTX_MOD_v4) ? 4 : ptx_has(in, PTX_MOD_v2) ? 2 : 1;
    int mode = ptx_has(in, PTX_MOD_clamp) ? 1 : ptx_has(in, PTX_MOD_zero) ? 2 : 0;
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *vals = &in->ops[store ? 1 : 0];
    if (vals->kind == PTX_OPD_vec ? vals->nelems != (uint32_t)n : n > 1)
        cg_fail(c, "vector width does not match the operand");
    const ptx_operand *cs[4];
    object_and_coords(c, mem, &g, cs);
    int first = g.layered ? 1 : 0;
    /* sust.p addresses one element (x in elements); the others n * size bytes at byte x */
    if (formatted)
        cg_printf(c, "    CB_SUB cb_p = cb_su_addr(%s, cb_o, cb_o->elem_bytes, ", trap_ctx(c));
    else
        cg_printf(c, "    CB_SUB cb_p = cb_su_addr(%s, cb_o, %uu, ", trap_ctx(c), (unsigned)sz * (unsigned)n);
    for (int d = 0; d < 3; d++) {
        if (d == 0 && formatted)
            cg_puts(c, "(int64_t)cb_o->elem_bytes * ");
        coord(c, d < g.dims ? cs[first + d] : NULL, PTX_TYPE_s32);
        cg_puts(c, ", ");
    }
    if (g.layered)
        cg_read(c, cs[0], PTX_TYPE_s32);
    else
        cg_puts(c, "0");
    cg_printf(c, ", %d);\n", mode);
    if (mode == 0)   /* .trap: NULL only after a trap */
        end_if_trapped(c, "cb_p");
    ptx_type ut = sz == 8 ? PTX_TYPE_u64 : sz == 4 ? PTX_TYPE_u32 : sz == 2 ? PTX_TYPE_u16 : PTX_TYPE_u8;
    if (formatted)
        cg_printf(c, "    uint32_t cb_v[4] = {0, 0, 0, 0};\n");
    for (int i = 0; i < n; i++) {
        const ptx_operand *e = vals->kind == PTX_OPD_vec ? &vals->elems[i] : vals;
        if (formatted) {
            cg_printf(c, "    cb_v[%d] = ", i);
            cg_read(c, e, PTX_TYPE_u32);
            cg_puts(c, ";\n");
        } else if (store) {
            cg_printf(c, "    if (cb_p) cb_su_st_%s(cb_p + %u, ", cg_tname(ut), (unsigned)(i * (int)sz));
            cg_read(c, e, ut);
            cg_puts(c, ");\n");
        } else if (e->kind != PTX_OPD_sink) {
            cg_puts(c, "    ");
            cg_dst_open(c, e, ut);
            cg_printf(c, "cb_p ? cb_su_ld_%s(cb_p + %u) : 0", cg_tname(ut), (unsigned)(i * (int)sz));
            cg_dst_close(c, e, ut);
        }
    }
    if (formatted)
        cg_printf(c, "    cb_su_store_p(cb_o, cb_p, cb_v, %d);\n", n);
}

void c_emit_suld(cg *c, const ptx_instr *in) { emit_surface(c, in, 0); }
void c_emit_sust(cg *c, const ptx_instr *in) { emit_surface(c, in, 1); }
