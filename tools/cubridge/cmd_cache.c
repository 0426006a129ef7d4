/* cmd_cache.c: `cubridge cache [dir|stats|clear]`: the directory where
 * compiled kernels are kept (CUBRIDGE_CACHE_DIR, else
 * $XDG_CACHE_HOME/cubridge, else ~/.cache/cubridge). `stats` adds what the
 * compile cache reports for each kind of entry (cb_kernel_cache_info: the
 * CPU's shared objects, OpenCL's program binaries): the counters every
 * process added, the cap and how long ago entries were used. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/kernel_cache.h"
#include "cli.h"

/* Writes the cache directory into out. Returns 0, or -1 if no home. */
static int cache_dir(char *out, size_t outlen)
{
    const char *dir = getenv("CUBRIDGE_CACHE_DIR");
    if (dir && dir[0])
        return (size_t)snprintf(out, outlen, "%s", dir) < outlen ? 0 : -1;
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return (size_t)snprintf(out, outlen, "%s/cubridge", xdg) < outlen ? 0 : -1;
    const char *home = cli_os_home_dir();
    if (!home)
        return -1;
    return (size_t)snprintf(out, outlen, "%s/.cache/cubridge", home) < outlen ? 0 : -1;
}

/* "5 s", "3 min", "2 h", "4 d": how long ago t was. */
static void cache_ago(int64_t t, char *out, size_t len)
{
    long long d = (long long)time(NULL) - (long long)t;
    if (d < 0)
        d = 0;
    if (d < 120)
        snprintf(out, len, "%lld s", d);
    else if (d < 7200)
        snprintf(out, len, "%lld min", d / 60);
    else if (d < 172800)
        snprintf(out, len, "%lld h", d / 3600);
    else
        snprintf(out, len, "%lld d", d / 86400);
}

/* The lines of one kind of entry (backend/kernel_cache.h) in dir: the
 * CPU's without a prefix and with the directory's cap, OpenCL's prefixed
 * "opencl" and only when the directory has some or counted some. */
static void cache_report_kind(const char *dir, const cb_kernel_cache_kind *kind, const char *prefix, int first)
{
    cb_kernel_cache_report r;
    if (cb_kernel_cache_info(dir, kind, &r) != 0 || (!first && !r.entries && !r.has_counters))
        return;
    char label[64];
#define LABEL(what) (snprintf(label, sizeof label, "%s%s", prefix, what), label)
    if (first)
        printf("  %-18s%llu\n", LABEL("entries"), (unsigned long long)r.entries);
    else
        printf("  %-18s%llu (.%s files, %llu bytes with their sources)\n", LABEL("entries"),
               (unsigned long long)r.entries, kind->entry_ext, (unsigned long long)r.entry_bytes);
    if (first && r.max_bytes)
        printf("  limit             %llu bytes (%.1f MiB, CUBRIDGE_CACHE_MAX), %.0f%% used\n",
               (unsigned long long)r.max_bytes, (double)r.max_bytes / (1 << 20),
               100.0 * (double)r.bytes / (double)r.max_bytes);
    else if (first)
        printf("  limit             none (CUBRIDGE_CACHE_MAX=0)\n");
    if (r.entries) {
        char newest[32], oldest[32];
        cache_ago(r.newest_use, newest, sizeof newest);
        cache_ago(r.oldest_use, oldest, sizeof oldest);
        printf("  %-18snewest %s ago, oldest %s ago\n", LABEL("last used"), newest, oldest);
    }
    if (r.has_counters) {
        unsigned long long loads = (unsigned long long)(r.hits + r.misses);
        char since[64] = "?";
        time_t t = (time_t)r.since;
        struct tm tm;
        if (r.since > 0 && gmtime_r(&t, &tm))
            strftime(since, sizeof since, "%Y-%m-%d %H:%M UTC", &tm);
        printf("  %-18s%llu (%.1f%% of %llu loads since %s)\n", LABEL("hits"), (unsigned long long)r.hits,
               loads ? 100.0 * (double)r.hits / (double)loads : 0.0, loads, since);
        printf("  %-18s%llu (%s)\n", LABEL("misses"), (unsigned long long)r.misses,
               first ? "compiler runs" : "builds from source");
        printf("  %-18s%llu entries (%llu bytes)\n", LABEL("evicted"), (unsigned long long)r.evicted,
               (unsigned long long)r.evicted_bytes);
        printf("  %-18s%llu (entries found bad%s)\n", LABEL("rebuilt"), (unsigned long long)r.rebuilt,
               first ? "" : " or refused by the driver");
    } else if (first) {
        printf("  hits, misses      not counted yet (no stats file)\n");
    }
#undef LABEL
    if (first && r.refused[0])
        printf("  warning           processes will not use this directory (they fall back to a private "
               "temporary one): %s\n",
               r.refused);
}

