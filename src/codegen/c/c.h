/* c.h: the C dialect (CB_DIALECT_C), internal to src/codegen/c.
 *
 * One self-contained C11 unit per module, which the CPU backend compiles
 * with the host compiler: kernel_abi.h verbatim, the helpers (prelude*.c and
 * the instruction files' own), the module's symbols, the functions and the
 * kernels (unit.c). target.c fills the dialect's cg_target: the unit's parts
 * and one c_emit_<op> per row of ops.def, found in
 *   ops.c                   everything not listed below
 *   half.c                  f16/bf16 forms, and every cvt to or from them
 *   int.c                   mul24 mad24 dp4a dp2a bmsk szext, prmt modes, packed min/max
 *   warp.c                  match redux elect nanosleep
 *   simd.c                  fns, the video instructions, .u16x2/.s16x2 add/sub, .f32x2
 *   atom.c                  atom/red on b16, halves, vectors and b128
 *   narrow.c                cvt of the fp4/fp6/ue8m0 pairs (sm_100/sm_120)
 *   cluster.c               mapa getctarank, .shared::cluster addresses
 *   bulk.c                  bulk copies and reductions, st.async, red.async, st.bulk
 *   mma.c                   mma wmma ldmatrix stmatrix
 *   tex.c                   tex tld4 txq suld sust
 *   async.c, mbarrier.c     cp, mbarrier
 * Operands and addresses are in operands.c, block entries in block.c, the
 * positions of warp convergence points in conv.c.
 * Another dialect that is mostly C (OpenCL C) may start from this one's
 * table and reuse these functions.
 */
#ifndef CB_CODEGEN_C_H
#define CB_CODEGEN_C_H

#include "codegen/codegen.h"

/* ---- the emitters of ops.def's rows ------------------------------------------------ */

#define OP(id, name, minops, maxops, types, flags) void c_emit_##id(cg *c, const ptx_instr *in);
#include "ptx/ops.def"
#undef OP

/* ---- the unit (unit.c, block.c) ------------------------------------------------------ */

void c_unit_begin(cg *c);
void c_unit_declare(cg *c, const ptx_func *f);
void c_unit_tables(cg *c);
void c_unit_function(cg *c, const ptx_func *f);
/* A kernel: for one that needs no fibers, its block entry first (block.c). */
void c_unit_kernel(cg *c, const ptx_func *f);
/* Emits f's locals (target->locals, else the C dialect's) and instructions
 * (the inside of its braces). */
void cg_emit_body(cg *c, const ptx_func *f);
/* 1 when f uses the carry flag (cb_cf: .cc or a carry-in instruction). */
int cg_uses_carry(const ptx_func *f);
/* Emits, for kernel f (cname cbk_<k>), the thread-loop block entry
 * cbk_<k>_block around an inlined copy of its body (block.c). */
void cg_emit_plain_entry(cg *c, const ptx_func *f);
/* Emits, for kernel f that pass_lanes accepted, cbk_<k>_lanes (the whole
 * block as SIMD lanes) and cbk_<k>_lanes_scratch (lanes.c). */
void cg_emit_lanes_entry(cg *c, const ptx_func *f);

/* ---- warp convergence points (conv.c; the analysis is pass_converge's) ---------------- */

/* Inside f's braces, after its locals: for a function that reaches a site
 * (f->conv), its cb_conv_fn, loop counters cb_lc[] and frame cb_fr. Not in
 * block entries (their kernels reach none). */
void c_conv_begin(cg *c, const ptx_func *f);
/* Before instruction k's labels: the increment of a back edge that falls into k. */
void c_conv_edge(cg *c, uint32_t k);
/* Inside instruction k's braces, first: a back edge's increment by branch;
 * before a call that can reach a site, the caller's frame in t->conv. */
void c_conv_instr(cg *c, uint32_t k);
/* At the current instruction, a site: "cb_fr.node = N; <lhs>rt->converge(t, &cb_fr);". */
void cg_emit_converge(cg *c, const char *lhs);

/* ---- helpers every unit carries --------------------------------------------------------- */

extern const char cb_codegen_c_prelude[];          /* prelude.c */
extern const char cb_codegen_c_prelude_both[];  /* prelude_half.c: its flags, min/max.f32 .NaN/.xorsign */
extern const char cb_codegen_c_prelude_half[];     /* prelude_half.c: f16/bf16 and their pairs */
extern const char cb_codegen_c_prelude_int[];      /* prelude_int.c: int.c's instructions */
extern const char cb_codegen_c_prelude_warp[];     /* warp.c */
extern const char cb_codegen_c_prelude_warp64[];   /* warp.c: the same for 64-lane warps */
extern const char cb_codegen_c_prelude_mma[];      /* mma.c */
extern const char cb_codegen_c_prelude_tex_c[];    /* tex.c: the C dialect's object and texel access */
extern const char cb_codegen_c_prelude_tex[];      /* tex.c: the sampling helpers (OpenCL C too, after its own access text) */
extern const char cb_codegen_c_prelude_mbarrier[]; /* mbarrier.c */
extern const char cb_codegen_c_prelude_simd[];     /* simd.c: packed and video forms (OpenCL C too) */
extern const char cb_codegen_c_prelude_simd_redux[]; /* simd.c: redux.sync f32, on warp.c */
extern const char cb_codegen_c_prelude_atom[];     /* atom.c */
extern const char cb_codegen_c_prelude_narrow[];   /* narrow.c */
extern const char cb_codegen_c_prelude_cluster[];  /* cluster.c */
extern const char cb_codegen_c_prelude_bulk[];     /* bulk.c */

