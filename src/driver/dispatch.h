/* dispatch.h: the export dispatch, the one seam where other layers plug
 * into libcuda.so.1's entry points (src/driver/dispatch.c).
 *
 * Every exported symbol (forward.c), every pointer cuGetProcAddress hands
 * out (api_init.c) and every NOT_SUPPORTED stub (registry.c) asks the
 * dispatch what to call. Two things can be plugged in, each by the layer
 * that owns it, before the first driver call:
 *   a personality   answers the entry points instead of cubridge's own
 *                   implementation: the pass-through to NVIDIA's driver
 *                   (src/passthrough) registers one, which becomes active
 *                   when it says it is wanted (CUBRIDGE_BACKEND=cuda);
 *   a wrapper       wraps whatever is handed out: the inspector's tracing
 *                   wrappers (src/inspect), and hears of unsupported calls
 *                   and of the profiler being switched on and off.
 * Nothing else in the driver or the core knows either exists.
 *
 * Process-wide state: cb_dispatch_state (below) and the two registrations,
 * written before the first driver call (the personality's choice is read
 * once, at the first call that needs it), then read-only.
 */
#ifndef CB_DRIVER_DISPATCH_H
#define CB_DRIVER_DISPATCH_H

#include <cuda.h>

#include "driver/registry.h"

typedef struct cb_dispatch_personality {
    const char *name;              /* "cuda" */
    const char *target;            /* what answers, for the reports: "NVIDIA libcuda.so.1 (pass-through)" */
    const char *stub_reason;       /* why one of its entry points is a NOT_SUPPORTED stub */
    /* 1 if it is to answer in this process (read once, at the first driver call). */
    int (*wanted)(void);
    /* What export id's symbol calls instead of cubridge's implementation
     * (not yet wrapped: the dispatch adds the wrapper). */
    cb_export_fn (*forward)(int id);
    /* cuGetProcAddress in its place; id is cubridge's export for (symbol,
     * version, flags), or -1 if it has none. The pointer given is wrapped
     * by the dispatch. */
    CUresult (*proc_address)(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status, int id);
    /* 1 if export id is answered by it (not a NOT_SUPPORTED stub). */
    int (*answers)(int id);
} cb_dispatch_personality;

typedef struct cb_dispatch_wrapper {
    /* What to hand out for export id whose target is fn (fn itself when it
     * has no wrapper for it). */
    void *(*wrap)(int id, void *fn);
    /* Hears that entry point name was answered CUDA_ERROR_NOT_SUPPORTED (why). */
    void (*unsupported)(const char *name, const char *why);
    /* Hears cuProfilerStart (on 1) and cuProfilerStop (on 0) take effect. */
    void (*profiler)(int on);
} cb_dispatch_wrapper;

/* Registers the personality (one per process; kept, not copied). */
void cb_dispatch_set_personality(const cb_dispatch_personality *p);
/* Sets or clears (NULL) the wrapper (kept, not copied). */
void cb_dispatch_set_wrapper(const cb_dispatch_wrapper *w);

/* The active personality, or NULL when cubridge answers itself. */
const cb_dispatch_personality *cb_dispatch_personality_active(void);

/* What the exported forwarders test: -1 before the personality's choice was
 * read, else bit 0 (a personality answers) | bit 1 (a wrapper is set).
 * 0 is the fast path: call cubridge's implementation directly. */
extern int cb_dispatch_state;

/* What export id's symbol calls: NULL for cubridge's implementation,
 * else a function with the same arguments (the personality's entry point,
 * wrapped; or the wrapper around cubridge's). */
cb_export_fn cb_dispatch_target(int id);

/* The pointer cuGetProcAddress hands out for export id whose own
 * implementation is fn (wrapped when a wrapper is set). */
void *cb_dispatch_wrap(int id, void *fn);

/* 1 if export id is answered by something other than a NOT_SUPPORTED stub. */
int cb_dispatch_answers(int id);

/* Why a stub answers CUDA_ERROR_NOT_SUPPORTED, and who to tell. */
const char *cb_dispatch_stub_reason(void);
void cb_dispatch_note_unsupported(const char *name, const char *why);
/* Tells the wrapper that profiling was switched on (1) or off (0). */
void cb_dispatch_note_profiler(int on);

#endif
