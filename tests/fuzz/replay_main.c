/* replay_main.c: runs a fuzz harness over files, without libFuzzer.
 *
 * Linked with one tests/fuzz/fuzz_*.c by any C compiler, it makes the
 * regression test for what the fuzzers found: each argument is a file or a
 * directory of files (tests/fuzz/crashes/<harness>, tests/fuzz/corpus/
 * <harness>), each file is one input. A finding aborts, as under libFuzzer;
 * under -DCUBRIDGE_SANITIZE=ON the sanitizers check each input too. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads a whole file; returns NULL if it cannot. *size gets its length. */
static uint8_t *read_input(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

static int replay_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = read_input(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

/* A directory: every regular file in it (not recursive); else the file. */
static int replay_path(const char *path, unsigned *count)
{
    DIR *d = opendir(path);
    if (!d) {
        (*count)++;
        return replay_file(path);
    }
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        snprintf(full, len, "%s/%s", path, e->d_name);
        (*count)++;
        bad |= replay_file(full);
        free(full);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= replay_path(argv[i], &count);
    printf("replay: %u inputs, no finding\n", count);
    return bad;
}
