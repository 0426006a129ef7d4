/* facade.h: the machinery every library facade shares (src/lib/common).
 *
 * A facade is a shared object with NVIDIA's soname (libcublas.so.13 ...)
 * built from three parts (docs/libraries.md):
 *   1. generated at build time by scripts/gen_lib_exports.py from NVIDIA's
 *      header and the real library's export list: for every export a weak
 *      stub (cb_impl_<sym>, answering the library's NOT_SUPPORTED status
 *      through cbl_unsupported), the exported forwarder <sym>, its trace
 *      wrapper and the library descriptor cbl_<name>_library;
 *   2. this folder, compiled into each facade: the library services of
 *      cubridge's libcuda.so.1 (cbl_services), tracing (cbl_call_*),
 *      stream-ordered calls (cbl_submit) and checked calls (check.h);
 *   3. the facade's own folder: the strong cb_impl_<sym> definitions.
 *
 * Process-wide state: cbl_trace_flags (written once at load) and the
 * services table pointer (set once, see facade.c); each facade .so has its
 * own copy of both.
 */
#ifndef CBL_FACADE_H
#define CBL_FACADE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/common/lib_services.h"

typedef struct cbl_enumerator {
    long long value;
    const char *name;
} cbl_enumerator;

typedef struct cbl_enum_table {
    const char *type;
    const cbl_enumerator *items;
    int count;
} cbl_enum_table;

/* One library (generated: cbl_<name>_library in <name>_exports.c). */
typedef struct cbl_library {
    const char *name;                          /* "cublas": the library's name in reports */
    const char *const *names;                  /* export names, by id */
    int count;
    _Atomic unsigned long long *unsupported_calls;   /* NOT_SUPPORTED answers, by id */
    int status_unsupported;                    /* CUBLAS_STATUS_NOT_SUPPORTED ... */
    const cbl_enum_table *enums;               /* the enums the exports' arguments use */
    int status_enum;                           /* index of the status enum in enums, or -1 */
    /* Optional, set by the facade: called when a stub answers for an export
     * whose return type is not the status (cuBLAS's legacy API keeps its
     * error for cublasGetError). */
    void (*on_unsupported)(int id, int status);
} cbl_library;

/* CB_INSPECT_* bits (inspect.h) from CUBRIDGE_INSPECT / CUBRIDGE_STRICT /
 * CUBRIDGE_FAULT_INJECT, read when the facade loads, as libcuda.so.1 reads
 * them. Non-zero: the exported symbols go through their trace wrappers. */
extern int cbl_trace_flags;

/* 1 under the cuda pass-through (CUBRIDGE_BACKEND=cuda, read when the
 * facade loads): every export then forwards to NVIDIA's library of the same
 * file name (cbl_real_symbol), traced as usual; device memory is the GPU's. */
extern int cbl_forward;

/* NVIDIA's function for export id: from NVIDIA's library of this facade's
 * file name (libcublas.so.13 ...), found in $CUBRIDGE_REAL_LIB_DIR, else
 * $CUDA_HOME/lib64, /usr/local/cuda/lib64, the system's library directories
 * -- never this file -- and loaded RTLD_LOCAL | RTLD_DEEPBIND once. NULL
 * (logged once) when there is none or it lacks the symbol: the stub answers. */
void *cbl_real_symbol(cbl_library *lib, int id);

/* Where an export whose prototype no header gives (NVIDIA's internal entry
 * points, such as cublasLtCtxInit, which NVIDIA's libcublas calls) goes:
 * NVIDIA's function under the cuda pass-through, else `own` (the facade's
 * C entry, which takes no arguments and answers NOT_SUPPORTED or runs the
 * implementation). */
void *cbl_forward_target(cbl_library *lib, int id, void *own);

/* The exported symbol `sym` for such an export, on x86-64: an entry that
 * keeps every argument register (rdi..r9, rax for varargs, xmm0-7) and the
 * stack as its caller left them, asks cbl_forward_target where to go and
 * jumps there, so NVIDIA's function receives the call exactly as made. A C
 * forwarder cannot: it would have to name the arguments. The C entry is
 * cbl_entry_<sym> (static, in the same file). Elsewhere the generated file
 * exports the C entry itself, and the pass-through passes no arguments. */
