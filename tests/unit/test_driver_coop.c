/* test_driver_coop.c: cooperative launches through the driver API.
 *
 * cuLaunchCooperativeKernel(_ptsz), cuLaunchKernelEx with
 * CU_LAUNCH_ATTRIBUTE_COOPERATIVE and the one-device form of
 * cuLaunchCooperativeKernelMultiDevice run cooperative groups' grid.sync()
 * (several rounds); a grid one block over occupancy x SM count fails with
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE; a block that polls a volatile
 * flag written by the grid's last block finishes (co-residency without
 * grid.sync); a captured cooperative launch replays from a graph, and new
 * node parameters keep it cooperative (and size-checked); the
 * device attributes say 1 (single device) and 0 (multi-device). Failures:
 * grid.sync() in an ordinary launch traps (no workspace), and a grid.sync()
 * that one block skips fails with CUDA_ERROR_LAUNCH_FAILED instead of
 * hanging, and a cooperative kernel polling a flag that nobody sets is
 * stopped by the watchdog (CUDA_ERROR_LAUNCH_TIMEOUT). The whole set runs with 1 and with 2 workers (CUBRIDGE_THREADS),
 * each in a child process.
 */
#include "driver/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

/* nvcc -ptx -arch=compute_75 of:
 *   rounds(unsigned *out, int n): n rounds of "thread 0 of each block adds
 *     blockIdx.x + 1 to out[r]; grid.sync(); out[r] must be G(G+1)/2, else
 *     out[n]++";
 *   skip_sync(unsigned *out): block 1 returns; the others grid.sync();
 *   flag_wait(volatile unsigned *flag, unsigned *out): thread 0 of block 0
 *     spins until the last block's thread 0 sets *flag = 42, then copies it.
 */
