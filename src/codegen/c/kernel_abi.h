/* kernel_abi.h: the contract between generated kernel C and the CPU runtime.
 *
 * It belongs to the C dialect (src/codegen/c), which embeds it verbatim at the
 * top of every translation unit it emits (kernel_abi_text.c), so it must
 * compile on its own with nothing but a C11 compiler: no cuda.h, no libc
 * beyond <stdint.h>/<stddef.h>/<string.h>/<math.h>. A backend that runs C
 * units (src/backend/cpu) includes it from here.
 *
 * Execution model (DESIGN.md, "Execution model of the CPU backend"):
 *   - one call of a kernel's entry function runs ONE CUDA thread to completion
 *     (a block entry, ABI 7 below, runs several, one after the other);
 *   - a kernel whose info says needs_fibers runs each thread on its own fiber,
 *     and the runtime callbacks below (bar_sync, shfl, vote ...) may switch
 *     fibers before they return; other kernels run as a plain loop;
 *   - device pointers are host virtual addresses: global and generic loads and
 *     stores are plain C dereferences, after a range and alignment test
 *     (ABI 10, cb_module_set_device_range below);
 *   - shared-space addresses are 32-bit offsets from cb_block.shared;
 *     cvta.shared adds the base, cvta.to.shared subtracts it.
 *
 * Bump CB_KERNEL_ABI_VERSION on any change: it is part of the JIT cache key.
 */
#ifndef CB_KERNEL_ABI_H
#define CB_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#define CB_KERNEL_ABI_VERSION 12

typedef struct cb_dim3 {
    uint32_t x, y, z;
} cb_dim3;

struct cb_runtime;

/* A warp-wide computation done by generated code inside a rendezvous (see
 * cb_runtime.warp_exchange): data[l] is what lane l handed in (NULL for lanes
 * not taking part), lanes the bit mask of the lanes taking part. It reads and
 * writes the lanes' data; it must not call back into the runtime. */
typedef void (*cb_warp_fn)(void *const data[32], uint32_t lanes);

/* One block's state, shared by all its threads. Read-only for generated code
 * except through the shared window. */
typedef struct cb_block {
    cb_dim3 ntid;                  /* %ntid */
    cb_dim3 ctaid;                 /* %ctaid */
    cb_dim3 nctaid;                /* %nctaid */
    unsigned char *shared;         /* shared window: static vars, then dynamic */
    uint32_t static_smem;          /* bytes of static shared (dynamic starts here, aligned) */
    uint32_t dynamic_smem;         /* %dynamic_smem_size */
    const unsigned char *params;   /* packed .param buffer, PTX layout */
    const struct cb_runtime *rt;   /* runtime callbacks */
    void *rt_block;                /* runtime-private block state */
    uint32_t smid;                 /* %smid: worker index */
    uint32_t nsmid;                /* %nsmid */
    uint64_t gridid;               /* %gridid */
    /* ---- ABI 5 ---- */
    uint64_t grid_ws;              /* cooperative launch: the zeroed grid workspace that
                                    * %envreg1 (high 32 bits) and %envreg2 (low 32 bits)
                                    * hand to cooperative groups; 0 otherwise */
    /* ---- ABI 9: thread block clusters ----
     * Every block belongs to a cluster: without a cluster launch, one of
     * 1x1x1 (cluster_dim {1,1,1}, rank 0, not explicit). The blocks of a
     * cluster run at the same time; cluster_shared[r] is the shared window
     * of the block of rank r (cluster_shared[cluster_rank] == shared), so
     * generic addresses into another block's shared memory are plain host
     * addresses. A .shared::cluster address is a 32-bit window offset, plus
     * (rank + 1) << 24 when it names another block (CB_DSMEM_*): what mapa
     * gives; a plain .shared::cta offset names the executing block. */
    cb_dim3 cluster_dim;           /* %cluster_nctaid */
    cb_dim3 cluster_ctaid;         /* %cluster_ctaid */
    uint32_t cluster_rank;         /* %cluster_ctarank */
    uint32_t cluster_explicit;     /* %is_explicit_cluster */
    unsigned char *const *cluster_shared;   /* by rank, cluster_dim.x*y*z of them */
    /* ---- ABI 12: runs of blocks ----
     * For a lanes entry with cbk_<i>_lanes_multi: the blocks ctaid.x ..
     * ctaid.x + lanes_blocks - 1 (same ctaid.y and .z) run as one set of
     * lanes; 0 or 1 means the one block. Everything else it reads is 1. */
    uint32_t lanes_blocks;
} cb_block;

