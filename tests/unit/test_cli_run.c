/* test_cli_run.c: the cubridge command line as a user drives it: `run`
 * passes the exit status through, orders LD_LIBRARY_PATH, exits 127 for a
 * missing program and sets the agreed variables; `cache`, `version`,
 * `help` and unknown commands behave. Runs build/bin/cubridge (found
 * next to this test: ../../bin/cubridge, or $CUBRIDGE_CLI). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
static char cli_path[4096];

#define CHECK(cond)                                                                                                   \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                                  \
            failures++;                                                                                               \
        }                                                                                                             \
    } while (0)

static int find_cli(void)
{
    const char *env = getenv("CUBRIDGE_CLI");
    if (env && env[0]) {
        snprintf(cli_path, sizeof cli_path, "%s", env);
    } else {
        char self[2048];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return -1;
        self[n] = 0;
        char *slash = strrchr(self, '/');
        *slash = 0;
        snprintf(cli_path, sizeof cli_path, "%s/../../bin/cubridge", self);
    }
    return access(cli_path, X_OK);
}

/* What the last run_cli printed on stderr. */
static char err_text[8192];

/* Runs cubridge with args (NULL-terminated) after applying env: entries
 * "NAME=VALUE" set, "NAME" unsets. Captures stdout into out and stderr
 * into err_text. Returns the raw wait status. */
