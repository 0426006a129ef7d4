/* test_backend_kernel_cache.c: the compile cache's files layer
 * (src/backend/kernel_cache.c, kernel_cache_stats.c) with two kinds of entry
 * in one directory, as the CPU and OpenCL backends share it: an entry is
 * found only under its own key, source and configuration; a changed byte, a
 * truncation or another entry copied over it is refused; each kind counts
 * its own hits and entries; one cap evicts the least recently used entries
 * of either kind and never the one just stored. (The CPU's use of it, with
 * compiles, is test_cpu_cache; OpenCL's, on PoCL, cli.opencl-cache.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "backend/kernel_cache.h"
#include "platform/sha256.h"

static int failures;

#define CHECK(cond, ...)                                                                                          \
    do {                                                                                                        \
        if (!(cond)) {                                                                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                \
            fprintf(stderr, __VA_ARGS__);                                                                       \
            fputc('\n', stderr);                                                                                \
            failures++;                                                                                         \
        }                                                                                                       \
    } while (0)

static void sha(const char *text, unsigned char out[32])
{
    cb_sha256 s;
    cb_sha256_init(&s);
    cb_sha256_update(&s, text, strlen(text));
    cb_sha256_final(&s, out);
}

/* A made-up entry: its source, configuration, key and bytes. */
typedef struct entry {
    unsigned char src[32], cfg[32];
    char key[65];
    unsigned char bytes[4096];
} entry;

static void make_entry(entry *e, const char *source, const char *config, unsigned char fill)
{
    sha(source, e->src);
    sha(config, e->cfg);
    cb_kernel_cache_key(e->cfg, e->src, e->key);
    memset(e->bytes, fill, sizeof e->bytes);
}

/* 1 when lookup gives back exactly e's bytes. */
static int hit(cb_kernel_cache *c, const entry *e)
{
    unsigned char *b = NULL;
    size_t n = 0;
    int r = cb_kernel_cache_lookup(c, e->key, e->src, e->cfg, &b, &n);
    int ok = r == 1 && n == sizeof e->bytes && memcmp(b, e->bytes, n) == 0;
    free(b);
    return ok;
}

static int lookup(cb_kernel_cache *c, const entry *e)
{
    unsigned char *b = NULL;
    size_t n = 0;
    int r = cb_kernel_cache_lookup(c, e->key, e->src, e->cfg, &b, &n);
    free(b);
    return r;
}

static void path_of(const cb_kernel_cache *c, const entry *e, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.%s", c->dir, e->key, c->kind->entry_ext);
}

static void backdate(const char *path, int seconds)
{
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= seconds;
    tv[1] = tv[0];
    utimes(path, tv);
}

