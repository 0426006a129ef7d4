/* inspect.h: the dispatch inspector, as the driver and the core see it.
 *
 * Modes (docs/inspector.md), read once from the environment when the library
 * loads (or set by cb_inspect_configure in tests):
 *   CUBRIDGE_INSPECT=off|trace|verify   trace: every driver call and launch is
 *                                       recorded; verify: also re-runs each
 *                                       launch on the CPU reference and compares
 *   CUBRIDGE_STRICT=1                   unsupported calls are errors flagged
 *                                       UNSUPPORTED; drift fails the launch
 *   CUBRIDGE_INSPECT_DIR=DIR            where reports go (default cubridge-report)
 *   CUBRIDGE_FAULT_INJECT=zero|nan|perturb|skip   test only: corrupts the
 *                                       result of each verified launch
 *
 * Process-wide state: cb_inspect_flags (written once at load, before any
 * driver call, then read-only) and the inspector's record (inspect_state.c,
 * guarded by its own lock). With everything off, each hook is one
 * predictable branch on cb_inspect_flags.
 */
#ifndef CB_INSPECT_H
#define CB_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

enum {
    CB_INSPECT_TRACE = 1,   /* record calls and launches */
    CB_INSPECT_VERIFY = 2,  /* compare launches with the CPU reference */
    CB_INSPECT_STRICT = 4,  /* unsupported and drift are errors */
};

/* Mode bits; 0 when the inspector is off. */
extern int cb_inspect_flags;

static inline int cb_inspect_active(void) { return __builtin_expect(cb_inspect_flags != 0, 0); }

/* Sets the mode as the environment would ("off", "trace", "verify"), strict,
 * the report directory (NULL: default) and the fault to inject (NULL: none).
 * Returns 0, or -1 for an unknown mode or fault. For tests and the CLI. */
int cb_inspect_configure(const char *mode, int strict, const char *report_dir, const char *fault);

/* The function to hand out for export id from cuGetProcAddress: its tracing
 * wrapper when tracing (which then calls fn: cubridge's entry point, or the
 * real driver's under the cuda backend), else fn itself. */
void *cb_inspect_proc(int export_id, void *fn);

/* ---- launches (verify.c, reference.c, verify_backend.c) -------------------
 * The inspector sees launches by wrapping a device, the way SQLite's
 * vfstrace wraps a VFS: the backend types "trace" (records each launch) and
 * "verify" (also checks it) are registered in the backend registry, and
 * while the inspector is on, every device the core opens is wrapped by one
 * of them (cb_backend_set_device_wrapper). The check runs the kernel again
 * on the reference backend, found by name in the registry
 * (CUBRIDGE_VERIFY_REFERENCE, default "cpu"), over copies of the memory the
 * launch reaches, and compares what both wrote. A device outside the core
 * (the pass-through) hands its launches to cb_inspect_run itself. */

/* A device's allocations: 1 with the base and size of the one holding addr, else 0. */
typedef int (*cb_inspect_lookup)(uint64_t addr, uint64_t *base, size_t *bytes);

/* A module's translation on the reference backend, loaded there on first
 * use (its globals in the reference's memory). */
typedef struct cb_inspect_reference cb_inspect_reference;
/* tr is kept, not copied; it must outlive the reference. NULL when out of memory. */
cb_inspect_reference *cb_inspect_reference_new(const cb_translation *tr);
void cb_inspect_reference_free(cb_inspect_reference *ref);
/* Writes bytes of data into global g of the reference module (loading it
 * first), for a device whose globals the inspector cannot read itself.
 * 0, or -1 when the reference cannot load or g does not fit. */
int cb_inspect_reference_set_global(cb_inspect_reference *ref, uint32_t g, const void *data, size_t bytes);
/* The dialect (CB_DIALECT_*) of the reference backend, which a device
 * outside the core translates its images into; -1 if it cannot start. */
int cb_inspect_reference_dialect(void);

/* One kernel as the inspector runs it. */
typedef struct cb_inspect_kernel {
    const cb_translation *tr;      /* the kernel's translation */
    uint32_t kernel;               /* index into tr->kernels */
    cb_backend *device;            /* runs it: device->launch(device, module, kernel, cfg, err) */
    void *module;
    const uint64_t *globals;       /* the device's addresses of tr's globals; NULL: not compared */
    cb_inspect_lookup lookup;      /* the device's allocations; NULL: the core's table */
    cb_inspect_reference *reference;  /* where the reference module is kept; NULL: no reference */
    struct cbi_textures *textures; /* the texture/surface objects its device made (the verify wrapper);
                                    * NULL: none known, a kernel with textures is not re-run */
    int record_only;               /* 1: record, never check (the "trace" wrapper) */
} cb_inspect_kernel;