#define CB_DSMEM_RANK_SHIFT 24     /* .shared::cluster address: (rank + 1) << 24 | offset */
#define CB_DSMEM_OFFSET_MASK 0xffffffu

/* ---- ABI 8: positions of warp convergence points ----
 * A convergence point (site) is activemask, vote/shfl without .sync, or an
 * ld/st.volatile of shared or generic memory. The lanes that execute a site
 * together are found from each lane's position (cb_runtime.converge): a
 * chain of frames, one per function on its call stack, innermost first.
 * pass_converge (src/passes/converge.c) numbers, per function, its sites,
 * its calls that can reach a site, and the loops that contain either
 * ("nodes"); a loop node has an iteration counter, incremented on the
 * loop's back edges and reset (with those of the loops inside it) on the
 * back edges of the loops around it. Rules: docs/cpu-backend.md. */
#define CB_CONV_UNORDERED 1u       /* irreducible CFG: no counters, nodes not ordered */
typedef struct cb_conv_fn {
    uint32_t nnodes;
    uint32_t flags;                /* CB_CONV_* */
    const int32_t *parent;         /* per node: the loop node it lies in directly, -1: the top level */
    const uint32_t *counter;       /* per node: a loop node's counter index (others 0) */
    const uint32_t *sibling;       /* per node: its index among the nodes of its parent, in code order */
    const uint32_t *nchild;        /* per level (0: the top, 1 + i: loop node i): its nodes */
    const uint32_t *reach_off;     /* per level: the bit offset of its nchild x nchild matrix in reach */
    const uint8_t *reach;          /* bit reach_off[l] + i * nchild[l] + j: sibling i reaches sibling j
                                    * within one iteration of level l (NULL: use sibling order) */
} cb_conv_fn;

typedef struct cb_conv_frame {
    const cb_conv_fn *fn;
    uint32_t node;                 /* the site or call the lane is at */
    uint32_t depth;                /* frames outside this one */
    const uint32_t *counters;      /* the function's loop counters */
    const struct cb_conv_frame *parent;  /* the caller's frame (at its call node), NULL in the kernel */
} cb_conv_frame;

/* One thread's state. Generated code reads it; only the runtime writes it,
 * except conv. */
typedef struct cb_thread {
    cb_dim3 tid;                   /* %tid */
    uint32_t flat;                 /* linear index in the block: x + y*ntid.x + z*ntid.x*ntid.y */
    uint32_t lane;                 /* %laneid = flat % 32 */
    uint32_t warp;                 /* %warpid = flat / 32 */
    const cb_block *blk;
    void *rt_thread;               /* runtime-private thread state */
    /* ---- ABI 8 ---- */
    const cb_conv_frame *conv;     /* set by generated code just before a call that can reach a
                                    * site: the caller's frame, which the callee takes as parent */
} cb_thread;

/* ---- ABI 3: texture and surface objects ----
 * A CUtexObject or CUsurfObject is the address of one of these (made by
 * src/core/texture.c, read by the generated code's tex/tld4/txq/suld/sust).
 * Elements are at base + layer * layer_bytes + z * slice + y * pitch +
 * x * elem_bytes. Codes are the driver API's: format CU_AD_FORMAT_*,
 * address CU_TR_ADDRESS_MODE_*, filter CU_TR_FILTER_MODE_*, flags CU_TRSF_*. */
