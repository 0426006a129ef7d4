/* inspect_internal.h: what the files of src/inspect share.
 *
 *   inspect_state.c   modes, the record (calls, launches, events), exit hook
 *   trace_wrappers.c  the generated per-export wrappers + argument printing
 *   trace_write.c     JSON lines and Chrome/Perfetto trace files
 *   verify.c          the regions a launch reaches, snapshots, the verdict
 *   reference.c       the reference backend (by name) and runs on it
 *   verify_backend.c  the "trace" and "verify" backends that wrap a device
 *   compare.c         per-type comparison and tolerances
 *   elemtype.c        element types of a kernel's stores, from its translation
 *   fault_inject.c    the test-only fault injector
 *   report_text.c, report_json.c, report_html.c   the reports
 *   coverage.c        NVIDIA's exports against ours (also used by the CLI)
 */
#ifndef CB_INSPECT_INTERNAL_H
#define CB_INSPECT_INTERNAL_H

#include <stdio.h>

#include "core/launch.h"
#include "driver/registry.h"
#include "inspect/inspect.h"
#include "platform/demangle.h"

/* ---- comparison (compare.c) --------------------------------------------- */

typedef struct cbi_tolerance {
    double rtol, atol;
} cbi_tolerance;

/* torch.testing.assert_close's defaults per type (docs/inspector.md). */
cbi_tolerance cbi_tolerance_of(cb_inspect_elem t);
const char *cbi_elem_name(cb_inspect_elem t);
size_t cbi_elem_size(cb_inspect_elem t);   /* bytes; 1 for BYTES, 0 for INT (width varies) */

typedef struct cbi_diff {
    uint64_t compared;        /* elements where either side was written */
    uint64_t mismatched;      /* beyond tolerance */
    uint64_t nan_inf;         /* NaN/Inf in result where the reference has none */
    double max_abs;           /* largest |result - reference| */
    double rel_l1;            /* sum |result - reference| / sum |reference| */
    int untouched;            /* the reference wrote, the result kept the old contents */
    int all_zero;             /* the result is all zero where the reference is not */
    int64_t first_bad;        /* element index of the first mismatch, -1 if none */
    double first_got, first_want;
    int64_t first_got_int, first_want_int; /* the same, exactly, for integer and byte elements */
    int first_type;           /* cb_inspect_elem of the first mismatch */
} cbi_diff;

/* Compares `bytes` of result with reference, elements of type t (width
 * elem_bytes for CB_ELEM_INT / CB_ELEM_BYTES), starting at byte phase
 * (0 <= phase < width). before (may be NULL) is the contents before the
 * launch: only elements that differ from it on either side are compared. */
void cbi_compare(const unsigned char *result, const unsigned char *reference, const unsigned char *before,
                 size_t bytes, cb_inspect_elem t, size_t elem_bytes, size_t phase, cbi_tolerance tol,
                 cbi_diff *out);
/* 1 if the diff is a failure (mismatch, NaN/Inf introduced, untouched, zero). */
int cbi_diff_failed(const cbi_diff *d);
/* The first mismatch's value (want 0: the result, 1: the reference) as
 * text that tells the two apart: integers exactly (and in hex past 32
 * bits), f64 with 17 significant digits, narrower floats with 9. */
void cbi_format_first(char *buf, size_t len, const cbi_diff *d, int want);

/* ---- element types of stores (elemtype.c) -------------------------------- */

enum { CBI_MAX_TAGS = 64 };

typedef struct cbi_store_types {
    uint32_t ntags;                    /* kernel params, then module globals */
    cb_inspect_elem type[CBI_MAX_TAGS];
    uint8_t width[CBI_MAX_TAGS];       /* bytes of an element (INT/BYTES) */
    uint8_t stored[CBI_MAX_TAGS];      /* some store reaches it */
    uint8_t atomic_float[CBI_MAX_TAGS];/* written by float atomics (order-dependent sums) */
    uint8_t order_dependent[CBI_MAX_TAGS]; /* holds atomic exch/cas results or values derived
                                              from atomics' return values: differs run to run */
    int side_effects;                  /* calls printf/malloc: not re-run */
    char side_effect[32];
} cbi_store_types;

/* Derives, for kernel k of tr, the element type stored through each
 * parameter (tag i < nparams) and each module global (tag nparams + g),
 * from the PTX text the translation carries in its comments. */
void cbi_store_types_of(const cb_translation *tr, uint32_t k, cbi_store_types *out);

