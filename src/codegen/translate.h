/* translate.h: PTX text in, a translated module out.
 *
 * This is the one entry point that the rest of cubridge uses to reach the
 * compiler pipeline (src/ptx lexer -> parser -> IR -> verify, then the passes
 * of src/passes, then a dialect's emitter in src/codegen). Nothing outside
 * src/ptx, src/passes and src/codegen includes the IR headers.
 */
#ifndef CB_TRANSLATE_H
#define CB_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

/* Output dialects. CB_DIALECT_C is C for the CPU backend; CB_DIALECT_OPENCL is
 * OpenCL C 1.2 for the OpenCL backend (src/codegen/opencl/, docs/opencl.md). */
typedef enum cb_dialect {
    CB_DIALECT_C = 0,
    CB_DIALECT_OPENCL = 1,
} cb_dialect;

/* One .param of a kernel, at its place in the packed parameter buffer. */
typedef struct cb_param_info {
    uint32_t offset;   /* byte offset in the packed buffer, aligned to align */
    uint32_t size;     /* bytes */
    uint32_t align;    /* bytes, >= 1 */
    uint32_t is_pointer_like; /* .u64/.b64/.s64 scalar: may hold a device pointer (for the inspector) */
} cb_param_info;

/* One .entry. */
typedef struct cb_kernel_info {
    char *name;               /* the PTX (mangled) name */
    char *symbol;             /* the C symbol of its entry in the generated code: "cbk_<i>" */
    uint32_t nparams;
    cb_param_info *params;
    uint32_t param_bytes;     /* total size of the packed buffer */
    uint32_t static_smem;     /* bytes of its own static .shared layout: what it and its callees name */
    uint32_t local_bytes;     /* per-thread .local bytes (depots), informational */
    uint32_t num_regs;        /* an estimate for cuFuncGetAttribute(NUM_REGS) */
    int needs_fibers;         /* 1 if it, or a function it calls, uses a barrier or warp collective */
    int uses_textures;        /* 1 if it, or a function it calls, reads or writes texture/surface objects */
    uint32_t maxntid[3];      /* .maxntid, 0 if absent */
    uint32_t reqntid[3];      /* .reqntid, 0 if absent */
    uint32_t minnctapersm;    /* .minnctapersm, 0 if absent */
    uint32_t cluster_dims[3]; /* .reqnctapercluster (__cluster_dims__), 0 if absent */
    uint32_t max_cluster_rank;/* .maxclusterrank, 0 if absent */
    int explicit_cluster;     /* .explicitcluster: must be launched with a cluster shape */
    uint32_t warp_scratch;    /* OpenCL: local bytes per thread its warp collectives use after the dynamic
                                 shared memory (the backend adds them, plus 16); 0 for none */
    char *refused;            /* why the dialect cannot express it ("file:line: near 'instr': why"): it is
                                 not in source and cannot be launched (CUDA_ERROR_NOT_SUPPORTED); NULL: it can */
} cb_kernel_info;

enum { CB_SPACE_GLOBAL = 0, CB_SPACE_CONST = 1 };

/* One module-scope .global or .const variable. The loader gives it storage in
 * device memory, copies init (or zero-fills), and stores its address in slot
 * index of cb_module_globals before the first launch. */
typedef struct cb_global_info {
    char *name;
    int space;                /* CB_SPACE_GLOBAL or CB_SPACE_CONST */
    uint64_t size;
    uint32_t align;
    unsigned char *init;      /* size bytes, or NULL for zero */
} cb_global_info;

/* An address inside a global's initial value (".global .u64 p = generic(g);",
 * function tables). After the globals have storage and their init bytes, the
 * loader writes the 8-byte little-endian value
 *     (kind == CB_RELOC_GLOBAL ? cb_module_globals[target] : cb_module_funcs[target]) + addend
 * at cb_module_globals[global] + offset. The generated code exports
 * "void *const cb_module_funcs[]" and "void cb_module_relocate(void)", which
 * does exactly that: a loader may simply call it (once, before any launch). */
enum { CB_RELOC_GLOBAL = 0, CB_RELOC_FUNC = 1 };
typedef struct cb_reloc_info {
    uint32_t global;          /* slot of the variable being patched */
    uint64_t offset;          /* byte offset inside it */
    int kind;                 /* CB_RELOC_GLOBAL or CB_RELOC_FUNC */
    uint32_t target;          /* a global slot, or an index into cb_module_funcs */
    int64_t addend;
} cb_reloc_info;

