/* test_fatbin_util.h: small helpers shared by tests/unit/test_fatbin_*.c. */
#ifndef CB_FATBIN_TEST_UTIL_H
#define CB_FATBIN_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;

#define CHECK(cond)                                                                                                   \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                                  \
            test_failures++;                                                                                          \
        }                                                                                                             \
    } while (0)

/* Reads tests/data/fatbin/<name> into an exactly sized malloc'd buffer
 * (so that ASan sees any read past it). Exits on failure. */
static unsigned char *load_data(const char *name, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fatbin/%s", CB_TEST_DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

#endif
