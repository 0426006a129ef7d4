/* ir.h: the typed PTX IR, and the entry points of the PTX front end.
 *
 * Pipeline: ptx_lex (lexer.c) -> ptx_parse (parser.c, builds this IR) ->
 * ptx_verify (verify.c) -> the passes (src/passes), which annotate it ->
 * a dialect's emitter (src/codegen). Everything a module owns lives in its arena and is
 * freed with ptx_module_free. Errors are "file:line: near 'token': reason".
 * Nothing outside src/ptx, src/passes and src/codegen includes this header.
 */
#ifndef CB_PTX_IR_H
#define CB_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- arena ---------------------------------------------------------------- */

typedef struct ptx_arena_chunk ptx_arena_chunk;
typedef struct ptx_arena {
    ptx_arena_chunk *head;
} ptx_arena;

/* Returns zeroed memory that lives until ptx_arena_free; NULL when out of memory. */
void *ptx_arena_alloc(ptx_arena *a, size_t size);
/* Copies n bytes of s into the arena as a NUL-terminated string. */
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n);
void ptx_arena_free(ptx_arena *a);

/* ---- types ------------------------------------------------------------------ */

/* X(name, bytes, kind): kind 'p' predicate, 'b' untyped bits, 'u' unsigned,
 * 's' signed, 'f' IEEE float, 'h' packed half pair, 'g' bfloat16, 'v' packed 16-bit integer pair.
 * e4m3x2/e5m2x2 (a pair of fp8 values in 16 bits) are bits to everything but cvt;
 * f32x2 ('x': a pair of f32 in 64 bits) is for add/sub/mul/fma (sm_100);
 * e2m1x2/e2m3x2/e3m2x2/ue8m0x2 (fp4, fp6 and power-of-two pairs) for cvt only. */
#define PTX_TYPE_LIST(X)                                                                    \
    X(pred, 1, 'p') X(b8, 1, 'b') X(b16, 2, 'b') X(b32, 4, 'b') X(b64, 8, 'b') X(b128, 16, 'b') \
    X(u8, 1, 'u') X(u16, 2, 'u') X(u32, 4, 'u') X(u64, 8, 'u')                              \
    X(s8, 1, 's') X(s16, 2, 's') X(s32, 4, 's') X(s64, 8, 's')                              \
    X(f16, 2, 'f') X(f16x2, 4, 'h') X(bf16, 2, 'g') X(bf16x2, 4, 'h') X(tf32, 4, 'b')       \
    X(f32, 4, 'f') X(f64, 8, 'f') X(u16x2, 4, 'v') X(s16x2, 4, 'v')                            \
    X(e4m3, 1, 'b') X(e5m2, 1, 'b') X(s4, 1, 'b') X(u4, 1, 'b') X(b1, 1, 'b')                 \
    X(e4m3x2, 2, 'b') X(e5m2x2, 2, 'b') X(f32x2, 8, 'x')                                 \
    X(e2m1x2, 1, 'b') X(e2m3x2, 2, 'b') X(e3m2x2, 2, 'b') X(ue8m0x2, 2, 'b')

#define PTX_TYPE_ENUM(name, bytes, kind) PTX_TYPE_##name,
typedef enum ptx_type { PTX_TYPE_none, PTX_TYPE_LIST(PTX_TYPE_ENUM) PTX_NTYPES } ptx_type;
#undef PTX_TYPE_ENUM

const char *ptx_type_name(ptx_type t);   /* "u32"; "none" for PTX_TYPE_none */
unsigned ptx_type_size(ptx_type t);      /* bytes; 0 for none */
char ptx_type_kind(ptx_type t);          /* 'p','b','u','s','f','h','g'; 0 for none */
/* Parses a type name without the dot ("f32"); PTX_TYPE_none if it is not one. */
ptx_type ptx_type_from_name(const char *s, size_t n);
/* True for the IEEE f32/f64 types (f16 has its own rules). */
int ptx_type_is_float(ptx_type t);

/* ---- opcodes and modifiers (the tables in ops.def and mods.def) ------------- */

