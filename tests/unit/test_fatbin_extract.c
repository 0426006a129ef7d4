/* test_fatbin_extract.c: cb_fatbin_extract_ptx / _modules on containers
 * built by nvcc 13 (tests/data/fatbin, see regen.sh there). */
#include <stdint.h>

#include "fatbin/fatbin.h"
#include "test_fatbin_util.h"

/* PTX with comments and all whitespace removed: nvcc -ptx and the PTX kept
 * in a fatbin differ only in those. Returns a malloc'd string. */
static char *normalize_ptx(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    while (*s) {
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
        } else if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
            s++;
        } else {
            *o++ = *s++;
        }
    }
    *o = 0;
    return out;
}

/* Extracts from a data file (size known) and returns the PTX, or NULL. */
static char *extract_file(const char *name, uint32_t sm, cb_fatbin_status want, cb_fatbin_summary *sum)
{
    size_t size, len = 0;
    unsigned char *img = load_data(name, &size);
    char *ptx = NULL, err[256] = "";
    cb_fatbin_status st = cb_fatbin_extract_ptx(img, size, sm, &ptx, &len, sum, err, sizeof err);
    if (st != want)
        fprintf(stderr, "%s at sm_%u: status %d, want %d (%s)\n", name, sm, st, want, err);
    CHECK(st == want);
    CHECK(st != CB_FATBIN_OK || (ptx && strlen(ptx) == len));
    CHECK(st == CB_FATBIN_OK || (ptx == NULL && err[0]));
    free(img);
    return ptx;
}

static void test_compression_modes(void)
{
    size_t ref_size;
    unsigned char *ref = load_data("add75.ptx", &ref_size);
    char *ref_text = malloc(ref_size + 1);
    memcpy(ref_text, ref, ref_size);
    ref_text[ref_size] = 0;
    char *ref_norm = normalize_ptx(ref_text);
    const char *files[] = {"add_zstd.fatbin", "add_lz4.fatbin", "add_none.fatbin"};
    const uint32_t modes[] = {2, 1, 0};
    char *first = NULL;
    for (int i = 0; i < 3; i++) {
        cb_fatbin_summary sum;
        char *ptx = extract_file(files[i], 86, CB_FATBIN_OK, &sum);
        if (!ptx)
            continue;
        CHECK(sum.compressed == modes[i]);
        CHECK(sum.chosen_sm == 75);
        CHECK(sum.chosen_ptx_version == 0x90000);
        CHECK(sum.n_fatbins == 1 && sum.n_ptx == 1 && sum.n_elf == 0);
        /* 801 text bytes: the header's 802 counts the NUL; no padding. */
        CHECK(strlen(ptx) == 801);
        CHECK(ptx[strlen(ptx) - 1] == '\n');
        CHECK(strstr(ptx, ".target sm_75") != NULL);
        CHECK(strstr(ptx, ".entry _Z3addPfPKfi") != NULL);
        char *norm = normalize_ptx(ptx);
        CHECK(strcmp(norm, ref_norm) == 0);
        free(norm);
        if (!first)
            first = ptx;
        else {
            CHECK(strcmp(first, ptx) == 0);
            free(ptx);
        }
    }
    free(first);
    free(ref_norm);
    free(ref_text);
    free(ref);
}

static void test_choice(void)
{
    static const struct {
        uint32_t device, want;
    } cases[] = {{75, 75}, {80, 80}, {86, 80}, {89, 80}, {90, 90}, {100, 90}, {120, 90}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cb_fatbin_summary sum;
        char *ptx = extract_file("add_multi.fatbin", cases[i].device, CB_FATBIN_OK, &sum);
        CHECK(sum.chosen_sm == cases[i].want);
        CHECK(sum.n_ptx == 3 && sum.n_elf == 1 && sum.sms_elf[0] == 80 && sum.n_other == 0);
        char target[32];
        snprintf(target, sizeof target, ".target sm_%u\n", cases[i].want);
        CHECK(ptx && strstr(ptx, target) != NULL);
        free(ptx);
    }
    /* Nothing at or below: the lowest PTX above (docs/fatbin.md, "Which PTX") */
    cb_fatbin_summary sum;
    char *low = extract_file("add_multi.fatbin", 70, CB_FATBIN_OK, &sum);
    CHECK(sum.n_ptx == 3 && sum.chosen_sm == 75 && sum.chosen_above == 1);
    CHECK(low && strstr(low, ".target sm_75\n") != NULL);
    free(low);
    low = extract_file("add_multi.fatbin", 90, CB_FATBIN_OK, &sum);
    CHECK(sum.chosen_sm == 90 && sum.chosen_above == 0);
    free(low);
    /* PTX only for a newer architecture (nvcc -gencode arch=compute_120,code=compute_120) */
    low = extract_file("add_120.fatbin", 86, CB_FATBIN_OK, &sum);
    CHECK(sum.n_ptx == 1 && sum.n_elf == 0 && sum.chosen_sm == 120 && sum.chosen_above == 1);
    CHECK(low && strstr(low, ".target sm_120") != NULL);
    free(low);
}

