/* cpu_internal.h: the CPU backend's parts and how they meet.
 *
 *   cpu_backend.c   the vtable: device facts, module load, launch entry
 *   cpu_memory.c    the device's memory: arena allocations, copies, fills,
 *                   virtual memory, texture objects
 *   arena.c         the arena: one reserved range, guard pages, quarantine
 *   jit_cache.c     C source -> verified shared-object bytes, through the
 *                   compile cache (backend/kernel_cache.c: its files, counters,
 *                   size cap and eviction)
 *   scheduler.c     the worker pool and the grid's blocks (the block scheduler)
 *   block_exec.c    one block: a plain loop, or one fiber per thread
 *   coop_exec.c     cooperative launches: resident blocks, the grid barrier
 *   cluster_exec.c  thread block clusters: co-resident blocks, the cluster barrier
 *   runtime_sync.c  barriers and warp collectives (cb_runtime, collective part)
 *   runtime_converge.c  warp convergence points: activemask, volatile accesses
 *   runtime_services.c  printf, assert, trap, clocks, malloc (cb_runtime, the rest)
 *   runtime_mbarrier.c  parking on mbarriers, their time limit, deadlocks
 */
#ifndef CB_CPU_INTERNAL_H
#define CB_CPU_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "codegen/c/kernel_abi.h"
#include "platform/dl.h"
#include "platform/fault.h"
#include "platform/fiber.h"
#include "platform/log.h"
#include "platform/thread.h"

/* ---- memory (cpu_memory.c) ------------------------------------------------ */

/* Fills b's memory, virtual memory and texture entry points. */
void cb_cpu_memory_ops(cb_backend *b);

/* The library interface (backend_lib.h) on OpenBLAS: cpu_blas.c. */
const struct cb_backend_lib *cb_cpu_blas_lib(void);

/* ---- the JIT cache (jit_cache.c) ------------------------------------------ */

#include "backend/cpu/jit_cache.h"

/* ---- modules ------------------------------------------------------------- */

typedef struct cpu_module {
    const cb_translation *tr;
    cb_dl *dl;
    cb_kernel_entry *entries;    /* one per kernel */
    cb_kernel_block_entry *blocks; /* one per kernel: its block entry, or NULL */
    cb_kernel_lanes_entry *lanes;  /* one per kernel: its lanes entry, or NULL (CUBRIDGE_CODEGEN) */
    uint32_t (*lanes_scratch)[3];  /* per kernel: what its lanes entry needs (bytes per thread, arrays),
                                      and whether it runs runs of blocks (1: cbk_<i>_lanes_multi) */
} cpu_module;

/* ---- launches and the pool (scheduler.c) --------------------------------- */

/* The grid workspace of a cooperative launch: what %envreg1:%envreg2 point
 * to. Cooperative groups reads {u32 size, u32 barrier} from its start. */
#define CPU_GRID_WS_BYTES 64

typedef struct cpu_launch {
    struct cpu_launch *next;     /* in the pool's queue */
    const cpu_module *module;
    const cb_kernel_info *info;
    cb_kernel_entry entry;
    cb_kernel_block_entry block_entry; /* NULL: run entry per thread */
    cb_kernel_lanes_entry lanes_entry; /* not NULL: run each block through it (block_exec.c) */
    size_t lanes_bytes;          /* the scratch it needs per call */
    uint32_t lanes_blocks;       /* blocks per call, 1 or more: > 1 only for a lanes entry that takes
                                    runs of up to this many blocks of a grid row */
    uint32_t warp_shift;         /* lanes of a warp: 1 << warp_shift, 32 or 64 (cb_cpu_set_warp_size) */
    cb_dim3 grid, block;
    uint32_t nthreads;           /* per block */
    uint32_t static_smem;        /* rounded up to 16 */
    uint32_t dynamic_smem;
    unsigned char *params;       /* 16-aligned copy */
    size_t param_bytes;          /* its size (access_check.c) */
    uint64_t nblocks;
    uint64_t gridid;
    _Atomic uint64_t next_block; /* the next block to hand out */
    _Atomic int failed;          /* set once; later blocks are skipped */
    cb_mutex error_lock;
    CUresult result;
    char message[512];
    uint64_t fault_addr;         /* the first failure's faulting address (0: none) */
    _Atomic uint32_t exited_named; /* warp collectives that named lanes which had exited */
    char warning[256];           /* the first of them (under error_lock), for cb_launch_error */
    /* Under the pool lock: */
    int active;                  /* workers inside this launch */
    int queued;
    int finished;
    cb_cond done;
    /* Cooperative launches (coop_exec.c): */
    int cooperative;
    _Alignas(64) uint32_t grid_ws[CPU_GRID_WS_BYTES / 4];   /* zeroed but for its size word */
    cb_mutex coop_lock;          /* guards the rest */
    uint32_t coop_live;          /* blocks claimed and not finished */
    uint32_t coop_exited;        /* blocks finished */
    uint64_t stable_gen;         /* bumped when stable_word changes (0: none yet) */
    uint32_t stable_word;        /* the barrier word the stable blocks saw */
    uint32_t stable_count;       /* blocks stable at stable_word (coop_exec.c) */
    /* Thread block clusters (cluster_exec.c): */
    cb_dim3 cluster;             /* the cluster shape; {1,1,1} without one */
    uint32_t cluster_blocks;     /* blocks per cluster */
    int cluster_explicit;        /* launched with a cluster shape (%is_explicit_cluster) */
} cpu_launch;