/* Operand shapes and opcode properties; ops.def's header says what each means. */
enum {
    PTX_OPF_DST = 1, PTX_OPF_MEM = 2, PTX_OPF_LABEL = 4, PTX_OPF_CALL = 8,
    PTX_OPF_COLLECTIVE = 1u << 4, PTX_OPF_PARKS = 1u << 5, PTX_OPF_BY_FORM = 1u << 6,
    PTX_OPF_CONVERGE = 1u << 7, /* set by ptx_instr_flags only, never in ops.def */
    PTX_OPF_FRAGMENT = 1u << 8, PTX_OPF_BITS = 1u << 9, PTX_OPF_TEXTURE = 1u << 10, PTX_OPF_CARRY = 1u << 11,
};
/* The properties under which a thread may wait for other threads: a kernel
 * that reaches one runs its threads on fibers (cb_kernel_info.needs_fibers). */
#define PTX_OPF_WAITS (PTX_OPF_COLLECTIVE | PTX_OPF_PARKS | PTX_OPF_CONVERGE)

#define OP(id, name, minops, maxops, types, flags) PTX_OP_##id,
typedef enum ptx_opcode { PTX_OP_LIST_START = -1,
#include "ptx/ops.def"
    PTX_NOPS } ptx_opcode;
#undef OP

#define MOD(id, text) PTX_MOD_##id,
typedef enum ptx_mod {
#include "ptx/mods.def"
    PTX_NMODS } ptx_mod;
#undef MOD

typedef struct ptx_opinfo {
    const char *name;
    uint8_t min_operands, max_operands;
    uint8_t min_types, max_types;
    unsigned flags;
} ptx_opinfo;

extern const ptx_opinfo ptx_ops[PTX_NOPS];
extern const char *const ptx_mod_names[PTX_NMODS];
/* Finds an opcode by its first segment; -1 if unknown. */
int ptx_opcode_find(const char *s, size_t n);
/* Finds a modifier by text; -1 if unknown. L1::/L2:: qualifiers give PTX_MOD_hint. */
int ptx_mod_find(const char *s, size_t n);

/* ---- special registers ------------------------------------------------------ */

#define PTX_SPECIAL_LIST(X)                                                               \
    X(tid) X(ntid) X(ctaid) X(nctaid) X(laneid) X(warpid) X(nwarpid) X(smid) X(nsmid)     \
    X(gridid) X(lanemask_eq) X(lanemask_le) X(lanemask_lt) X(lanemask_ge) X(lanemask_gt) \
    X(clock) X(clock_hi) X(clock64) X(globaltimer) X(globaltimer_lo) X(globaltimer_hi)   \
    X(dynamic_smem_size) X(total_smem_size) X(warpsize) X(envreg)                      \
    X(clusterid) X(nclusterid) X(cluster_ctaid) X(cluster_nctaid) X(cluster_ctarank)    \
    X(cluster_nctarank) X(is_explicit_cluster) X(aggr_smem_size)
#define PTX_SPECIAL_ENUM(name) PTX_SREG_##name,
typedef enum ptx_special { PTX_SPECIAL_LIST(PTX_SPECIAL_ENUM) PTX_NSPECIALS } ptx_special;
#undef PTX_SPECIAL_ENUM
const char *ptx_special_name(int s);

/* ---- tokens (lexer.c) --------------------------------------------------------- */

typedef enum ptx_token_kind {
    PTX_TOK_EOF,
    PTX_TOK_IDENT,   /* names, directives (".reg"), registers ("%r1"), dotted opcodes */
    PTX_TOK_INT,     /* decimal, hex, octal or binary integer */
    PTX_TOK_F32,     /* 0fXXXXXXXX */
    PTX_TOK_F64,     /* 0dXXXXXXXXXXXXXXXX or a decimal float literal */
    PTX_TOK_STRING,  /* "..." */
    PTX_TOK_PUNCT,   /* one character: , ; : ( ) [ ] { } < > + - ! @ | = */
} ptx_token_kind;

typedef struct ptx_token {
    ptx_token_kind kind;
    const char *text;   /* points into the source; not NUL-terminated */
    uint32_t len;
    uint32_t line;
    uint64_t value;     /* INT: the value (two's complement); F32/F64: the bits */
} ptx_token;

typedef struct ptx_tokens {
    ptx_token *tok;     /* malloc'd; the last one is PTX_TOK_EOF */
    size_t ntok;
} ptx_tokens;

/* Splits src into tokens, dropping comments. Returns 0, or -1 with a message
 * in err. The tokens point into src, which must outlive them. */
int ptx_lex(const char *src, size_t len, const char *file, ptx_tokens *out, char *err,
            size_t errlen);
void ptx_tokens_free(ptx_tokens *t);

