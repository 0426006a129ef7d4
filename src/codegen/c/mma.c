/* mma.c: warp-level matrix instructions (CB_DIALECT_C):
 * mma.sync, mma.sp{::ordered_metadata}, wmma.load/store/mma, ldmatrix,
 * stmatrix, movmatrix.
 *
 * mma, mma.sp, wmma.mma, ldmatrix and stmatrix are warp collectives: each
 * lane copies its fragment registers (or its row address) into a cb_mx on
 * its stack and calls rt->warp_exchange with a cb_mfn_* function below,
 * which gathers the 32 lanes' fragments into whole matrices, computes, and
 * scatters the results back; the lane then copies its d registers out.
 *
 * Fragment layouts:
 *   - mma.sync and ldmatrix/stmatrix: the PTX ISA's tables (groupID =
 *     lane >> 2, threadID_in_group = lane & 3), one rule per element width
 *     for m16n8kK and m8n8kK (cb_mma_pos); m8n8k4 .f16 is four independent
 *     products, one per quad pair (cb_mma_pos_qp);
 *   - mma.sp: the ISA's sparse A positions, with the metadata layout of
 *     docs/ptx.md (cb_sp_col: the ISA draws it only in figures; every
 *     sparse type was checked against an H200, tests/data/ptx/mma);
 *   - wmma: the ISA leaves the layout unspecified, so cubridge picks one:
 *     slot j of lane l holds element (l * slots + j) mod (rows * cols) of the
 *     matrix, row-major in its logical shape. wmma.load/store move each
 *     lane's own elements (no rendezvous); only wmma.mma gathers.
 *
 * Arithmetic: products of the inputs are exact in double, summed in double
 * in k order, C added, and rounded once to the accumulator type (f32, f16:
 * nearest even), for f16, bf16, tf32 (low 13 bits ignored) and fp8 alike.
 * Integer mma is exact (.satfinite clamps to s32; b1 counts xor/and bits).
 * f64 mma is an fma chain over k starting from c. Tensor cores round partial
 * sums differently (the ISA does not pin it down), so results can differ from
 * a GPU in the last bits when partial sums are not exact (docs/ptx.md).
 */
#include "codegen/c/c.h"
#include "codegen/c/lanes.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