/* The lines of every kind's report on dir. */
static void cache_report(const char *dir)
{
    cache_report_kind(dir, &cb_kernel_cache_cpu, "", 1);
    cache_report_kind(dir, &cb_kernel_cache_opencl, "opencl ", 0);
}

static int cache_stats(const char *dir)
{
    cli_tree_stats st;
    if (cli_os_tree_stats(dir, &st) != 0) {
        if (errno == ENOENT) {
            printf("%s: empty (not created yet)\n", dir);
            return 0;
        }
        fprintf(stderr, "cubridge cache: cannot read %s: %s\n", dir, strerror(errno));
        return 1;
    }
    printf("%s\n", dir);
    printf("  compiled modules  %llu (.so files)\n", (unsigned long long)st.shared_objects);
    printf("  files             %llu\n", (unsigned long long)st.files);
    printf("  size              %llu bytes (%.1f MiB)\n", (unsigned long long)st.bytes,
           (double)st.bytes / (1 << 20));
    cache_report(dir);
    return 0;
}

/* Refuses directories that clearly are not a cache of ours. */
static int safe_to_clear(const char *dir)
{
    const char *home = cli_os_home_dir();
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n <= 1)
        return 0;
    if (home && strlen(home) == n && strncmp(home, dir, n) == 0)
        return 0;
    return 1;
}

static int cache_clear(const char *dir)
{
    if (!safe_to_clear(dir)) {
        fprintf(stderr, "cubridge cache: refusing to clear %s\n", dir);
        return 1;
    }
    cli_tree_stats st;
    if (cli_os_tree_stats(dir, &st) != 0) {
        if (errno == ENOENT) {
            printf("%s: nothing to clear\n", dir);
            return 0;
        }
        fprintf(stderr, "cubridge cache: cannot read %s: %s\n", dir, strerror(errno));
        return 1;
    }
    if (cli_os_empty_dir(dir) != 0) {
        fprintf(stderr, "cubridge cache: could not clear all of %s\n", dir);
        return 1;
    }
    printf("%s: removed %llu files (%llu bytes)\n", dir, (unsigned long long)st.files,
           (unsigned long long)st.bytes);
    return 0;
}

int cli_cache(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("cache", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    argc -= a.first;
    argv += a.first;
    const char *what = argc > 0 ? argv[0] : "stats";
    char dir[4096];
    if (argc > 1 || (strcmp(what, "dir") != 0 && strcmp(what, "stats") != 0 && strcmp(what, "clear") != 0))
        return cli_usage_error("cache", "unknown action '%s'", argc > 1 ? argv[1] : what);
    if (cache_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "cubridge cache: no cache directory: set CUBRIDGE_CACHE_DIR or HOME\n");
        return 1;
    }
    if (strcmp(what, "dir") == 0) {
        printf("%s\n", dir);
        return 0;
    }
    return strcmp(what, "stats") == 0 ? cache_stats(dir) : cache_clear(dir);
}