/* Runs launch cfg of k on k->device, recording it and, in verify mode,
 * comparing it with the reference: on the device itself when it is the
 * reference backend (the snapshots are put back, the kernel runs again, the
 * device's result is restored), else on the reference backend. Returns the
 * launch's result; in strict mode drift is CUDA_ERROR_LAUNCH_FAILED with
 * *err naming the kernel and the first differing element. */
CUresult cb_inspect_run(const cb_inspect_kernel *k, const cb_launch_config *cfg, cb_launch_error *err);

/* Names the backend in the reports when it is not the core's (the cuda
 * pass-through, once it has loaded the real driver). */
void cb_inspect_note_backend(const char *backend);

/* Names the device in the reports when the backend is not the core's (the
 * cuda pass-through, after the real cuInit). */
void cb_inspect_note_device(const char *device);

/* Raises the reports' peak device memory to bytes if higher (a backend
 * outside the core, whose memory the core's table does not see). */
void cb_inspect_note_peak_memory(size_t bytes);

/* Records a launch that ran (result r) but could not be checked, as
 * SKIPPED with note. */
void cb_inspect_launch_skipped(const char *kernel, const cb_launch_config *cfg, CUresult r, const char *note);

/* ---- named ranges on the host timeline ------------------------------------
 * cuProfilerStart/Stop and NVTX ranges (src/inspect/nvtx.c) appear in the
 * trace: trace.jsonl ("type":"range"/"mark"), the Perfetto trace (on the
 * thread's track) and the report's timeline. Without tracing they cost one
 * branch. id 0 is a push/pop range (nested per thread); another id is a
 * start/end range that may end on any thread. */
typedef enum cb_inspect_range_source { CB_RANGE_PROFILER = 0, CB_RANGE_NVTX = 1 } cb_inspect_range_source;
void cb_inspect_range_begin(cb_inspect_range_source source, const char *name, uint64_t id);
/* Ends the range id (0: the innermost push range of source on this thread);
 * returns 0, or -1 if there was none (an unmatched pop). */
int cb_inspect_range_end(cb_inspect_range_source source, uint64_t id);
/* An instant event (nvtxMark). */
void cb_inspect_mark(cb_inspect_range_source source, const char *name);

/* ---- library calls (the library facades, src/lib; docs/libraries.md) ----
 * The facades reach these through the library services table
 * (lib/common/lib_services.h). A facade that computes a call's result on
 * its backend also computes it with a plain C reference that accumulates in
 * double, and hands both here. The inspector compares them with the
 * per-type tolerances, records the call in the report, and says whether
 * strict mode must fail the call. */
typedef enum cb_inspect_elem {
    CB_ELEM_BYTES = 0,  /* compared bit for bit */
    CB_ELEM_INT,        /* integers of any width (elem_bytes): exact */
    CB_ELEM_F16,
    CB_ELEM_BF16,
    CB_ELEM_F32,
    CB_ELEM_F64,
} cb_inspect_elem;

typedef struct cb_inspect_output {
    const char *name;       /* "C", "y" ... */
    const void *result;     /* what the backend produced (host memory) */
    const void *reference;  /* what the C reference produced */
    size_t count;           /* elements */
    cb_inspect_elem type;
    const void *before;     /* the contents before the call (NULL: unknown): only
                               elements either side changed are compared, and
                               "untouched" output is found */
    unsigned elem_bytes;    /* CB_ELEM_INT / CB_ELEM_BYTES: width (0: 4 / 1) */
    double tolerance_scale; /* tolerance multiplier (0: 1): reductions over many
                               terms, documented per function */
} cb_inspect_output;

/* Compares and records one library call. Returns 0 when within tolerance,
 * or 1 (drift) -- the facade then returns its library's failure status when
 * strict mode is on (cb_inspect_flags & CB_INSPECT_STRICT). */
int cb_inspect_library_call(const char *library, const char *function, const cb_inspect_output *outs,
                            size_t nouts);
/* The same, with a note for the report (what was checked), or NULL. With
 * outs NULL the call could not be checked (note says why): FAIL. */
int cb_inspect_library_check(const char *library, const char *function, const cb_inspect_output *outs,
                             size_t nouts, const char *note);

/* Records one traced library call: args as JSON object members, status by
 * name (NULL for functions without one), t0/t1 from cb_inspect_now. */
void cb_inspect_library_trace(const char *library, const char *function, const char *args, const char *status,
                              int failed, int unsupported, uint64_t t0, uint64_t t1);

/* Notes that a library function answered NOT_SUPPORTED (why: the reason);
 * strict mode logs it as an error and the report says UNSUPPORTED. */
void cb_inspect_library_unsupported(const char *library, const char *function, const char *why);

/* The inspector's clock: ns since it started. */
uint64_t cb_inspect_now(void);

/* Writes the reports now (also done at exit). For tests. */
void cb_inspect_finish(void);

#endif