const char cb_codegen_c_prelude_mma[] =
"/* ---- warp matrix instructions (mma, mma.sp, wmma, ldmatrix, stmatrix) ---- */\n"
"/* one lane's part: fragment registers, sparse metadata e, and the instruction's parameters in cfg */\n"
"typedef struct cb_mx { uint64_t a[8], b[8], c[8], d[8], e; int cfg[12]; } cb_mx;\n"
"#define CB_MX(d, l) ((cb_mx *)(d)[l])\n"
"#define CB_MFN static __attribute__((unused)) void\n"
"/* element i of registers r[] packed w bits each (w = 1, 4, 8, 16, 32; 64: one per register) */\n"
"CB_INL uint64_t cb_mx_el(const uint64_t *r, int w, int i) { if (w >= 32) return w == 32 ? (uint32_t)r[i] : r[i];\n"
"  int per = 32 / w; return (r[i / per] >> (w * (i % per))) & ((1u << w) - 1u); }\n"
"CB_INL void cb_mx_set(uint64_t *r, int w, int i, uint64_t v) { if (w >= 32) { r[i] = w == 32 ? (uint32_t)v : v; return; }\n"
"  int per = 32 / w, sh = w * (i % per); uint64_t m = (uint64_t)((1u << w) - 1u) << sh;\n"
"  r[i / per] = (r[i / per] & ~m) | ((v << sh) & m); }\n"
"/* fp8 values (exact in double): e4m3 has no infinities (S.1111.111 is NaN), e5m2 is IEEE-like */\n"
"CB_INL double cb_e4m3(uint32_t v) { int e = (int)(v >> 3 & 15), m = (int)(v & 7); double s = v & 128 ? -1.0 : 1.0;\n"
"  if (e == 15 && m == 7) return NAN; return s * (e ? ldexp(8 + m, e - 10) : ldexp(m, -9)); }\n"
"CB_INL double cb_e5m2(uint32_t v) { int e = (int)(v >> 2 & 31), m = (int)(v & 3); double s = v & 128 ? -1.0 : 1.0;\n"
"  if (e == 31) return m ? NAN : s * INFINITY; return s * (e ? ldexp(4 + m, e - 17) : ldexp(m, -16)); }\n"
"/* input element kinds: 0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8, 5 f64, 6 e4m3, 7 e5m2, 8 s4, 9 u4, 10 b1 */\n"
"CB_INL double cb_mx_in(int kind, uint64_t v) { switch (kind) {\n"
"  case 0: return cb_hd(0, (uint16_t)v); case 1: return cb_hd(1, (uint16_t)v);\n"
"  case 2: return (double)cb_f32((uint32_t)v & 0xffffe000u); case 3: return (double)(int8_t)v;\n"
"  case 4: return (double)(uint8_t)v; case 6: return cb_e4m3((uint32_t)v); case 7: return cb_e5m2((uint32_t)v);\n"
"  case 8: return (double)((int)(v & 15) - (v & 8 ? 16 : 0)); case 9: return (double)(v & 15); case 10: return (double)(v & 1);\n"
"  default: return cb_f64(v); } }\n"
"CB_INL int cb_mx_width(int kind) { static const int w[] = {16, 16, 32, 8, 8, 64, 8, 8, 4, 4, 1}; return w[kind]; }\n"
"/* accumulator kinds: 0 f32, 1 f16 (pairs in .b32), 2 s32, 3 s32 .satfinite, 4 f64 */\n"
"CB_INL double cb_mx_acc_in(int kind, const uint64_t *r, int i) { switch (kind) {\n"
"  case 0: return (double)cb_f32((uint32_t)r[i]); case 1: return cb_hd(0, (uint16_t)cb_mx_el(r, 16, i));\n"
"  case 2: case 3: return (double)(int32_t)(uint32_t)r[i]; default: return cb_f64(r[i]); } }\n"
"CB_INL void cb_mx_acc_out(int kind, uint64_t *r, int i, double v, int64_t iv) { switch (kind) {\n"
"  case 0: r[i] = cb_bits32((float)v); break; case 1: cb_mx_set(r, 16, i, cb_dh(0, v, 0)); break;\n"
"  case 2: r[i] = (uint32_t)iv; break;\n"
"  case 3: r[i] = (uint32_t)(iv > INT32_MAX ? INT32_MAX : iv < INT32_MIN ? INT32_MIN : iv); break;\n"
"  default: r[i] = cb_bits64(v); } }\n"
"/* D = A*B + C over whole matrices (at most 32 x 32 x 256). bop: 0 multiply, 1 xor.popc, 2 and.popc (b1) */\n"
"typedef struct cb_mm { int m, n, k, ck, bop; double A[32][256], B[256][32], C[32][32], D[32][32]; int64_t Ci[32][32], Di[32][32];\n"
"  unsigned char Aset[32][256]; } cb_mm;\n"
"CB_INL void cb_mm_zero_c(cb_mm *p) { for (int i = 0; i < p->m; i++) { memset(p->C[i], 0, sizeof(double) * (size_t)p->n);\n"
"  memset(p->Ci[i], 0, sizeof(int64_t) * (size_t)p->n); } }\n"
"CB_INL void cb_mm_run(cb_mm *p) { double (*D)[32] = p->D; int64_t (*Di)[32] = p->Di;\n"
"  for (int i = 0; i < p->m; i++) for (int j = 0; j < p->n; j++) {\n"
"    if (p->ck == 2 || p->ck == 3) { int64_t s = p->Ci[i][j];\n"
"      for (int q = 0; q < p->k; q++) { int64_t a = (int64_t)p->A[i][q], b = (int64_t)p->B[q][j];\n"
"        s += p->bop == 1 ? (a ^ b) : p->bop == 2 ? (a & b) : a * b; }\n"
"      Di[i][j] = s; }\n"
"    else if (p->ck == 4) { double s = p->C[i][j]; for (int q = 0; q < p->k; q++) s = fma(p->A[i][q], p->B[q][j], s); D[i][j] = s; }\n"
"    else { double s = 0; for (int q = 0; q < p->k; q++) s += p->A[i][q] * p->B[q][j]; D[i][j] = s + p->C[i][j]; } } }\n"
"/* mma.sync fragment positions (PTX ISA tables), by element width w of a and b.\n"
"   m16: m16n8kK (else m8n8kK); which: 0 a, 1 b, 2 c/d. Element i of lane l -> (row, col). */\n"
"CB_INL void cb_mma_pos(int m16, int w, int which, int l, int i, int *r, int *c) { int g = l >> 2, t = l & 3, per = w >= 32 ? 1 : 32 / w;\n"
"  if (which == 2) { if (m16) { *r = g + 8 * (i >> 1); *c = t * 2 + (i & 1); } else { *r = g; *c = t * 2 + i; } return; }\n"
"  if (which == 1) { *r = per * t + i % per + 4 * per * (i / per); *c = g; return; }\n"
"  if (m16) { *r = g + 8 * ((i / per) & 1); *c = per * t + i % per + 4 * per * (i / (2 * per)); }\n"
"  else { *r = g; *c = per * t + i % per + 4 * per * (i / per); } }\n"
"/* mma.m8n8k4 .f16: quad pair q (lanes 4q..4q+3 and 4q+16..4q+19) computes its own 8x8x4 product; it is\n"
"   placed as block q on the diagonal of a 32x32x16 problem. acol/bcol: .col layouts; f32: the f32 C/D layout */\n"
"CB_INL void cb_mma_pos_qp(int which, int colmajor, int f32, int l, int i, int *r, int *c) { int q = (l >> 2) & 3, hi = l >= 16 ? 4 : 0, t = l & 3;\n"
"  if (which == 0) { if (colmajor) { *r = i + hi; *c = t; } else { *r = t + hi; *c = i; } *r += 8 * q; *c += 4 * q; return; }\n"
"  if (which == 1) { if (colmajor) { *r = i; *c = t + hi; } else { *r = t; *c = i + hi; } *r += 4 * q; *c += 8 * q; return; }\n"
"  if (f32) { *r = (l & 1) + (i & 2) + hi; *c = (i & 4) + (l & 2) + (i & 1); } else { *r = t + hi; *c = i; }\n"
"  *r += 8 * q; *c += 8 * q; }\n"
"/* mma.sp: element i of lane l's sparse A fragment (m16n8kK, element width w) -> row, first column of its chunk\n"
"   (4 wide; 2 for tf32) and which of the chunk's non-zeros it is (slot) */\n"
"CB_INL void cb_sp_apos(int w, int l, int i, int *r, int *cb, int *slot) { int g = l >> 2, t = l & 3;\n"
"  if (w == 16) { int p = i >> 1; *r = g + 8 * (p & 1); *cb = 4 * t + 16 * (p >> 1); *slot = i & 1; return; }\n"
"  if (w == 32) { *r = g + 8 * (i & 1); *cb = 2 * t + 8 * (i >> 1); *slot = 0; return; }\n"
"  int q = i >> 2, e = i & 3; *r = g + 8 * (q & 1); *cb = 8 * t + 32 * (q >> 1) + 4 * (e >> 1); *slot = e & 1; }\n"
"/* the column of a sparse A element (layouts confirmed on an H200): its chunk's metadata nibble comes from lane\n"
"   4*(r%8) + sel*nthr + o (nthr: metadata lanes per group of four); 16- and 32-bit types: o = chunk/4, bits\n"
"   16*(r>=8) + 4*(chunk%4); 8-bit types: o = (r>=8) + 2*(chunk/8), bits 4*(chunk%8). Two 2-bit indices (tf32:\n"
"   one, in halves) */\n"
"CB_INL int cb_sp_col(void *const d[32], int w, int K, int sel, int r, int cb, int slot) {\n"
"  int cw = w == 32 ? 2 : 4, ch = cb / cw, nthr = K / cw / 4, hi = r >= 8, lane = 4 * (r & 7) + (nthr == 4 ? 0 : sel * nthr), bit;\n"
"  if (w == 8) { lane += hi + 2 * (ch >> 3); bit = 4 * (ch & 7); } else { lane += ch >> 2; bit = 16 * hi + 4 * (ch & 3); }\n"
"  cb_mx *x = CB_MX(d, lane & 31); uint32_t nib = x ? (uint32_t)(x->e >> bit) & 15u : 0;\n"
"  return cb + (w == 32 ? (int)(nib & 3) >> 1 : (int)(nib >> (2 * slot)) & 3); }\n"
"/* one mma: form 0 m16n8kK, 1 m8n8kK, 2 m8n8k4 .f16 (quad pairs), 3 sparse m16n8kK */\n"
"CB_INL void cb_mma_do(void *const d[32], uint32_t lanes, const int *f) {\n"
"  int form = f[0], M = f[1], N = f[2], K = f[3], ak = f[4], bk = f[5], ck = f[6], dk = f[7], acol = f[8], bcol = f[9];\n"
"  static __thread cb_mm p; int wa = cb_mx_width(ak), wb = cb_mx_width(bk), r, c;\n"
"  int na = form == 2 ? 4 : M * K / 32 / (form == 3 ? 2 : 1), nb = form == 2 ? 4 : K * N / 32, nc = form == 2 ? 8 : M * N / 32;\n"
"  p.m = form == 2 ? 32 : M; p.n = form == 2 ? 32 : N; p.k = form == 2 ? 16 : K; p.ck = ck; p.bop = f[10];\n"
"  if (form >= 2 || lanes != 0xffffffffu) { for (int i = 0; i < p.m; i++) { memset(p.A[i], 0, sizeof(double) * (size_t)p.k); memset(p.Aset[i], 0, (size_t)p.k); }\n"
"    for (int q = 0; q < p.k; q++) memset(p.B[q], 0, sizeof(double) * (size_t)p.n); }\n"
"  if (lanes != 0xffffffffu) cb_mm_zero_c(&p); /* lanes that exited supply zeros */\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < na; i++) { double v = cb_mx_in(ak, cb_mx_el(x->a, wa, i));\n"
"      if (form == 3) { int cb, slot; cb_sp_apos(wa, l, i, &r, &cb, &slot); c = cb_sp_col(d, wa, K, f[11], r, cb, slot);\n"
"        if (p.Aset[r][c]) p.A[r][c] += v; else p.A[r][c] = v; p.Aset[r][c] = 1; continue; }\n"
"      if (form == 2) cb_mma_pos_qp(0, acol, 0, l, i, &r, &c); else cb_mma_pos(form != 1, wa, 0, l, i, &r, &c);\n"
"      p.A[r][c] = v; }\n"
"    for (int i = 0; i < nb; i++) { if (form == 2) cb_mma_pos_qp(1, bcol, 0, l, i, &r, &c); else cb_mma_pos(form != 1, wb, 1, l, i, &r, &c);\n"
"      p.B[r][c] = cb_mx_in(bk, cb_mx_el(x->b, wb, i)); }\n"
"    for (int i = 0; i < nc; i++) { if (form == 2) cb_mma_pos_qp(2, 0, ck == 0, l, i, &r, &c); else cb_mma_pos(form != 1, 0, 2, l, i, &r, &c);\n"
"      p.C[r][c] = cb_mx_acc_in(ck, x->c, i); p.Ci[r][c] = (int64_t)(int32_t)(uint32_t)x->c[i]; } }\n"
"  cb_mm_run(&p);\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < nc; i++) { if (form == 2) cb_mma_pos_qp(2, 0, dk == 0, l, i, &r, &c); else cb_mma_pos(form != 1, 0, 2, l, i, &r, &c);\n"
"      cb_mx_acc_out(dk, x->d, i, p.D[r][c], p.Di[r][c]); } } }\n"
"/* wmma: slot j of lane l holds element (l * slots + j) mod (rows * cols) of the matrix, row-major in its logical shape */\n"
"CB_INL void cb_wmma_pos(int slots, int rows, int cols, int l, int j, int *r, int *c) { int e = (l * slots + j) % (rows * cols); *r = e / cols; *c = e % cols; }\n"
"/* f: M, N, K, ak, bk, ck, dk, slots of a, slots of b, bop */\n"
"CB_INL void cb_wmma_do(void *const d[32], uint32_t lanes, const int *f) {\n"
"  int M = f[0], N = f[1], K = f[2], ak = f[3], bk = f[4], ck = f[5], dk = f[6], sa = f[7], sb = f[8], sc = M * N / 32, r, c;\n"
"  static __thread cb_mm p; p.m = M; p.n = N; p.k = K; p.ck = ck; p.bop = f[9];\n"
"  if (lanes != 0xffffffffu) { for (int i = 0; i < M; i++) memset(p.A[i], 0, sizeof(double) * (size_t)K);\n"
"    for (int q = 0; q < K; q++) memset(p.B[q], 0, sizeof(double) * (size_t)N); cb_mm_zero_c(&p); }\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int j = 0; j < sa; j++) { cb_wmma_pos(sa, M, K, l, j, &r, &c); p.A[r][c] = cb_mx_in(ak, cb_mx_el(x->a, cb_mx_width(ak), j)); }\n"
"    for (int j = 0; j < sb; j++) { cb_wmma_pos(sb, K, N, l, j, &r, &c); p.B[r][c] = cb_mx_in(bk, cb_mx_el(x->b, cb_mx_width(bk), j)); }\n"
"    for (int j = 0; j < sc; j++) { cb_wmma_pos(sc, M, N, l, j, &r, &c); p.C[r][c] = cb_mx_acc_in(ck, x->c, j);\n"
"      p.Ci[r][c] = (int64_t)(int32_t)(uint32_t)x->c[j]; } }\n"
"  cb_mm_run(&p);\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int j = 0; j < sc; j++) { cb_wmma_pos(sc, M, N, l, j, &r, &c); cb_mx_acc_out(dk, x->d, j, p.D[r][c], p.Di[r][c]); } } }\n"
"/* wmma.load/store: lane's slots from/to memory p; element (r, c) is element r * stride + c (row-major) or\n"
"   c * stride + r of w bits each (sub-byte elements: the lowest bits of a byte first) */\n"
"CB_INL void cb_wmma_ldst(uint64_t *regs, int w, int slots, int rows, int cols, uint32_t lane, unsigned char *p, uint32_t stride, int rowmajor, int store) {\n"
"  int e0 = (int)(((uint32_t)lane * (uint32_t)slots) % (uint32_t)(rows * cols)), r0 = e0 / cols, c0 = e0 % cols;\n"
"  if ((w == 16 || w == 32) && c0 + slots <= cols) { /* the lane's slots are columns c0.. of row r0: one step apart */\n"
"    size_t b = (size_t)(w / 8), step = rowmajor ? b : (size_t)stride * b;\n"
"    unsigned char *q = p + (rowmajor ? (size_t)r0 * stride + (size_t)c0 : (size_t)c0 * stride + (size_t)r0) * b;\n"
"    for (int j = 0; j < slots; j++, q += step) {\n"
"      if (store) { uint64_t v = cb_mx_el(regs, w, j); memcpy(q, &v, b); } else { uint64_t v = 0; memcpy(&v, q, b); cb_mx_set(regs, w, j, v); } }\n"
"    return; }\n"
"  for (int j = 0; j < slots; j++) { int r, c; cb_wmma_pos(slots, rows, cols, (int)lane, j, &r, &c);\n"
"    size_t e = rowmajor ? (size_t)r * stride + (size_t)c : (size_t)c * stride + (size_t)r;\n"
"    if (w < 8) { unsigned char *q = p + e * (size_t)w / 8; int sh = (int)(e * (size_t)w % 8); unsigned m = ((1u << w) - 1u) << sh;\n"
"      if (store) *q = (unsigned char)((*q & ~m) | (((unsigned)cb_mx_el(regs, w, j) << sh) & m));\n"
"      else cb_mx_set(regs, w, j, (*q & m) >> sh); continue; }\n"
"    unsigned char *q = p + e * (size_t)(w / 8);\n"
"    if (store) { uint64_t v = cb_mx_el(regs, w, j); memcpy(q, &v, (size_t)(w / 8)); }\n"
"    else { uint64_t v = 0; memcpy(&v, q, (size_t)(w / 8)); cb_mx_set(regs, w, j, v); } } }\n"
"/* ldmatrix/stmatrix m8n8 .b16: matrix i's row r lives at the address of lane 8i + r (in a[0]);\n"
"   lane l's register i holds row l/4, columns 2(l%4) and 2(l%4)+1 (.trans: the transpose) */\n"
"CB_INL void cb_ldst_matrix(void *const d[32], uint32_t lanes, int n, int trans, int store) {\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue; cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < n; i++) for (int h = 0; h < 2; h++) {\n"
"      int row = l >> 2, col = (l & 3) * 2 + h; if (trans) { int s = row; row = col; col = s; }\n"
"      int src = 8 * i + row; uint16_t *p = (uint16_t *)(uintptr_t)(CB_MX(d, src) ? CB_MX(d, src)->a[0] + 2u * (unsigned)col : 0);\n"
"      if (!p) continue;\n"
"      if (store) { uint16_t v = (uint16_t)cb_mx_el(x->c, 16, 2 * i + h); memcpy(p, &v, 2); }\n"
"      else { uint16_t v; memcpy(&v, p, 2); cb_mx_set(x->d, 16, 2 * i + h, v); } } } }\n"
"/* The fast form of mma and wmma.mma for the common case: every lane of the warp, f16, bf16 or tf32 inputs,\n"
"   f32 or f16 accumulators, N of 8, 16 or 32, K <= 32, every value finite. The same sums as cb_mm_run (each\n"
"   product exact in double, summed in k order from +0, C added, rounded once), computed as vector loops over\n"
"   a row of D (GCC vector extensions, as wide as the unit's flags allow). With a non-finite value anywhere\n"
"   the general form runs instead (NaN results keep its bits). Matrices are row-major, rows packed. */\n"
"#ifdef __AVX__\n"
"typedef double cb_vd __attribute__((vector_size(32)));\n"
"#define CB_VW 4\n"
"#define CB_VSPLAT(a) ((cb_vd){a, a, a, a})\n"
"/* s + a * b: the product is exact in double (at most 11 + 11 significant bits, finite), so one fused rounding\n"
"   gives the same bits as the product rounded and then added */\n"
"#ifdef __FMA__\n"
"#define CB_VFMA(a, b, s) __builtin_ia32_vfmaddpd256(a, b, s)\n"
"#else\n"
"#define CB_VFMA(a, b, s) ((s) + (a) * (b))\n"
"#endif\n"
"#else\n"
"typedef double cb_vd __attribute__((vector_size(16)));\n"
"#define CB_VW 2\n"
"#define CB_VSPLAT(a) ((cb_vd){a, a})\n"
"#define CB_VFMA(a, b, s) ((s) + (a) * (b))\n"
"#endif\n"
"typedef struct cb_mmf { double A[512] __attribute__((aligned(32))), B[512] __attribute__((aligned(32))),\n"
"  C[256] __attribute__((aligned(32))), D[256] __attribute__((aligned(32))); } cb_mmf;   /* 12 KiB, on the stack */\n"
"/* element v as double: k 0 f16, 1 bf16, 2 tf32 (low 13 bits ignored), 3 f32; *bad |= not finite */\n"
"CB_INL double cb_mxf_in(int k, uint32_t v, uint32_t *bad) {\n"
"  if (k == 0) { uint32_t e = v >> 10 & 31u, m = v & 0x3ffu; *bad |= e == 31u;\n"
"    double r = e ? cb_f64((uint64_t)(e + 1008u) << 52 | (uint64_t)m << 42) : (double)m * 0x1p-24; return v & 0x8000u ? -r : r; }\n"
"  uint32_t f = k == 1 ? v << 16 : k == 2 ? v & 0xffffe000u : v; *bad |= (f & 0x7f800000u) == 0x7f800000u; return (double)cb_f32(f); }\n"
"/* D = A * B + C, M x N x K, with NV vectors to a row of D */\n"
"#define CB_MXF_ROWS(NV) for (int i = 0; i < M; i++) { cb_vd s[NV];\\\n"
"    for (int v = 0; v < NV; v++) s[v] = CB_VSPLAT(0.0);\\\n"
"    for (int q = 0; q < K; q++) { cb_vd a = CB_VSPLAT(p->A[i * K + q]); const cb_vd *b = (const cb_vd *)&p->B[q * NV * CB_VW];\\\n"
"      for (int v = 0; v < NV; v++) s[v] = CB_VFMA(a, b[v], s[v]); }\\\n"
"    const cb_vd *c = (const cb_vd *)&p->C[i * NV * CB_VW]; cb_vd *d = (cb_vd *)&p->D[i * NV * CB_VW];\\\n"
"    for (int v = 0; v < NV; v++) d[v] = s[v] + c[v]; }\n"
"CB_INL void cb_mxf_run(cb_mmf *p, int M, int N, int K) {\n"
"  if (N == 8) CB_MXF_ROWS(8 / CB_VW) else if (N == 16) CB_MXF_ROWS(16 / CB_VW) else CB_MXF_ROWS(32 / CB_VW) }\n"
"/* lane l's fragment registers: which 0 a, 1 b, 2 c */\n"
"CB_INL const uint64_t *cb_mxf_regs(void *const d[32], int which, int l) { const cb_mx *x = CB_MX(d, l);\n"
"  return which == 0 ? x->a : which == 1 ? x->b : x->c; }\n"
"/* Fragment registers to doubles, four registers at a time where it can: r[i] holds a 32-bit register in its\n"
"   low half; the result is nonzero when some value is not finite */\n"
"typedef unsigned cb_v4su __attribute__((vector_size(16)));\n"
"typedef int cb_v4si __attribute__((vector_size(16)));\n"
"typedef float cb_v4sf __attribute__((vector_size(16)));\n"
"typedef double cb_v4df __attribute__((vector_size(32)));\n"
"typedef uint64_t cb_v4du __attribute__((vector_size(32)));\n"
"#ifdef __F16C__\n"
"typedef short cb_v8hi __attribute__((vector_size(16)));\n"
"#endif\n"
"CB_INL cb_v4su cb_mxf_w4(const uint64_t *r) { cb_v4su u = {(uint32_t)r[0], (uint32_t)r[1], (uint32_t)r[2], (uint32_t)r[3]}; return u; }\n"
"CB_INL uint32_t cb_mxf_any(cb_v4si m) { return (uint32_t)(m[0] | m[1] | m[2] | m[3]) & 1u; }\n"
"/* n f32 values (n % 4 == 0) from r[0 .. n) */\n"
"CB_INL uint32_t cb_mxf_f32s(const uint64_t *r, int n, double *dst) { cb_v4si bad = {0, 0, 0, 0};\n"
"  for (int j = 0; j < n; j += 4) { cb_v4su u = cb_mxf_w4(r + j); bad |= (u & 0x7f800000u) == 0x7f800000u;\n"
"    cb_v4df d = __builtin_convertvector((cb_v4sf)u, cb_v4df); memcpy(dst + j, &d, sizeof d); }\n"
"  return cb_mxf_any(bad); }\n"
"/* n f16 values (n % 8 == 0), packed in pairs in r[0 .. n / 2); with F16C (-march=native on such a CPU) by vcvtph2ps */\n"
"CB_INL uint32_t cb_mxf_f16s(const uint64_t *r, int n, double *dst) {\n"
"#ifdef __F16C__\n"
"  cb_v4si bad = {0, 0, 0, 0};\n"
"  for (int j = 0; j < n; j += 8) { cb_v4su u = cb_mxf_w4(r + j / 2), hi = {u[2], u[3], 0, 0};\n"
"    bad |= ((u & 0x7c00u) == 0x7c00u) | ((u & 0x7c000000u) == 0x7c000000u);\n"
"    cb_v4df d0 = __builtin_convertvector(__builtin_ia32_vcvtph2ps((cb_v8hi)u), cb_v4df);\n"
"    cb_v4df d1 = __builtin_convertvector(__builtin_ia32_vcvtph2ps((cb_v8hi)hi), cb_v4df);\n"
"    memcpy(dst + j, &d0, sizeof d0); memcpy(dst + j + 4, &d1, sizeof d1); }\n"
"  return cb_mxf_any(bad);\n"
"#else\n"
"  uint32_t bad = 0;\n"
"  for (int j = 0; j < n; j += 2) { uint32_t v = (uint32_t)r[j >> 1]; dst[j] = cb_mxf_in(0, v & 0xffffu, &bad); dst[j + 1] = cb_mxf_in(0, v >> 16, &bad); }\n"
"  return bad;\n"
"#endif\n"
"}\n"
"/* a wmma fragment (kind k, w bits: 16 or 32, slots per lane) into dst[0 .. n): as in cb_wmma_do the last lane\n"
"   holding an element wins; 32 * slots is a multiple of n, so element e is slot 32 * slots - n + e. Returns\n"
"   nonzero when some value is not finite */\n"
"CB_INL uint32_t cb_mxf_wmma_in(void *const d[32], int which, int k, int w, int slots, int n, double *dst) { uint32_t bad = 0;\n"
"  for (int l = 32 - n / slots, e = 0; l < 32; l++, e += slots) { const uint64_t *r = cb_mxf_regs(d, which, l);\n"
"    if (k == 0 && slots % 8 == 0) bad |= cb_mxf_f16s(r, slots, dst + e);\n"
"    else if (k == 3 && slots % 4 == 0) bad |= cb_mxf_f32s(r, slots, dst + e);\n"
"    else if (w == 16) for (int j = 0; j < slots; j += 2) { uint64_t v = r[j >> 1];\n"
"      dst[e + j] = cb_mxf_in(k, (uint32_t)v & 0xffffu, &bad); dst[e + j + 1] = cb_mxf_in(k, (uint32_t)(v >> 16) & 0xffffu, &bad); }\n"
"    else for (int j = 0; j < slots; j++) dst[e + j] = cb_mxf_in(k, (uint32_t)r[j], &bad); }\n"
"  return bad; }\n"
"/* f: as cb_wmma_do's; 1 when done, 0 when the general form must run */\n"
"CB_INL int cb_wmma_fast(void *const d[32], uint32_t lanes, const int *f) {\n"
"  int M = f[0], N = f[1], K = f[2], ak = f[3], bk = f[4], ck = f[5], dk = f[6], sa = f[7], sb = f[8], sc = M * N / 32;\n"
"  if (lanes != 0xffffffffu || ak > 2 || bk != ak || ck > 1 || dk > 1 || M * K > 512 || K * N > 512 || M * N > 256 ||\n"
"      (N != 8 && N != 16 && N != 32) || (32 * sa) % (M * K) || (32 * sb) % (K * N) || (M * K) % sa || (K * N) % sb || sc % 2)\n"
"    return 0;\n"
"  cb_mmf q, *p = &q; uint32_t bad = 0; int w = ak == 2 ? 32 : 16;\n"
"  bad |= cb_mxf_wmma_in(d, 0, ak, w, sa, M * K, p->A) | cb_mxf_wmma_in(d, 1, bk, w, sb, K * N, p->B);\n"
"  bad |= ck ? cb_mxf_wmma_in(d, 2, 0, 16, sc, M * N, p->C) : cb_mxf_wmma_in(d, 2, 3, 32, sc, M * N, p->C);\n"
"  if (bad) return 0;\n"
"  cb_mxf_run(p, M, N, K);\n"
"  for (int l = 0, e = 0; l < 32; l++) { cb_mx *x = CB_MX(d, l);\n"
"    if (dk) for (int j = 0; j < sc; j += 2, e += 2)\n"
"      x->d[j >> 1] = (uint64_t)cb_dh(0, p->D[e], 0) | (uint64_t)cb_dh(0, p->D[e + 1], 0) << 16;\n"
"    else if (sc % 4 == 0) for (int j = 0; j < sc; j += 4, e += 4) { cb_v4df v; memcpy(&v, p->D + e, sizeof v);\n"
"      cb_v4du u = __builtin_convertvector((cb_v4su)__builtin_convertvector(v, cb_v4sf), cb_v4du); memcpy(x->d + j, &u, sizeof u); }\n"
"    else for (int j = 0; j < sc; j++, e++) x->d[j] = cb_bits32((float)p->D[e]); }\n"
"  return 1; }\n"
"/* f: as cb_mma_do's (forms 0 and 1 only); 1 when done, 0 when the general form must run */\n"
"CB_INL int cb_mma_fast(void *const d[32], uint32_t lanes, const int *f) {\n"
"  int form = f[0], M = f[1], N = f[2], K = f[3], ak = f[4], bk = f[5], ck = f[6], dk = f[7], r, c;\n"
"  if (lanes != 0xffffffffu || form > 1 || ak > 2 || bk != ak || ck > 1 || dk > 1 || N != 8 || M > 16 || K > 32) return 0;\n"
"  cb_mmf q, *p = &q; uint32_t bad = 0; int w = ak == 2 ? 32 : 16, m16 = form != 1;\n"
"  int na = M * K / 32, nb = K * N / 32, nc = M * N / 32;\n"
"  for (int l = 0; l < 32; l++) { const cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < na; i++) { cb_mma_pos(m16, w, 0, l, i, &r, &c); p->A[r * K + c] = cb_mxf_in(ak, (uint32_t)cb_mx_el(x->a, w, i), &bad); }\n"
"    for (int i = 0; i < nb; i++) { cb_mma_pos(m16, w, 1, l, i, &r, &c); p->B[r * 8 + c] = cb_mxf_in(bk, (uint32_t)cb_mx_el(x->b, w, i), &bad); }\n"
"    for (int i = 0; i < nc; i++) { cb_mma_pos(m16, 0, 2, l, i, &r, &c);\n"
"      p->C[r * 8 + c] = ck ? cb_mxf_in(0, (uint32_t)cb_mx_el(x->c, 16, i), &bad) : cb_mxf_in(3, (uint32_t)x->c[i], &bad); } }\n"
"  if (bad) return 0;\n"
"  cb_mxf_run(p, M, N, K);\n"
"  for (int l = 0; l < 32; l++) { cb_mx *x = CB_MX(d, l);\n"
"    for (int i = 0; i < nc; i++) { cb_mma_pos(m16, 0, 2, l, i, &r, &c); double v = p->D[r * 8 + c];\n"
"      if (dk) cb_mx_set(x->d, 16, i, cb_dh(0, v, 0)); else x->d[i] = cb_bits32((float)v); } }\n"
"  return 1; }\n"
"/* the cb_warp_fn of each instruction: its parameters come from the first lane's cfg */\n"
"CB_MFN cb_mfn_mma(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  if (!cb_mma_fast(d, lanes, f)) cb_mma_do(d, lanes, f); }\n"
"CB_MFN cb_mfn_wmma(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  if (!cb_wmma_fast(d, lanes, f)) cb_wmma_do(d, lanes, f); }\n"
"CB_MFN cb_mfn_ldst_matrix(void *const d[32], uint32_t lanes) { const int *f = CB_MX(d, __builtin_ctz(lanes))->cfg;\n"
"  cb_ldst_matrix(d, lanes, f[0], f[1], f[2]); }\n"
"/* movmatrix.m8n8.trans.b16: lane l's a[0] holds row l/4, columns 2(l%4) and 2(l%4)+1 of an 8x8 matrix;\n"
"   its d[0] gets the same part of the transpose: element (2(l%4)+h, l/4), held by lane 4(2(l%4)+h) + l/8 */\n"
"CB_MFN cb_mfn_movmatrix(void *const d[32], uint32_t lanes) {\n"
"  for (int l = 0; l < 32; l++) { if (!(lanes >> l & 1)) continue;\n"
"    for (int h = 0; h < 2; h++) { int r = (l & 3) * 2 + h, col = l >> 2, src = 4 * r + (col >> 1);\n"
"      cb_mx_set(CB_MX(d, l)->d, 16, h, CB_MX(d, src) ? cb_mx_el(CB_MX(d, src)->a, 16, col & 1) : 0); } } }\n";