static const char ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry rounds(\n"
    ".param .u64 rounds_param_0,\n"
    ".param .u32 rounds_param_1\n"
    ")\n"
    "{\n"
    ".reg .pred  %p<10>;\n"
    ".reg .b32  %r<39>;\n"
    ".reg .b64  %rd<15>;\n"
    "ld.param.u64  %rd5, [rounds_param_0];\n"
    "ld.param.u32  %r10, [rounds_param_1];\n"
    "cvta.to.global.u64  %rd1, %rd5;\n"
    "mov.u32 %r11, %envreg2;\n"
    "cvt.u64.u32  %rd6, %r11;\n"
    "mov.u32 %r12, %envreg1;\n"
    "cvt.u64.u32  %rd7, %r12;\n"
    "bfi.b64  %rd2, %rd7, %rd6, 32, 32;\n"
    "setp.lt.s32  %p1, %r10, 1;\n"
    "@%p1 bra  $L__BB0_13;\n"
    "mov.u32  %r1, %tid.x;\n"
    "mov.u32  %r14, %ctaid.x;\n"
    "add.s64  %rd3, %rd2, 4;\n"
    "mov.u32  %r15, %tid.y;\n"
    "add.s32  %r3, %r1, %r15;\n"
    "mov.u32  %r16, %tid.z;\n"
    "neg.s32  %r4, %r16;\n"
    "mov.u32  %r38, 0;\n"
    "mov.u32  %r17, %nctaid.y;\n"
    "mov.u32  %r18, %nctaid.x;\n"
    "mul.lo.s32  %r19, %r18, %r17;\n"
    "mov.u32  %r20, %nctaid.z;\n"
    "mul.lo.s32  %r21, %r19, %r20;\n"
    "mov.u32  %r22, %ctaid.y;\n"
    "add.s32  %r23, %r14, %r22;\n"
    "mov.u32  %r24, %ctaid.z;\n"
    "neg.s32  %r25, %r24;\n"
    "setp.eq.s32  %p2, %r23, %r25;\n"
    "mov.u32  %r26, -2147483647;\n"
    "sub.s32  %r27, %r26, %r21;\n"
    "selp.b32  %r5, %r27, 1, %p2;\n"
    "add.s32  %r28, %r18, 1;\n"
    "mul.lo.s32  %r29, %r28, %r18;\n"
    "shr.u32  %r6, %r29, 1;\n"
    "mul.wide.s32  %rd8, %r10, 4;\n"
    "add.s64  %rd4, %rd1, %rd8;\n"
    "$L__BB0_2:\n"
    "setp.ne.s32  %p3, %r1, 0;\n"
    "@%p3 bra  $L__BB0_4;\n"
    "mul.wide.s32  %rd9, %r38, 4;\n"
    "add.s64  %rd10, %rd1, %rd9;\n"
    "add.s32  %r37, %r14, 1;\n"
    "atom.global.add.u32  %r30, [%rd10], %r37;\n"
    "$L__BB0_4:\n"
    "setp.ne.s64  %p4, %rd2, 0;\n"
    "@%p4 bra  $L__BB0_6;\n"
    "trap;\n"
    "$L__BB0_6:\n"
    "setp.ne.s32  %p5, %r3, %r4;\n"
    "barrier.sync  0;\n"
    "@%p5 bra  $L__BB0_9;\n"
    "atom.add.release.gpu.u32 %r31,[%rd3],%r5;\n"
    "$L__BB0_8:\n"
    "ld.acquire.gpu.u32 %r33,[%rd3];\n"
    "xor.b32   %r34, %r33, %r31;\n"
    "setp.gt.s32  %p6, %r34, -1;\n"
    "@%p6 bra  $L__BB0_8;\n"
    "$L__BB0_9:\n"
    "barrier.sync  0;\n"
    "@%p3 bra  $L__BB0_12;\n"
    "mul.wide.s32  %rd13, %r38, 4;\n"
    "add.s64  %rd14, %rd1, %rd13;\n"
    "ld.global.u32  %r35, [%rd14];\n"
    "setp.eq.s32  %p8, %r35, %r6;\n"
    "@%p8 bra  $L__BB0_12;\n"
    "atom.global.add.u32  %r36, [%rd4], 1;\n"
    "$L__BB0_12:\n"
    "add.s32  %r38, %r38, 1;\n"
    "setp.lt.s32  %p9, %r38, %r10;\n"
    "@%p9 bra  $L__BB0_2;\n"
    "$L__BB0_13:\n"
    "ret;\n"
    "}\n"
    ".visible .entry skip_sync(\n"
    ".param .u64 skip_sync_param_0\n"
    ")\n"
    "{\n"
    ".reg .pred  %p<6>;\n"
    ".reg .b32  %r<26>;\n"
    ".reg .b64  %rd<11>;\n"
    "ld.param.u64  %rd3, [skip_sync_param_0];\n"
    "mov.u32 %r3, %envreg2;\n"
    "cvt.u64.u32  %rd4, %r3;\n"
    "mov.u32 %r4, %envreg1;\n"
    "cvt.u64.u32  %rd5, %r4;\n"
    "bfi.b64  %rd1, %rd5, %rd4, 32, 32;\n"
    "mov.u32  %r1, %ctaid.x;\n"
    "setp.eq.s32  %p1, %r1, 1;\n"
    "@%p1 bra  $L__BB1_7;\n"
    "setp.ne.s64  %p2, %rd1, 0;\n"
    "@%p2 bra  $L__BB1_3;\n"
    "trap;\n"
    "$L__BB1_3:\n"
    "barrier.sync  0;\n"
    "mov.u32  %r5, %tid.y;\n"
    "mov.u32  %r6, %tid.x;\n"
    "add.s32  %r7, %r6, %r5;\n"
    "mov.u32  %r8, %tid.z;\n"
    "neg.s32  %r9, %r8;\n"
    "setp.ne.s32  %p3, %r7, %r9;\n"
    "@%p3 bra  $L__BB1_6;\n"
    "add.s64  %rd6, %rd1, 4;\n"
    "mov.u32  %r12, %nctaid.x;\n"
    "mov.u32  %r13, %nctaid.y;\n"
    "mul.lo.s32  %r14, %r12, %r13;\n"
    "mov.u32  %r15, %nctaid.z;\n"
    "mul.lo.s32  %r16, %r14, %r15;\n"
    "mov.u32  %r17, %ctaid.y;\n"
    "add.s32  %r18, %r1, %r17;\n"
    "mov.u32  %r19, %ctaid.z;\n"
    "neg.s32  %r20, %r19;\n"
    "setp.eq.s32  %p4, %r18, %r20;\n"
    "mov.u32  %r21, -2147483647;\n"
    "sub.s32  %r22, %r21, %r16;\n"
    "selp.b32  %r11, %r22, 1, %p4;\n"
    "atom.add.release.gpu.u32 %r10,[%rd6],%r11;\n"
    "$L__BB1_5:\n"
    "ld.acquire.gpu.u32 %r23,[%rd6];\n"
    "xor.b32   %r24, %r23, %r10;\n"
    "setp.gt.s32  %p5, %r24, -1;\n"
    "@%p5 bra  $L__BB1_5;\n"
    "$L__BB1_6:\n"
    "barrier.sync  0;\n"
    "cvta.to.global.u64  %rd8, %rd3;\n"
    "mul.wide.u32  %rd9, %r1, 4;\n"
    "add.s64  %rd10, %rd8, %rd9;\n"
    "mov.u32  %r25, 1;\n"
    "st.global.u32  [%rd10], %r25;\n"
    "$L__BB1_7:\n"
    "ret;\n"
    "}\n"
    ".visible .entry flag_wait(\n"
    ".param .u64 flag_wait_param_0,\n"
    ".param .u64 flag_wait_param_1\n"
    ")\n"
    "{\n"
    ".reg .pred  %p<7>;\n"
    ".reg .b32  %r<9>;\n"
    ".reg .b64  %rd<5>;\n"
    "ld.param.u64  %rd4, [flag_wait_param_0];\n"
    "ld.param.u64  %rd3, [flag_wait_param_1];\n"
    "cvta.to.global.u64  %rd1, %rd4;\n"
    "mov.u32  %r1, %ctaid.x;\n"
    "setp.eq.s32  %p1, %r1, 0;\n"
    "@%p1 bra  $L__BB2_3;\n"
    "mov.u32  %r2, %nctaid.x;\n"
    "add.s32  %r3, %r2, -1;\n"
    "setp.ne.s32  %p2, %r1, %r3;\n"
    "mov.u32  %r4, %tid.x;\n"
    "setp.ne.s32  %p3, %r4, 0;\n"
    "or.pred   %p4, %p3, %p2;\n"
    "@%p4 bra  $L__BB2_7;\n"
    "mov.u32  %r5, 42;\n"
    "st.volatile.global.u32  [%rd1], %r5;\n"
    "bra.uni  $L__BB2_7;\n"
    "$L__BB2_3:\n"
    "mov.u32  %r6, %tid.x;\n"
    "setp.ne.s32  %p5, %r6, 0;\n"
    "@%p5 bra  $L__BB2_7;\n"
    "cvta.to.global.u64  %rd2, %rd3;\n"
    "$L__BB2_5:\n"
    "ld.volatile.global.u32  %r7, [%rd1];\n"
    "setp.eq.s32  %p6, %r7, 0;\n"
    "@%p6 bra  $L__BB2_5;\n"
    "ld.volatile.global.u32  %r8, [%rd1];\n"
    "st.global.u32  [%rd2], %r8;\n"
    "$L__BB2_7:\n"
    "ret;\n"
    "}\n";

#define ROUNDS 5
#define BLOCK 64

static CUfunction get(CUmodule mod, const char *name)
{
    CUfunction f = NULL;
    CHECK(cuModuleGetFunction(&f, mod, name) == CUDA_SUCCESS && f);
    return f;
}

/* The most blocks a cooperative launch of f may have. */
static int max_blocks(CUfunction f)
{
    int per_sm = 0, sms = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, BLOCK, 0) == CUDA_SUCCESS);
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0) == CUDA_SUCCESS);
    return per_sm * sms;
}