/* ---- the IR ------------------------------------------------------------------- */

typedef enum ptx_space {
    PTX_SPACE_none, PTX_SPACE_reg, PTX_SPACE_global, PTX_SPACE_const, PTX_SPACE_shared,
    PTX_SPACE_local, PTX_SPACE_param, PTX_SPACE_shared_cluster,
} ptx_space;

/* What a variable of a function is. */
typedef enum ptx_role {
    PTX_ROLE_module,  /* module scope (.global/.const/.shared) */
    PTX_ROLE_param,   /* a parameter of the .entry/.func */
    PTX_ROLE_ret,     /* a return parameter of the .func */
    PTX_ROLE_body,    /* declared in the body: .local depot, .shared, call-scope .param */
} ptx_role;

#define PTX_NO_SLOT 0xffffffffu   /* ptx_var.func_slot: none */

typedef struct ptx_var {
    const char *name;
    const char *cname;     /* a C identifier, unique in its function (or module) */
    ptx_space space;
    ptx_role role;
    ptx_type type;
    uint32_t align;        /* bytes, >= 1 */
    uint32_t vec;          /* 1, 2 or 4 */
    uint64_t count;        /* elements (product of the array dimensions); 0 for extern [] */
    uint64_t size;         /* bytes */
    int is_extern;         /* .extern: no storage here (extern .shared = dynamic) */
    int is_array;
    unsigned char *init;   /* size bytes, or NULL */
    uint32_t line;
    uint32_t index;        /* module .global/.const: slot in cb_module_globals (pass_globals);
                              static .shared: its number among them (pass_shared) */
    uint32_t func_slot;    /* static .shared that a .func names: its place in the kernels'
                              offset tables, else PTX_NO_SLOT (pass_shared) */
    uint64_t offset;       /* kernel .param: packed offset (pass_kernels) */
    int referenced;
} ptx_var;

typedef struct ptx_reg {
    const char *name;      /* "%r5" */
    const char *cname;     /* "r5" */
    ptx_type type;
} ptx_reg;

typedef enum ptx_symkind {
    PTX_SYM_none, PTX_SYM_module_var, PTX_SYM_func_var, PTX_SYM_func, PTX_SYM_label,
} ptx_symkind;

typedef struct ptx_symref {
    ptx_symkind kind;
    int32_t index;         /* into module vars, the function's vars, module funcs, labels */
    const char *name;      /* as written */
} ptx_symref;

typedef enum ptx_operand_kind {
    PTX_OPD_none, PTX_OPD_reg, PTX_OPD_int, PTX_OPD_f32, PTX_OPD_f64, PTX_OPD_special,
    PTX_OPD_sym, PTX_OPD_mem, PTX_OPD_vec, PTX_OPD_sink, PTX_OPD_list,
} ptx_operand_kind;

typedef struct ptx_operand ptx_operand;
struct ptx_operand {
    ptx_operand_kind kind;
    uint8_t neg;           /* !%p */
    uint8_t comp;          /* special register component: 0 none, 1 x, 2 y, 3 z */
    int32_t reg;           /* reg, or the base of mem; -1 if none */
    int32_t reg2;          /* second destination of "p|q"; -1 if none */
    int32_t special;       /* PTX_SREG_* */
    uint64_t imm;          /* int value or float bits; mem: absolute address when no base; %envreg<imm> */
    int64_t offset;        /* mem: byte offset */
    ptx_symref sym;        /* sym, or the base of mem */
    ptx_operand *elems;    /* vec (braces) and list (parentheses); mem: the coordinates of [tex, {x, y}] */
    uint32_t nelems;
};

#define PTX_MOD_WORDS ((PTX_NMODS + 63) / 64)

typedef struct ptx_instr {
    ptx_opcode op;
    uint32_t line;
    const char *text;      /* the instruction as written, for messages and comments */
    uint32_t textlen;
    ptx_type types[4];     /* mma has four: .dtype.atype.btype.ctype */
    uint8_t ntypes;
    uint64_t mods[PTX_MOD_WORDS];
    int32_t guard;         /* predicate register, -1 if unguarded */
    uint8_t guard_neg;
    uint8_t nops;
    ptx_operand *ops;
} ptx_instr;

typedef struct ptx_label {
    const char *name;
    const char *cname;
    uint32_t instr;        /* index of the instruction that follows it */
    uint32_t line;
} ptx_label;