/* ---- the record (inspect_state.c) --------------------------------------- */

typedef enum cbi_verdict {
    CBI_TRACED = 0,    /* recorded, not verified (trace mode) */
    CBI_PASS,
    CBI_DRIFT,
    CBI_SKIPPED,       /* verify could not re-run it (note says why) */
    CBI_FAILED,        /* the launch itself failed */
} cbi_verdict;
const char *cbi_verdict_name(cbi_verdict v);

/* A launch's record keeps the first CBI_MAX_REGIONS regions it wrote; verify snapshots up to
 * CBI_MAX_SNAPSHOTS allocations that it reaches (a mipmapped texture's levels are one each). */
enum { CBI_MAX_REGIONS = 8, CBI_MAX_SNAPSHOTS = 32 };

typedef struct cbi_region_result {
    char name[64];           /* "param 3 (y)" / "global counter" */
    uint64_t base;
    size_t bytes;
    cb_inspect_elem type;
    unsigned elem_bytes;
    int failed;
    int order_dependent;     /* differed only where results depend on thread order */
    cbi_diff diff;
} cbi_region_result;

typedef struct cbi_launch {
    char kernel[160];
    uint32_t grid[3], block[3], smem, regs;
    unsigned long long stream;        /* stream id (0: unknown) */
    uint64_t t0, dur;                 /* ns since the inspector started */
    int result;                       /* CUresult */
    cbi_verdict verdict;
    char note[256];
    double max_abs, max_rel_l1;
    uint64_t nan_inf;
    uint32_t nregions;
    cbi_region_result regions[CBI_MAX_REGIONS];
    uint32_t warnings;                /* events the backend warned about (cb_launch_error) */
    char warning[256];                /* the first of them */
} cbi_launch;

typedef struct cbi_export_stats {
    uint64_t calls, errors, unsupported;
    uint64_t probes;                  /* expected refusals (cbi_call_is_probe): not errors */
    uint64_t total_ns;
    int last_result;
    int last_error;                   /* the last failure other than a probe */
    int last_probe;                   /* the last expected refusal */
    char first_args[200];             /* the arguments of its first call */
} cbi_export_stats;

typedef struct cbi_event {
    uint64_t t0, dur;
    uint32_t track;                   /* host thread index, or stream id for launches */
    int16_t kind;                     /* CBI_EV_* */
    int16_t result;
    uint8_t probe;                    /* a call's failure was an expected refusal */
    uint8_t source;                   /* CBI_EV_RANGE: a cb_inspect_range_source */
    int32_t id;                       /* export id, launch index, or range name (cbi_range_name) */
    uint64_t mem_used;
} cbi_event;
enum { CBI_EV_CALL, CBI_EV_LAUNCH, CBI_EV_MEM, CBI_EV_RANGE, CBI_EV_LIBCALL };

/* One library function's row (libcall.c). */
typedef struct cbi_library_call {
    char library[32], function[64];
    uint64_t calls, errors, unsupported;   /* traced calls; failed; NOT_SUPPORTED */
    uint64_t checked, drifts, failed_checks;   /* verify: compared; beyond tolerance; could not check */
    uint64_t total_ns, nan_inf;
    int untouched, all_zero;
    double max_abs, max_rel_l1;
    char last_error[48];                   /* the last failure's status name */
    char first_args[200];
    char note[200];                        /* the first drift, else the last check's note */
} cbi_library_call;

/* The status of a library row: "UNSUPPORTED", "DRIFT", "FAIL", "ERROR",
 * "PASS" (checked, within tolerance) or "OK" (traced). */
const char *cbi_library_status(const cbi_library_call *c);
enum { CBI_LIB__COUNT = 6 };
extern const char *const cbi_lib_status_names[CBI_LIB__COUNT];   /* PASS DRIFT FAIL ERROR UNSUPPORTED OK */

/* The record: everything the reports need. Guarded by cbi_lock(). */
typedef struct cbi_record {
    cbi_export_stats exports[CB_EXP__COUNT];
    cbi_launch *launches;
    size_t nlaunches, caplaunches;
    uint64_t launches_dropped;
    cbi_event *events;
    size_t nevents, capevents;
    uint64_t events_dropped;
    cbi_library_call *libcalls;       /* libcall.c */
    size_t nlibcalls, caplibcalls;
    size_t peak_mem;
    uint64_t start_ns, end_ns;
    char fault[16];                   /* the injected fault, "" if none */
    char backend[32], device[256];
    int exited;                       /* 1 once the program exited (exit_status is known) */
    int exit_status;                  /* the status the program gave exit() */
} cbi_record;

