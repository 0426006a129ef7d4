/* cpu_backend.c: the CPU backend's vtable: device facts, module loading
 * (JIT cache + dlopen + binding) and the launch entry point; its memory is
 * cpu_memory.c.
 *
 * Environment: CUBRIDGE_THREADS (workers, default the number of CPUs),
 * CUBRIDGE_STACK_SIZE (fiber stack bytes, K/M suffixes, default 256K),
 * CUBRIDGE_BLOCK_ENTRY (0: run plain kernels one call per thread even when
 * the module has block entries, kernel_abi.h), CUBRIDGE_HOST_CC and
 * CUBRIDGE_CACHE_DIR (jit_cache.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_internal.h"
#include "backend/cpu/cpu_lib.h"
#include "platform/sysinfo.h"

#define CPU_MAX_THREADS_PER_BLOCK 1024
#define CPU_SHARED_STATIC (48 * 1024)
#define CPU_SHARED_OPTIN (99 * 1024)
#define CPU_SHARED_PER_MP (100 * 1024)
#define CPU_DEFAULT_STACK (256 * 1024)

typedef struct cpu_backend {
    cb_backend base;            /* first: a cb_backend * is a cpu_backend * */
    cb_jit_cache cache;
    cpu_pool *pool;
    cb_device_info info;
    size_t lanes_run;           /* CUBRIDGE_LANES_RUN: the most lanes one call of a lanes entry runs
                                   over a run of blocks (1 or less than a block: one block per call) */
} cpu_backend;

/* Lanes per call of an entry that takes runs of blocks: 8 blocks of 256 threads. Measured on the
 * suite (bench/RESULTS.md): the grid-stride kernels' walks then cover several KiB of each array
 * at a time instead of 1 KiB runs 256 KiB apart. */
#define CPU_LANES_RUN_DEFAULT 2048

static cpu_backend *cpu_of(cb_backend *self) { return (cpu_backend *)self; }

/* A size from the environment: digits with an optional K, M or G suffix. */
static size_t env_size(const char *name, size_t fallback)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    case 0: break;
    default:
        cb_log(CB_LOG_WARN, "ignoring %s=%s (not a size)", name, s);
        return fallback;
    }
    if (v == 0) {
        cb_log(CB_LOG_WARN, "ignoring %s=%s (zero)", name, s);
        return fallback;
    }
    return (size_t)v;
}

/* ---- device facts ------------------------------------------------------------ */

static void cpu_device_info(cb_backend *self, cb_device_info *out)
{
    *out = cpu_of(self)->info;
}

/* ---- modules --------------------------------------------------------------- */

static void cpu_module_unload(cb_backend *self, void *module)
{
    (void)self;
    cpu_module *m = module;
    if (!m)
        return;
    cb_dl_close(m->dl);
    free(m->entries);
    free(m->blocks);
    free(m->lanes);
    free(m->lanes_scratch);
    free(m);
}

/* The block entry "<sym>_block" of a kernel that runs as a plain loop, or
 * NULL: the module has none (hand-written C, an older code generator), the
 * kernel needs fibers, or CUBRIDGE_BLOCK_ENTRY=0. */
static cb_kernel_block_entry block_entry_of(const cpu_module *m, const cb_kernel_info *k, const char *sym)
{
    const char *off = getenv("CUBRIDGE_BLOCK_ENTRY");
    if (k->needs_fibers || (off && !strcmp(off, "0")))
        return NULL;
    char name[96];
    if ((size_t)snprintf(name, sizeof name, "%s_block", sym) >= sizeof name)
        return NULL;
    return (cb_kernel_block_entry)cb_dl_sym(m->dl, name);
}

/* Which units get lanes entries (cb_backend.lanes): CUBRIDGE_CODEGEN=general
 * none (every kernel runs its general entries: fibers or the per-thread
 * block entry), =fast every unit, =tiered (the default) a hot kernel's
 * second build (src/core/module.c). A kernel runs its lanes entry wherever
 * its unit has one. */
static int codegen_lanes(void)
{
    const char *v = getenv("CUBRIDGE_CODEGEN");
    if (!v || !*v || !strcmp(v, "tiered"))
        return CB_LANES_HOT;
    if (!strcmp(v, "fast"))
        return CB_LANES_ALL;
    if (!strcmp(v, "general"))
        return CB_LANES_NONE;
    cb_log(CB_LOG_WARN, "CUBRIDGE_CODEGEN=%s is none of tiered, fast, general: tiered", v);
    return CB_LANES_HOT;
}