/* A CB_DIALECT_C unit that holds at least one lanes entry (c/lanes.c) holds
 * this line; the CPU backend's JIT compiles such units with the flags that
 * vectorise (backend/cpu/jit_cache.c), the others with cheaper ones. */
#define CB_C_LANES_MARK "\n/* cubridge: this unit has lanes entries */\n"

/* A CB_DIALECT_C unit translated with cb_translate_opts.quick holds this
 * line: the first build of a tiered build, which the CPU's JIT compiles
 * with the cheapest flags (-O1); a kernel of it that turns hot is built
 * again (src/core/module.c, cb_function_promote). */
#define CB_C_QUICK_MARK "\n/* cubridge: a first-tier unit */\n"

typedef struct cb_translation {
    cb_dialect dialect;
    char *source;             /* the generated code, NUL-terminated */
    size_t source_len;
    uint32_t nkernels;
    cb_kernel_info *kernels;
    uint32_t nglobals;
    cb_global_info *globals;
    uint32_t ptx_version;     /* major*10 + minor, e.g. 90 for ".version 9.0" */
    uint32_t target_sm;       /* e.g. 75 for ".target sm_75" */
    uint32_t nrelocs;         /* address initialisers (see cb_reloc_info); 0 for most modules */
    cb_reloc_info *relocs;
    /* Dialects other than C keep a copy of the PTX (NUL-terminated), so that a
     * reference of another dialect (the inspector's CPU reference) can
     * translate the same module; NULL for CB_DIALECT_C. */
    char *ptx;
    size_t ptx_len;
} cb_translation;

/* Translates PTX text (not necessarily NUL-terminated) into the dialect.
 * source_name names the input in messages ("prog.cu.ptx", "<fatbin>").
 * Returns 0 and sets *out on success. On failure returns -1, sets *out to
 * NULL and writes "file:line: token: reason" into err (truncated to errlen);
 * returns -2 instead when the PTX is valid but the dialect cannot express the
 * module (the loader answers CUDA_ERROR_NOT_SUPPORTED). A kernel that the
 * dialect cannot express does not fail the translation: its
 * cb_kernel_info.refused says why. Never crashes on bad input. */
int cb_translate_ptx(const char *ptx, size_t len, const char *source_name, cb_dialect dialect,
                     cb_translation **out, char *err, size_t errlen);

/* What a translation holds beyond each kernel's general code. */
typedef struct cb_translate_opts {
    /* C dialect: 1 gives each kernel that pass_lanes accepts a lanes entry
     * (the fast path, docs/cpu-backend.md), 0 none: a cheaper unit, the
     * first tier of a tiered build (CUBRIDGE_CODEGEN, src/core/module.c) */
    int lanes;
    /* C dialect: 1 marks the unit as a first build (CB_C_QUICK_MARK) */
    int quick;
    /* C dialect: lanes of a warp, 32 (0 means 32) or 64 (CUBRIDGE_WARP_SIZE,
     * docs/cpu-backend.md "64-lane warps"): %warpsize, %laneid, %warpid and
     * the 64-lane forms of match/redux/elect; 64 gives no lanes entries.
     * Any other value fails the translation. */
    int warp_size;
    /* C dialect: a block shape (all three non-zero) for which each lanes
     * entry also holds a copy of itself with the shape constant, taken when
     * a launch's block is that shape (the shape of the launch that made a
     * kernel hot: src/core/module.c); zeros: none */
    uint32_t block[3];
} cb_translate_opts;

/* cb_translate_ptx with options; cb_translate_ptx is this with lanes = 1. */
int cb_translate_ptx_opts(const char *ptx, size_t len, const char *source_name, cb_dialect dialect,
                          const cb_translate_opts *opts, cb_translation **out, char *err, size_t errlen);

/* Frees a translation and everything it owns. NULL is allowed. */
void cb_translation_free(cb_translation *t);

/* Finds a kernel by PTX name; returns its index or -1. */
int cb_translation_find_kernel(const cb_translation *t, const char *name);

/* Finds a global by PTX name; returns its index or -1. */
int cb_translation_find_global(const cb_translation *t, const char *name);

#endif