cbi_record *cbi_rec(void);
void cbi_lock(void);
void cbi_unlock(void);
/* ns since the inspector started. */
uint64_t cbi_now(void);
/* A small index for the calling host thread (track of its calls). */
uint32_t cbi_thread_index(void);
/* The report directory (created on demand). */
const char *cbi_report_dir(void);
/* The injected fault ("" if none). */
const char *cbi_fault(void);

/* Appends a timeline event (drops beyond the cap). Lock held. */
void cbi_add_event(const cbi_event *e);
/* Appends a launch record; returns its index or -1 (dropped). Lock held. */
long cbi_add_launch(const cbi_launch *l);

/* ---- named ranges (trace_ranges.c) ---------------------------------------- */

/* The name of range event e (id), and its source ("profiler", "nvtx"). Lock held. */
const char *cbi_range_name(int32_t id);
const char *cbi_range_source_name(int source);
/* Ends every range still open (the program exited inside it), at now.
 * Before the trace files close. */
void cbi_ranges_close_all(void);

/* ---- a launch's regions (verify.c, reference.c) ------------------------------ */

/* One allocation (or module global) a launch reaches, and its copies. */
typedef struct cbi_region {
    uint64_t base;             /* on the device */
    size_t bytes;
    int tag;                   /* param index, or nparams + global index */
    size_t phase;              /* (pointer - base): element alignment */
    unsigned char *before, *result, *reference;
} cbi_region;

typedef struct cbi_regions {
    cbi_region r[CBI_MAX_SNAPSHOTS];
    uint32_t n;
    uint32_t dropped;          /* reachable allocations past CBI_MAX_SNAPSHOTS: not verified */
    size_t total;
} cbi_regions;

/* The reference of k over the "before" snapshots of rs, on the reference
 * backend (reference.c): fills each region's reference copy. 0, or -1
 * with a note. */
int cbi_reference_run(const cb_inspect_kernel *k, const cb_launch_config *cfg, cbi_regions *rs, char *note,
                      size_t notelen);
/* The texture and surface objects a verify wrapper's device made (verify_backend.c). */
typedef struct cbi_textures cbi_textures;
/* The description handle was made from, with its levels copied (the caller frees out->levels): 0, or
 * -1 when handle is no object of that device (or out of memory). */
int cbi_texture_describe(cbi_textures *ts, uint64_t handle, cb_texture_desc *out);
/* The reference's translation of r's module (the device's, or its retranslation into the reference's
 * dialect: C), loaded on first use; NULL when there is none. The element types of a kernel's stores
 * (elemtype.c) are read from its text, which must be the C dialect's. */
const cb_translation *cbi_reference_translation(cb_inspect_reference *r);
/* The reference backend's registry name (CUBRIDGE_VERIFY_REFERENCE, default "cpu"). */
const char *cbi_reference_name(void);

/* The name to report for device backend b: its own, or for the inspector's
 * wrappers the wrapped backend's (verify_backend.c). */
const char *cbi_backend_name(const cb_backend *b);
/* Registers the "trace" and "verify" backend types (verify_backend.c). */
void cbi_register_backends(void);
/* The backend an inspector wrapper wraps, or NULL when b is none (verify_backend.c). */
cb_backend *cbi_wrapped(cb_backend *b);
/* The wrappers' library interface: forwards each call to the wrapped
 * backend's (verify_lib.c). */
const struct cb_backend_lib *cbi_wrapper_lib(void);

/* ---- trace output (trace_write.c) ----------------------------------------- */

/* Writes one JSON line to trace.jsonl (opened on demand). Thread-safe. */
void cbi_jsonl(const char *line, size_t len);
void cbi_jsonl_close(void);
/* Writes s as a JSON string body (escaped, no quotes). */
void cbi_json_escape(FILE *f, const char *s);
/* Writes the Chrome/Perfetto trace (trace.perfetto.json). Lock held. */
int cbi_write_chrome_trace(const char *path);

/* ---- call tracing (trace_wrappers.c) -------------------------------------- */