/* ---- shapes and types ------------------------------------------------------------ */

typedef struct mshape {
    ptx_mod mod;
    int m, n, k;
} mshape;

static const mshape shapes[] = {
    {PTX_MOD_m16n8k16, 16, 8, 16},   {PTX_MOD_m16n8k8, 16, 8, 8},     {PTX_MOD_m16n8k32, 16, 8, 32},
    {PTX_MOD_m8n8k4, 8, 8, 4},       {PTX_MOD_m16n8k4, 16, 8, 4},     {PTX_MOD_m16n16k16, 16, 16, 16},
    {PTX_MOD_m32n8k16, 32, 8, 16},   {PTX_MOD_m8n32k16, 8, 32, 16},   {PTX_MOD_m16n8k64, 16, 8, 64},
    {PTX_MOD_m16n8k128, 16, 8, 128}, {PTX_MOD_m16n8k256, 16, 8, 256}, {PTX_MOD_m16n16k8, 16, 16, 8},
    {PTX_MOD_m8n8k16, 8, 8, 16},     {PTX_MOD_m8n8k32, 8, 8, 32},     {PTX_MOD_m8n8k128, 8, 8, 128},
};

static const mshape *shape_of(const ptx_instr *in)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (ptx_has(in, shapes[i].mod))
            return &shapes[i];
    return NULL;
}