/* Zeroes out, which holds ROUNDS + 1 counters. */
static void clear(CUdeviceptr out) { CHECK(cuMemsetD32_v2(out, 0, ROUNDS + 1) == CUDA_SUCCESS); }

/* out holds ROUNDS counters of G(G+1)/2 and no errors. */
static void expect_rounds(CUdeviceptr out, unsigned grid, const char *how)
{
    unsigned host[ROUNDS + 1];
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemcpyDtoH_v2(host, out, sizeof host) == CUDA_SUCCESS);
    int bad = host[ROUNDS] != 0;
    for (int r = 0; r < ROUNDS; r++)
        bad += host[r] != grid * (grid + 1) / 2;
    if (bad)
        fprintf(stderr, "%s, grid %u: round 0 %u (want %u), %u errors\n", how, grid, host[0], grid * (grid + 1) / 2,
                host[ROUNDS]);
    CHECK(bad == 0);
}

static void test_attributes(void)
{
    int v = -1;
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 0) == CUDA_SUCCESS && v == 1);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, 0) == CUDA_SUCCESS && v == 0);
}

static void test_grid_sync(CUmodule mod, CUdeviceptr out)
{
    CUfunction f = get(mod, "rounds");
    unsigned max = (unsigned)max_blocks(f);
    CHECK(max >= 1);
    int n = ROUNDS;
    void *args[] = {&out, &n};
    unsigned grids[] = {1, 2, max > 3 ? 3 : max, max};
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        clear(out);
        CHECK(cuLaunchCooperativeKernel(f, grids[i], 1, 1, BLOCK, 1, 1, 0, NULL, args) == CUDA_SUCCESS);
        expect_rounds(out, grids[i], "cuLaunchCooperativeKernel");
    }
    /* A 2-D grid: grid.sync() counts every block. */
    if (max >= 4) {
        clear(out);
        CHECK(cuLaunchCooperativeKernel(f, 2, 2, 1, BLOCK, 1, 1, 0, NULL, args) == CUDA_SUCCESS);
        unsigned host[ROUNDS + 1];
        CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
        CHECK(cuMemcpyDtoH_v2(host, out, sizeof host) == CUDA_SUCCESS);
        CHECK(host[0] == 2 * (1 + 2)); /* blockIdx.x + 1 summed over 2x2 blocks */
    }
    clear(out);
    CHECK(cuLaunchCooperativeKernel_ptsz(f, max, 1, 1, BLOCK, 1, 1, 0, NULL, args) == CUDA_SUCCESS);
    expect_rounds(out, max, "cuLaunchCooperativeKernel_ptsz");

    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = max, cfg.gridDimY = 1, cfg.gridDimZ = 1;
    cfg.blockDimX = BLOCK, cfg.blockDimY = 1, cfg.blockDimZ = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    clear(out);
    CHECK(cuLaunchKernelEx(&cfg, f, args, NULL) == CUDA_SUCCESS);
    expect_rounds(out, max, "cuLaunchKernelEx(COOPERATIVE)");

    /* One block too many, in every form. */
    cfg.gridDimX = max + 1;
    CHECK(cuLaunchKernelEx(&cfg, f, args, NULL) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    CHECK(cuLaunchCooperativeKernel(f, max + 1, 1, 1, BLOCK, 1, 1, 0, NULL, args) ==
          CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    CHECK(cuLaunchCooperativeKernel(f, max, 2, 1, BLOCK, 1, 1, 0, NULL, args) ==
          CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    /* Validation comes first: a bad block size is an invalid value. */
    CHECK(cuLaunchCooperativeKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args) == CUDA_ERROR_INVALID_VALUE);
    /* Not cooperative: any grid size is fine (the attribute set to 0). */
    attr.value.cooperative = 0;
    cfg.gridDimX = 1;
    n = 0;
    CHECK(cuLaunchKernelEx(&cfg, f, args, NULL) == CUDA_SUCCESS);
    n = ROUNDS;
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);

    /* The deprecated multi-device form, with one device. */
    CUDA_LAUNCH_PARAMS p;
    memset(&p, 0, sizeof p);
    p.function = f;
    p.gridDimX = max, p.gridDimY = 1, p.gridDimZ = 1;
    p.blockDimX = BLOCK, p.blockDimY = 1, p.blockDimZ = 1;
    CUstream s;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    p.hStream = s;
    p.kernelParams = args;
    clear(out);
    CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
    expect_rounds(out, max, "cuLaunchCooperativeKernelMultiDevice");
    CUDA_LAUNCH_PARAMS two[2] = {p, p};
    CHECK(cuLaunchCooperativeKernelMultiDevice(two, 2, 0) == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0x100) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 0, 0) == CUDA_ERROR_INVALID_VALUE);
    p.hStream = NULL;
    CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0) == CUDA_ERROR_INVALID_HANDLE);
    p.hStream = s;
    p.gridDimX = max + 1;
    CHECK(cuLaunchCooperativeKernelMultiDevice(&p, 1, 0) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);

    /* Captured into a graph and replayed twice: the node stays cooperative. */
    clear(out);
    CHECK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_SUCCESS);
    CHECK(cuLaunchCooperativeKernel(f, max, 1, 1, BLOCK, 1, 1, 0, s, args) == CUDA_SUCCESS);
    CUgraph g = NULL;
    CHECK(cuStreamEndCapture(s, &g) == CUDA_SUCCESS && g);
    /* New parameters keep the node cooperative, with the size check. */
    CUgraphNode node = NULL;
    size_t nnodes = 1;
    CHECK(cuGraphGetNodes(g, &node, &nnodes) == CUDA_SUCCESS && nnodes == 1);
    CUDA_KERNEL_NODE_PARAMS kp;
    CHECK(cuGraphKernelNodeGetParams_v2(node, &kp) == CUDA_SUCCESS && kp.gridDimX == max);
    kp.gridDimX = max + 1;
    CHECK(cuGraphKernelNodeSetParams_v2(node, &kp) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    kp.gridDimX = max;
    CHECK(cuGraphKernelNodeSetParams_v2(node, &kp) == CUDA_SUCCESS);
    CUgraphExec ge = NULL;
    CHECK(cuGraphInstantiateWithFlags(&ge, g, 0) == CUDA_SUCCESS && ge);
    CHECK(cuGraphLaunch(ge, s) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
    expect_rounds(out, max, "graph replay");
    clear(out);
    CHECK(cuGraphLaunch(ge, s) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(s) == CUDA_SUCCESS);
    expect_rounds(out, max, "second graph replay");
    CHECK(cuGraphExecDestroy(ge) == CUDA_SUCCESS);
    CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
    CHECK(cuStreamDestroy_v2(s) == CUDA_SUCCESS);
}

/* Block 0 polls a flag that only the grid's last block sets. */
static void test_flag_wait(CUmodule mod)
{
    CUfunction f = get(mod, "flag_wait");
    unsigned max = (unsigned)max_blocks(f);
    CUdeviceptr buf;
    CHECK(cuMemAlloc_v2(&buf, 8) == CUDA_SUCCESS);
    CHECK(cuMemsetD32_v2(buf, 0, 2) == CUDA_SUCCESS);
    CUdeviceptr flag = buf, out = buf + 4;
    void *args[] = {&flag, &out};
    CHECK(cuLaunchCooperativeKernel(f, max, 1, 1, BLOCK, 1, 1, 0, NULL, args) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    unsigned host[2] = {0, 0};
    CHECK(cuMemcpyDtoH_v2(host, buf, sizeof host) == CUDA_SUCCESS);
    CHECK(host[0] == 42 && host[1] == 42);
    CHECK(cuMemFree_v2(buf) == CUDA_SUCCESS);
}

/* A launch that must fail with want, sticky, in a context of its own. */
static void expect_failure(const char *kernel, int cooperative, unsigned grid, CUresult want)
{
    CUcontext ctx;
    CHECK(cuCtxCreate_v2(&ctx, 0, 0) == CUDA_SUCCESS);
    CUmodule mod;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS);
    CUfunction f = get(mod, kernel);
    CUdeviceptr out;
    CHECK(cuMemAlloc_v2(&out, 4 * (ROUNDS + 1) + 4 * grid) == CUDA_SUCCESS);
    int n = ROUNDS;
    void *args[] = {&out, &n}, *flag_args[] = {&out, &out};
    if (!strcmp(kernel, "flag_wait"))
        memcpy(args, flag_args, sizeof args);
    CUresult r = cooperative ? cuLaunchCooperativeKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, args)
                             : cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, args, NULL);
    CHECK(r == CUDA_SUCCESS || r == want);
    r = cuCtxSynchronize();
    if (r != want)
        fprintf(stderr, "%s: got %d, wanted %d\n", kernel, (int)r, (int)want);
    CHECK(r == want);
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
}

