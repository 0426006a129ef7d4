/* core.h: the process-wide state and the handles behind the driver API.
 *
 * The driver API (src/driver) validates its arguments and calls into the
 * core. The core owns devices, contexts, memory, streams, events, graphs and
 * modules; it reaches the hardware only through cb_backend (backend.h).
 *
 * Handles given to the application are pointers to these structs. Each
 * starts with a magic number so that a destroyed or foreign handle is caught
 * (CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT) instead of dereferenced
 * blindly.
 */
#ifndef CB_CORE_H
#define CB_CORE_H

#include <cuda.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "platform/log.h"
#include "platform/thread.h"

/* Marks a function that libcuda.so.1 exports (everything else is hidden). */
#define CB_EXPORT __attribute__((visibility("default")))

#define CB_MAGIC_CONTEXT 0x43747821u /* "Ctx!" */
#define CB_MAGIC_STREAM 0x5374726du
#define CB_MAGIC_EVENT 0x4576656eu
#define CB_MAGIC_MODULE 0x4d6f6475u
#define CB_MAGIC_FUNCTION 0x46756e63u
#define CB_MAGIC_LIBRARY 0x4c696272u
#define CB_MAGIC_GRAPH 0x47726170u
#define CB_MAGIC_GRAPH_EXEC 0x47457865u
#define CB_MAGIC_POOL 0x506f6f6cu
#define CB_MAGIC_DEAD 0xdeadbeefu

struct cb_stream;
struct cb_module;

/* ---- devices and contexts (src/core/context.c) ------------------------- */

typedef struct cb_device {
    int ordinal;
    cb_backend *backend;
    cb_device_info info;
    int cc_major, cc_minor;         /* reported compute capability (CUBRIDGE_CC, default 8.6) */
    struct CUctx_st *primary;       /* the primary context, created on first retain */
    int primary_refcount;
    unsigned primary_flags;
} cb_device;

/* A context. CUcontext points here. */
struct CUctx_st {
    uint32_t magic;
    cb_device *device;
    int is_primary;
    unsigned flags;
    _Atomic int sticky_error;       /* CUresult; CUDA_SUCCESS until a launch fault */
    cb_mutex lock;                  /* guards the lists below */
    struct cb_stream *legacy_stream; /* the NULL / CU_STREAM_LEGACY stream */
    size_t limits[16];              /* cuCtxSetLimit values, by CUlimit */
    CUfunc_cache cache_config;
    CUsharedconfig shared_config;
    /* The core runtime (streams, pools) hangs its per-context state here. */
    void *runtime;
};
typedef struct CUctx_st cb_context;

/* Starts the process-wide state on first call; later calls return the
 * first result. Opens the devices named by CUBRIDGE_DEVICES ("cpu,cpu",
 * "verify:mock": specs of backend.h's cb_backend_open), else the one
 * CUBRIDGE_BACKEND names, else one "cpu"; CUDA_ERROR_NO_DEVICE when none
 * opens. */
CUresult cb_init(unsigned flags);
int cb_initialized(void);
int cb_device_count(void);
cb_device *cb_device_get(int ordinal);       /* NULL if out of range */

/* The calling thread's current context, or NULL. */
cb_context *cb_ctx_current(void);
void cb_ctx_set_current(cb_context *ctx);
/* The current context, or the device 0 primary context made current when
 * there is none and one was retained (cudart's behaviour). Sets *out. Returns
 * CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_INVALID_CONTEXT or CUDA_SUCCESS. */
CUresult cb_ctx_require(cb_context **out);
/* 1 if ctx is a live context handle. */
int cb_ctx_valid(const cb_context *ctx);

/* Sticky errors, as CUDA: once a launch faults, every later call on the
 * context returns the error until the context is destroyed or reset. */
void cb_ctx_set_sticky(cb_context *ctx, CUresult err);
CUresult cb_ctx_sticky(const cb_context *ctx);

/* ---- functions and launches (src/core/module.c, src/core/launch.c) ---- */

/* A module. CUmodule points here. */
typedef struct cb_module {
    uint32_t magic;
    cb_context *ctx;
    cb_translation *tr;             /* owned: the whole module (eager), or its globals only (lazy) */
    void *backend_module;           /* eager: the whole module's; lazy: NULL (each function has its own) */
    uint32_t nkernels;              /* its kernels (.entry), translated or not */
    uint64_t *global_addrs;         /* device address of each cb_global_info */
    struct CUfunc_st **functions;   /* one per kernel, created lazily */
    CUresult unavailable;           /* CUDA_SUCCESS, or why its kernels cannot run (cb_module_create_unavailable) */
    void *owner;                    /* the driver's CUlibrary that loaded it, or NULL */
} cb_module;

/* A kernel. CUfunction (and CUkernel) points here. */
struct CUfunc_st {
    uint32_t magic;
    cb_module *module;
    uint32_t index;                 /* the module's kernel number (cb_module_function_at) */
    const cb_kernel_info *info;     /* in the translation that holds it */
    void *backend_module;           /* the backend module it runs from, and its kernel number there */
    uint32_t backend_kernel;
    int max_dynamic_smem;           /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    int preferred_carveout;
    uint32_t cluster_dims[3];       /* CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_*: the cluster shape, 0 if unset */
    int cluster_nonportable;        /* CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED */
    int cluster_policy;             /* CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE (a hint) */
    void *legacy_launch;            /* cuFuncSetBlockShape/cuParamSet* state (api_launch_legacy.c), malloc'd or NULL */
    /* tiered builds (cb_backend.lanes == CB_LANES_HOT, launch.c): the time its launches have taken */
    _Atomic uint64_t run_ns;
    uint64_t build_ns;              /* its share of its first build's time: the rebuild waits as long (launch.c) */
    _Atomic int hot;                /* built again with its lanes entry, or tried (cb_function_promote) */
};
typedef struct CUfunc_st cb_function;

/* The backend module and kernel f runs from now (a hot kernel moves to its
 * own unit: read both together). */
void cb_function_target(cb_function *f, void **module, uint32_t *kernel);
/* Builds f's kernel again, alone and with its lanes entry, and runs f from
 * that build after (once; a kernel that gets no lanes entry keeps its first
 * build). block: the shape of the launch that made it hot, for which the
 * lanes entry also gets a copy with that shape constant (cb_translate_opts),
 * or NULL. For tiered builds: cb_backend.lanes == CB_LANES_HOT. */
void cb_function_promote(cb_function *f, const uint32_t block[3]);

/* Runs one launch to completion on the calling thread, through the
 * backend. Called by stream workers. On a fault fills *err and sets the
 * context's sticky error. */
CUresult cb_function_execute(cb_function *f, const cb_launch_config *cfg, cb_launch_error *err);

/* ---- streams (src/core/stream.c) --------------------------------------- */

/* Resolves a CUstream argument (NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD
 * or a handle) in the current context. */
CUresult cb_stream_resolve(CUstream h, cb_context *ctx, struct cb_stream **out);

/* Enqueues a kernel launch on a stream (or records it when the stream is
 * capturing). Copies cfg and its params; returns without waiting. */
CUresult cb_stream_launch(struct cb_stream *s, cb_function *f, const cb_launch_config *cfg);

/* Waits for all work on every stream of ctx. Returns the sticky error. */
CUresult cb_ctx_synchronize(cb_context *ctx);

#endif