static void test_sass_only(void)
{
    cb_fatbin_summary sum;
    CHECK(extract_file("add_sass.fatbin", 86, CB_FATBIN_ERR_NO_PTX, &sum) == NULL);
    CHECK(sum.n_fatbins == 1 && sum.n_ptx == 0 && sum.n_elf == 1 && sum.sms_elf[0] == 75);
    CHECK(extract_file("add86.cubin", 86, CB_FATBIN_ERR_NO_PTX, &sum) == NULL);
    CHECK(sum.n_fatbins == 0 && sum.n_ptx == 0 && sum.n_elf == 1 && sum.sms_elf[0] == 86);

    size_t size;
    unsigned char *img = load_data("add_sass.fatbin", &size);
    char err[256] = "", *ptx = NULL;
    size_t len;
    CHECK(cb_fatbin_extract_ptx(img, size, 86, &ptx, &len, NULL, err, sizeof err) == CB_FATBIN_ERR_NO_PTX);
    CHECK(strstr(err, "sm_75") != NULL);
    free(img);
}

static void test_raw_ptx(void)
{
    size_t size;
    unsigned char *raw = load_data("add75.ptx", &size);
    char *text = malloc(size + 1);
    memcpy(text, raw, size);
    text[size] = 0;
    for (int known = 0; known < 2; known++) {
        char *ptx = NULL;
        size_t len = 0;
        cb_fatbin_summary sum;
        CHECK(cb_fatbin_extract_ptx(text, known ? size : 0, 86, &ptx, &len, &sum, NULL, 0) == CB_FATBIN_OK);
        CHECK(ptx && len == size && strcmp(ptx, text) == 0);
        CHECK(sum.n_ptx == 1 && sum.chosen_sm == 75 && sum.chosen_ptx_version == 0x90000 && sum.compressed == 0);
        free(ptx);
    }
    /* Text that is not PTX, and binary junk. */
    char *ptx = NULL;
    size_t len;
    CHECK(cb_fatbin_extract_ptx("hello world", 0, 86, &ptx, &len, NULL, NULL, 0) == CB_FATBIN_ERR_INVALID);
    static const unsigned char junk[] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(cb_fatbin_extract_ptx(junk, sizeof junk, 86, &ptx, &len, NULL, NULL, 0) == CB_FATBIN_ERR_INVALID);
    CHECK(cb_fatbin_extract_ptx(NULL, 0, 86, &ptx, &len, NULL, NULL, 0) == CB_FATBIN_ERR_INVALID);
    CHECK(cb_fatbin_extract_ptx(junk, 3, 86, &ptx, &len, NULL, NULL, 0) == CB_FATBIN_ERR_INVALID);
    free(text);
    free(raw);
}

/* The wrapper cudart hands over: {magic, version, data, prelinked}. */
typedef struct test_wrapper {
    uint32_t magic, version;
    const void *data;
    const void *prelinked;
} test_wrapper;

static void test_wrappers(void)
{
    size_t n_add, n_scale, n_sass;
    unsigned char *add = load_data("add_zstd.fatbin", &n_add);
    unsigned char *scale = load_data("scale_zstd.fatbin", &n_scale);
    unsigned char *sass = load_data("add_sass.fatbin", &n_sass);
    char *ptx = NULL, err[256] = "";
    size_t len;
    cb_fatbin_summary sum;

    test_wrapper v1 = {0x466243B1u, 1, add, NULL};
    CHECK(cb_fatbin_extract_ptx(&v1, 0, 86, &ptx, &len, &sum, err, sizeof err) == CB_FATBIN_OK);
    CHECK(ptx && strstr(ptx, "_Z3addPfPKfi") && sum.n_fatbins == 1);
    free(ptx);
    CHECK(cb_fatbin_extract_ptx(&v1, sizeof v1, 86, &ptx, &len, &sum, err, sizeof err) == CB_FATBIN_OK);
    free(ptx);
    CHECK(cb_fatbin_extract_ptx(&v1, sizeof v1 - 1, 86, &ptx, &len, &sum, err, sizeof err) ==
          CB_FATBIN_ERR_INVALID);

    /* Version 2, as an `nvcc -rdc=true` program registers it: a SASS-only linked
     * fatbin plus one prelinked fatbin per translation unit. */
    const void *prelinked[] = {add, scale, NULL};
    test_wrapper v2 = {0x466243B1u, 2, sass, prelinked};
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    CHECK(cb_fatbin_extract_modules(&v2, 0, 86, &mods, &n, &sum, err, sizeof err) == CB_FATBIN_OK);
    CHECK(n == 2 && sum.n_fatbins == 3 && sum.n_ptx == 2 && sum.n_elf == 1 && sum.chosen_sm == 75);
    if (n == 2) {
        CHECK(strstr(mods[0].ptx, "_Z3addPfPKfi") && !strstr(mods[0].ptx, "scale"));
        CHECK(strstr(mods[1].ptx, "_Z5scalePffi") != NULL);
        CHECK(mods[0].fatbin_index == 1 && mods[1].fatbin_index == 2);
        CHECK(strlen(mods[1].ptx) == mods[1].len);
    }
    cb_fatbin_modules_free(mods, n);
    CHECK(cb_fatbin_extract_ptx(&v2, 0, 86, &ptx, &len, &sum, err, sizeof err) == CB_FATBIN_OK);
    CHECK(ptx && strstr(ptx, "_Z3addPfPKfi"));
    free(ptx);
    /* Only the SASS fatbin: no PTX at all. */
    const void *none[] = {NULL};
    test_wrapper v2_sass = {0x466243B1u, 2, sass, none};
    CHECK(cb_fatbin_extract_modules(&v2_sass, 0, 86, &mods, &n, &sum, err, sizeof err) == CB_FATBIN_ERR_NO_PTX);
    CHECK(mods == NULL && n == 0);
    /* Bad versions and NULL data. */
    test_wrapper bad = {0x466243B1u, 3, add, NULL};
    CHECK(cb_fatbin_extract_ptx(&bad, 0, 86, &ptx, &len, NULL, err, sizeof err) == CB_FATBIN_ERR_INVALID);
    bad.version = 1;
    bad.data = NULL;
    CHECK(cb_fatbin_extract_ptx(&bad, 0, 86, &ptx, &len, NULL, err, sizeof err) == CB_FATBIN_ERR_INVALID);
    free(add);
    free(scale);
    free(sass);
}