typedef struct cpu_thread cpu_thread;
typedef struct cpu_block cpu_block;

typedef struct cpu_worker {
    struct cpu_pool *pool;
    int index;
    cb_thread_handle handle;
    cb_fiber sched;              /* this OS thread's own context */
    cpu_block **blocks;          /* block states with their resources, reused across
                                  * launches: [0] for ordinary launches, one per
                                  * resident block in cooperative ones */
    uint32_t nblocks;
} cpu_worker;

typedef struct cpu_pool {
    int nworkers;
    cpu_worker *workers;
    size_t stack_size;           /* CUBRIDGE_STACK_SIZE */
    int clock_khz;               /* the reported clock, for %clock64 */
    cb_mutex lock;
    cb_cond work;
    cpu_launch *head, *tail;     /* launches with blocks left */
    int shutting_down;
    _Atomic uint64_t launches;   /* for %gridid */
} cpu_pool;

/* Starts nworkers threads. Returns NULL on failure. */
cpu_pool *cb_cpu_pool_create(int nworkers, size_t stack_size);
void cb_cpu_pool_destroy(cpu_pool *pool);
/* Runs every block of L on the pool and waits for them (or for the first
 * failure). Safe from several threads at once. */
void cb_cpu_pool_run(cpu_pool *pool, cpu_launch *L);
/* Records the launch's error; the first one wins. */
void cb_cpu_launch_fail(cpu_launch *L, CUresult result, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for a memory fault at addr (kept for the fault report). */
void cb_cpu_launch_fail_at(cpu_launch *L, uint64_t addr, CUresult result, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- one block (block_exec.c) -------------------------------------------- */

enum { THREAD_RUNNABLE, THREAD_RUNNING, THREAD_WAIT_BAR, THREAD_WAIT_WARP, THREAD_EXITED,
       THREAD_WAIT_CONV /* at a warp convergence point (runtime_sync.c) */,
       THREAD_WAIT_MBAR /* parked on an mbarrier (runtime_mbarrier.c) */,
       THREAD_WAIT_CLUSTER /* at barrier.cluster.wait (cluster_exec.c) */ };

struct cpu_thread {
    cb_thread t;
    cpu_block *block;
    cb_fiber fiber;
    cb_fault_scope scope;
    int state;
    int in_kernel;               /* its cb_fault_run is live: its scope may be armed */
    uint32_t bar;                /* THREAD_WAIT_BAR: which barrier */
    /* Warp collective arguments and results. */
    uint32_t arg_a, arg_b, arg_c, arg_pred;
    uint32_t result, result_pred;
    void *arg_data;              /* warp_exchange: this lane's data */
    cb_warp_fn arg_fn;           /* warp_exchange: its function */
    int spun_ws;                 /* queued by a spin point on the grid workspace (coop_exec.c) */
    const void *mbar_addr;       /* THREAD_WAIT_MBAR: the mbarrier it is parked on */
    const cb_conv_frame *conv_at; /* THREAD_WAIT_CONV: its position (runtime_converge.c) */
    uint64_t conv_result;        /* the lanes that left the convergence point with it */
    int cluster_arrived;         /* arrived at its cluster's barrier, not yet waited */
    uint32_t cluster_phase;      /* ... at this phase */
};

typedef struct cpu_barrier {
    uint32_t arrived;
    uint32_t expected;
    int whole_block;             /* count 0: exited threads count as arrived */
    int red_op;                  /* -1: none */
    uint32_t red_popc, red_and, red_or;
} cpu_barrier;

enum { WARP_SHFL, WARP_VOTE, WARP_SYNC, WARP_EXCHANGE };

/* Lane masks inside the runtime are 64 bits wide, a bit per lane of a warp
 * of 32 or 64 lanes; a PTX membermask is widened by cpu_warp_mask and a
 * result that is a mask is its low 32 bits (docs/cpu-backend.md). */
typedef struct cpu_warp_group {
    uint64_t mask;               /* 0: slot free */
    uint64_t arrived;
    int kind, mode;
} cpu_warp_group;

/* Threads parked on mbarriers, and the progress that tells a time limit
 * worth expiring from a deadlock (runtime_mbarrier.c). Zeroed per block. */
typedef struct cpu_mbar_state {
    uint32_t waiting;            /* threads in THREAD_WAIT_MBAR */
    uint32_t idle_rounds;        /* time limits expired in a row without progress */
    uint64_t events;             /* arrivals at mbarriers, barrier and collective releases */
    uint64_t seen;               /* events + exits when a time limit last expired */
} cpu_mbar_state;

/* A cluster's blocks and its barrier (cluster_exec.c). Every block has one:
 * its own, of one block, outside cluster launches. */
#define CPU_CLUSTER_MAX 16
typedef struct cpu_cluster {
    uint32_t n;                  /* blocks */
    struct cpu_block *blocks[CPU_CLUSTER_MAX];    /* by rank */
    unsigned char *shared[CPU_CLUSTER_MAX];       /* their windows: cb_block.cluster_shared */
    uint32_t live;               /* threads that have not exited */
    uint32_t arrived;            /* arrivals at the current phase */
    uint32_t phase;
    uint32_t waiting;            /* threads in THREAD_WAIT_CLUSTER */
    uint64_t progress;           /* threads resumed, for the cluster's deadlock check */
} cpu_cluster;

typedef struct cpu_warp {
    uint64_t present;            /* lanes that exist in this block */
    uint64_t exited;
    uint64_t groups_used;        /* bit i: groups[i] is pending (only those are initialised) */
    uint64_t converging;         /* lanes waiting at a convergence point (runtime_converge.c) */
    cpu_warp_group groups[64];   /* at most one per waiting lane */
} cpu_warp;

struct cpu_block {
    cb_block blk;
    cpu_launch *launch;
    cpu_worker *worker;
    uint32_t nthreads;
    int fiber_mode;
    int aborted;
    /* Plain mode: the one thread struct, reused. */
    cb_thread plain;
    uint64_t stack_top;          /* the frame that calls the kernel: its stack lies below (access_check.c) */
    /* Fiber mode: */
    cpu_thread *threads;
    uint32_t *runq;              /* ring of runnable thread indices */
    uint32_t runq_head, runq_count;
    uint32_t nexited;
    cpu_barrier bars[16];
    cpu_warp *warps;
    uint32_t nwarps;
    /* Resources, owned and reused: */
    unsigned char *smem;         /* shared window, 64-aligned */
    size_t smem_cap;
    cpu_thread *thread_buf;      /* per-thread state, fiber mode (threads points here) */
    uint32_t threads_cap;
    cb_fiber_stack *stacks;
    uint32_t nstacks;
    unsigned char *lanes_scratch; /* the lanes entry's scratch, 64-aligned */
    size_t lanes_cap;
    /* Cooperative launches (coop_exec.c): */
    int coop;
    int spin_leave;              /* a spin point handed the worker back; the block can go on */
    uint32_t spins;              /* spin points since the worker resumed the block */
    int only_ws;                 /* ... and all of them polled the grid workspace */
    int parked;                  /* its last turn ended polling the grid workspace */
    uint64_t stable_gen;         /* counted in launch->stable_count of this generation */
    cpu_mbar_state mbar;
    /* Its cluster: own_cluster, or the one of a cluster launch (cluster_exec.c). */
    cpu_cluster *cluster;
    cpu_cluster own_cluster;
};

/* Lanes of a warp of L's blocks: 32, or 64 (CUBRIDGE_WARP_SIZE=64). */
static inline uint32_t cpu_warp_lanes(const cpu_launch *L) { return 1u << L->warp_shift; }
/* The lanes a PTX b32 membermask names: bit i names lane i, and under
 * 64-lane warps lane i + 32 too (so 0xffffffff is the whole warp). */
static inline uint64_t cpu_warp_mask(const cpu_launch *L, uint32_t mask)
{
    return L->warp_shift == 6 ? (uint64_t)mask | (uint64_t)mask << 32 : mask;
}
/* The lanes of warp w that exist in a block of L. */
static inline uint64_t cpu_warp_present(const cpu_launch *L, uint32_t n, uint32_t w)
{
    uint32_t width = cpu_warp_lanes(L), first = w << L->warp_shift;
    uint32_t lanes = n - first < width ? n - first : width;
    return lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
}

/* Runs block number `index` (linear) of L on worker w; count > 1 (only where
 * L->lanes_blocks allows it, blocks of one grid row): the blocks index ..
 * index + count - 1 in one call of the lanes entry. */
void cb_cpu_run_blocks(cpu_worker *w, cpu_launch *L, uint64_t index, uint32_t count);
/* Frees a worker's per-block resources. */
void cb_cpu_worker_release(cpu_worker *w);
/* Worker w's block state number i, made on first use; NULL when out of memory. */
cpu_block *cb_cpu_worker_block(cpu_worker *w, uint32_t i);

/* What cb_cpu_block_resume saw when the worker got control back. */
enum { CPU_BLOCK_DONE, CPU_BLOCK_SPINNING, CPU_BLOCK_STOPPED,
       CPU_BLOCK_BLOCKED /* a block of a cluster of several: no thread can run until another block does */ };
/* Sets up block number `index` of L in b (on worker w) to run as fibers.
 * Returns 0, or -1 with the launch failed. */
int cb_cpu_block_begin(cpu_worker *w, cpu_block *b, cpu_launch *L, uint64_t index);
/* Runs b's fibers until every thread exited (DONE), a spin point handed
 * the worker back (SPINNING: resume it later), or the block or launch
 * failed or deadlocked (STOPPED, the launch failed). */
int cb_cpu_block_resume(cpu_block *b);
/* Fiber mode, cooperative launch: th, at a spin point (on the grid
 * workspace: on_ws), goes to the back of the run queue and the worker gets
 * control (resume goes on with the next runnable thread). Clears
 * b->only_ws unless every queued thread got there by a spin point on the
 * grid workspace. */
void cb_cpu_block_hand_back(cpu_block *b, cpu_thread *th, int on_ws);

/* ---- cooperative launches (coop_exec.c) ---------------------------------- */

/* Sets up L's cooperative state (workspace, lock). */
void cb_cpu_coop_init(cpu_launch *L);
void cb_cpu_coop_fini(cpu_launch *L);
/* Runs blocks of cooperative launch L on w, keeping every block it claims
 * resident and switching between them at spin points, until none are left
 * or the launch failed (a grid barrier that can never complete fails it). */
void cb_cpu_coop_work(cpu_worker *w, cpu_launch *L);

/* ---- thread block clusters (cluster_exec.c) ------------------------------ */

/* Runs whole clusters of L on w (every block of a cluster resident at once,
 * in turns, as fibers) until none are left or the launch failed. */
void cb_cpu_cluster_work(cpu_worker *w, cpu_launch *L);
/* Makes b its own cluster of one block (every launch without clusters). */
void cb_cpu_cluster_single(cpu_block *b);
/* A thread of b exited: it no longer takes part in the cluster's barrier. */
void cb_cpu_cluster_thread_exited(cpu_block *b, cpu_thread *th);
/* The block of b's cluster whose shared window holds addr, or NULL. */
cpu_block *cb_cpu_cluster_block_of(cpu_block *b, const void *addr);
void cb_cpu_cluster_arrive(cb_thread *t);
void cb_cpu_cluster_wait(cb_thread *t);

/* For the runtime: the block and thread state behind a cb_thread. */
static inline cpu_block *cpu_block_of(const cb_thread *t) { return (cpu_block *)t->blk->rt_block; }
static inline cpu_thread *cpu_thread_of(const cb_thread *t) { return (cpu_thread *)t->rt_thread; }

/* Describes t: "kernel K, block (x,y,z), thread (x,y,z)". */
void cb_cpu_describe(const cb_thread *t, char *buf, size_t len);
/* Fails the launch with result and a message naming t, and abandons t (and
 * its block): jumps out of the kernel code. */
_Noreturn void cb_cpu_thread_fail(cb_thread *t, CUresult result, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fiber mode: t gives up the CPU until someone makes it runnable again.
 * Returns when it is resumed. */
void cb_cpu_block_wait(cpu_block *b, cpu_thread *th);
/* Fiber mode: makes th runnable (queues it); clears th->spun_ws. */
void cb_cpu_block_wake(cpu_block *b, cpu_thread *th);

/* ---- the runtime (runtime_sync.c, runtime_converge.c, runtime_services.c) ---- */

extern const cb_runtime cb_cpu_runtime;

void cb_cpu_bar_sync(cb_thread *t, uint32_t barrier, uint32_t count);
void cb_cpu_bar_arrive(cb_thread *t, uint32_t barrier, uint32_t count);
uint32_t cb_cpu_bar_red(cb_thread *t, uint32_t barrier, uint32_t count, int op, uint32_t pred);
void cb_cpu_warp_sync(cb_thread *t, uint32_t mask);
uint32_t cb_cpu_shfl(cb_thread *t, int mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask, uint32_t *pred_out);
uint32_t cb_cpu_vote(cb_thread *t, int mode, uint32_t pred, uint32_t mask);
uint32_t cb_cpu_activemask(cb_thread *t);
void cb_cpu_warp_converge(cb_thread *t);
uint32_t cb_cpu_converge(cb_thread *t, const cb_conv_frame *fr);
void cb_cpu_warp_exchange(cb_thread *t, uint32_t mask, void *data, cb_warp_fn fn);
void cb_cpu_yield(cb_thread *t);
void cb_cpu_spin(cb_thread *t, const void *addr);
void cb_cpu_warp_gone(cb_thread *t, uint32_t warp, uint32_t mask, uint32_t gone, int kind, int mode);
void cb_cpu_warp_not_member(cb_thread *t, uint32_t mask, int kind, int mode);
/* A thread of a fiber-mode block finished: releases the barriers and warp
 * collectives it held up (it counts as arrived) and the convergence points
 * of its warp. Returns 0, or -1 when the launch failed. */
int cb_cpu_sync_thread_exited(cpu_block *b, cpu_thread *th);
/* Describes what blocked threads wait for (deadlock message). */
void cb_cpu_sync_describe_deadlock(cpu_block *b, char *buf, size_t len);
/* Lets groups of the lanes of warp w waiting at convergence points go if
 * the rest of the warp is parked (call after lane `lane` parks or exits);
 * _release: self, if let go, is marked running instead of queued. */
void cb_cpu_warp_converge_check(cpu_block *b, uint32_t w, uint32_t lane);
void cb_cpu_warp_converge_release(cpu_block *b, uint32_t w, uint32_t lane, cpu_thread *self);

/* ---- mbarriers (runtime_mbarrier.c) -------------------------------------- */

void cb_cpu_mbar_wait(cb_thread *t, const void *addr);
void cb_cpu_mbar_signal(cb_thread *t, const void *addr, uint32_t completed);
void cb_cpu_fail(cb_thread *t, const char *what);
/* Fiber mode, no thread runnable: expires the time limit of the threads
 * parked on mbarriers (makes them runnable) and returns 1, or returns 0 when
 * none is parked or time limits have expired too often without progress (a
 * deadlock). */
int cb_cpu_mbar_expire(cpu_block *b);
/* Appends the mbarriers that parked threads wait on to buf (deadlock
 * message); returns the new length used. */
size_t cb_cpu_mbar_describe(const cpu_block *b, char *buf, size_t len, size_t used);

/* ---- access checks (access_check.c) --------------------------------------- */

/* cb_runtime.check_access: lets an access outside the arena through when
 * the device reaches it, else fails the launch (ILLEGAL_ADDRESS, or
 * MISALIGNED_ADDRESS for one not aligned to its size). */
unsigned char *cb_cpu_check_access(cb_thread *t, uint64_t addr, uint32_t size);
/* Host memory kernels may reach (pinned, registered, device malloc): 0, or
 * -1 out of memory. Mapping the same range twice needs two unmaps. */
int cb_cpu_host_map(uint64_t base, size_t bytes);
void cb_cpu_host_unmap(uint64_t base, size_t bytes);
/* What a module's cb_module_set_device_range gets: the arena, or everything
 * under CUBRIDGE_CHECK_ACCESS=0. */
void cb_cpu_device_range(uint64_t range[2]);

#endif