/* Input element kind (cb_mx_in): 0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8, 5 f64, 6 e4m3, 7 e5m2, 8 s4, 9 u4,
 * 10 b1; -1 otherwise. */
static int in_kind(ptx_type t)
{
    switch (t) {
    case PTX_TYPE_f16: return 0;
    case PTX_TYPE_bf16: return 1;
    case PTX_TYPE_tf32: return 2;
    case PTX_TYPE_s8: return 3;
    case PTX_TYPE_u8: return 4;
    case PTX_TYPE_f64: return 5;
    case PTX_TYPE_e4m3: return 6;
    case PTX_TYPE_e5m2: return 7;
    case PTX_TYPE_s4: return 8;
    case PTX_TYPE_u4: return 9;
    case PTX_TYPE_b1: return 10;
    default: return -1;
    }
}

/* Bits per element of input kind k (cb_mx_width). */
static int in_width(int k)
{
    static const int w[] = {16, 16, 32, 8, 8, 64, 8, 8, 4, 4, 1};
    return w[k];
}

/* The class of an input kind, as the validity table names it: 'h' f16, 'g' bf16, 't' tf32, 'i' s8/u8,
 * 'd' f64, '8' e4m3/e5m2, '4' s4/u4, '1' b1. */
static char in_class(int k)
{
    static const char cls[] = "hgtiid88441";
    return cls[k];
}

