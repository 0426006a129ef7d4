/* CPU backend launches: a vector add over many blocks, 3-D grids and blocks
 * (every thread sees its own ids), a tiled reduction with a block barrier
 * inside a loop, shared-memory and global atomics with many threads (exact
 * counts), module globals, dynamic shared memory, and concurrent launches
 * from several host threads. */
#include <pthread.h>

#include "test_cpu_util.h"

static const char *kernels =
    /* 0: c[i] = a[i] + b[i] */
    "void cbk_0(cb_thread *t) {\n"
    "  const float *a = PARAM(const float *, 0), *b = PARAM(const float *, 8);\n"
    "  float *c = PARAM(float *, 16); uint32_t n = PARAM(uint32_t, 24);\n"
    "  uint32_t i = GTID; if (i < n) c[i] = a[i] + b[i];\n"
    "}\n"
    /* 1: ids[linear] = packed (block, thread) ids; 3-D */
    "void cbk_1(cb_thread *t) {\n"
    "  uint32_t *out = PARAM(uint32_t *, 0); const cb_block *k = t->blk;\n"
    "  uint32_t bl = k->ctaid.x + k->nctaid.x * (k->ctaid.y + k->nctaid.y * k->ctaid.z);\n"
    "  uint32_t nt = k->ntid.x * k->ntid.y * k->ntid.z;\n"
    "  uint32_t flat = t->tid.x + k->ntid.x * (t->tid.y + k->ntid.y * t->tid.z);\n"
    "  if (flat != t->flat || t->lane != flat % 32 || t->warp != flat / 32) { out[bl * nt + flat] = 0xdeadu; return; }\n"
    "  out[bl * nt + flat] = (k->ctaid.z << 24) | (k->ctaid.y << 16) | (k->ctaid.x << 8) | (t->tid.z << 6) | (t->tid.y << 3) | t->tid.x;\n"
    "}\n"
    /* 2: tiled sum: each block sums `tiles` tiles of 128 into out[block], a barrier inside the loop */
    "void cbk_2(cb_thread *t) {\n"
    "  const int *in = PARAM(const int *, 0); long long *out = PARAM(long long *, 8); uint32_t tiles = PARAM(uint32_t, 16);\n"
    "  int *tile = (int *)t->blk->shared; long long *acc = (long long *)(t->blk->shared + 512);\n"
    "  uint32_t base = t->blk->ctaid.x * tiles * 128;\n"
    "  if (t->tid.x == 0) *acc = 0;\n"
    "  for (uint32_t k = 0; k < tiles; k++) {\n"
    "    tile[t->tid.x] = in[base + k * 128 + t->tid.x];\n"
    "    RT->bar_sync(t, 0, 0);\n"
    "    for (uint32_t s = 64; s > 0; s >>= 1) {\n"
    "      if (t->tid.x < s) tile[t->tid.x] += tile[t->tid.x + s];\n"
    "      RT->bar_sync(t, 0, 0);\n"
    "    }\n"
    "    if (t->tid.x == 0) *acc += tile[0];\n"
    "    RT->bar_sync(t, 0, 0);\n"
    "  }\n"
    "  if (t->tid.x == 0) out[t->blk->ctaid.x] = *acc;\n"
    "}\n"
    /* 3: atomics: shared counter per block (then one global add), plus a global counter per thread */
    "void cbk_3(cb_thread *t) {\n"
    "  unsigned *global = PARAM(unsigned *, 0); unsigned *per_block = PARAM(unsigned *, 8);\n"
    "  unsigned *sh = (unsigned *)t->blk->shared;\n"
    "  if (t->tid.x == 0) *sh = 0;\n"
    "  RT->bar_sync(t, 0, 0);\n"
    "  for (int r = 0; r < 10; r++) __atomic_fetch_add(sh, 1u, __ATOMIC_RELAXED);\n"
    "  __atomic_fetch_add(&global[0], 1u, __ATOMIC_RELAXED);\n"
    "  RT->bar_sync(t, 0, 0);\n"
    "  if (t->tid.x == 0) { per_block[t->blk->ctaid.x] = *sh; __atomic_fetch_add(&global[1], *sh, __ATOMIC_RELAXED); }\n"
    "}\n"
    /* 4: module global 0 (a u64 counter) += 1 per thread, plain loop; dynamic shared after static */
    "void cbk_4(cb_thread *t) {\n"
    "  unsigned long long *g = (unsigned long long *)cb_module_globals[0];\n"
    "  __atomic_fetch_add(g, 1ull, __ATOMIC_RELAXED);\n"
    "  unsigned *dyn = (unsigned *)(t->blk->shared + t->blk->static_smem);\n"
    "  dyn[t->tid.x] = t->tid.x;\n"
    "  if (t->blk->static_smem != 16 || t->blk->dynamic_smem != 4096) __atomic_fetch_add(g, 1000000ull, __ATOMIC_RELAXED);\n"
    "}\n";

static const tu_kernel infos[] = {
    {"vadd", 0, 0, 28},
    {"ids", 0, 0, 8},
    {"tiled_sum", 1, 520, 20},
    {"atomics", 1, 4, 16},
    {"globals", 0, 4, 0},
};

static cb_backend *be;
static void *mod;
static unsigned long long launch_global_counter;