static int run_cli(const char *const *args, const char *const *env, char *out, size_t outlen)
{
    int fds[2];
    FILE *errf = tmpfile();
    if (!errf || pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        for (size_t i = 0; env && env[i]; i++) {
            const char *eq = strchr(env[i], '=');
            if (!eq) {
                unsetenv(env[i]);
                continue;
            }
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
            setenv(name, eq + 1, 1);
        }
        dup2(fds[1], 1);
        dup2(fileno(errf), 2);
        close(fds[0]);
        close(fds[1]);
        char *argv[32];
        size_t n = 0;
        argv[n++] = cli_path;
        for (size_t i = 0; args[i] && n < 31; i++)
            argv[n++] = (char *)args[i];
        argv[n] = NULL;
        execv(cli_path, argv);
        _exit(99);
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t got;
    while ((got = read(fds[0], out + used, outlen - 1 - used)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0)
            used += (size_t)got;
    out[used] = 0;
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    rewind(errf);
    size_t n = fread(err_text, 1, sizeof err_text - 1, errf);
    err_text[n] = 0;
    fclose(errf);
    return status;
}

static int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

static void test_exit_status(void)
{
    char out[4096];
    const char *a7[] = {"run", "--", "sh", "-c", "exit 7", NULL};
    CHECK(exit_code(run_cli(a7, NULL, out, sizeof out)) == 7);
    const char *a0[] = {"run", "true", NULL};
    CHECK(exit_code(run_cli(a0, NULL, out, sizeof out)) == 0);
    /* exec, not a child: a signal reaches the caller as a signal. */
    const char *sig[] = {"run", "--", "sh", "-c", "kill -TERM $$", NULL};
    int st = run_cli(sig, NULL, out, sizeof out);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    /* Arguments reach the program unchanged. */
    const char *args[] = {"run", "--", "sh", "-c", "printf '[%s][%s]' \"$1\" \"$2\"", "x", "a b", "--sm", NULL};
    CHECK(exit_code(run_cli(args, NULL, out, sizeof out)) == 0);
    CHECK(strcmp(out, "[a b][--sm]") == 0);
}

static void test_missing_program(void)
{
    char out[4096];
    const char *a[] = {"run", "--", "/nonexistent/cubridge-test-program", NULL};
    CHECK(exit_code(run_cli(a, NULL, out, sizeof out)) == 127);
    CHECK(strstr(err_text, "cubridge-test-program") != NULL);
    const char *b[] = {"run", "cubridge-no-such-program-in-path", NULL};
    CHECK(exit_code(run_cli(b, NULL, out, sizeof out)) == 127);
    const char *c[] = {"run", NULL};
    CHECK(exit_code(run_cli(c, NULL, out, sizeof out)) == 2);
    const char *d[] = {"run", "--sm", "eighty", "--", "true", NULL};
    CHECK(exit_code(run_cli(d, NULL, out, sizeof out)) == 2);
    const char *e[] = {"run", "--frobnicate", "--", "true", NULL};
    CHECK(exit_code(run_cli(e, NULL, out, sizeof out)) == 2);
}

static void test_library_path(void)
{
    char out[4096];
    const char *show[] = {"run", "--", "sh", "-c", "printf %s \"$LD_LIBRARY_PATH\"", NULL};
    const char *env1[] = {"CUBRIDGE_LIB_DIR=/opt/cb/lib", "CUDA_HOME=/opt/cuda", "LD_LIBRARY_PATH=/old/a:/old/b",
                          NULL};
    CHECK(exit_code(run_cli(show, env1, out, sizeof out)) == 0);
    CHECK(strstr(out, "/opt/cb/lib:/opt/cuda/lib64:/old/a:/old/b") != NULL);
    const char *env2[] = {"CUBRIDGE_LIB_DIR=/opt/cb/lib", "CUDA_HOME", "LD_LIBRARY_PATH", NULL};
    CHECK(exit_code(run_cli(show, env2, out, sizeof out)) == 0);
    CHECK(strstr(out, "/opt/cb/lib:/usr/local/cuda/lib64") != NULL);
    CHECK(out[strlen(out) - 1] == '4'); /* no trailing ':' */
    /* By default: <dir of cubridge>/../lib, i.e. build/lib. */
    const char *env3[] = {"CUBRIDGE_LIB_DIR", "LD_LIBRARY_PATH", NULL};
    CHECK(exit_code(run_cli(show, env3, out, sizeof out)) == 0);
    const char *colon = strchr(out, ':');
    CHECK(colon != NULL);
    char first[4096];
    snprintf(first, sizeof first, "%.*s", (int)(colon ? colon - out : 0), out);
    struct stat a, b;
    char libdir[4200];
    snprintf(libdir, sizeof libdir, "%s", cli_path);
    *strrchr(libdir, '/') = 0;
    strncat(libdir, "/../lib", sizeof libdir - strlen(libdir) - 1);
    /* Same directory (when build/lib exists; else the text must match). */
    if (stat(libdir, &a) == 0 && stat(first, &b) == 0)
        CHECK(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
    else
        CHECK(strcmp(first, libdir) == 0);
}

static void test_variables(void)
{
    char out[4096];
    const char *show[] = {"run",  "--backend", "cpu", "--sm", "75", "--", "sh", "-c",
                          "printf '%s|%s|%s|%s|%s' \"$CUBRIDGE_BACKEND\" \"$CUBRIDGE_SM\" \"$CUBRIDGE_SUMMARY\" "
                          "\"$CUDA_CACHE_DISABLE\" \"$CUPY_COMPILE_WITH_PTX\"",
                          NULL};
    const char *env[] = {"CUBRIDGE_SUMMARY", "CUDA_CACHE_DISABLE", "CUPY_COMPILE_WITH_PTX", "CUBRIDGE_BACKEND=x",
                         NULL};
    CHECK(exit_code(run_cli(show, env, out, sizeof out)) == 0);
    CHECK(strcmp(out, "cpu|75|1|1|1") == 0);
    /* A summary setting the user chose is kept; no --backend keeps theirs. */
    const char *show2[] = {"run", "--", "sh", "-c", "printf '%s|%s' \"$CUBRIDGE_BACKEND\" \"$CUBRIDGE_SUMMARY\"",
                           NULL};
    const char *env2[] = {"CUBRIDGE_SUMMARY=0", "CUBRIDGE_BACKEND=opencl", NULL};
    CHECK(exit_code(run_cli(show2, env2, out, sizeof out)) == 0);
    CHECK(strcmp(out, "opencl|0") == 0);
    const char *env3[] = {"CUBRIDGE_BACKEND", NULL};
    CHECK(exit_code(run_cli(show2, env3, out, sizeof out)) == 0);
    CHECK(strncmp(out, "cpu|", 4) == 0);
    const char *show3[] = {"run", "--", "sh", "-c", "printf %s \"$NUMBA_CUDA_DRIVER\"", NULL};
    const char *env4[] = {"NUMBA_CUDA_DRIVER", "CUBRIDGE_LIB_DIR=/opt/cb/lib", NULL};
    CHECK(exit_code(run_cli(show3, env4, out, sizeof out)) == 0);
    CHECK(strstr(out, "/opt/cb/lib/libcuda.so.1") != NULL);
}

static void write_file(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    for (size_t i = 0; f && i < bytes; i++)
        fputc('x', f);
    if (f)
        fclose(f);
}

static void test_cache(void)
{
    char dir[] = "/tmp/cubridge-cli-test-XXXXXX", env_dir[128], path[256], out[4096];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(env_dir, sizeof env_dir, "CUBRIDGE_CACHE_DIR=%s", dir);
    const char *env[] = {env_dir, NULL};
    const char *show[] = {"cache", "dir", NULL};
    CHECK(exit_code(run_cli(show, env, out, sizeof out)) == 0);
    CHECK(strncmp(out, dir, strlen(dir)) == 0);
    snprintf(path, sizeof path, "%s/ab", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/ab/k1.so", dir);
    write_file(path, 100);
    snprintf(path, sizeof path, "%s/ab/k1.c", dir);
    write_file(path, 50);
    snprintf(path, sizeof path, "%s/k2.so", dir);
    write_file(path, 10);
    const char *stats[] = {"cache", "stats", NULL};
    CHECK(exit_code(run_cli(stats, env, out, sizeof out)) == 0);
    CHECK(strstr(out, "compiled modules  2") && strstr(out, "files             3") && strstr(out, "160 bytes"));
    const char *clear[] = {"cache", "clear", NULL};
    CHECK(exit_code(run_cli(clear, env, out, sizeof out)) == 0);
    CHECK(strstr(out, "removed 3 files") != NULL);
    CHECK(access(dir, F_OK) == 0 && access(path, F_OK) != 0);
    CHECK(exit_code(run_cli(stats, env, out, sizeof out)) == 0 && strstr(out, "files             0"));
    rmdir(dir);
    /* Defaults: XDG_CACHE_HOME, then HOME. */
    const char *xdg[] = {"CUBRIDGE_CACHE_DIR", "XDG_CACHE_HOME=/x/cache", NULL};
    CHECK(exit_code(run_cli(show, xdg, out, sizeof out)) == 0 && strcmp(out, "/x/cache/cubridge\n") == 0);
    const char *home[] = {"CUBRIDGE_CACHE_DIR", "XDG_CACHE_HOME", "HOME=/h", NULL};
    CHECK(exit_code(run_cli(show, home, out, sizeof out)) == 0 && strcmp(out, "/h/.cache/cubridge\n") == 0);
    const char *root[] = {"CUBRIDGE_CACHE_DIR=/", NULL};
    CHECK(exit_code(run_cli(clear, root, out, sizeof out)) == 1);
    const char *bad[] = {"cache", "frob", NULL};
    CHECK(exit_code(run_cli(bad, NULL, out, sizeof out)) == 2);
}

static void test_commands(void)
{
    char out[8192];
    const char *version[] = {"version", NULL};
    CHECK(exit_code(run_cli(version, NULL, out, sizeof out)) == 0 && strncmp(out, "cubridge ", 9) == 0);
    const char *help[] = {"help", NULL};
    CHECK(exit_code(run_cli(help, NULL, out, sizeof out)) == 0 && strstr(out, "usage: cubridge"));
    const char *none[] = {NULL};
    CHECK(exit_code(run_cli(none, NULL, out, sizeof out)) == 2 && strstr(err_text, "usage: cubridge"));
    const char *unknown[] = {"frobnicate", NULL};
    CHECK(exit_code(run_cli(unknown, NULL, out, sizeof out)) == 2 && strstr(err_text, "unknown command"));
    /* `audit` without its preset is a usage error (tests/cli/run_audit_test.sh runs it). */
    const char *audit[] = {"audit", NULL};
    CHECK(exit_code(run_cli(audit, NULL, out, sizeof out)) == 2 && strstr(err_text, "--preset is required"));
    /* `ptx` with no file is a usage error. */
    const char *ptx_usage[] = {"ptx", NULL};
    CHECK(exit_code(run_cli(ptx_usage, NULL, out, sizeof out)) == 2 && strstr(err_text, "usage: cubridge ptx"));
}

/* Every subcommand takes -h/--help: exit 0, its usage and options on
 * stdout. Options take --opt=value as well as --opt value. */
static void test_help(void)
{
    static char out[16384];
    const char *names[] = {"run", "inspect", "audit", "devices", "cache", "coverage", "ptx", "version", "help"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "usage: cubridge %s", names[i]);
        const char *l[] = {names[i], "--help", NULL};
        CHECK(exit_code(run_cli(l, NULL, out, sizeof out)) == 0 && strstr(out, want) && strstr(out, "options:") &&
              strstr(out, "exit status:"));
        const char *s[] = {names[i], "-h", NULL};
        CHECK(exit_code(run_cli(s, NULL, out, sizeof out)) == 0 && strstr(out, want));
        const char *h[] = {"help", names[i], NULL};
        CHECK(exit_code(run_cli(h, NULL, out, sizeof out)) == 0 && strstr(out, want));
    }
    /* --help documents the options */
    const char *ins[] = {"inspect", "--help", NULL};
    CHECK(exit_code(run_cli(ins, NULL, out, sizeof out)) == 0 && strstr(out, "--error-exitcode=N") &&
          strstr(out, "--verify") && strstr(out, "--strict") && strstr(out, "--report=DIR") && strstr(out, "--junit=FILE"));
    /* the top-level help lists every command */
    const char *top[] = {"--help", NULL};
    CHECK(exit_code(run_cli(top, NULL, out, sizeof out)) == 0 && strstr(out, "inspect") && strstr(out, "audit"));
    const char *aud[] = {"audit", "--help", NULL};
    CHECK(exit_code(run_cli(aud, NULL, out, sizeof out)) == 0 && strstr(out, "--preset=NAME") &&
          strstr(out, "--precision=TYPE") && strstr(out, "--warp-size=N") && strstr(out, "--report=DIR"));
    /* --opt=value */
    const char *eq[] = {"run", "--sm=75", "--backend=cpu", "--", "sh", "-c", "printf '%s|%s' \"$CUBRIDGE_SM\" \"$CUBRIDGE_BACKEND\"", NULL};
    CHECK(exit_code(run_cli(eq, NULL, out, sizeof out)) == 0 && strcmp(out, "75|cpu") == 0);
    /* a program's own options are its own */
    const char *own[] = {"run", "sh", "-c", "printf ok", "--help", NULL};
    CHECK(exit_code(run_cli(own, NULL, out, sizeof out)) == 0 && strcmp(out, "ok") == 0);
    /* errors: stderr, exit 2 */
    const char *missing[] = {"inspect", "--report", NULL};
    CHECK(exit_code(run_cli(missing, NULL, out, sizeof out)) == 2 && strstr(err_text, "needs an argument") && !out[0]);
    const char *code[] = {"inspect", "--error-exitcode=many", "--", "true", NULL};
    CHECK(exit_code(run_cli(code, NULL, out, sizeof out)) == 2 && strstr(err_text, "--error-exitcode"));
    const char *ptx2[] = {"ptx", "-o", NULL};
    CHECK(exit_code(run_cli(ptx2, NULL, out, sizeof out)) == 2 && strstr(err_text, "needs an argument"));
    const char *cov[] = {"coverage", "--frob", NULL};
    CHECK(exit_code(run_cli(cov, NULL, out, sizeof out)) == 2 && strstr(err_text, "unknown option '--frob'"));
    /* --backend bogus: one error line, nothing else (no summary line) */
    const char *bogus[] = {"run", "--backend", "bogus", "--", "true", NULL};
    CHECK(exit_code(run_cli(bogus, NULL, out, sizeof out)) == 2 && strstr(err_text, "unknown backend 'bogus'") &&
          !strstr(err_text, "cubridge: backend"));
    const char *dbogus[] = {"devices", "--backend=bogus", NULL};
    CHECK(exit_code(run_cli(dbogus, NULL, out, sizeof out)) == 2 && !out[0]);
    /* the cuda backend without NVIDIA's driver does not list the CPU */
    const char *dev[] = {"devices", NULL};
    const char *cuda_env[] = {"CUBRIDGE_BACKEND=cuda", "CUBRIDGE_REAL_LIBCUDA=/nonexistent/libcuda.so.1", NULL};
    CHECK(exit_code(run_cli(dev, cuda_env, out, sizeof out)) == 1 && !strstr(out, "[cubridge]") &&
          strstr(err_text, "no usable NVIDIA libcuda.so.1"));
    const char *cpu_env[] = {"CUBRIDGE_BACKEND=cpu", NULL};
    CHECK(exit_code(run_cli(dev, cpu_env, out, sizeof out)) == 0 && strstr(out, "[cubridge]") && strstr(out, "backend             cpu"));
}

int main(void)
{
    if (find_cli() != 0) {
        fprintf(stderr, "test_cli_run: cannot run %s (build the cubridge target)\n", cli_path);
        return 1;
    }
    test_exit_status();
    test_missing_program();
    test_library_path();
    test_variables();
    test_cache();
    test_commands();
    test_help();
    if (failures)
        fprintf(stderr, "test_cli_run: %d failures\n", failures);
    else
        printf("test_cli_run: ok\n");
    return failures != 0;
}