/* Accumulator kind (cb_mx_acc_in/out): 0 f32, 1 f16, 2 s32 (3 with .satfinite), 4 f64; -1 otherwise. */
static int acc_kind(const ptx_instr *in, ptx_type t)
{
    switch (t) {
    case PTX_TYPE_f32: return 0;
    case PTX_TYPE_f16: return 1;
    case PTX_TYPE_s32: return ptx_has(in, PTX_MOD_satfinite) ? 3 : 2;
    case PTX_TYPE_f64: return 4;
    default: return -1;
    }
}

/* Registers holding n elements of input kind k (64-bit registers for f64). */
static uint32_t nregs_in(int k, uint32_t n)
{
    int w = in_width(k);
    return w == 64 ? n : n * (uint32_t)w / 32;
}

static uint32_t nregs_acc(int kind, uint32_t elems) { return kind == 1 ? elems / 2 : elems; }

/* ---- moving fragments between registers and a cb_mx -------------------------------- */

/* Emits <mx><field>[i] = register i of vector operand o, as 32 or 64 bits (mx: "cb_m." or "cbP->", the lane's cb_mx). */
static void pack_regs(cg *c, const char *mx, const ptx_operand *o, const char *field, uint32_t want, int bits64)
{
    if (want == 1 && o->kind != PTX_OPD_vec) {   /* a lone register */
        cg_printf(c, "    %s%s[0] = (uint64_t)", mx, field);
        cg_read(c, o, bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32);
        cg_puts(c, ";\n");
        return;
    }
    if (o->kind != PTX_OPD_vec || o->nelems != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "expected a vector of %u registers", want);
        cg_fail(c, msg);
    }
    for (uint32_t i = 0; i < o->nelems; i++) {
        cg_printf(c, "    %s%s[%u] = (uint64_t)", mx, field, i);
        cg_read(c, &o->elems[i], bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32);
        cg_puts(c, ";\n");
    }
}

static void unpack_regs(cg *c, const char *mx, const ptx_operand *o, const char *field, uint32_t want, int bits64)
{
    ptx_type ty = bits64 ? PTX_TYPE_b64 : PTX_TYPE_b32;
    if (want == 1 && o->kind != PTX_OPD_vec) {   /* a lone register */
        cg_puts(c, "    ");
        cg_dst_open(c, o, ty);
        cg_printf(c, "(%s)%s%s[0]", bits64 ? "uint64_t" : "uint32_t", mx, field);
        cg_dst_close(c, o, ty);
        return;
    }
    if (o->kind != PTX_OPD_vec || o->nelems != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "expected a vector of %u destination registers", want);
        cg_fail(c, msg);
    }
    for (uint32_t i = 0; i < o->nelems; i++) {
        if (o->elems[i].kind == PTX_OPD_sink)
            continue;
        cg_puts(c, "    ");
        cg_dst_open(c, &o->elems[i], ty);
        cg_printf(c, "(%s)%s%s[%u]", bits64 ? "uint64_t" : "uint32_t", mx, field, i);
        cg_dst_close(c, &o->elems[i], ty);
    }
}

static void emit_cfg(cg *c, const char *mx, const int *cfg, int n)
{
    cg_puts(c, "   ");
    for (int i = 0; i < n; i++)
        cg_printf(c, " %scfg[%d] = %d;", mx, i, cfg[i]);
    cg_puts(c, "\n");
}

/* ---- mma.sync and mma.sp ---------------------------------------------------------------- */

/* The forms of mma (dense and sparse) of sm_70..sm_90, from the PTX ISA's syntax tables. accs: the
 * accumulator kinds allowed, as bits 1 << acc_kind (f32 1, f16 2, s32 4|8, f64 16). */
typedef struct mform {
    char cls;
    ptx_mod shape;
    int sparse, accs;
} mform;

enum { ACC_F32 = 1, ACC_F16 = 2, ACC_S32 = 4 | 8, ACC_F64 = 16 };

static const mform mforms[] = {
    {'h', PTX_MOD_m8n8k4, 0, ACC_F32 | ACC_F16},    {'h', PTX_MOD_m16n8k8, 0, ACC_F32 | ACC_F16},
    {'h', PTX_MOD_m16n8k16, 0, ACC_F32 | ACC_F16},  {'g', PTX_MOD_m16n8k8, 0, ACC_F32},
    {'g', PTX_MOD_m16n8k16, 0, ACC_F32},            {'t', PTX_MOD_m16n8k4, 0, ACC_F32},
    {'t', PTX_MOD_m16n8k8, 0, ACC_F32},             {'8', PTX_MOD_m16n8k16, 0, ACC_F32 | ACC_F16},
    {'8', PTX_MOD_m16n8k32, 0, ACC_F32 | ACC_F16},  {'i', PTX_MOD_m8n8k16, 0, ACC_S32},
    {'i', PTX_MOD_m16n8k16, 0, ACC_S32},            {'i', PTX_MOD_m16n8k32, 0, ACC_S32},
    {'4', PTX_MOD_m8n8k32, 0, ACC_S32},             {'4', PTX_MOD_m16n8k32, 0, ACC_S32},
    {'4', PTX_MOD_m16n8k64, 0, ACC_S32},            {'1', PTX_MOD_m8n8k128, 0, ACC_S32},
    {'1', PTX_MOD_m16n8k128, 0, ACC_S32},           {'1', PTX_MOD_m16n8k256, 0, ACC_S32},
    {'d', PTX_MOD_m8n8k4, 0, ACC_F64},              {'d', PTX_MOD_m16n8k4, 0, ACC_F64},
    {'d', PTX_MOD_m16n8k8, 0, ACC_F64},             {'d', PTX_MOD_m16n8k16, 0, ACC_F64},
    {'h', PTX_MOD_m16n8k16, 1, ACC_F32 | ACC_F16},  {'h', PTX_MOD_m16n8k32, 1, ACC_F32 | ACC_F16},
    {'g', PTX_MOD_m16n8k16, 1, ACC_F32},            {'g', PTX_MOD_m16n8k32, 1, ACC_F32},
    {'t', PTX_MOD_m16n8k8, 1, ACC_F32},             {'t', PTX_MOD_m16n8k16, 1, ACC_F32},
    {'i', PTX_MOD_m16n8k32, 1, ACC_S32},            {'i', PTX_MOD_m16n8k64, 1, ACC_S32},
    {'8', PTX_MOD_m16n8k64, 1, ACC_F32},
};

