/* codegen.h: the IR -> source emitters, internal to src/codegen.
 *
 * translate.c lays the module out (globals, shared offsets, kernel parameter
 * offsets, written into the IR's ptx_var fields) and then calls a dialect.
 */
#ifndef CB_CODEGEN_H
#define CB_CODEGEN_H

#include "ptx/ir.h"

#include <setjmp.h>
#include <stddef.h>

/* Emits the C dialect (kernel_abi.h text, helpers, functions, kernels).
 * Returns 0 and a malloc'd NUL-terminated source in *out (length in *outlen),
 * or -1 with "file:line: near 'tok': reason" in err. */
int cb_codegen_c(const ptx_module *m, char **out, size_t *outlen, char *err, size_t errlen);
/* The same, and for each kernel k (entry order) with plain[k] != 0 (one
 * without barriers or warp collectives), also a block entry
 * cbk_<k>_block (codegen_c_block.c). plain may be NULL: none. */
int cb_codegen_c_plain(const ptx_module *m, const unsigned char *plain, char **out, size_t *outlen, char *err,
                       size_t errlen);

/* The helper functions that every C translation unit carries (codegen_c_prelude.c). */
extern const char cb_codegen_c_prelude[];

/* ---- shared by codegen_c.c and codegen_c_ops.c ------------------------------ */

typedef struct cg {
    char *buf;
    size_t len, cap;
    const ptx_module *m;
    const ptx_func *f;
    const ptx_instr *in;
    char *err;
    size_t errlen;
    jmp_buf fail;
    int block_mode;             /* emitting a block entry's body (codegen_c_block.c) */
} cg;

/* Appends formatted text; fails the translation when out of memory. */
void cg_printf(cg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cg_puts(cg *c, const char *s);
/* Fails the translation at the current instruction. Does not return. */
_Noreturn void cg_fail(cg *c, const char *reason);

/* Emits f's locals and instructions (the inside of its braces). */
void cg_emit_body(cg *c, const ptx_func *f);
/* Emits, for kernel f (cname cbk_<k>), the thread-loop block entry
 * cbk_<k>_block around an inlined copy of its body (codegen_c_block.c). */
void cg_emit_plain_entry(cg *c, const ptx_func *f);

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
/* The helpers for f16/bf16 and their pairs (codegen_c_prelude_half.c). */
extern const char cb_codegen_c_prelude_half[];
/* The comparison of a set/setp as a C expression over A and B ("(A < B)");
 * fails on a missing operator or one that does not fit (is_float: the
 * operands are floating point). */
const char *cg_compare_fmt(cg *c, const ptx_instr *in, int is_float);
/* Emits in if it is a half-precision (f16/bf16/pairs) instruction or a cvt
 * to or from one; returns 0, emitting nothing, otherwise (codegen_c_half.c). */
int cg_emit_half(cg *c, const ptx_instr *in);
/* The helpers for the integer instructions of codegen_c_int.c. */
extern const char cb_codegen_c_prelude_int[];
/* Emitters of ops.def rows that live in codegen_c_int.c. */
void emit_mul24(cg *c, const ptx_instr *in);
void emit_mad24(cg *c, const ptx_instr *in);
void emit_dp4a(cg *c, const ptx_instr *in);
void emit_dp2a(cg *c, const ptx_instr *in);
void emit_bmsk(cg *c, const ptx_instr *in);
void emit_szext(cg *c, const ptx_instr *in);
/* min/max on u16x2/s16x2 or with .relu: emits and returns 1; 0 otherwise. */
int cg_emit_int_minmax(cg *c, const ptx_instr *in, int is_max);
/* prmt with a mode (.f4e .b4e .rc8 .ecl .ecr .rc16): emits and returns 1; 0 otherwise. */
int cg_emit_prmt_mode(cg *c, const ptx_instr *in);
/* cvt.pack.sat (two or three sources packed into a word): emits and returns 1; 0 without .pack. */
int cg_emit_cvt_pack(cg *c, const ptx_instr *in);
/* Prints ", V": what cvt from float type st to integer type dt gives for a NaN on the H200
 * (f64 sources: the destination's sign bit; f32/f16/bf16: 0, or the sign bit for 64-bit). */
void cg_f2i_nan(cg *c, ptx_type dt, ptx_type st);
/* The helpers of the warp collectives of codegen_c_warp.c. */
extern const char cb_codegen_c_prelude_warp[];
/* Emitters of ops.def rows that live in codegen_c_warp.c. */
void emit_match(cg *c, const ptx_instr *in);
void emit_redux(cg *c, const ptx_instr *in);
void emit_elect(cg *c, const ptx_instr *in);
void emit_nanosleep(cg *c, const ptx_instr *in);
/* The helpers of the warp matrix instructions of codegen_c_mma.c. */
extern const char cb_codegen_c_prelude_mma[];
/* Emitters of ops.def rows that live in codegen_c_mma.c. */
void emit_mma(cg *c, const ptx_instr *in);
void emit_wmma(cg *c, const ptx_instr *in);
void emit_ldmatrix(cg *c, const ptx_instr *in);
void emit_stmatrix(cg *c, const ptx_instr *in);
/* Textures and surfaces (codegen_c_tex.c): helpers and emitters. */
extern const char cb_codegen_c_prelude_tex[];
void emit_tex(cg *c, const ptx_instr *in);
void emit_tld4(cg *c, const ptx_instr *in);
void emit_txq(cg *c, const ptx_instr *in);
void emit_suld(cg *c, const ptx_instr *in);
void emit_sust(cg *c, const ptx_instr *in);
/* cp.async (codegen_c_async.c). */
void emit_cp(cg *c, const ptx_instr *in);
/* The mbarrier family (codegen_c_mbarrier.c): helpers and emitters. */
extern const char cb_codegen_c_prelude_mbarrier[];
void emit_mbarrier(cg *c, const ptx_instr *in);
/* cp.async.mbarrier.arrive{.noinc}: an arrive-on now, as cp.async copies complete when issued. */
void cg_emit_cp_async_mbarrier_arrive(cg *c, const ptx_instr *in);
/* cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes: the copy, then complete-tx. */
void cg_emit_cp_async_bulk(cg *c, const ptx_instr *in);
/* One instruction's C; the dispatch is the table built from ops.def. */
void cg_emit_instr(cg *c, const ptx_instr *in);

#endif