/* The .nv_fatbin section of a real two-file program, size known: the
 * fatbins are laid one after another and all of them are read. */
static void test_section(void)
{
    size_t size;
    unsigned char *img = load_data("prog.nv_fatbin", &size);
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    cb_fatbin_summary sum;
    char err[256] = "";
    CHECK(cb_fatbin_extract_modules(img, size, 86, &mods, &n, &sum, err, sizeof err) == CB_FATBIN_OK);
    CHECK(sum.n_fatbins == 4 && sum.n_ptx == 3 && sum.n_elf == 4);
    int saw_add = 0, saw_scale = 0;
    for (size_t i = 0; i < n; i++) {
        saw_add += strstr(mods[i].ptx, ".entry _Z3addPfPKfi") != NULL;
        saw_scale += strstr(mods[i].ptx, ".entry _Z5scalePffi") != NULL;
    }
    CHECK(n == 3 && saw_add == 1 && saw_scale == 1);
    cb_fatbin_modules_free(mods, n);
    /* Size unknown: only the first fatbin (the SASS-only linked one). */
    char *ptx = NULL;
    size_t len;
    CHECK(cb_fatbin_extract_ptx(img, 0, 86, &ptx, &len, &sum, err, sizeof err) == CB_FATBIN_ERR_NO_PTX);
    CHECK(sum.n_fatbins == 1);
    free(img);
}

static void test_container(void)
{
    const char *texts[] = {".version 9.0\n.target sm_86\n.address_size 64\n// one\n",
                           ".version 8.5\n.target sm_80\n.address_size 64\n// second, longer text\n"};
    void *c = NULL;
    size_t size = 0;
    CHECK(cb_fatbin_make_container(texts, 2, 86, &c, &size) == CB_FATBIN_OK);
    cb_fatbin_module *mods = NULL;
    size_t n = 0;
    cb_fatbin_summary sum;
    CHECK(cb_fatbin_extract_modules(c, size, 86, &mods, &n, &sum, NULL, 0) == CB_FATBIN_OK);
    CHECK(n == 2 && sum.compressed == 0);
    for (size_t i = 0; i < n && i < 2; i++) {
        CHECK(strcmp(mods[i].ptx, texts[i]) == 0 && mods[i].sm == 86);
    }
    CHECK(n == 2 && mods[1].ptx_version == 0x80005);
    cb_fatbin_modules_free(mods, n);
    /* With the size unknown the first fatbin is read. */
    char *ptx = NULL;
    size_t len;
    CHECK(cb_fatbin_extract_ptx(c, 0, 86, &ptx, &len, NULL, NULL, 0) == CB_FATBIN_OK);
    CHECK(ptx && strcmp(ptx, texts[0]) == 0);
    free(ptx);
    cb_fatbin_summary above;
    CHECK(cb_fatbin_extract_ptx(c, size, 75, &ptx, &len, &above, NULL, 0) == CB_FATBIN_OK);
    CHECK(ptx && strcmp(ptx, texts[0]) == 0 && above.chosen_above == 1 && above.chosen_sm == 86);
    free(ptx);
    free(c);
    const char *empty[] = {""};
    CHECK(cb_fatbin_make_container(empty, 1, 86, &c, &size) == CB_FATBIN_ERR_INVALID);
}

int main(void)
{
    test_compression_modes();
    test_choice();
    test_sass_only();
    test_raw_ptx();
    test_wrappers();
    test_section();
    test_container();
    if (test_failures)
        fprintf(stderr, "test_fatbin_extract: %d failures\n", test_failures);
    else
        printf("test_fatbin_extract: ok\n");
    return test_failures != 0;
}