static int mform_ok(char cls, ptx_mod shape, int sparse, int ck, int dk)
{
    for (size_t i = 0; i < sizeof mforms / sizeof mforms[0]; i++)
        if (mforms[i].cls == cls && mforms[i].shape == shape && mforms[i].sparse == sparse)
            return (mforms[i].accs >> ck & 1) && (mforms[i].accs >> dk & 1);
    return 0;
}

static const char mma_forms_text[] =
    "supported: f16 m8n8k4/m16n8k8/m16n8k16, bf16 m16n8k8/m16n8k16, tf32 m16n8k4/m16n8k8, e4m3/e5m2 "
    "m16n8k16/m16n8k32, s8/u8 m8n8k16/m16n8k16/m16n8k32, s4/u4 m8n8k32/m16n8k32/m16n8k64, b1 m8n8k128/"
    "m16n8k128/m16n8k256, f64 m8n8k4/m16n8k4/m16n8k8/m16n8k16; sparse mma.sp: f16/bf16 m16n8k16/m16n8k32, "
    "tf32 m16n8k8/m16n8k16, s8/u8 m16n8k32/m16n8k64, e4m3/e5m2 m16n8k64";

/* Checks the types of mma d, a, b, c and fills ak, bk, ck, dk; fails the translation otherwise. */
static void mma_kinds(cg *c, const ptx_instr *in, const mshape *s, int sparse, int *k)
{
    if (in->ntypes != 4 && !(in->ntypes == 2 && in->types[0] == in->types[1] && in->types[0] == PTX_TYPE_f64))
        cg_fail(c, "mma needs .dtype.atype.btype.ctype");
    ptx_type dt = in->types[0], ct = in->types[in->ntypes - 1];
    ptx_type at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_f64, bt = in->ntypes == 4 ? in->types[2] : PTX_TYPE_f64;
    int ak = in_kind(at), bk = in_kind(bt), ck = acc_kind(in, ct), dk = acc_kind(in, dt);
    int ok = ak >= 0 && bk >= 0 && ck >= 0 && dk >= 0;
    if (ok) {   /* a and b of one class: equal, except s8/u8, s4/u4 and e4m3/e5m2 may mix */
        char ca = in_class(ak);
        ok = ca == in_class(bk) && (ak == bk || ca == 'i' || ca == '4' || ca == '8');
        ok = ok && mform_ok(ca, s->mod, sparse, ck, dk);
        if (ok && (ck == 2 || ck == 3))
            ok = ck == dk;
        if (ok && dk == 1)   /* an f16 result needs f16 accumulators (ptxas) */
            ok = ck == 1;
        if (ok && ca == '1')
            ok = (ptx_has(in, PTX_MOD_xor) != ptx_has(in, PTX_MOD_and)) && ptx_has(in, PTX_MOD_popc);
    }
    if (!ok) {
        char msg[700];
        snprintf(msg, sizeof msg, "unsupported %s shape/type combination .%s.%s.%s.%s (%s)",
                 sparse ? "mma.sp" : "mma", ptx_type_name(dt), ptx_type_name(at), ptx_type_name(bt),
                 ptx_type_name(ct), mma_forms_text);
        cg_fail(c, msg);
    }
    if (ptx_has(in, PTX_MOD_satfinite) && ck != 3)
        cg_fail(c, ".satfinite applies to integer mma only");
    k[0] = ak, k[1] = bk, k[2] = ck, k[3] = dk;
}

/* The .alayout.blayout of an mma, in the order written (mods are flags, so .row.col and .col.row look alike
 * there): *acol / *bcol are 1 for .col. Returns 0 unless exactly two layouts are named. */
static int layouts_of(const ptx_instr *in, int *acol, int *bcol)
{
    int n = 0, seen[2] = {0, 0};
    const char *s = in->text, *end = in->text ? in->text + in->textlen : NULL;
    if (s && *s == '@') {   /* a guard: skip it */
        while (s < end && *s != ' ' && *s != '\t')
            s++;
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
    }
    for (; s && s < end && *s != ' ' && *s != '\t'; s++) {
        if (*s != '.' || end - s < 4)
            continue;
        int row = !memcmp(s, ".row", 4), col = !memcmp(s, ".col", 4);
        char after = end - s > 4 ? s[4] : '.';
        if ((row || col) && (after == '.' || after == ' ' || after == '\t')) {
            if (n < 2)
                seen[n] = col;
            n++;
        }
    }
    if (n != 2)
        return 0;
    *acol = seen[0];
    *bcol = seen[1];
    return 1;
}

/* mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype.ctype{.bop.popc} d, a, b, c
 * mma.sp{::ordered_metadata}.sync.aligned.shape.row.col.dtype.atype.btype.ctype d, a, b, c, e, sel */
/* What an emitter of a warp-matrix collective emits: the whole instruction for a thread of the general code
 * (pack its fragments into cb_m, rt->warp_exchange, unpack), or for the lanes entry (c_lanes_emit_matrix)
 * the packing or the unpacking of one lane, or the instruction's parameters (once per warp). */
enum { PART_ALL, PART_PACK, PART_UNPACK, PART_PARAMS };

/* The cb_warp_fn of each collective, by how it packs. */
static const char *const matrix_fn[] = {"cb_mfn_mma", "cb_mfn_wmma"};

/* The lane's cb_mx: cb_m on its stack, zeroed (PART_ALL), or cbP, its slot cbMx[lane] of the warp (PART_PACK),
 * with d and e zeroed (the fragments' registers are all written, the cb_mfn_* read no others). */
static void emit_mx_open(cg *c, int part, int f16_result)
{
    if (part == PART_ALL)
        cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    else if (f16_result)   /* f16 results are set half by half (cb_mx_set); others are whole words */
        cg_puts(c, "cb_mx *const cbP = &cbMx[cbL & 31u]; memset(cbP->d, 0, sizeof cbP->d);\n");
    else
        cg_puts(c, "cb_mx *const cbP = &cbMx[cbL & 31u];\n");
}

/* The instruction's parameters: in every lane's cb_mx (PART_ALL), else nothing: the lanes entry writes them
 * once per warp, into the first live lane's (c_lanes_emit_matrix), which is the one the cb_mfn_* read. */
static void emit_params(cg *c, int part, const int *cfg, int n)
{
    if (part == PART_ALL)
        emit_cfg(c, "cb_m.", cfg, n);
    else if (part == PART_PARAMS)
        emit_cfg(c, "cbP->", cfg, n);
}

static void emit_exchange(cg *c, const char *fn)
{
    cg_printf(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, %s);\n", fn);
}

static void emit_mma_part(cg *c, const ptx_instr *in, int part)
{
    const char *mx = part == PART_ALL ? "cb_m." : "cbP->";
    const mshape *s = shape_of(in);
    int sparse = ptx_has(in, PTX_MOD_sp) || ptx_has(in, PTX_MOD_sp_ordered);
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !s || s->m == 32 || s->n != 8)
        cg_fail(c, "mma needs .sync.aligned and an mma shape (m8n8k4, m8n8k16, m8n8k32, m8n8k128, m16n8k4, "
                   "m16n8k8, m16n8k16, m16n8k32, m16n8k64, m16n8k128, m16n8k256)");
    if (in->nops != (sparse ? 6 : 4))
        cg_fail(c, sparse ? "mma.sp needs d, a, b, c, metadata, sparsity selector" : "mma needs d, a, b, c");
    int k[4];
    mma_kinds(c, in, s, sparse, k);
    int ak = k[0], bk = k[1], ck = k[2], dk = k[3];
    int quadpair = s->mod == PTX_MOD_m8n8k4 && ak == 0;
    int acol = 0, bcolmajor = 1;
    if (!layouts_of(in, &acol, &bcolmajor) || (!quadpair && (acol || !bcolmajor)))
        cg_fail(c, quadpair ? "mma.m8n8k4 .f16 needs .alayout.blayout (.row or .col each)"
                            : "mma needs .row.col (only m8n8k4 .f16 takes other layouts)");
    int form = sparse ? 3 : quadpair ? 2 : s->m == 16 ? 0 : 1;
    uint32_t na = quadpair ? 4 : (uint32_t)(s->m * s->k / 32 / (sparse ? 2 : 1));
    uint32_t nb = quadpair ? 4 : (uint32_t)(s->k * s->n / 32), nc = quadpair ? 8 : (uint32_t)(s->m * s->n / 32);
    if (part == PART_UNPACK) {
        unpack_regs(c, mx, &in->ops[0], "d", nregs_acc(dk, nc), dk == 4);
        return;
    }
    int sel = 0;
    if (sparse) {
        const ptx_operand *f = &in->ops[5];
        if (f->kind != PTX_OPD_int || f->imm > 3)
            cg_fail(c, "mma.sp: the sparsity selector must be a constant 0..3");
        sel = (int)f->imm;
        int nthr = (ak == 2 ? s->k / 2 : s->k / 4) / 4;   /* metadata lanes per group of four */
        if (sel * nthr > 3)
            cg_fail(c, "mma.sp: sparsity selector out of range for this shape (the ISA leaves it undefined)");
    }
    if (part != PART_PARAMS) {
        emit_mx_open(c, part, dk == 1);
        pack_regs(c, mx, &in->ops[1], "a", nregs_in(ak, na), ak == 5);
        pack_regs(c, mx, &in->ops[2], "b", nregs_in(bk, nb), bk == 5);
        pack_regs(c, mx, &in->ops[3], "c", nregs_acc(ck, nc), ck == 4);
        if (sparse) {
            cg_printf(c, "    %se = (uint64_t)", mx);
            cg_read(c, &in->ops[4], PTX_TYPE_b32);
            cg_puts(c, ";\n");
        }
    }
    int bop = ptx_has(in, PTX_MOD_xor) ? 1 : ptx_has(in, PTX_MOD_and) ? 2 : 0;
    int cfg[12] = {form, s->m, s->n, s->k, ak, bk, ck, dk, acol, bcolmajor, bop, sel};
    emit_params(c, part, cfg, 12);
    if (part != PART_ALL)
        return;
    emit_exchange(c, matrix_fn[0]);
    unpack_regs(c, mx, &in->ops[0], "d", nregs_acc(dk, nc), dk == 4);
}