#if defined(__x86_64__)
#define CBL_FORWARD_ENTRY(sym, lib, id)                                                                        \
    __asm__(".text\n.globl " #sym "\n.type " #sym ",@function\n.p2align 4\n" #sym ":\n"                       \
            "  push %rbp\n  mov %rsp, %rbp\n"                                                                  \
            "  push %rdi\n  push %rsi\n  push %rdx\n  push %rcx\n  push %r8\n  push %r9\n  push %rax\n"       \
            "  sub $136, %rsp\n"                                                                               \
            "  movdqu %xmm0, 0(%rsp)\n  movdqu %xmm1, 16(%rsp)\n  movdqu %xmm2, 32(%rsp)\n"                    \
            "  movdqu %xmm3, 48(%rsp)\n  movdqu %xmm4, 64(%rsp)\n  movdqu %xmm5, 80(%rsp)\n"                   \
            "  movdqu %xmm6, 96(%rsp)\n  movdqu %xmm7, 112(%rsp)\n"                                            \
            "  lea " #lib "(%rip), %rdi\n  mov $" #id ", %esi\n  lea cbl_entry_" #sym "(%rip), %rdx\n"         \
            "  call cbl_forward_target@PLT\n  mov %rax, %r11\n"                                                \
            "  movdqu 0(%rsp), %xmm0\n  movdqu 16(%rsp), %xmm1\n  movdqu 32(%rsp), %xmm2\n"                    \
            "  movdqu 48(%rsp), %xmm3\n  movdqu 64(%rsp), %xmm4\n  movdqu 80(%rsp), %xmm5\n"                   \
            "  movdqu 96(%rsp), %xmm6\n  movdqu 112(%rsp), %xmm7\n"                                            \
            "  add $136, %rsp\n"                                                                               \
            "  pop %rax\n  pop %r9\n  pop %r8\n  pop %rcx\n  pop %rdx\n  pop %rsi\n  pop %rdi\n  pop %rbp\n"  \
            "  jmp *%r11\n.size " #sym ", .-" #sym "\n.previous\n")
#endif

/* The services of cubridge's libcuda.so.1, or NULL when the process runs
 * another libcuda.so.1 (NVIDIA's): loaded once, thread-safe. */
const cb_lib_services *cbl_services(void);

/* What a stub does: counts the call, logs it once per export (warn), tells
 * the inspector (UNSUPPORTED; an error in strict mode) and returns the
 * library's NOT_SUPPORTED status. */
int cbl_unsupported(cbl_library *lib, int id);

/* The same for a function cubridge implements but not in the mode asked
 * for (why: "CUBLAS_COMPUTE_32I with CUDA_R_16F"): logs, counts, tells the
 * inspector, returns the NOT_SUPPORTED status. */
int cbl_unsupported_mode(cbl_library *lib, const char *function, const char *why);

/* Logging through libcuda.so.1's logger (CUBRIDGE_LOG); stderr without it. */
void cbl_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The enumerator name of value in lib's enum table t, or NULL. */
const char *cbl_enum_name(const cbl_library *lib, int t, long long value);
/* The library's status by name ("CUBLAS_STATUS_SUCCESS"), or NULL. */
const char *cbl_status_name(const cbl_library *lib, int status);

/* ---- tracing (the generated wrappers call these; trace.c) --------------- */

typedef struct cbl_call {
    cbl_library *lib;
    int id;
    uint64_t t0, t1;
    int nargs;
    size_t len;
    char args[1536];
} cbl_call;

void cbl_call_begin(cbl_call *c, cbl_library *lib, int id);
void cbl_call_timed(cbl_call *c);
void cbl_arg_ptr(cbl_call *c, const char *name, const void *p);
void cbl_arg_str(cbl_call *c, const char *name, const void *s);
void cbl_arg_i64(cbl_call *c, const char *name, long long v);
void cbl_arg_u64(cbl_call *c, const char *name, unsigned long long v);
void cbl_arg_char(cbl_call *c, const char *name, int v);
void cbl_arg_f64(cbl_call *c, const char *name, double v);
void cbl_arg_enum(cbl_call *c, const char *name, long long v, int table);
void cbl_arg_opaque(cbl_call *c, const char *name, const char *type);
/* Ends the call: has_status says whether status is the library's status. */
void cbl_call_end(cbl_call *c, int status, int has_status);

/* ---- stream-ordered calls (libop.c) ------------------------------------ */

/* A call's closure: embed it first in the facade's own struct. */
typedef struct cbl_op {
    cb_lib_op base;           /* run/release/name: set by the facade */
    cb_backend *backend;      /* the context's backend, set by cbl_submit */
    const cb_lib_services *sv;
    int status;               /* the library status the run produced, for waiting callers */
    int ran;                  /* 1 once run (0: skipped because of a sticky error) */
    int waited;               /* 1 when the caller waits for the run and returns its status (cbl_submit) */
} cbl_op;

/* Submits op on stream handle of ctx (the handle's stream: NULL is the
 * legacy default stream); op's base.run, base.release and base.name must be
 * set, and the stream owns it from here on. wait: return when it ran
 * (host-side results, verify mode); then *status (may be NULL) is the
 * op->status it left, or -1 when it did not run (a sticky error). *captured
 * (may be NULL) says whether the call went into a graph being captured
 * (then it did not run). Returns a CUresult. */
CUresult cbl_submit(cb_context *ctx, CUstream handle, cbl_op *op, int wait, int *captured, int *status);

/* What a run returns after the backend refused its call there (CUDA_ERROR_NOT_SUPPORTED), which it
 * reports first (cbl_unsupported_mode(lib, function, why)): CUDA_SUCCESS for a caller that waits,
 * which returns the library's status (op->status); else CUDA_ERROR_NOT_SUPPORTED. A call that did not wait has answered
 * SUCCESS already (a call in a graph runs without a caller), and its outputs were never written:
 * the refusal becomes the context's sticky error, as a refused kernel launch's does, so that the
 * program's next synchronising call fails instead of reading results that were never computed. */
CUresult cbl_refused(const cbl_op *op, cbl_library *lib, const char *function, const char *why);

/* Host copies of device memory from a run (worker thread): through the
 * backend that owns it. */
CUresult cbl_read(const cbl_op *op, void *dst, uint64_t src, size_t bytes);
CUresult cbl_write(const cbl_op *op, uint64_t dst, const void *src, size_t bytes);

/* 1 when the test-only switch CUBRIDGE_TEST_BREAK_LIB names function (a
 * comma-separated list of function names, or "all"): the facade then
 * corrupts that function's result, so that verify must show DRIFT. */
int cbl_test_break(const char *function);

#endif