/* A static .shared variable's place in one kernel's layout. */
typedef struct ptx_shared_place {
    uint32_t var;          /* the variable's ptx_var.index */
    uint32_t offset;       /* bytes from the start of the block's shared window */
} ptx_shared_place;

/* ---- control flow (pass_cfg) --------------------------------------------------
 * A function's basic blocks. A block ends at a branch, a ret or exit, or
 * before a label; guarded forms (@p bra, @p ret) are conditional. */
#define PTX_BB_EXIT 0xffffffffu   /* the thread ends; also "none" */
enum {
    PTX_TERM_FALL,   /* falls through to succ[0] (or off the end: the exit) */
    PTX_TERM_BRA,    /* bra: succ[0] */
    PTX_TERM_CBRA,   /* @p bra: succ[0] when taken, succ[1] otherwise */
    PTX_TERM_EXIT,   /* ret or exit */
    PTX_TERM_CEXIT,  /* @p ret / @p exit: the exit when taken, succ[1] otherwise */
};
typedef struct ptx_bb {
    uint32_t first, end;   /* its instructions [first, end) */
    uint32_t succ[2];      /* successor blocks, PTX_BB_EXIT for the exit */
    uint8_t nsucc;
    uint8_t term;          /* PTX_TERM_* */
    uint8_t tail;          /* ends the thread on every path: no collective, no branch out (pass_cfg) */
    uint8_t divergent;     /* its lanes may be a strict subset of those alive (pass_lanes) */
    uint32_t rpo;          /* its place in reverse post-order; PTX_BB_EXIT when unreachable */
    uint32_t ipdom;        /* immediate post-dominator; PTX_BB_EXIT: the exit */
} ptx_bb;
typedef struct ptx_cfg {
    ptx_bb *bbs;
    uint32_t nbbs;
    uint32_t *order;       /* the reachable blocks in reverse post-order */
    uint32_t norder;
    uint32_t *bb_of;       /* instruction -> its block */
    int irreducible;       /* a loop is entered other than through its header */
    int stuck;             /* a reachable block cannot reach the exit */
} ptx_cfg;

/* What the passes (src/passes) find out about one .entry; ptx_func.kernel
 * points at it. Lives in the module's arena. */
typedef struct ptx_kernel {
    uint32_t func;         /* its index in ptx_module.funcs */
    uint32_t index;        /* its place among the module's entries: C symbol cbk_<index> (pass_kernels) */
    uint32_t param_bytes;  /* the packed parameter buffer (pass_kernels; offsets in the param vars) */
    uint32_t *callees;     /* the other functions it may run, directly or not, in module order (pass_reach) */
    uint32_t ncallees;
    int needs_fibers;      /* it or a callee has a PTX_OPF_WAITS instruction (pass_facts) */
    int uses_textures;     /* ... a PTX_OPF_TEXTURE one (pass_facts) */
    int uses_alloca;       /* its own body has alloca, whose memory lives until it returns, so it
                              gets no block entry (pass_facts) */
    uint64_t local_bytes;  /* .local bytes of it and its callees (pass_facts) */
    uint32_t num_regs;     /* an estimate for cuFuncGetAttribute(NUM_REGS) (pass_facts) */
    ptx_shared_place *shared; /* its static shared layout: the static .shared variables it or a
                                 callee names, by ptx_var.index (pass_shared) */
    uint32_t nshared;
    uint64_t static_smem;  /* bytes of static .shared it uses; dynamic starts here (pass_shared) */
    int dynamic_smem;      /* it uses .extern .shared (pass_shared) */
    /* pass_lanes: whether the block's threads can run as SIMD lanes (c/lanes.c) */
    int lanes;             /* 1: the lanes entry cbk_<index>_lanes is emitted */
    const char *lanes_why; /* lanes == 0: why not (a comment in the generated C) */
    int lanes_multi;       /* lanes: the entry runs a run of blocks of one grid row as one set of
                              lanes, %ctaid.x varying among them (cbk_<index>_lanes_multi) */
    uint8_t *varying;      /* per register of the entry: 1 when its value may differ between lanes */
    uint64_t *live_out;    /* per block, the registers live after it: live_words words each */
    uint32_t live_words;
    int live_in_entry;     /* some register may be read before it is written */
    /* per register of the entry: its lanes' values are affine in %tid.x along
     * each row of the block (tid.y, tid.z fixed): lane x holds base + stride * x
     * modulo the register's width (pass_lanes) */
    uint8_t *affine;       /* PTX_AFF_* */
    int64_t *stride;
} ptx_kernel;