#define CB_TEXOBJ_MAGIC 0x54584f42u
typedef struct cb_texobj {
    uint32_t magic;                /* CB_TEXOBJ_MAGIC */
    uint32_t is_surface;
    unsigned char *base;
    uint64_t pitch, slice, layer_bytes;
    uint32_t width, height, depth, layers;  /* elements; layers 0 = not layered */
    uint32_t dims;                 /* 1, 2 or 3 */
    uint32_t format, channels, elem_bytes;
    uint32_t address[3], filter, flags;
    float border[4];
    /* ---- ABI 4: mipmaps and cube maps ----
     * cube: 1 for a cubemap (layers then counts faces, 6 per cube; face f of
     * cube c is layer 6c + f). A mipmapped texture has num_levels > 1 and
     * level[i] describes mip level i (its geometry; num_levels 1, level NULL);
     * level[0] has the geometry of this object. Mip filter, LOD bias and
     * clamps are CUDA_TEXTURE_DESC's; max_aniso 0 or 1 means isotropic. */
    uint32_t cube;
    uint32_t num_levels;
    const struct cb_texobj *level;
    uint32_t mip_filter;
    float lod_bias, min_lod, max_lod;
    uint32_t max_aniso;
} cb_texobj;

/* ---- ABI 6: the mbarrier object ----
 * PTX leaves the 64-bit mbarrier object opaque; cubridge's CPU backend lays it
 * out as below. The generated code (src/codegen/c/mbarrier.c) keeps its
 * semantics; the runtime reads it only to describe a deadlock.
 *   bits  0..19  pending arrival count of the current phase
 *   bits 20..39  expected arrival count (what pending is reset to)
 *   bits 40..60  tx-count, 21-bit two's complement
 *   bits 61..62  number of the current phase, mod 4
 *   bit  63      set by mbarrier.init, cleared by mbarrier.inval
 * The state that mbarrier.arrive returns is the object as it was just before
 * that arrive-on operation. */
#define CB_MBAR_PENDING(w) ((uint32_t)((w) & 0xfffffu))
#define CB_MBAR_EXPECTED(w) ((uint32_t)((w) >> 20 & 0xfffffu))
#define CB_MBAR_TX(w) ((int32_t)((uint32_t)((w) >> 40 & 0x1fffffu) << 11) >> 11)
#define CB_MBAR_PHASE(w) ((uint32_t)((w) >> 61 & 3u))
#define CB_MBAR_VALID ((uint64_t)1 << 63)
#define CB_MBAR_MAKE(pending, expected, tx, phase)                                              \
    (CB_MBAR_VALID | ((uint64_t)((phase) & 3u) << 61) | ((uint64_t)((uint32_t)(tx) & 0x1fffffu) << 40) | \
     ((uint64_t)((expected) & 0xfffffu) << 20) | (uint64_t)((pending) & 0xfffffu))

/* ---- ABI 9: conditional graph nodes ----
 * A CUgraphConditionalHandle is the address of one of these, made by the
 * core (src/core/graph_cond.c, which repeats this layout as cb_cond_dev) and
 * alive as long as a graph or an instantiation holds it. cudaGraphSetConditional(handle, value) in a kernel
 * checks magic and stores value; a conditional node reads value when it
 * runs. */
#define CB_GRAPH_COND_MAGIC 0x434f4e44u
typedef struct cb_graph_cond {
    uint32_t magic;                /* CB_GRAPH_COND_MAGIC while alive */
    uint32_t value;                /* the condition (atomic) */
} cb_graph_cond;

/* Modes, as their PTX names. */
enum { CB_SHFL_UP = 0, CB_SHFL_DOWN = 1, CB_SHFL_BFLY = 2, CB_SHFL_IDX = 3 };
enum { CB_VOTE_ALL = 0, CB_VOTE_ANY = 1, CB_VOTE_UNI = 2, CB_VOTE_BALLOT = 3 };
enum { CB_RED_POPC = 0, CB_RED_AND = 1, CB_RED_OR = 2 };