/* ---- types and operands (operands.c) ------------------------------------------------ */

/* The C type that holds a PTX type ("uint32_t", "float", "int" for pred). */
const char *cg_ctype(ptx_type t);
/* 'f' for f32/f64, 'p' for pred, 'i' for everything else (bits). */
char cg_class(ptx_type t);
/* Suffix naming a type in helper names: u8 s8 u16 s16 u32 s32 u64 s64 f32 f64. */
const char *cg_tname(ptx_type t);
/* Emits an expression of C type cg_ctype(ty) reading operand o. */
void cg_read(cg *c, const ptx_operand *o, ptx_type ty);
/* Emits "dst = <conversion>(" for writing a value of type ty to o (a register
 * or the sink); cg_dst_close emits the matching ");\n". */
void cg_dst_open(cg *c, const ptx_operand *o, ptx_type ty);
void cg_dst_close(cg *c, const ptx_operand *o, ptx_type ty);
/* Emits an "unsigned char *" expression for memory operand o in space sp
 * (PTX_SPACE_none = generic). */
void cg_address(cg *c, const ptx_operand *o, ptx_space sp);
/* Whether cg_address checks an address of space sp computed at run time
 * (cb_chk: global, const and generic, unless CUBRIDGE_CHECK_ACCESS=0). */
int cg_access_checked(const cg *c, ptx_space sp);

/* ---- shared between the instruction files --------------------------------------------- */

/* The comparison of a set/setp as a C expression over A and B ("(A < B)");
 * fails on a missing operator or one that does not fit (is_float: the
 * operands are floating point). */
const char *cg_compare_fmt(cg *c, const ptx_instr *in, int is_float);
/* The dialect's by_type: emits in if it is a half-precision (f16/bf16/pairs)
 * instruction or a cvt to or from one, and returns 1; returns 0, emitting
 * nothing, otherwise, and always for PTX_OPF_FRAGMENT rows (half.c). */
int cg_emit_half(cg *c, const ptx_instr *in);
/* cvt to or from e2m1x2, e2m3x2, e3m2x2 and ue8m0x2: emits and returns 1; 0 otherwise (narrow.c). */
int cg_emit_cvt_narrow(cg *c, const ptx_instr *in);
/* redux.sync.{min,max}{.abs}{.NaN}.f32: emits and returns 1; 0 for other types (simd.c). */
int cg_emit_redux_f32(cg *c, const ptx_instr *in);
/* add/sub .u16x2/.s16x2 and add/sub/mul/fma .f32x2: emits and returns 1; 0 otherwise (simd.c). */
int cg_emit_packed(cg *c, const ptx_instr *in);
/* atom/red forms beyond the C11 integer ones (b16 cas, half adds, vector adds, b128):
 * emits and returns 1; 0 for the others (atom.c). */
int cg_emit_atom_extra(cg *c, const ptx_instr *in, int has_dst);
/* The half format (0 f16, 1 bf16) of a scalar or pair half type, as the half atomics take it; -1 if none. */
int cg_atom_half_kind(ptx_type t);
/* min/max on u16x2/s16x2 or with .relu: emits and returns 1; 0 otherwise. */
int cg_emit_int_minmax(cg *c, const ptx_instr *in, int is_max);
/* prmt with a mode (.f4e .b4e .rc8 .ecl .ecr .rc16): emits and returns 1; 0 otherwise. */
int cg_emit_prmt_mode(cg *c, const ptx_instr *in);
/* cvt.pack.sat (two or three sources packed into a word): emits and returns 1; 0 without .pack. */
int cg_emit_cvt_pack(cg *c, const ptx_instr *in);
/* Prints ", V": what cvt from float type st to integer type dt gives for a NaN on the H200
 * (f64 sources: the destination's sign bit; f32/f16/bf16: 0, or the sign bit for 64-bit). */
void cg_f2i_nan(cg *c, ptx_type dt, ptx_type st);
/* cp.async.mbarrier.arrive{.noinc}: an arrive-on now, as cp.async copies complete when issued. */
void cg_emit_cp_async_mbarrier_arrive(cg *c, const ptx_instr *in);
/* The bulk copies and reductions (cp{.reduce}.async.bulk), st.async, red.async and st.bulk (bulk.c). */
void cg_emit_bulk_copy(cg *c, const ptx_instr *in);
void cg_emit_st_async(cg *c, const ptx_instr *in);
void cg_emit_red_async(cg *c, const ptx_instr *in);
void cg_emit_st_bulk(cg *c, const ptx_instr *in);

#endif
