/* test_core_fault_report.c: how a fault is put in words (fault_report.c,
 * memtable.c's cb_mem_describe_address, platform/demangle.c): the
 * allocation nearest the address, before / after / inside / freed, and the
 * kernel's name demangled and given once. */
#include <stdio.h>
#include <string.h>

#include "core/launch.h"
#include "core/memory.h"
#include "platform/demangle.h"

static int failures;
#define CHECK(cond, ...)                                                                              \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                  \
            fprintf(stderr, __VA_ARGS__);                                                             \
            fputc('\n', stderr);                                                                      \
            failures++;                                                                               \
        }                                                                                             \
    } while (0)

static void add(uint64_t base, size_t size)
{
    cb_mem_info r;
    memset(&r, 0, sizeof r);
    r.kind = CB_MEM_DEVICE;
    r.base = base;
    r.size = size;
    CHECK(cb_memtable_insert(&r) == 0, "insert 0x%llx", (unsigned long long)base);
}

int main(void)
{
    char buf[300];
    /* demangling */
    CHECK(strcmp(cb_demangle("_Z5saxpyifPKfPf", buf, sizeof buf), "saxpy(int, float, float const*, float*)") == 0, "%s", buf);
    CHECK(strcmp(cb_demangle("vector_add", buf, sizeof buf), "vector_add") == 0, "extern C: %s", buf);
    CHECK(strcmp(cb_demangle("_Zgarbage", buf, sizeof buf), "_Zgarbage") == 0, "bad name: %s", buf);

    uint64_t a = 0x100000, b = 0x200000, c = 0x300000;
    cb_mem_describe_address(0x1234, buf, sizeof buf);
    CHECK(strstr(buf, "no allocation") != NULL, "empty table: %s", buf);
    add(a, 1024);
    add(b, 4096);
    cb_mem_describe_address(a + 1028, buf, sizeof buf);
    CHECK(strstr(buf, "is 4 bytes after the 1024-byte device allocation at 0x100000"), "after: %s", buf);
    cb_mem_describe_address(b - 16, buf, sizeof buf);
    CHECK(strstr(buf, "is 16 bytes before the 4096-byte device allocation at 0x200000"), "before: %s", buf);
    cb_mem_describe_address(b + 4096 + (5ull << 30), buf, sizeof buf);
    CHECK(strstr(buf, "is near no allocation (the nearest, the 4096-byte device allocation at 0x200000, is 5 GiB away)"),
          "far: %s", buf);
    cb_mem_describe_address(b + 8, buf, sizeof buf);
    CHECK(strstr(buf, "is 8 bytes into the 4096-byte device allocation"), "inside: %s", buf);
    add(c, (size_t)2 << 20);
    cb_mem_info gone;
    CHECK(cb_memtable_remove(c, 1u << CB_MEM_DEVICE, &gone) == 0, "remove");
    cb_mem_describe_address(c + 100, buf, sizeof buf);
    CHECK(strstr(buf, "is inside a freed 2097152-byte (2.0 MiB) device allocation at 0x300000, 100 bytes from its start"),
          "freed: %s", buf);

    /* the launch message: kernel named once, demangled, with the address placed */
    cb_launch_error e;
    memset(&e, 0, sizeof e);
    snprintf(e.message, sizeof e.message, "kernel _Z1kPi, block (1,0,0), thread (3,0,0): illegal address 0x%llx (SIGSEGV)",
             (unsigned long long)(a + 1028));
    e.fault_addr = a + 1028;
    cb_launch_explain("_Z1kPi", &e);
    CHECK(strncmp(e.message, "kernel k(int*) failed: block (1,0,0), thread (3,0,0): illegal address 0x", 71) == 0, "%s",
          e.message);
    CHECK(strstr(e.message, "; address 0x100404 is 4 bytes after the 1024-byte device allocation at 0x100000"), "%s",
          e.message);
    char once[sizeof e.message];
    memcpy(once, e.message, sizeof once);
    cb_launch_explain("_Z1kPi", &e);
    CHECK(strcmp(once, e.message) == 0, "explained twice: %s", e.message);
    if (failures)
        fprintf(stderr, "test_core_fault_report: %d failures\n", failures);
    else
        printf("test_core_fault_report: ok\n");
    return failures != 0;
}
