/* opencl.h: the OpenCL C dialect (CB_DIALECT_OPENCL), internal to src/codegen/opencl.
 *
 * One OpenCL C 1.2 program per module, which the OpenCL backend builds with
 * clBuildProgram. The dialect starts from the C dialect's table (c/target.c)
 * and overrides what differs (target.c):
 *   unit.c      the program: prelude, functions, one __kernel per .entry,
 *               locals; special registers as work-item built-ins
 *   memory.c    ld st ldu cvta isspacep atom red membar fence nanosleep bar call exit
 *   prelude.c   the helpers, under the C dialect's names
 *   warp.c      warp collectives and bar.red, through local memory in uniform control flow
 *               and lock-step regions (target.c)
 *   printf.c    vprintf: a record per call in the printf FIFO, printed by the backend
 *   tex.c       tex tld4 txq suld sust: the C dialect's emitters and helpers on descriptors
 *               in the heap (texobj.h)
 * Everything it cannot express fails at translation through cg_unsupported
 * (the loader answers CUDA_ERROR_NOT_SUPPORTED), never as different code.
 * docs/opencl.md says what works.
 */
#ifndef CB_CODEGEN_OPENCL_H
#define CB_CODEGEN_OPENCL_H

#include "codegen/c/c.h"

extern const char cb_codegen_opencl_prelude[];
extern const char cb_codegen_opencl_prelude_atom_half[];   /* prelude.c: half atomics, after the half helpers */

/* unit.c */
void ocl_unit_begin(cg *c);
void ocl_unit_declare(cg *c, const ptx_func *f);
void ocl_unit_tables(cg *c);
void ocl_unit_function(cg *c, const ptx_func *f);
void ocl_unit_kernel(cg *c, const ptx_func *f);
void ocl_locals(cg *c, const ptx_func *f);
int ocl_special(cg *c, const ptx_operand *o, ptx_type ty);
int ocl_symbol(cg *c, const ptx_var *v);
/* Whether an instruction of m converts .local addresses (cvta.local / cvta.to.local): then the unit keeps
 * .local memory in the work-item's stack (c->local_stack). */
int ocl_unit_needs_stack(const ptx_module *m);
/* Whether a function of m calls the function named name. */
int ocl_unit_calls(const ptx_module *m, const char *name);
/* In stack mode: the bytes of f's frame (its .local variables, 16-byte aligned), and v's offset in it. */
uint64_t ocl_frame_size(const ptx_func *f);
uint64_t ocl_frame_offset(const ptx_func *f, const ptx_var *v);

/* tex.c: how the texture helpers (c/tex.c's cb_codegen_c_prelude_tex, after it) reach descriptors and
 * texels in the heap; whether a function of m uses texture or surface objects. */
extern const char cb_codegen_opencl_prelude_tex[];
int ocl_unit_uses_textures(const ptx_module *m);

/* target.c: whether in computes in half precision (f16/bf16 arithmetic, comparisons, conversions) */
int ocl_is_half_instr(const ptx_instr *in);

/* printf.c: vprintf as records in the heap's printf FIFO, which the backend prints after the launch */
extern const char cb_codegen_opencl_prelude_printf[];
void ocl_emit_vprintf(cg *c, const ptx_instr *in);

/* memory.c: the overridden rows */
void ocl_emit_ld(cg *c, const ptx_instr *in);
void ocl_emit_st(cg *c, const ptx_instr *in);
void ocl_emit_cvta(cg *c, const ptx_instr *in);
void ocl_emit_isspacep(cg *c, const ptx_instr *in);
void ocl_emit_atom(cg *c, const ptx_instr *in);
void ocl_emit_red(cg *c, const ptx_instr *in);
void ocl_emit_membar(cg *c, const ptx_instr *in);
void ocl_emit_nanosleep(cg *c, const ptx_instr *in);
void ocl_emit_bar(cg *c, const ptx_instr *in);
void ocl_emit_call(cg *c, const ptx_instr *in);
void ocl_emit_exit(cg *c, const ptx_instr *in);
void ocl_emit_trap(cg *c, const ptx_instr *in);

/* warp.c: warp and block collectives through local memory, in uniform control flow */
extern const char cb_codegen_opencl_prelude_warp[];
/* Whether in lies inside a lock-step region (ptx_func.pred_region): after its head, before its end. */
int ocl_in_region(cg *c, const ptx_instr *in);
/* Whether in is a warp collective or bar.red emitted through the scratch. */
int ocl_is_collective(const ptx_instr *in);
void ocl_emit_shfl(cg *c, const ptx_instr *in);
void ocl_emit_vote(cg *c, const ptx_instr *in);
void ocl_emit_activemask(cg *c, const ptx_instr *in);
/* ld/st.volatile of shared or generic memory (a warp convergence point), emit writing the access */
void ocl_emit_volatile_site(cg *c, const ptx_instr *in, void (*emit)(cg *, const ptx_instr *));
void ocl_emit_match(cg *c, const ptx_instr *in);
void ocl_emit_redux(cg *c, const ptx_instr *in);
void ocl_emit_elect(cg *c, const ptx_instr *in);
void ocl_emit_bar_warp(cg *c, const ptx_instr *in);
void ocl_emit_bar_red(cg *c, const ptx_instr *in);

#endif