typedef struct cbi_enumerator {
    long long value;
    const char *name;
} cbi_enumerator;
typedef struct cbi_enum_table {
    const char *type;
    const cbi_enumerator *items;
    int count;
} cbi_enum_table;
extern const cbi_enum_table cbi_enum_tables[];
extern const int cbi_enum_table_count;
/* The enumerator name of value in table t, or NULL. */
const char *cbi_enum_name(int t, long long value);
/* CUresult by name ("CUDA_ERROR_INVALID_VALUE"). */
const char *cbi_result_name(int r);

/* The status of an entry point's row in the call table: "UNSUPPORTED",
 * "ERROR", "PROBE" (only expected refusals failed) or "OK". */
const char *cbi_export_status(const cbi_export_stats *s);

/* 1 if export id is answered by something other than a NOT_SUPPORTED stub:
 * cubridge's implementation, or under the cuda backend the real driver's
 * function of that name. */
int cbi_export_answered(int id);

/* Subsystem and translation target of an entry point (for the call table). */
const char *cbi_subsystem_of(const char *name);
const char *cbi_target_of(const char *name);

/* ---- fault injection (fault_inject.c) ------------------------------------- */

/* Corrupts bytes at addr (host-addressable copy of a written region) the way
 * the configured fault says, given the contents before (for "skip") and
 * the element type. Returns 1 if something was corrupted. */
int cbi_fault_apply(const char *fault, unsigned char *data, const unsigned char *before, size_t bytes,
                    cb_inspect_elem t, size_t elem_bytes, size_t phase);

/* ---- reports --------------------------------------------------------------- */

/* What every report counts (report_json.c). Lock held. */
typedef struct cbi_counts {
    size_t launch[5];                 /* launches per cbi_verdict */
    uint64_t calls, call_errors, unsupported, probes;
    size_t entries_ok, entries_error, entries_unsupported, entries_probe;   /* entry points by row status */
    size_t lib_functions, lib_drift_functions;
    size_t lib_status[CBI_LIB__COUNT];   /* library functions per cbi_lib_status_names */
    uint64_t lib_calls, lib_drifts, lib_checked, lib_unsupported, lib_failed_checks;
} cbi_counts;
void cbi_count(cbi_counts *c);
/* What fails a gated run: launches DRIFT or FAILED, unsupported calls,
 * library calls that drifted. */
uint64_t cbi_failures(const cbi_counts *c);
/* "3 DRIFT, 1 FAILED, 2 UNSUPPORTED calls" (what cbi_failures counted). */
void cbi_failures_text(const cbi_counts *c, char *buf, size_t len);
/* The exit status a run with failures ends with: CUBRIDGE_ERROR_EXITCODE
 * (0: keep the program's), else 3 under strict, else 0. */
int cbi_error_exitcode(void);
/* The status the process ends with, given the program's: the error exit
 * code when it is set and something failed, else the program's. */
int cbi_final_exit_status(int program_status);

/* The launches of one kernel (report_json.c). */
typedef struct cbi_kernel_row {
    const char *name;                 /* mangled, as in the PTX */
    char demangled[160];
    size_t launches, by_verdict[5];
    cbi_verdict verdict;              /* the worst: DRIFT > FAILED > SKIPPED > PASS > TRACED */
    double rel_l1, max_abs;
    uint64_t total_ns;
    size_t first;                     /* index of its first launch */
    const char *note;                 /* the note of its worst launch that has one */
    int note_rank;
    size_t warned;                    /* launches with a warning (cbi_launch.warnings) */
    const char *warning;              /* the first of them */
} cbi_kernel_row;
/* Groups the launches by kernel, in order of first launch; at most max
 * kernels (more are not counted). Lock held. */
size_t cbi_kernel_rows(cbi_kernel_row *rows, size_t max);
int cbi_verdict_rank(cbi_verdict v);

/* The program's command line, JSON-quoted, for the reports' header. */
void cbi_json_argv(FILE *f);

/* Overall status: "PASS", "DRIFT", "UNSUPPORTED", "TRACED". Lock held. */
const char *cbi_overall_status(void);
void cbi_report_text(FILE *out, int colour);
int cbi_report_json(const char *path);
int cbi_report_html(const char *path);
/* junit.xml: one test case per kernel, library function and unsupported
 * entry point (report_junit.c). */
int cbi_report_junit(const char *path);
/* Writes the record as the report JSON object (shared by json and html). */
void cbi_json_report(FILE *f);

/* ---- coverage (coverage.c) ------------------------------------------------- */

#include "inspect/coverage.h"

#endif