/* The lanes entry "<sym>_lanes", its scratch needs and whether it takes runs of blocks, or NULL. */
static cb_kernel_lanes_entry lanes_entry_of(const cpu_module *m, const char *sym, uint32_t need[3])
{
    char name[96];
    if ((size_t)snprintf(name, sizeof name, "%s_lanes_scratch", sym) >= sizeof name)
        return NULL;
    const uint32_t *scratch = cb_dl_sym(m->dl, name);
    name[strlen(name) - strlen("_scratch")] = 0;
    cb_kernel_lanes_entry e = (cb_kernel_lanes_entry)cb_dl_sym(m->dl, name);
    if (!e || !scratch)
        return NULL;
    need[0] = scratch[0];
    need[1] = scratch[1];
    if ((size_t)snprintf(name, sizeof name, "%s_lanes_multi", sym) >= sizeof name)
        return NULL;
    const uint32_t *multi = cb_dl_sym(m->dl, name);
    need[2] = multi && *multi == 1;
    return e;
}

/* Checks the loaded object's ABI, fills its global slots and finds the
 * kernel entries. */
static CUresult module_bind(cpu_module *m, const uint64_t *global_addrs, char *err, size_t errlen)
{
    const cb_translation *tr = m->tr;
    const uint32_t *abi = cb_dl_sym(m->dl, "cb_module_abi_version");
    if (!abi || *abi != CB_KERNEL_ABI_VERSION) {
        snprintf(err, errlen, "compiled module has kernel ABI version %d, the runtime speaks %d",
                 abi ? (int)*abi : -1, CB_KERNEL_ABI_VERSION);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    if (tr->nglobals > 0) {
        unsigned char **slots = cb_dl_sym(m->dl, "cb_module_globals");
        if (!slots) {
            snprintf(err, errlen, "compiled module lacks cb_module_globals for its %u globals", tr->nglobals);
            return CUDA_ERROR_INVALID_IMAGE;
        }
        for (uint32_t i = 0; i < tr->nglobals; i++)
            slots[i] = (unsigned char *)(uintptr_t)global_addrs[i];
    }
    void (*set_range)(uint64_t, uint64_t) = (void (*)(uint64_t, uint64_t))cb_dl_sym(m->dl, "cb_module_set_device_range");
    if (set_range) {   /* absent in hand-made C: no range checks */
        uint64_t range[2];
        cb_cpu_device_range(range);
        set_range(range[0], range[1]);
    }
    if (tr->nrelocs > 0) {
        /* Address initialisers (vtables, function tables, pointers to other
         * globals): the core has copied every global's init bytes, so the
         * generated code can now write each address into its slot, before
         * any launch and before any host read of the globals. */
        void (*relocate)(void) = (void (*)(void))cb_dl_sym(m->dl, "cb_module_relocate");
        if (!relocate) {
            snprintf(err, errlen, "compiled module lacks cb_module_relocate for its %u address initialisers",
                     tr->nrelocs);
            return CUDA_ERROR_INVALID_IMAGE;
        }
        relocate();
    }
    for (uint32_t i = 0; i < tr->nkernels; i++) {
        char fallback[32];
        const char *sym = tr->kernels[i].symbol;
        if (!sym) {
            snprintf(fallback, sizeof fallback, "cbk_%u", i);
            sym = fallback;
        }
        m->entries[i] = (cb_kernel_entry)cb_dl_sym(m->dl, sym);
        if (!m->entries[i]) {
            snprintf(err, errlen, "kernel %s: entry %s is missing from the compiled module", tr->kernels[i].name, sym);
            return CUDA_ERROR_NOT_FOUND;
        }
        m->blocks[i] = block_entry_of(m, &tr->kernels[i], sym);
        m->lanes[i] = lanes_entry_of(m, sym, m->lanes_scratch[i]);
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_host_map(cb_backend *self, const void *ptr, size_t bytes)
{
    (void)self;
    return cb_cpu_host_map((uint64_t)(uintptr_t)ptr, bytes) == 0 ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static void cpu_host_unmap(cb_backend *self, const void *ptr, size_t bytes)
{
    (void)self;
    cb_cpu_host_unmap((uint64_t)(uintptr_t)ptr, bytes);
}

static CUresult cpu_module_load(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                                void **module_out, char *err, size_t errlen)
{
    *module_out = NULL;
    if (err && errlen)
        err[0] = 0;
    if (tr->nglobals > 0 && !global_addrs) {
        snprintf(err, errlen, "module has %u globals but no device addresses were given for them", tr->nglobals);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (tr->dialect != CB_DIALECT_C || !tr->source) {
        snprintf(err, errlen, "the CPU backend runs C translations only");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    unsigned char *so;
    size_t so_len;
    CUresult r = cb_jit_build(&cpu_of(self)->cache, tr->source, tr->source_len ? tr->source_len : strlen(tr->source),
                              &so, &so_len, err, errlen);
    if (r != CUDA_SUCCESS)
        return r;
    cpu_module *m = calloc(1, sizeof *m);
    if (m)
        m->entries = calloc(tr->nkernels ? tr->nkernels : 1, sizeof *m->entries);
    if (m)
        m->blocks = calloc(tr->nkernels ? tr->nkernels : 1, sizeof *m->blocks);
    if (m)
        m->lanes = calloc(tr->nkernels ? tr->nkernels : 1, sizeof *m->lanes);
    if (m)
        m->lanes_scratch = calloc(tr->nkernels ? tr->nkernels : 1, sizeof *m->lanes_scratch);
    if (!m || !m->entries || !m->blocks || !m->lanes || !m->lanes_scratch) {
        if (m) {
            free(m->entries);
            free(m->blocks);
            free(m->lanes);
            free(m->lanes_scratch);
        }
        free(m);
        free(so);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->tr = tr;
    m->dl = cb_dl_open_image(so, so_len, err, errlen);
    free(so);
    if (!m->dl) {
        cpu_module_unload(self, m);
        return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    }
    r = module_bind(m, global_addrs, err, errlen);
    if (r != CUDA_SUCCESS) {
        cpu_module_unload(self, m);
        return r;
    }
    *module_out = m;
    return CUDA_SUCCESS;
}

/* ---- launches -------------------------------------------------------------- */

static CUresult launch_refuse(cb_launch_error *err, CUresult r, const char *fmt, const char *name, uint64_t a,
                              uint64_t b)
{
    if (err) {
        err->result = r;
        snprintf(err->message, sizeof err->message, fmt, name, (unsigned long long)a, (unsigned long long)b);
    }
    return r;
}

static CUresult cpu_launch_kernel(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                           cb_launch_error *err)
{
    cpu_backend *cpu = cpu_of(self);
    cpu_module *m = module;
    if (err) {
        err->result = CUDA_SUCCESS;
        err->message[0] = 0;
        err->warnings = 0;
        err->warning[0] = 0;
    }
    if (!m || kernel >= m->tr->nkernels)
        return launch_refuse(err, CUDA_ERROR_INVALID_HANDLE, "%s: no kernel %llu (module has %llu)", "launch", kernel,
                             m ? m->tr->nkernels : 0);
    const cb_kernel_info *info = &m->tr->kernels[kernel];
    uint64_t nthreads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    uint64_t nblocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    if (nthreads == 0 || nthreads > CPU_MAX_THREADS_PER_BLOCK || nblocks == 0)
        return launch_refuse(err, CUDA_ERROR_INVALID_VALUE, "kernel %s: invalid launch of %llu blocks of %llu threads",
                             info->name, nblocks, nthreads);
    uint32_t static_smem = (info->static_smem + 15u) & ~15u;
    if ((uint64_t)static_smem + cfg->dynamic_smem > CPU_SHARED_OPTIN)
        return launch_refuse(err, CUDA_ERROR_INVALID_VALUE,
                             "kernel %s: %llu bytes of static plus %llu bytes of dynamic shared memory exceed 99 KiB",
                             info->name, static_smem, cfg->dynamic_smem);

    /* No allocation per launch: the launch record and (up to 4 KiB, CUDA's
     * classic limit) the parameter copy live on this stack frame. */
    size_t pbytes = cfg->param_bytes > info->param_bytes ? cfg->param_bytes : info->param_bytes;
    size_t pcap = (pbytes + 15) / 16 * 16 + 16;
    _Alignas(16) unsigned char pstack[4096 + 16];
    unsigned char *params = pcap <= sizeof pstack ? pstack : aligned_alloc(16, pcap);
    if (!params)
        return launch_refuse(err, CUDA_ERROR_OUT_OF_MEMORY, "kernel %s: out of memory (%llu/%llu)", info->name, 0, 0);
    memset(params, 0, pcap);
    if (cfg->params && cfg->param_bytes)
        memcpy(params, cfg->params, cfg->param_bytes);

    if (cb_fault_install() != 0)
        cb_log(CB_LOG_WARN, "cannot install the fault handler: kernel faults will crash the process");

    cpu_launch launch;
    cpu_launch *L = &launch;
    memset(L, 0, sizeof *L);
    L->module = m;
    L->info = info;
    L->entry = m->entries[kernel];
    L->block_entry = m->blocks[kernel];
    /* a cooperative launch keeps its blocks resident as fibers */
    L->warp_shift = cpu->info.warp_size == 64 ? 6 : 5;
    L->lanes_blocks = 1;
    if (m->lanes[kernel] && !cfg->cooperative && L->warp_shift == 5) {
        L->lanes_entry = m->lanes[kernel];
        /* runs of blocks: whole warps per block, up to CUBRIDGE_LANES_RUN lanes (scheduler.c) */
        if (m->lanes_scratch[kernel][2] && nthreads % 32 == 0 && !(cfg->cluster[0] | cfg->cluster[1] | cfg->cluster[2]))
            L->lanes_blocks = cpu->lanes_run > nthreads ? (uint32_t)(cpu->lanes_run / nthreads) : 1;
        L->lanes_bytes = (size_t)nthreads * L->lanes_blocks * m->lanes_scratch[kernel][0] +
                         64 * (size_t)m->lanes_scratch[kernel][1];
    }
    L->grid = (cb_dim3){cfg->grid[0], cfg->grid[1], cfg->grid[2]};
    L->block = (cb_dim3){cfg->block[0], cfg->block[1], cfg->block[2]};
    L->nthreads = (uint32_t)nthreads;
    L->static_smem = static_smem;
    L->dynamic_smem = cfg->dynamic_smem;
    L->params = params;
    L->param_bytes = pcap;
    L->nblocks = nblocks;
    L->result = CUDA_SUCCESS;
    L->cooperative = cfg->cooperative != 0;
    L->cluster = (cb_dim3){1, 1, 1};
    L->cluster_blocks = 1;
    if (cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2]) {
        L->cluster = (cb_dim3){cfg->cluster[0] ? cfg->cluster[0] : 1, cfg->cluster[1] ? cfg->cluster[1] : 1,
                               cfg->cluster[2] ? cfg->cluster[2] : 1};
        L->cluster_blocks = L->cluster.x * L->cluster.y * L->cluster.z;
        L->cluster_explicit = 1;
        if (L->cluster_blocks > CPU_CLUSTER_MAX || L->grid.x % L->cluster.x || L->grid.y % L->cluster.y ||
            L->grid.z % L->cluster.z || L->cooperative) {
            if (params != pstack)
                free(params);
            return launch_refuse(err, CUDA_ERROR_INVALID_CLUSTER_SIZE,
                                 "kernel %s: a cluster of %llu blocks that does not divide the grid, is over 16 "
                                 "blocks or comes with a cooperative launch (%llu)",
                                 info->name, L->cluster_blocks, (uint64_t)L->cooperative);
        }
    }
    /* a cluster's blocks run co-resident, as fibers */
    if (L->cluster_blocks > 1)
        L->lanes_entry = NULL;
    cb_mutex_init(&L->error_lock);
    if (L->cooperative)
        cb_cpu_coop_init(L);

    cb_cpu_pool_run(cpu->pool, L);

    CUresult r = atomic_load(&L->failed) ? L->result : CUDA_SUCCESS;
    if (err && r != CUDA_SUCCESS) {
        err->result = r;
        err->fault_addr = L->fault_addr;
        size_t n = strnlen(L->message, sizeof err->message - 1);
        memcpy(err->message, L->message, n);
        err->message[n] = 0;
    }
    if (r != CUDA_SUCCESS)
        cb_log(CB_LOG_INFO, "launch failed: %s", L->message);
    uint32_t exited_named = atomic_load(&L->exited_named);
    if (err && exited_named) {
        err->warnings = exited_named;
        size_t n = strnlen(L->warning, sizeof err->warning - 1);
        memcpy(err->warning, L->warning, n);
        err->warning[n] = 0;
    }
    cb_mutex_destroy(&L->error_lock);
    if (L->cooperative)
        cb_cpu_coop_fini(L);
    if (params != pstack)
        free(params);
    return r;
}

/* ---- life cycle ------------------------------------------------------------ */

static void cpu_shutdown(cb_backend *self)
{
    cpu_backend *cpu = cpu_of(self);
    cb_cpu_pool_destroy(cpu->pool);
    cb_jit_cache_close(&cpu->cache);
    free(cpu);
}

static void fill_device_info(cb_device_info *info, int nworkers)
{
    char model[200];
    cb_sys_cpu_name(model, sizeof model);
    snprintf(info->name, sizeof info->name, "%s [cubridge]", model);
    info->total_mem = cb_sys_physical_memory();
    info->multiprocessors = nworkers;
    info->max_threads_per_block = CPU_MAX_THREADS_PER_BLOCK;
    info->max_shared_per_block = CPU_SHARED_STATIC;
    info->max_shared_per_block_optin = CPU_SHARED_OPTIN;
    info->max_shared_per_multiprocessor = CPU_SHARED_PER_MP;
    int khz = cb_sys_cpu_khz();
    info->clock_khz = khz > 0 ? khz : 1000000;
    size_t llc = cb_sys_last_level_cache();   /* the CPU's L3 plays the GPU's L2; 4 MiB if the host won't say */
    info->l2_cache_bytes = llc > 0 && llc < (1u << 30) ? (int)llc : 4 << 20;
    info->warp_size = 32;
    info->host_memory_access = 1;
    info->memory_is_host = 1;       /* device addresses are host addresses */
    info->managed_memory = 1;
    info->virtual_memory = 1;
}

/* The vtable's view of the JIT cache counters (process-wide). */
static void cpu_module_cache_stats(cb_backend *self, unsigned *hits, unsigned *misses)
{
    (void)self;
    cb_cpu_cache_stats(hits, misses);
}

cb_backend *cb_backend_cpu_create(void)
{
    cpu_backend *cpu = calloc(1, sizeof *cpu);
    if (!cpu)
        return NULL;
    size_t threads = env_size("CUBRIDGE_THREADS", (size_t)cb_sys_cpu_count());
    int nworkers = threads > 4096 ? 4096 : (int)threads;
    size_t stack = env_size("CUBRIDGE_STACK_SIZE", CPU_DEFAULT_STACK);
    if (stack < 16 * 1024)
        stack = 16 * 1024;
    if (cb_jit_cache_open(&cpu->cache) != 0) {
        free(cpu);
        return NULL;
    }
    if (cb_fault_install() != 0)
        cb_log(CB_LOG_WARN, "cannot install the fault handler: kernel faults will crash the process");
    cpu->pool = cb_cpu_pool_create(nworkers, stack);
    if (!cpu->pool) {
        cb_jit_cache_close(&cpu->cache);
        free(cpu);
        return NULL;
    }
    fill_device_info(&cpu->info, cpu->pool->nworkers);
    cpu->pool->clock_khz = cpu->info.clock_khz;
    cpu->base.name = "cpu";
    cpu->base.device_info = cpu_device_info;
    cb_cpu_memory_ops(&cpu->base);
    cpu->base.dialect = CB_DIALECT_C;
    cpu->base.lanes = codegen_lanes();
    cpu->lanes_run = env_size("CUBRIDGE_LANES_RUN", CPU_LANES_RUN_DEFAULT);
    cpu->base.warp_size = 32;
    cpu->base.module_load = cpu_module_load;
    cpu->base.host_map = cpu_host_map;
    cpu->base.host_unmap = cpu_host_unmap;
    cpu->base.module_unload = cpu_module_unload;
    cpu->base.launch = cpu_launch_kernel;
    cpu->base.shutdown = cpu_shutdown;
    cpu->base.module_cache_stats = cpu_module_cache_stats;
    cpu->base.lib = cb_cpu_lib();
    return &cpu->base;
}

int cb_cpu_set_warp_size(cb_backend *self, int lanes)
{
    cpu_backend *cpu = cpu_of(self);
    if (lanes != 32 && lanes != 64)
        return -1;
    cpu->info.warp_size = lanes;
    cpu->base.warp_size = lanes;
    /* the lanes entries' collectives are 32 lanes wide */
    cpu->base.lanes = lanes == 64 ? CB_LANES_NONE : codegen_lanes();
    return 0;
}

const char *cb_cpu_cache_dir(const cb_backend *self) { return ((const cpu_backend *)self)->cache.files.dir; }

int cb_cpu_cache_info(const char *dir, cb_cpu_cache_report *out)
{
    return cb_kernel_cache_info(dir, &cb_kernel_cache_cpu, out);
}

int cb_cpu_worker_count(const cb_backend *self) { return ((const cpu_backend *)self)->pool->nworkers; }