void c_emit_mma(cg *c, const ptx_instr *in) { emit_mma_part(c, in, PART_ALL); }

/* ---- wmma ------------------------------------------------------------------------------- */

/* Whether the wmma shape s takes input kind k (a, b) and accumulator kind acc (c, d; -1: not checked). */
static int wmma_shape_ok(const mshape *s, int k, int acc)
{
    int wide = s->mod == PTX_MOD_m16n16k16 || s->mod == PTX_MOD_m32n8k16 || s->mod == PTX_MOD_m8n32k16;
    int acc_int = acc < 0 || acc == 2 || acc == 3, acc_f32 = acc < 0 || acc == 0;
    switch (k) {
    case 0: return wide && (acc < 0 || acc == 0 || acc == 1);
    case 1: return wide && acc_f32;
    case 3: case 4: return wide && acc_int;
    case 2: return s->mod == PTX_MOD_m16n16k8 && acc_f32;
    case 5: return s->mod == PTX_MOD_m8n8k4 && (acc < 0 || acc == 4);
    case 8: case 9: return s->mod == PTX_MOD_m8n8k32 && acc_int;
    case 10: return s->mod == PTX_MOD_m8n8k128 && acc_int;
    default: return 0;
    }
}

/* Slots (elements) per lane of a wmma fragment: which 0 a, 1 b, 2 c/d. f16 a and b hold 16 whatever the
 * shape (the ISA's .v8 .f16x2), so some elements are held twice. */
static int wmma_slots(const mshape *s, int which, int kind)
{
    if (which < 2 && kind == 0)
        return 16;
    int rows = which == 1 ? s->k : s->m, cols = which == 0 ? s->k : s->n;
    return rows * cols / 32;
}

static const char wmma_forms_text[] =
    "supported: .f16 (f16/f32 accumulators), .bf16 (f32), .s8/.u8 (s32) on m16n16k16, m32n8k16, m8n32k16; "
    ".tf32 (f32) on m16n16k8; .f64 on m8n8k4; .s4/.u4 (s32) on m8n8k32 and .b1 (s32, .xor/.and.popc) on "
    "m8n8k128, a .row and b .col";

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type r, [p]{, stride}
 * wmma.store.d.sync.aligned.layout.shape{.space}.type [p], r{, stride} */
static void emit_wmma_ldst(cg *c, const ptx_instr *in, const mshape *s)
{
    int store = ptx_has(in, PTX_MOD_store);
    int which = ptx_has(in, PTX_MOD_a) ? 0 : ptx_has(in, PTX_MOD_b) ? 1 : (ptx_has(in, PTX_MOD_c) || ptx_has(in, PTX_MOD_d)) ? 2 : -1;
    int rowmajor = ptx_has(in, PTX_MOD_row), colmajor = ptx_has(in, PTX_MOD_col);
    if (which < 0 || rowmajor == colmajor || in->ntypes != 1 || in->nops < 2 || in->nops > 3 ||
        (store && (which != 2 || !ptx_has(in, PTX_MOD_d))) || (!store && ptx_has(in, PTX_MOD_d)))
        cg_fail(c, "wmma.load needs .a/.b/.c, wmma.store needs .d; both a layout (.row/.col), a type, and r, [p]{, stride}");
    ptx_type ty = in->types[0];
    int kind, w;
    if (which < 2) {
        kind = in_kind(ty);
        if (kind < 0 || !wmma_shape_ok(s, kind, -1)) {
            char msg[400];
            snprintf(msg, sizeof msg, "unsupported wmma.load.%c type .%s for this shape (%s)", which ? 'b' : 'a',
                     ptx_type_name(ty), wmma_forms_text);
            cg_fail(c, msg);
        }
        if ((kind >= 8) && (which == 0 ? !rowmajor : !colmajor))
            cg_fail(c, "wmma .s4/.u4/.b1 fragments need matrix a .row and matrix b .col");
        w = in_width(kind);
    } else {
        kind = ty == PTX_TYPE_s32 ? 2 : acc_kind(in, ty);
        int fits = 0;
        for (int k = 0; k <= 10 && kind >= 0; k++)
            fits |= wmma_shape_ok(s, k, kind);
        if (!fits) {
            char msg[400];
            snprintf(msg, sizeof msg, "unsupported wmma.%s.%c type .%s for this shape (%s)", store ? "store" : "load",
                     store ? 'd' : 'c', ptx_type_name(ty), wmma_forms_text);
            cg_fail(c, msg);
        }
        w = kind == 1 ? 16 : kind == 4 ? 64 : 32;
    }
    int slots = wmma_slots(s, which, which < 2 ? kind : -1);
    int cols = which == 0 ? s->k : s->n;
    int rows = which == 1 ? s->k : s->m;
    uint32_t nregs = w == 64 ? (uint32_t)slots : (uint32_t)(slots * w / 32);
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *regs = &in->ops[store ? 1 : 0];
    cg_puts(c, "cb_mx cb_m; memset(cb_m.d, 0, sizeof cb_m.d);\n");   /* only d is used */
    if (store)
        pack_regs(c, "cb_m.", regs, "d", nregs, w == 64);
    cg_puts(c, "    cb_wmma_ldst(cb_m.d, ");
    cg_printf(c, "%d, %d, %d, %d, ", w, slots, rows, cols);
    ptx_operand lane;   /* %laneid, as the code around reads it (t->lane; in the lanes entry its lane's) */
    memset(&lane, 0, sizeof lane);
    lane.kind = PTX_OPD_special;
    lane.special = PTX_SREG_laneid;
    lane.reg = lane.reg2 = -1;
    cg_read(c, &lane, PTX_TYPE_u32);
    cg_puts(c, ", ");
    cg_address(c, mem, ptx_instr_space(in));
    cg_puts(c, ", ");
    if (in->nops == 3)
        cg_read(c, &in->ops[2], PTX_TYPE_u32);
    else
        cg_printf(c, "%du", rowmajor ? cols : rows);
    cg_printf(c, ", %d, %d);\n", rowmajor, store);
    if (!store)
        unpack_regs(c, "cb_m.", regs, "d", nregs, w == 64);
}

/* wmma.mma{.bop.popc}.sync.aligned.alayout.blayout.shape{.rnd}.dtype{.atype.btype}.ctype{.satfinite} d, a, b, c */
static void emit_wmma_mma(cg *c, const ptx_instr *in, const mshape *s, int part)
{
    const char *mx = part == PART_ALL ? "cb_m." : "cbP->";
    if (in->nops != 4 || (in->ntypes != 2 && in->ntypes != 4))
        cg_fail(c, "wmma.mma needs .dtype{.atype.btype}.ctype and d, a, b, c");
    ptx_type dt = in->types[0], ct = in->types[in->ntypes - 1];
    ptx_type at = in->ntypes == 4 ? in->types[1] : PTX_TYPE_f16, bt = in->ntypes == 4 ? in->types[2] : PTX_TYPE_f16;
    int ak = in_kind(at), bk = in_kind(bt), ck = acc_kind(in, ct), dk = acc_kind(in, dt);
    int ok = ak >= 0 && bk >= 0 && ck >= 0 && dk >= 0 && in_class(ak) == in_class(bk) &&
             (ak == bk || in_class(ak) == 'i' || in_class(ak) == '4') && wmma_shape_ok(s, ak, ck) &&
             wmma_shape_ok(s, ak, dk) && ((ck != 2 && ck != 3) || ck == dk);
    if (ok && ak == 10)
        ok = (ptx_has(in, PTX_MOD_xor) != ptx_has(in, PTX_MOD_and)) && ptx_has(in, PTX_MOD_popc);
    if (!ok) {
        char msg[600];
        snprintf(msg, sizeof msg, "unsupported wmma.mma types .%s.%s.%s.%s (%s)", ptx_type_name(dt),
                 ptx_type_name(at), ptx_type_name(bt), ptx_type_name(ct), wmma_forms_text);
        cg_fail(c, msg);
    }
    if (ptx_has(in, PTX_MOD_satfinite) && ck != 3)
        cg_fail(c, "wmma.mma .satfinite is supported for integer types only");
    if (ptx_has(in, PTX_MOD_rz) || ptx_has(in, PTX_MOD_rm) || ptx_has(in, PTX_MOD_rp))
        cg_fail(c, "wmma.mma .f64 with .rz/.rm/.rp rounding is not supported (only .rn)");
    int sa = wmma_slots(s, 0, ak), sb = wmma_slots(s, 1, bk), nc = s->m * s->n / 32;
    if (part == PART_UNPACK) {
        unpack_regs(c, mx, &in->ops[0], "d", nregs_acc(dk, (uint32_t)nc), dk == 4);
        return;
    }
    if (part != PART_PARAMS) {
        emit_mx_open(c, part, dk == 1);
        pack_regs(c, mx, &in->ops[1], "a", nregs_in(ak, (uint32_t)sa), ak == 5);
        pack_regs(c, mx, &in->ops[2], "b", nregs_in(bk, (uint32_t)sb), bk == 5);
        pack_regs(c, mx, &in->ops[3], "c", nregs_acc(ck, (uint32_t)nc), ck == 4);
    }
    int bop = ptx_has(in, PTX_MOD_xor) ? 1 : ptx_has(in, PTX_MOD_and) ? 2 : 0;
    int cfg[10] = {s->m, s->n, s->k, ak, bk, ck, dk, sa, sb, bop};
    emit_params(c, part, cfg, 10);
    if (part != PART_ALL)
        return;
    emit_exchange(c, matrix_fn[1]);
    unpack_regs(c, mx, &in->ops[0], "d", nregs_acc(dk, (uint32_t)nc), dk == 4);
}

