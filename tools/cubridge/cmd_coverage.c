/* cmd_coverage.c: `cubridge coverage [--list] [LIBRARY]`: NVIDIA's exports
 * per library against cubridge's libraries (docs/coverage.md).
 *
 * NVIDIA's side is the list coverage_data.inc that the build generates
 * (scripts/gen_coverage.py reads it from the toolkit's ELF dynamic symbols).
 * cubridge's side is read from the dynamic symbols of our libraries in the
 * lib directory (cli_lib_dir: $CUBRIDGE_LIB_DIR, else next to this program): a
 * strong symbol is implemented, a weak one is a NOT_SUPPORTED stub, a missing
 * one is absent. Mapped = implemented and called by a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect/coverage.h"

typedef struct symset {
    char **names;
    unsigned char *weak;
    size_t n, cap;
} symset;

static void symset_add(const char *name, int weak, void *ctx)
{
    symset *s = ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        char **n = realloc(s->names, cap * sizeof *n);
        unsigned char *w = n ? realloc(s->weak, cap) : NULL;
        if (!n || !w) {
            if (n)
                s->names = n;
            return;
        }
        s->names = n;
        s->weak = w;
        s->cap = cap;
    }
    s->names[s->n] = strdup(name);
    if (s->names[s->n])
        s->weak[s->n++] = (unsigned char)weak;
}

static cbi_cov_status symset_status(const symset *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return s->weak[i] ? CBI_COV_NOT_SUPPORTED : CBI_COV_IMPLEMENTED;
    return CBI_COV_ABSENT;
}

static void symset_free(symset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->weak);
    memset(s, 0, sizeof *s);
}

static const char *const status_names[] = {"absent", "NOT_SUPPORTED", "implemented"};

/* One library: its counts, and with list set every symbol. */
static void coverage_library(const char *lib_dir, const char *library, int list)
{
    symset ours = {0};
    const char *so = cbi_cov_soname(library);
    char path[4400];
    int have = 0;
    if (so) {
        snprintf(path, sizeof path, "%s/%s", lib_dir, so);
        have = cbi_elf_dynamic_symbols(path, symset_add, &ours) == 0;
    }
    size_t total = 0, counts[3] = {0, 0, 0}, tested = 0, mapped = 0;
    for (size_t i = 0; i < cbi_cov_count; i++) {
        const cbi_cov_entry *e = &cbi_cov_entries[i];
        if (strcmp(e->library, library) != 0)
            continue;
        cbi_cov_status st = have ? symset_status(&ours, e->symbol) : CBI_COV_ABSENT;
        total++;
        counts[st]++;
        tested += e->tested_by != NULL;
        mapped += st == CBI_COV_IMPLEMENTED && e->tested_by;
        if (list)
            printf("  %-10s %-48s %-13s %s\n", library, e->symbol, status_names[st],
                   e->tested_by ? e->tested_by : "(no test)");
    }
    printf("%-10s mapped %4zu/%-4zu  implemented %4zu  NOT_SUPPORTED %4zu  absent %4zu  called by a test %4zu  (%s)\n",
           library, mapped, total, counts[CBI_COV_IMPLEMENTED], counts[CBI_COV_NOT_SUPPORTED], counts[CBI_COV_ABSENT],
           tested, have ? so : "no cubridge library");
    symset_free(&ours);
}

int cli_coverage(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("coverage", argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    int list = cli_opt(&a, "list") != NULL;
    if (a.first + 1 < argc)
        return cli_usage_error("coverage", "one library at a time, not also '%s'", argv[a.first + 1]);
    const char *only = a.first < argc ? argv[a.first] : NULL;
    char lib_dir[4096];
    if (cli_lib_dir(lib_dir, sizeof lib_dir) != 0) {
        fprintf(stderr, "cubridge coverage: cannot find cubridge's lib directory; set CUBRIDGE_LIB_DIR\n");
        return 1;
    }
    printf("cubridge coverage: NVIDIA CUDA exports (scripts/gen_coverage.py) against %s\n"
           "mapped = implemented and called by a test (docs/coverage.md)\n", lib_dir);
    int found = 0;
    for (size_t i = 0; i < cbi_cov_count; i++) {
        const char *lib = cbi_cov_entries[i].library;
        if (i > 0 && strcmp(lib, cbi_cov_entries[i - 1].library) == 0)
            continue;
        if (only && strcmp(only, lib) != 0)
            continue;
        found = 1;
        coverage_library(lib_dir, lib, list);
    }
    if (!found) {
        fprintf(stderr, "cubridge coverage: no library '%s' in the list\n", only ? only : "");
        return CLI_EXIT_USAGE;
    }
    return 0;
}