/* Runtime callbacks. Every function takes the calling thread first.
 * Functions marked "collective" are warp- or block-level rendezvous: the
 * runtime blocks the calling fiber until the named participants arrive. A
 * participant that has exited counts as arrived (the value it would supply
 * is documented in docs/cpu-backend.md); one that never arrives is a
 * deadlock and fails the launch (never a guess). */
typedef struct cb_runtime {
    /* collective: bar.sync / barrier.cta.sync / __syncthreads. count = 0 means all threads of the block. */
    void (*bar_sync)(cb_thread *t, uint32_t barrier, uint32_t count);
    /* bar.arrive: arrive without waiting. */
    void (*bar_arrive)(cb_thread *t, uint32_t barrier, uint32_t count);
    /* collective: bar.red.{popc,and,or}; returns the reduction of pred over the participants. */
    uint32_t (*bar_red)(cb_thread *t, uint32_t barrier, uint32_t count, int op, uint32_t pred);
    /* collective: bar.warp.sync mask / __syncwarp. */
    void (*warp_sync)(cb_thread *t, uint32_t mask);
    /* collective: shfl.sync.{up,down,bfly,idx}.b32 d|p, a, b, c, mask. Writes the
     * source-lane-valid predicate to *pred_out when pred_out is not NULL. */
    uint32_t (*shfl)(cb_thread *t, int mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask,
                     uint32_t *pred_out);
    /* collective: vote.sync.{all,any,uni,ballot}; all/any/uni return 0 or 1, ballot the bit mask. */
    uint32_t (*vote)(cb_thread *t, int mode, uint32_t pred, uint32_t mask);
    /* activemask: converge(t, NULL) (ABI 8; in plain kernels: the lanes that exist). */
    uint32_t (*activemask)(cb_thread *t);
    /* vprintf(fmt, args): args is the packed argument buffer nvcc builds; returns chars printed. */
    int32_t (*vprintf)(cb_thread *t, const char *fmt, const void *args);
    /* __assertfail(message, file, line, function, charsize): fails the launch with CUDA_ERROR_ASSERT. Does not return. */
    void (*assert_fail)(cb_thread *t, const char *message, const char *file, uint32_t line,
                        const char *function, uint64_t charsize);
    /* trap: fails the launch with CUDA_ERROR_LAUNCH_FAILED. Does not return. */
    void (*trap)(cb_thread *t);
    /* %clock64 and %globaltimer (ns). */
    uint64_t (*clock64)(cb_thread *t);
    uint64_t (*globaltimer)(cb_thread *t);
    /* device malloc/free (may return NULL). */
    void *(*malloc)(cb_thread *t, uint64_t size);
    void (*free)(cb_thread *t, void *ptr);
    /* An instruction the translator accepted but the runtime cannot honour:
     * fails the launch with CUDA_ERROR_NOT_SUPPORTED naming what. Does not return. */
    void (*unsupported)(cb_thread *t, const char *what);

    /* ---- ABI 2 ---- */
    /* collective, a warp convergence point: converge(t, NULL) (ABI 8 below).
     * Code generated since ABI 8 calls converge with a position instead,
     * before every ld/st.volatile of shared or generic memory: legacy
     * warp-synchronous code (volatile shared memory, no __syncwarp) thus
     * sees every lane's access of one step before any lane's access of the
     * next, as in lockstep. */
    void (*warp_converge)(cb_thread *t);
    /* collective: once every lane of mask that exists in the block has
     * arrived (same rules as shfl: the caller must be in mask, a named lane
     * that has exited counts as arrived and takes no part), fn is called
     * once with each taking-part lane's data (NULL for the others); then
     * all return. Every lane must pass the same fn.
     * match, redux, elect, mma, ldmatrix and stmatrix are built on it. */
    void (*warp_exchange)(cb_thread *t, uint32_t mask, void *data, cb_warp_fn fn);
    /* nanosleep: lets the other threads of the block run first; no delay. */
    void (*yield)(cb_thread *t);

    /* ---- ABI 5 ---- */
    /* A spin point: generated before every ld.{volatile,relaxed,acquire} of
     * global or generic memory and before atom.cas/atom.exch there, called
     * only when blk->grid_ws is not 0 (a cooperative launch), so ordinary
     * launches pay one test. addr is the address about to be read. Lets the
     * block's other threads, and the launch's other resident blocks, run
     * before the load: a loop that polls memory another block writes (the
     * grid barrier) thus lets that block progress. */
    void (*spin)(cb_thread *t, const void *addr);

    /* ---- ABI 6 ---- */
    /* The caller found the mbarrier phase it tests (test_wait/try_wait) at
     * addr incomplete. Parks it until a thread of the block calls
     * mbar_signal(addr, 1), or until no other thread of the block can run
     * (the ISA's "system-dependent time limit"); the caller then tests again.
     * When such time limits keep expiring and no thread makes progress
     * (arrives, exits, passes a barrier), the launch fails as a deadlock. */
    void (*mbar_wait)(cb_thread *t, const void *addr);
    /* The mbarrier at addr changed (init, inval, arrive, tx-count);
     * completed != 0: its phase completed, so threads parked on it go on. */
    void (*mbar_signal)(cb_thread *t, const void *addr, uint32_t completed);
    /* Fails the launch with CUDA_ERROR_LAUNCH_FAILED and the message what
     * (e.g. a misuse the ISA leaves undefined). Does not return. */
    void (*fail)(cb_thread *t, const char *what);

    /* ---- ABI 8 ---- */
    /* collective, a warp convergence point at position fr (NULL: a position
     * equal to every other NULL one and unordered with the rest). Returns once
     * every other lane of the warp that has not exited is parked (at a site,
     * a barrier, a warp collective or an mbarrier); the lanes at the same
     * position (same site, same loop iterations, same calls) go on together,
     * unless lanes at a position that comes before theirs are parked too,
     * which go first. Returns the mask of the lanes that went on together:
     * activemask's value. warp_converge and activemask are converge(t, NULL). */
    uint32_t (*converge)(cb_thread *t, const cb_conv_frame *fr);

    /* ---- ABI 9 ---- */
    /* barrier.cluster.arrive: the calling thread arrives at its cluster's
     * barrier (whose participants are the threads of the cluster's blocks
     * that have not exited). Returns at once. */
    void (*cluster_arrive)(cb_thread *t);
    /* collective: barrier.cluster.wait: returns once every non-exited
     * thread of the cluster has arrived at the phase the caller arrived at
     * (it must have arrived). */
    void (*cluster_wait)(cb_thread *t);

    /* ---- ABI 10 ---- */
    /* The slow path of an access check: a global, const or generic access
     * of size bytes (a power of two) at addr fell outside
     * the module's device range or is not aligned to size. Returns addr when
     * the access may go on (memory the device reaches outside the range:
     * mapped host memory, the block's shared window, the thread's own
     * stack, the parameters); otherwise fails the launch with
     * CUDA_ERROR_MISALIGNED_ADDRESS or CUDA_ERROR_ILLEGAL_ADDRESS and does
     * not return. NULL: every access goes on. */
    unsigned char *(*check_access)(cb_thread *t, uint64_t addr, uint32_t size);
    /* ---- ABI 11: lanes entries ---- */
    /* A lanes entry ran a warp collective (kind CB_COLL_*, mode its CB_SHFL_* or
     * CB_VOTE_*) of warp `warp` with member mask `mask`, and the named lanes
     * `gone` (a bit per lane of the warp) had exited: the runtime's rule for
     * exited lanes named in a mask applies (runtime_sync.c). */
    void (*warp_gone)(cb_thread *t, uint32_t warp, uint32_t mask, uint32_t gone, int kind, int mode);
    /* The lane that *t names ran such a collective outside its mask: fails the
     * launch as the fiber runtime does. Does not return. */
    void (*warp_not_member)(cb_thread *t, uint32_t mask, int kind, int mode);
} cb_runtime;

