/* lib_services.h: what cubridge's libcuda.so.1 offers the library facades.
 *
 * The facades (libcublas.so.13 ..., src/lib/<name>/) are shared objects of
 * their own; the core lives, hidden, inside libcuda.so.1. libcuda.so.1
 * exports one function, cubridge_lib_services(), that hands out this table
 * of the core's public calls (streams, the backend, the inspector). A facade
 * looks it up in the libcuda.so.1 the process loaded (lib/common/facade.c):
 * under NVIDIA's driver there is none, and the facade's calls fail with the
 * library's "not initialized" status.
 *
 * Versioned: a facade asks for CB_LIB_SERVICES_VERSION and gets NULL from a
 * libcuda.so.1 older than that; fields are only ever appended. Every
 * function may be called from any thread; the ones marked "worker" are also
 * safe inside a cb_lib_op's run (the stream's worker thread). docs/libraries.md.
 */
#ifndef CB_LIB_SERVICES_H
#define CB_LIB_SERVICES_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/stream.h"
#include "inspect/inspect.h"

#define CB_LIB_SERVICES_VERSION 1

/* One traced library call, as the facade's trace wrapper saw it. */
typedef struct cb_lib_trace {
    const char *library;      /* "cublas" */
    const char *function;     /* the exported symbol, "cublasSgemm_v2" */
    const char *args;         /* JSON object members: "m":"4","A":"0x... device" */
    const char *status;       /* the status by name, "CUBLAS_STATUS_SUCCESS"; NULL: no status */
    int failed;               /* the status is not success */
    int unsupported;          /* the status is the library's NOT_SUPPORTED */
    uint64_t t0, t1;          /* services->now() around the call */
} cb_lib_trace;

/* One checked library call (CUBRIDGE_INSPECT=verify), for the reports. */
typedef struct cb_lib_check {
    const char *library, *function;
    const cb_inspect_output *outs;   /* result and reference of each output, host copies */
    size_t nouts;
    const char *note;                /* NULL or what was checked ("m=4 n=4 k=4 TN") */
} cb_lib_check;

typedef struct cb_lib_services {
    size_t size;                /* sizeof the table this libcuda.so.1 fills */
    unsigned version;

    /* ---- logging (CUBRIDGE_LOG) -------------------------------- worker */
    int (*log_level)(void);
    void (*log)(int level, const char *message);

    /* ---- contexts and streams ------------------------------------------ */
    /* The calling thread's current context; when there is none, the primary
     * context of device 0 is retained and made current (what NVIDIA's
     * libraries get from cudart). Initialises cubridge on first use. */
    CUresult (*context)(cb_context **out);
    /* Resolves a cudaStream_t/CUstream (NULL, cudaStreamLegacy,
     * cudaStreamPerThread or a handle) in ctx. */
    CUresult (*stream)(cb_context *ctx, CUstream handle, cb_stream **out);
    /* Submits op (taking over the caller's reference) on s after s's
     * earlier work, or records it into s's capture. When s is idle it may
     * run at once on the calling thread. wait: return only after it ran
     * (not when it was captured). *captured (may be NULL) says whether it
     * went into a graph. */
    CUresult (*submit)(cb_stream *s, cb_lib_op *op, int wait, int *captured);
    /* 1 while s is capturing into a graph. */
    int (*capturing)(cb_stream *s);

    /* ---- device memory -------------------------------------------- worker */
    /* The backend that owns ctx's device memory: its copy_htod/copy_dtoh
     * reach it; its lib table (backend_lib.h) computes. */
    cb_backend *(*backend)(cb_context *ctx);
    /* 1 when [addr, addr + bytes) lies inside one live allocation that
     * kernels may access (device, managed, pinned or registered host, VMM). */
    int (*mem_valid)(uint64_t addr, size_t bytes);
    /* What addr is, for traces: "device", "managed", "pinned host", "host" ... */
    const char *(*mem_tag)(uint64_t addr);

    /* ---- the inspector --------------------------------------------- worker */
    /* CB_INSPECT_* bits (inspect.h). */
    int (*inspect_flags)(void);
    /* The inspector's clock (ns). */
    uint64_t (*now)(void);
    /* Records one call in the trace and the call table. */
    void (*trace)(const cb_lib_trace *t);
    /* Compares and records a checked call (cb_inspect_library_call). 1:
     * drift (strict mode then fails the call), 0: within tolerance. */
    int (*check)(const cb_lib_check *c);
    /* Notes that library function `function` answered NOT_SUPPORTED (a stub,
     * or a mode it refuses); strict mode logs it as an error. */
    void (*unsupported)(const char *library, const char *function, const char *why);
} cb_lib_services;

/* Exported by cubridge's libcuda.so.1: the table, or NULL when version is
 * newer than this libcuda.so.1 knows. */
typedef const cb_lib_services *(*cb_lib_services_fn)(unsigned version);
#define CB_LIB_SERVICES_SYMBOL "cubridge_lib_services"

#endif
