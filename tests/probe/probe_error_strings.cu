// probe_error_strings.cu: the driver's cuGetErrorName/cuGetErrorString
// (reached through cudart's driver entry points) against cudart's own
// texts for the same numbers. Prints each mismatch; exits non-zero if any.
// Also prints the table (value, name, text) with -v.
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

typedef CUresult (*get_text_fn)(CUresult, const char **);

int main(int argc, char **argv)
{
    bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    get_text_fn get_name = nullptr, get_string = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuGetErrorName", (void **)&get_name, 6000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        cudaGetDriverEntryPointByVersion("cuGetErrorString", (void **)&get_string, 6000, cudaEnableDefault, &q) !=
            cudaSuccess) {
        printf("FAIL cannot reach cuGetErrorName/cuGetErrorString\n");
        return 1;
    }
    int checked = 0, mismatches = 0;
    for (int code = 0; code < 1000; code++) {
        const char *name = nullptr, *text = nullptr;
        if (get_name((CUresult)code, &name) != CUDA_SUCCESS)
            continue;
        get_string((CUresult)code, &text);
        const char *rt = cudaGetErrorString((cudaError_t)code);
        checked++;
        if (verbose)
            printf("%d\t%s\t%s\n", code, name, text);
        if (strcmp(rt, "unrecognized error code") != 0 && strcmp(rt, text) != 0) {
            printf("MISMATCH %d %s: driver \"%s\", cudart \"%s\"\n", code, name, text, rt);
            mismatches++;
        }
    }
    printf("%s: %d codes checked, %d mismatches\n", mismatches ? "FAIL" : "PASS", checked, mismatches);
    return mismatches != 0 || checked < 100;
}
