/* test_ptx_cli: `cubridge ptx` (tools/cubridge/cmd_ptx.c, linked in here):
 * a good file gives the C (to --out or stdout) and status 0; a bad one gives
 * "FILE:LINE: near 'INSTRUCTION': reason" on stderr and status 1; bad usage 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/cubridge/cli.h"

static char *ptx_read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    return buf;
}

static int failures;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static char *get(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t n = 0;
    char *s = ptx_read_all(path, &n);
    if (s) {
        char *z = realloc(s, n + 1);
        if (z)
            z[n] = 0;
        return z;
    }
    return NULL;
}

/* Runs cli_ptx on args with stdout and stderr sent to files of dir. */
static int run(int argc, char **argv)
{
    char o[128], e[128];
    snprintf(o, sizeof o, "%s/stdout", dir);
    snprintf(e, sizeof e, "%s/stderr", dir);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    if (!freopen(o, "w", stdout) || !freopen(e, "w", stderr))
        return -100;
    char *args[8] = {"ptx"};
    for (int i = 0; i < argc && i < 6; i++)
        args[i + 1] = argv[i];
    optind = 0;
    int rc = cli_ptx(argc + 1, args);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    return rc;
}

#define GOOD ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" \
             "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 7;\n\tret;\n}\n"
#define BAD ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" \
            "\t.reg .b32 %r<2>;\n\twgmma.fence.sync.aligned;\n\tret;\n}\n"

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/cb_ptx_cli.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    char good[128], bad[128], outc[128];
    snprintf(good, sizeof good, "%s/good.ptx", dir);
    snprintf(bad, sizeof bad, "%s/bad.ptx", dir);
    snprintf(outc, sizeof outc, "%s/good.c", dir);
    put("good.ptx", GOOD);
    put("bad.ptx", BAD);

    char *a1[] = {good, "--out", outc};
    CHECK(run(3, a1) == 0, "good file with --out");
    char *c = get("good.c"), *so = get("stdout");
    CHECK(c && strstr(c, "void cbk_0(cb_thread *t)") && strstr(c, "cb_module_globals"), "generated C");
    CHECK(so && strstr(so, "1 kernel") && strstr(so, "good.c"), "summary: %s", so ? so : "");
    free(so);

    char *a2[] = {good};
    CHECK(run(1, a2) == 0, "good file to stdout");
    so = get("stdout");
    CHECK(so && c && strcmp(so, c) == 0, "stdout holds the same C");
    free(so);
    free(c);

    char *a3[] = {bad};
    CHECK(run(1, a3) == 1, "bad file exits 1");
    char *se = get("stderr");
    CHECK(se && strstr(se, "bad.ptx:7: near 'wgmma.fence.sync.aligned': ") && strstr(se, "sm_90a"),
          "message: %s", se ? se : "");
    free(se);
    so = get("stdout");
    CHECK(so && so[0] == 0, "no output on failure");
    free(so);

    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.ptx", dir);
    char *a4[] = {missing};
    CHECK(run(1, a4) == 1, "missing file exits 1");
    char *a5[] = {"--out"};
    CHECK(run(1, a5) == CLI_EXIT_USAGE, "usage");
    CHECK(run(0, NULL) == CLI_EXIT_USAGE, "no file");

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (failures)
        fprintf(stderr, "test_ptx_cli: %d failures\n", failures);
    else
        printf("test_ptx_cli: ok\n");
    return failures != 0;
}
