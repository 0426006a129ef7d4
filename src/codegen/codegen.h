/* codegen.h: what every dialect's emitter shares, internal to src/codegen.
 *
 * The passes (src/passes) have laid the module out and annotated it; a
 * dialect turns it into source text. Each dialect fills one cg_target, the
 * way each of QBE's targets fills its Target struct: how a unit begins, how a
 * function and a kernel are emitted, and one emitter per row of ops.def.
 * cb_codegen_emit walks the module and calls the table; nothing calls a
 * dialect's emitters by name from outside the dialect. A dialect that differs
 * from another in a few places starts from the other's table and overrides
 * those (as a PoCL device starts from pocl_basic's ops).
 *
 * The dialects: c/ (CB_DIALECT_C, for the CPU backend) and opencl/
 * (CB_DIALECT_OPENCL, OpenCL C 1.2 for the OpenCL backend; docs/opencl.md).
 */
#ifndef CB_CODEGEN_H
#define CB_CODEGEN_H

#include "ptx/ir.h"

#include <setjmp.h>
#include <stddef.h>

typedef struct cg_target cg_target;

/* The state of one emission. */
typedef struct cg {
    char *buf;                  /* the text so far, NUL-terminated */
    size_t len, cap;
    const cg_target *target;
    const ptx_module *m;
    const ptx_func *f;          /* the function being emitted, or NULL */
    const ptx_instr *in;        /* the instruction being emitted, or NULL */
    char *err;
    size_t errlen;
    jmp_buf fail;
    int block_mode;             /* C dialect: emitting a block entry's body (c/block.c) */
    int local_stack;            /* OpenCL dialect: .local memory lives in a per-work-item stack with generic
                                   addresses: the unit has .local memory (opencl/unit.c) */
    int unsupported;            /* the failure is the dialect's limit, not bad PTX (cg_unsupported) */
    /* C dialect: when set, cg_address asks it first; it returns 1 when it
     * emitted the address itself (c/lanes_run.c's affine shared addresses) */
    int (*address_hook)(struct cg *c, const ptx_operand *o, ptx_space sp);
    void *hook_ctx;
    struct cg_tmp *tmps;        /* cg_tmp's blocks not yet freed, newest first */
} cg;

/* One instruction's emitter. */
typedef void cg_emit_fn(cg *c, const ptx_instr *in);

/* A dialect. cb_codegen_emit calls, in this order: begin; declare for each
 * defined .func; tables; function for each defined .func; kernel for each
 * .entry (module order). */
struct cg_target {
    const char *name;                              /* "c", "opencl" */
    int checks_access;                             /* global/generic accesses go through cb_chk (c/operands.c) */
    void (*begin)(cg *c);                          /* what precedes the functions: ABI, helpers, module symbols */
    void (*declare)(cg *c, const ptx_func *f);     /* a forward declaration */
    void (*tables)(cg *c);                         /* what follows the declarations: tables naming functions */
    void (*function)(cg *c, const ptx_func *f);    /* a .func with a body */
    void (*kernel)(cg *c, const ptx_func *f);      /* an .entry and whatever entry points it needs */
    /* Emits in when its types, rather than its opcode, pick the emitter (the C
     * dialect's half precision) and returns 1; returns 0 to use op[]. May be NULL. */
    int (*by_type)(cg *c, const ptx_instr *in);
    /* Dialect hooks of the shared emitters (c/operands.c, c/unit.c); NULL: the C
     * dialect's way. special emits special register o read as ty and returns 1
     * (0: the C way); symbol emits the address of variable v as a uint64_t and
     * returns 1 (0: the C way); locals emits a function's locals (the start of
     * cg_emit_body). */
    int (*special)(cg *c, const ptx_operand *o, ptx_type ty);
    int (*symbol)(cg *c, const ptx_var *v);
    void (*locals)(cg *c, const ptx_func *f);
    /* Texture and surface instructions (c/tex.c): tex_ctx is the first argument of its helpers
     * that can trap (NULL: "t", the C dialect's thread). trap_returns: a helper's trap returns
     * (OpenCL C has no longjmp): such a helper gives NULL, and the emitted code then ends the
     * thread with op[PTX_OP_trap]. */
    const char *tex_ctx;
    int trap_returns;
    cg_emit_fn *op[PTX_NOPS];                      /* one emitter per row of ops.def */
};

/* The dialects' tables (c/target.c, opencl/target.c). */
void cg_target_c_init(cg_target *t);
void cg_target_opencl_init(cg_target *t);
/* OpenCL (opencl/warp.c): the bytes of local memory per work-item that kernel
 * f's emulated warp collectives use after its dynamic shared memory (the
 * backend adds them, plus 16), or 0. */
uint32_t cg_opencl_warp_scratch(const ptx_func *f);

/* Emits m (laid out by cb_passes_run) through target t. Returns 0 and a
 * malloc'd NUL-terminated text in *out (length in *outlen), or -1 with
 * "file:line: near 'tok': reason" in err (-2: the dialect cannot express the
 * module as a whole, cg_unsupported outside any function). A kernel it cannot
 * express, or that can run a function it cannot express, is left out of the
 * text: kernel_why[k] (m->nkernels slots) is then its malloc'd reason, else
 * NULL. */
int cb_codegen_emit(const cg_target *t, const ptx_module *m, char **out, size_t *outlen, char **kernel_why,
                    char *err, size_t errlen);

/* ---- for the dialects (emit.c) --------------------------------------------------- */

/* Appends formatted text; fails the emission when out of memory. */
void cg_printf(cg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cg_puts(cg *c, const char *s);
/* Makes room for extra more bytes (and the NUL) at c->buf + c->len. */
void cg_reserve(cg *c, size_t extra);
/* Fails the emission at the current instruction (or function). Does not return. */
_Noreturn void cg_fail(cg *c, const char *reason);
/* As cg_fail, for valid PTX that the dialect cannot express: inside a
 * function or kernel it refuses that one (and the kernels that run it), else
 * the module; cb_codegen_emit then returns -2 (the loader answers
 * CUDA_ERROR_NOT_SUPPORTED). */
_Noreturn void cg_unsupported(cg *c, const char *reason);
/* Scratch memory of count * size zeroed bytes for one step of the emission:
 * the step frees it with cg_tmp_free, and where the emission fails first
 * (cg_fail, cg_unsupported: a longjmp past the step) the handler that catches
 * the failure frees it. Never returns NULL (out of memory fails the emission). */
void *cg_tmp(cg *c, size_t count, size_t size);
void cg_tmp_free(cg *c, void *p);
/* One instruction: target->by_type, else target->op[in->op]. */
void cg_emit_instr(cg *c, const ptx_instr *in);

#endif