/* Warp convergence points of one function (pass_converge, src/passes/converge.c;
 * the rules in docs/cpu-backend.md). Its nodes are its sites (PTX_OPF_CONVERGE),
 * its calls that can reach a site, and its counted loops (the natural loops
 * that hold one of those), numbered in code order. Lives in the module's arena. */
typedef struct ptx_conv_node {
    uint32_t instr;        /* the site or call; a loop's header */
    int32_t parent;        /* the loop node it lies in directly, -1: the function's top level */
    uint32_t sibling;      /* its index among the nodes of its parent, in code order */
    uint32_t counter;      /* a loop node: its counter (0 .. ncounters-1) */
    int is_loop;
} ptx_conv_node;

typedef struct ptx_conv {
    int unordered;         /* irreducible CFG: no counted loops, nodes not ordered */
    ptx_conv_node *nodes;
    uint32_t nnodes, ncounters;
    int32_t *node_of;      /* per instruction: its site or call node, -1 */
    int32_t *branch_back;  /* per instruction: the loop node whose back edge its branch is, -1 */
    int32_t *fall_back;    /* per instruction k: the loop node whose back edge is k-1 falling into k, -1 */
    uint32_t *nchild;      /* per level (0: the top, 1 + i: loop node i): the nodes it holds */
    uint32_t *reach_off;   /* per level: the bit offset of its nchild x nchild matrix in reach */
    unsigned char *reach;  /* bit reach_off[l] + i * nchild[l] + j: sibling i reaches sibling j within
                              one iteration of level l; NULL when too large (siblings in code order) */
    uint32_t reach_bits;
} ptx_conv;
/* ptx_kernel.affine: NONE, or EXACT (holds in every live lane wherever it is
 * read), or VERIFY (holds where nothing wrapped or diverged: check first). */
enum { PTX_AFF_NONE = 0, PTX_AFF_EXACT = 1, PTX_AFF_VERIFY = 2 };

/* ptx_func.region_mark: it starts a block of a lock-step region; it is the region's end E (not in it);
 * it heads the region as its first instruction (a loop's head, no split: B is then in the region).
 * PTX_REGION_RETURN: region_next after the last block of a region that ends the kernel. */
enum { PTX_REGION_JOIN = 1, PTX_REGION_END = 4, PTX_REGION_VIRTUAL = 8, PTX_REGION_RETURN = -2 };

typedef struct ptx_func {
    const char *name;
    const char *cname;
    int is_entry;
    int is_extern;         /* declared .extern */
    int defined;           /* has a body */
    int visible;
    uint32_t line;
    /* variables: returns first, then params, then body variables */
    ptx_var *vars;
    uint32_t nvars, cap_vars;
    uint32_t nrets, nparams;
    ptx_reg *regs;
    uint32_t nregs, cap_regs;
    ptx_instr *instrs;
    uint32_t ninstrs, cap_instrs;
    ptx_label *labels;
    uint32_t nlabels, cap_labels;
    uint32_t maxntid[3], reqntid[3], minnctapersm;
    uint32_t reqnctapercluster[3], maxclusterrank;   /* cluster directives, 0 if absent */
    int explicitcluster;
    ptx_kernel *kernel;    /* .entry: filled by the passes; NULL for a .func */
    ptx_conv *conv;        /* it reaches a warp convergence point (pass_converge); else NULL */
    ptx_cfg *cfg;          /* .entry: its basic blocks (pass_cfg); NULL for a .func */
    unsigned char *uniform; /* a kernel with a collective: per instruction, 1 when the whole block runs it
                               together or not at all (pass_uniform); else NULL */
    int32_t *pred_region;  /* n + 1 entries, for a kernel with lock-step regions (pass_uniform): the split B
                              (a branch or exit on a divergent value) that heads the region holding the
                              instruction (B itself, the instructions S that B reaches before the region's
                              end E, and E when E is an instruction, not the kernel's end); else -1;
                              NULL: none. The region's blocks run in a schedule (a topological order, each
                              loop's blocks together): */
    int32_t *region_next;  /* at B and at each block's last instruction: the next block of the schedule,
                              E, or PTX_REGION_RETURN after the last one when E is the kernel's end */
    int32_t *region_loop;  /* at the last instruction of a loop's last block: the loop's head (it runs
                              again while a thread wants another trip), else -1 */
    int32_t *region_outer; /* at a loop's head: the head of the next loop (outward) that ends at the same
                              instruction, else -1 */
    unsigned char *region_mark; /* with pred_region: PTX_REGION_* per instruction */
    const char *region_refusal; /* a kernel whose split could not head a lock-step region: why (pass_uniform) */
    unsigned char *barrier_join; /* per instruction (n + 1), or NULL: 1 at the immediate post-dominator of a
                                    uniform branch whose sides hold work-group barriers (pass_uniform), where
                                    the OpenCL dialect adds one (PoCL 3.1 ran the code after such a join
                                    wrongly without it) */
    unsigned char *nan_blind; /* per register: 1 when no read of it sees a NaN's bits, so its f32 results
                                 need no canonical NaN (pass_nan); NULL: none computed */
} ptx_func;