static int run_all(const char *threads)
{
    setenv("CUBRIDGE_THREADS", threads, 1);
    /* Ends the hand-made wait below (and the test, should deadlock detection
     * ever miss). */
    setenv("CUBRIDGE_KERNEL_TIMEOUT", "5", 1);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx = NULL;
    CHECK(cuCtxCreate_v2(&ctx, 0, 0) == CUDA_SUCCESS);
    CUmodule mod = NULL;
    CHECK(cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS && mod);
    CUdeviceptr out = 0;
    CHECK(cuMemAlloc_v2(&out, 4 * (ROUNDS + 1)) == CUDA_SUCCESS);
    if (mod && out) {
        test_attributes();
        test_grid_sync(mod, out);
        test_flag_wait(mod);
    }
    CHECK(cuCtxDestroy_v2(ctx) == CUDA_SUCCESS);
    /* grid.sync() without a cooperative launch: no workspace, the kernel traps. */
    expect_failure("rounds", 0, 2, CUDA_ERROR_LAUNCH_FAILED);
    /* Block 1 never reaches grid.sync(): a deadlock, reported. */
    expect_failure("skip_sync", 1, 2, CUDA_ERROR_LAUNCH_FAILED);
    expect_failure("skip_sync", 1, 5, CUDA_ERROR_LAUNCH_FAILED);
    /* A flag nobody sets (one block: it is the last block, but takes the
     * waiting branch) is no grid barrier: it spins, and the watchdog ends it. */
    expect_failure("flag_wait", 1, 1, CUDA_ERROR_LAUNCH_TIMEOUT);
    if (failures)
        fprintf(stderr, "test_driver_coop (CUBRIDGE_THREADS=%s): %d failures\n", threads, failures);
    return failures != 0;
}

int main(void)
{
    static const char *const counts[] = {"1", "2"};
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0)
            _exit(run_all(counts[i]));
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "test_driver_coop: CUBRIDGE_THREADS=%s failed\n", counts[i]);
            bad = 1;
        }
    }
    return bad;
}