/* The shape of a wmma instruction (fails unless it is one wmma knows). */
static const mshape *wmma_shape(cg *c, const ptx_instr *in)
{
    const mshape *s = shape_of(in);
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !s ||
        !(s->mod == PTX_MOD_m16n16k16 || s->mod == PTX_MOD_m32n8k16 || s->mod == PTX_MOD_m8n32k16 ||
          s->mod == PTX_MOD_m16n16k8 || s->mod == PTX_MOD_m8n8k4 || s->mod == PTX_MOD_m8n8k32 ||
          s->mod == PTX_MOD_m8n8k128))
        cg_fail(c, "wmma needs .sync.aligned and a shape m16n16k16, m32n8k16, m8n32k16, m16n16k8, m8n8k4, "
                   "m8n8k32 or m8n8k128");
    return s;
}

void c_emit_wmma(cg *c, const ptx_instr *in)
{
    const mshape *s = wmma_shape(c, in);
    if (ptx_has(in, PTX_MOD_load) || ptx_has(in, PTX_MOD_store))
        emit_wmma_ldst(c, in, s);
    else if (ptx_has(in, PTX_MOD_mma))
        emit_wmma_mma(c, in, s, PART_ALL);
    else
        cg_fail(c, "wmma needs .load, .store or .mma");
}

/* ---- in the lanes entry ------------------------------------------------------------------- */

#define MATRIX_REGS_MAX 160

/* mma and wmma.mma in a block every live lane runs (pass_lanes): warp by warp, each live lane packs its
 * fragments into cbMx[lane] as a thread of the general code does, the warp's cb_warp_fn computes, and each
 * lane unpacks its result. The semantics are the general code's (runtime_sync.c): the lanes taking part are
 * the live lanes of the warp that exist; named lanes that have exited supply zeros and are reported
 * (rt->warp_gone), and a warp none of whose lanes is alive does nothing. */
void c_lanes_emit_matrix(lanes *e, const ptx_instr *in)
{
    cg *c = e->c;
    int wmma = in->op == PTX_OP_wmma;
    if ((in->op != PTX_OP_mma && !wmma) || (wmma && !ptx_has(in, PTX_MOD_mma)))
        cg_fail(c, "internal error: a matrix collective the lanes entry cannot run");
    const mshape *s = wmma ? wmma_shape(c, in) : NULL;
    int32_t defs[MATRIX_REGS_MAX], uses[MATRIX_REGS_MAX];
    uint32_t nd, nu;
    pass_instr_regs(in, defs, &nd, uses, &nu, MATRIX_REGS_MAX);
    const char *mask = "(cbL >> 5) == cbWp && cbPC[cbL] != CB_EXIT";
    cg_puts(c, "    for (uint32_t cbWp = 0; cbWp * 32u < cbNL; cbWp++) {\n"
               "        cb_mx cbMx[32]; void *cbD[32]; uint32_t cbHere = 0, cbGone = 0;\n"
               "        for (uint32_t cbI = 0; cbI < 32u; cbI++) { uint32_t cbL = cbWp * 32u + cbI; cbD[cbI] = 0;\n"
               "            if (cbL >= cbNL) continue;\n"
               "            if (cbPC[cbL] == CB_EXIT) cbGone |= 1u << cbI; else { cbHere |= 1u << cbI; cbD[cbI] = &cbMx[cbI]; } }\n"
               "        if (!cbHere) continue;\n"
               "        if (cbGone) CB_WARP_GONE(cbWp, 0xffffffffu, cbGone, CB_COLL_EXCHANGE, 0);\n");
    lanes_loop_open(e, mask, uses, nu, NULL, 0);
    cg_puts(c, "    { ");
    if (wmma)
        emit_wmma_mma(c, in, s, PART_PACK);
    else
        emit_mma_part(c, in, PART_PACK);
    cg_puts(c, "    }\n");
    lanes_loop_close(e, NULL, 0);
    cg_puts(c, "    { cb_mx *const cbP = &cbMx[__builtin_ctz(cbHere)];\n");
    if (wmma)
        emit_wmma_mma(c, in, s, PART_PARAMS);
    else
        emit_mma_part(c, in, PART_PARAMS);
    cg_puts(c, "    }\n");
    cg_printf(c, "    %s(cbD, cbHere);\n", matrix_fn[wmma]);
    lanes_loop_open(e, mask, defs, nd, NULL, 0);
    cg_puts(c, "    { const cb_mx *const cbP = &cbMx[cbL & 31u];\n");
    if (wmma)
        emit_wmma_mma(c, in, s, PART_UNPACK);
    else
        emit_mma_part(c, in, PART_UNPACK);
    cg_puts(c, "    }\n");
    lanes_loop_close(e, defs, nd);
    cg_puts(c, "    }\n");
}

/* ---- ldmatrix / stmatrix ------------------------------------------------------------------ */

static void emit_ldst_matrix(cg *c, const ptx_instr *in, int store)
{
    int n = ptx_has(in, PTX_MOD_x1) ? 1 : ptx_has(in, PTX_MOD_x2) ? 2 : ptx_has(in, PTX_MOD_x4) ? 4 : 0;
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !ptx_has(in, PTX_MOD_m8n8) || !n ||
        in->ntypes != 1 || in->types[0] != PTX_TYPE_b16 || in->nops != 2)
        cg_fail(c, store ? "stmatrix needs .sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 [p], r"
                         : "ldmatrix needs .sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 r, [p]");
    ptx_space sp = ptx_instr_space(in);
    if (sp != PTX_SPACE_shared && sp != PTX_SPACE_none)
        cg_fail(c, "ldmatrix/stmatrix work on shared memory");
    const ptx_operand *mem = &in->ops[store ? 0 : 1], *regs = &in->ops[store ? 1 : 0];
    cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    if (store)
        pack_regs(c, "cb_m.", regs, "c", (uint32_t)n, 0);
    cg_puts(c, "    cb_m.a[0] = (uint64_t)(uintptr_t)");
    cg_address(c, mem, sp);
    cg_printf(c, ";\n    cb_m.cfg[0] = %d; cb_m.cfg[1] = %d; cb_m.cfg[2] = %d;\n", n, ptx_has(in, PTX_MOD_trans), store);
    cg_puts(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, cb_mfn_ldst_matrix);\n");
    if (!store)
        unpack_regs(c, "cb_m.", regs, "d", (uint32_t)n, 0);
}

void c_emit_ldmatrix(cg *c, const ptx_instr *in) { emit_ldst_matrix(c, in, 0); }
void c_emit_stmatrix(cg *c, const ptx_instr *in) { emit_ldst_matrix(c, in, 1); }

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: transposes an 8x8 matrix of
 * 16-bit elements held in the ldmatrix fragment layout across the warp. */
void c_emit_movmatrix(cg *c, const ptx_instr *in)
{
    if (!ptx_has(in, PTX_MOD_sync) || !ptx_has(in, PTX_MOD_aligned) || !ptx_has(in, PTX_MOD_m8n8) ||
        !ptx_has(in, PTX_MOD_trans) || in->ntypes != 1 || in->types[0] != PTX_TYPE_b16 || in->nops != 2)
        cg_fail(c, "movmatrix needs .sync.aligned.m8n8.trans.b16 d, a");
    cg_puts(c, "cb_mx cb_m; memset(&cb_m, 0, sizeof cb_m);\n");
    pack_regs(c, "cb_m.", &in->ops[1], "a", 1, 0);
    cg_puts(c, "    t->blk->rt->warp_exchange(t, 0xffffffffu, &cb_m, cb_mfn_movmatrix);\n");
    unpack_regs(c, "cb_m.", &in->ops[0], "d", 1, 0);
}