/* An address in the initialiser of a module variable: the 8 bytes at offset
 * in var hold the address of target (a module variable or a function) + addend. */
typedef struct ptx_reloc {
    uint32_t var;          /* module variable being initialised */
    uint64_t offset;
    ptx_symref target;     /* PTX_SYM_module_var or PTX_SYM_func */
    int64_t addend;
    uint32_t line;
} ptx_reloc;

typedef struct ptx_module {
    ptx_arena arena;
    const char *file;
    uint32_t version;      /* major*10 + minor */
    uint32_t target_sm;
    uint32_t address_size;
    ptx_var *vars;         /* module scope */
    uint32_t nvars, cap_vars;
    ptx_func *funcs;
    uint32_t nfuncs, cap_funcs;
    ptx_reloc *relocs;     /* address initialisers, in declaration order */
    uint32_t nrelocs, cap_relocs;
    /* filled by the passes (src/passes) */
    ptx_kernel **kernels;  /* the entries, in module order (pass_kernels) */
    uint32_t nkernels;
    uint32_t nglobals;     /* slots of cb_module_globals (pass_globals) */
    uint32_t nshared;      /* static .shared variables (pass_shared) */
    uint32_t *func_slots;  /* the ptx_var.index of each func_slot (pass_shared) */
    uint32_t nfunc_slots;
    int want_lanes;        /* set by the translator: pass_lanes may accept kernels (cb_translate_opts) */
    int warp_size;         /* set by the translator: lanes of a warp, 32 or 64 (cb_translate_opts) */
    uint32_t spec_block[3]; /* set by the translator: the block shape lanes entries are specialised for, 0s none */
} ptx_module;

/* Parses PTX text into a module. Returns NULL with "file:line: near 'tok':
 * reason" in err on any error. Never crashes on bad input. */
ptx_module *ptx_parse(const char *src, size_t len, const char *file, char *err, size_t errlen);

/* Checks every instruction against the opcode table, resolves labels and
 * call targets. Returns 0, or -1 with a message in err. */
int ptx_verify(ptx_module *m, char *err, size_t errlen);

void ptx_module_free(ptx_module *m);

/* Modifier bitset helpers. */
static inline int ptx_has(const ptx_instr *in, ptx_mod m)
{
    return (int)((in->mods[m / 64] >> (m % 64)) & 1u);
}
static inline void ptx_set_mod(ptx_instr *in, ptx_mod m)
{
    in->mods[m / 64] |= (uint64_t)1 << (m % 64);
}

/* The flags of instruction in: its row's in ops.def, refined by its modifiers
 * for BY_FORM rows (wmma.mma is COLLECTIVE, mbarrier.test_wait/try_wait PARKS,
 * ld/st.volatile of shared or generic memory CONVERGE: a warp convergence
 * point, docs/ptx.md "Legacy warp-synchronous code"). */
unsigned ptx_instr_flags(const ptx_instr *in);
/* The state space named by an instruction's modifiers (PTX_SPACE_none: generic). */
ptx_space ptx_instr_space(const ptx_instr *in);

/* Writes "file:line: near 'tok': reason" into err (tok may be NULL). */
void ptx_format_error(char *err, size_t errlen, const char *file, uint32_t line, const char *tok,
                      size_t toklen, const char *reason);
/* The same for instruction in: "file:line: near 'opcode': reason", naming the
 * opcode as written (its first word after any guard). The verifier and the
 * emitters report through it. */
void ptx_format_instr_error(char *err, size_t errlen, const char *file, const ptx_instr *in, const char *reason);

#endif