static void test_vadd(void)
{
    const uint32_t n = 100000;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = calloc(n, sizeof *c);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i;
    }
    tu_params p = {0};
    TU_PARAM(&p, a);
    TU_PARAM(&p, b);
    TU_PARAM(&p, c);
    TU_PARAM(&p, n);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 0, (n + 255) / 256, 256, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "vadd launch: %d %s", (int)r, err.message);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += c[i] != a[i] + b[i];
    TU_CHECK(bad == 0, "vadd: %u wrong elements", bad);
    free(a);
    free(b);
    free(c);
}

static void test_ids(void)
{
    uint32_t grid[3] = {3, 2, 2}, block[3] = {5, 3, 2};
    uint32_t total = 3 * 2 * 2 * 5 * 3 * 2;
    uint32_t *out = calloc(total, sizeof *out);
    tu_params p = {0};
    TU_PARAM(&p, out);
    cb_launch_error err;
    CUresult r = tu_launch3(be, mod, 1, grid, block, 0, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "ids launch: %d %s", (int)r, err.message);
    uint32_t i = 0, bad = 0;
    for (uint32_t bz = 0; bz < 2; bz++)
        for (uint32_t by = 0; by < 2; by++)
            for (uint32_t bx = 0; bx < 3; bx++)
                for (uint32_t tz = 0; tz < 2; tz++)
                    for (uint32_t ty = 0; ty < 3; ty++)
                        for (uint32_t tx = 0; tx < 5; tx++, i++)
                            bad += out[i] != ((bz << 24) | (by << 16) | (bx << 8) | (tz << 6) | (ty << 3) | tx);
    TU_CHECK(bad == 0, "ids: %u threads saw wrong ids", bad);
    free(out);
}

static void test_tiled_sum(void)
{
    const uint32_t blocks = 40, tiles = 7, n = blocks * tiles * 128;
    int *in = malloc(n * sizeof *in);
    long long *out = calloc(blocks, sizeof *out);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int)(i * 2654435761u % 1000) - 500;
    tu_params p = {0};
    TU_PARAM(&p, in);
    TU_PARAM(&p, out);
    TU_PARAM(&p, tiles);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 2, blocks, 128, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "tiled_sum launch: %d %s", (int)r, err.message);
    for (uint32_t b = 0; b < blocks; b++) {
        long long want = 0;
        for (uint32_t i = 0; i < tiles * 128; i++)
            want += in[b * tiles * 128 + i];
        TU_CHECK(out[b] == want, "tiled_sum block %u: %lld, want %lld", b, out[b], want);
    }
    free(in);
    free(out);
}

static void test_atomics(void)
{
    const uint32_t blocks = 64, threads = 256;
    unsigned global[2] = {0, 0};
    unsigned *per_block = calloc(blocks, sizeof *per_block);
    tu_params p = {0};
    TU_PARAM(&p, &global[0]);
    TU_PARAM(&p, per_block);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 3, blocks, threads, p.buf, p.len, &err);
    TU_CHECK(r == CUDA_SUCCESS, "atomics launch: %d %s", (int)r, err.message);
    TU_CHECK(global[0] == blocks * threads, "global atomics: %u, want %u", global[0], blocks * threads);
    TU_CHECK(global[1] == blocks * threads * 10, "summed shared atomics: %u", global[1]);
    for (uint32_t b = 0; b < blocks; b++)
        TU_CHECK(per_block[b] == threads * 10, "shared atomics block %u: %u", b, per_block[b]);
    free(per_block);
}

static void test_globals(void)
{
    uint32_t grid[3] = {50, 1, 1}, block[3] = {1000, 1, 1};
    launch_global_counter = 0;
    cb_launch_error err;
    CUresult r = tu_launch3(be, mod, 4, grid, block, 4096, NULL, 0, &err);
    TU_CHECK(r == CUDA_SUCCESS, "globals launch: %d %s", (int)r, err.message);
    TU_CHECK(launch_global_counter == 50000, "module global counter: %llu", launch_global_counter);
}

/* Several host threads launch the tiled sum and the vector add at once. */
static void *concurrent_launcher(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        test_tiled_sum();
        test_vadd();
    }
    return NULL;
}

static void test_concurrent(void)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, concurrent_launcher, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    setenv("CUBRIDGE_THREADS", "3", 1);
    be = cb_backend_cpu_create();
    if (!be) {
        fprintf(stderr, "FAIL no CPU backend\n");
        return 1;
    }
    cb_device_info info;
    be->device_info(be, &info);
    TU_CHECK(info.multiprocessors == 3 && strstr(info.name, " [cubridge]") && info.max_threads_per_block == 1024 &&
                 info.max_shared_per_block == 48 * 1024 && info.max_shared_per_block_optin == 99 * 1024 &&
                 info.total_mem > 0 && info.clock_khz > 0,
             "device info: %s, %d MPs", info.name, info.multiprocessors);
    cb_translation *tr = tu_make(kernels, 5, infos, 1);
    uint64_t globals[1] = {(uint64_t)(uintptr_t)&launch_global_counter};
    mod = tu_load(be, tr, globals);
    if (mod) {
        test_vadd();
        test_ids();
        test_tiled_sum();
        test_atomics();
        test_globals();
        test_concurrent();
        be->module_unload(be, mod);
    }
    tu_free(tr);
    be->shutdown(be);
    cb_fs_remove_flat_dir(dir);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