/* Warp collectives' kinds, for warp_gone and warp_not_member. */
enum { CB_COLL_SHFL = 0, CB_COLL_VOTE = 1, CB_COLL_SYNC = 2, CB_COLL_EXCHANGE = 3 };

/* Every generated translation unit defines, with default visibility:
 *
 *   unsigned char *cb_module_globals[];          one slot per cb_global_info,
 *                                                 filled by the loader before any launch
 *   void cbk_<i>(cb_thread *t);                   the entry of kernel i (cb_kernel_info order)
 *   const uint32_t cb_module_abi_version = CB_KERNEL_ABI_VERSION;
 *   void cb_module_set_device_range(uint64_t lo, uint64_t span);
 *                                                 (ABI 10) a global, const or generic access
 *                                                 at a with a - lo < span and aligned to its
 *                                                 size goes on at once, others call
 *                                                 check_access; lo 0, span ~0 (range checks
 *                                                 off) until the loader calls it
 *
 * ---- ABI 7: block entries ----
 * and, optionally, for a kernel without barriers or warp collectives:
 *
 *   void cbk_<i>_block(cb_thread *t, uint32_t first, uint32_t count);
 *
 * which runs threads first .. first+count-1 (flat index, count >= 1, within
 * the block) of the block t->blk one after the other, as count calls of
 * cbk_<i> would. t is the runtime's record of the running thread: on entry
 * only t->blk (and t->rt_thread) matter; before each thread the entry writes
 * its tid (and, when the kernel calls functions, flat/lane/warp) into *t, so
 * that a fault, an assert or a trap inside names that thread. It reads the
 * block's values and parameters once per call. Absent: the runtime calls
 * cbk_<i> per thread. CUBRIDGE_BLOCK_ENTRY=0 makes it do so anyway.
 *
 * ---- ABI 11: lanes entries ----
 * and, optionally, for a kernel the code generator can run as SIMD lanes
 * (src/codegen/c/lanes.c):
 *
 *   void cbk_<i>_lanes(cb_thread *t, unsigned char *scratch);
 *   const uint32_t cbk_<i>_lanes_scratch[2];      {bytes per thread, arrays}
 *
 * which runs every thread of the block t->blk, all together, to the end (or
 * until the launch fails). t is as for a block entry: the entry stores the
 * identity of a lane into *t before the lane does what may fault or call the
 * runtime. scratch is 64-byte aligned and at least threads * bytes + 64 *
 * arrays long; the entry neither expects it cleared nor keeps anything in it.
 * CUBRIDGE_CODEGEN=general makes the runtime use the other entries instead.
 *
 * ---- ABI 12: runs of blocks ----
 *   const uint32_t cbk_<i>_lanes_multi = 1;
 *
 * says that the lanes entry of kernel i also runs a run of t->blk->lanes_blocks
 * blocks of one grid row (ctaid.x upwards) as one set of lanes: the kernel's
 * blocks share nothing (pass_lanes: no shared memory, no block barrier, no
 * cluster registers). The runtime asks for it only where every block is whole
 * warps, and gives scratch for threads * lanes_blocks lanes. t->blk must then
 * point at memory the runtime owns: while a lane may fault or call the
 * runtime the entry writes that lane's block into t->blk->ctaid.x, and
 * writes the first block's back when it returns.
 */
typedef void (*cb_kernel_entry)(cb_thread *t);
typedef void (*cb_kernel_block_entry)(cb_thread *t, uint32_t first, uint32_t count);
typedef void (*cb_kernel_lanes_entry)(cb_thread *t, unsigned char *scratch);

#endif