int main(void)
{
    char base[] = "/tmp/cb-kcache-XXXXXX";
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    char dir[256];
    snprintf(dir, sizeof dir, "%s/cache", base);
    setenv("CUBRIDGE_CACHE_DIR", dir, 1);
    setenv("CUBRIDGE_CACHE_MAX", "0", 1);

    cb_kernel_cache cpu, ocl;
    CHECK(cb_kernel_cache_open(&cpu, &cb_kernel_cache_cpu) == 0 && !cpu.is_temp, "open cpu");
    CHECK(cb_kernel_cache_open(&ocl, &cb_kernel_cache_opencl) == 0 && !ocl.is_temp, "open opencl");

    /* store and find; the source is written beside the entry */
    entry a, b;
    make_entry(&a, "kernel a", "device x, options -O", 0xa5);
    make_entry(&b, "kernel b", "device x, options -O", 0x5a);
    CHECK(lookup(&ocl, &a) == 0, "an empty cache has a");
    CHECK(cb_kernel_cache_store(&ocl, a.key, a.src, a.cfg, a.bytes, sizeof a.bytes, "kernel a", 8) == 0, "store a");
    CHECK(hit(&ocl, &a), "a is not found after its store");
    char p[4400], q[4400];
    snprintf(p, sizeof p, "%s/%s.cl", dir, a.key);
    struct stat st;
    CHECK(stat(p, &st) == 0 && st.st_size == 8, "no source beside the entry");
    CHECK(lookup(&cpu, &a) == 0, "the CPU kind finds OpenCL's entry");

    /* another configuration (a driver, other options) is another key: not found */
    entry a2;
    make_entry(&a2, "kernel a", "device x, options -O -cl-opt-disable", 0xa5);
    CHECK(strcmp(a2.key, a.key) != 0 && lookup(&ocl, &a2) == 0, "other options find a's entry");

    /* another entry copied over a's name: refused (its trailer names another source) */
    CHECK(cb_kernel_cache_store(&ocl, b.key, b.src, b.cfg, b.bytes, sizeof b.bytes, NULL, 0) == 0, "store b");
    path_of(&ocl, &a, p, sizeof p);
    path_of(&ocl, &b, q, sizeof q);
    char cmd[18000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.copy' && cp '%s' '%s'", p, p, q, p);
    CHECK(system(cmd) == 0, "copy");
    CHECK(lookup(&ocl, &a) == -1, "b's entry copied over a's is taken");
    CHECK(hit(&ocl, &b), "b is lost");

    /* a changed byte, and a truncation: refused */
    snprintf(cmd, sizeof cmd, "cp '%s.copy' '%s'", p, p);
    CHECK(system(cmd) == 0 && hit(&ocl, &a), "a restored");
    FILE *f = fopen(p, "r+b");
    CHECK(f && fseek(f, 100, SEEK_SET) == 0 && fputc(0, f) != EOF, "damage");
    if (f)
        fclose(f);
    CHECK(lookup(&ocl, &a) == -1, "a changed byte is taken");
    CHECK(truncate(p, 4000) == 0 && lookup(&ocl, &a) == -1, "a truncated entry is taken");
    CHECK(cb_kernel_cache_entry_fault(a.bytes, 10, a.src, a.cfg) != NULL, "ten bytes are an entry");
    CHECK(cb_kernel_cache_store(&ocl, a.key, a.src, a.cfg, a.bytes, sizeof a.bytes, "kernel a", 8) == 0 && hit(&ocl, &a),
          "a stored again");
    remove(strcat(p, ".copy"));

    /* counters per kind */
    cb_kernel_cache_stats_add(&ocl, 3, 2, 0, 0, 1);
    cb_kernel_cache_stats_add(&cpu, 1, 0, 0, 0, 0);
    entry c;
    make_entry(&c, "kernel c (C)", "cc 12, -O2", 0x33);
    CHECK(cb_kernel_cache_store(&cpu, c.key, c.src, c.cfg, c.bytes, sizeof c.bytes, "int x;", 6) == 0, "store c");
    cb_kernel_cache_report ro, rc;
    CHECK(cb_kernel_cache_info(dir, &cb_kernel_cache_opencl, &ro) == 0 && ro.entries == 2 && ro.hits == 3 &&
              ro.misses == 2 && ro.rebuilt == 1 && ro.has_counters,
          "opencl report: %llu entries %llu hits %llu misses", (unsigned long long)ro.entries,
          (unsigned long long)ro.hits, (unsigned long long)ro.misses);
    CHECK(cb_kernel_cache_info(dir, &cb_kernel_cache_cpu, &rc) == 0 && rc.entries == 1 && rc.hits == 1 &&
              rc.misses == 0 && rc.bytes == ro.bytes && rc.bytes >= 3 * sizeof a.bytes,
          "cpu report: %llu entries %llu hits", (unsigned long long)rc.entries, (unsigned long long)rc.hits);

    /* one cap over both kinds: least recently used first, of either kind, never the one just stored */
    path_of(&ocl, &b, p, sizeof p);
    backdate(p, 7200);   /* b (OpenCL) is the oldest, then c (CPU), then a */
    path_of(&cpu, &c, p, sizeof p);
    backdate(p, 3600);
    char cap[32];
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)(rc.bytes - 1));
    setenv("CUBRIDGE_CACHE_MAX", cap, 1);
    cpu.max_bytes = cb_kernel_cache_max_bytes(0);
    cb_kernel_cache_evict(&cpu, c.key);   /* the CPU stored c: b goes, c stays though older than a */
    CHECK(lookup(&ocl, &b) == 0 && hit(&cpu, &c) && hit(&ocl, &a), "evict: b (the oldest) should go, a and c stay");
    snprintf(p, sizeof p, "%s/%s.cl", dir, b.key);
    CHECK(stat(p, &st) != 0, "evict: b's source stays");
    CHECK(cb_kernel_cache_info(dir, &cb_kernel_cache_cpu, &rc) == 0 && rc.evicted == 1, "evictions: %llu",
          (unsigned long long)rc.evicted);

    cb_kernel_cache_close(&cpu);
    cb_kernel_cache_close(&ocl);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
