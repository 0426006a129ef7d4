/* dnn_unsupported.c: calls of cuDNN exports cubridge does not implement
 * (cudnnCreateRNNDescriptor) or not in the
 * mode asked for (an operation graph holding the fused SDPA_FWD operation,
 * refused at its Finalize) answer NOT_SUPPORTED -- counted, traced,
 * UNSUPPORTED in the report -- never success. Built twice: against
 * cubridge's libcudnn.so.9 (cuDNN 9's code, 3000) and libcudnn.so.8 (cuDNN
 * 8's, 9) (lib_inspect_test.sh, case "dnn-unsupported"); under NVIDIA's
 * library the calls would succeed, so this is not a tests/lib program for
 * the GPU. */
#include <stdint.h>
#include <stdio.h>

#ifndef WANT_STATUS
#define WANT_STATUS 3000   /* CUDNN_STATUS_NOT_SUPPORTED of cuDNN 9 */
#endif

/* cudnn_graph.h's and cudnn_adv.h's, as plain C prototypes */
int cudnnCreate(void **handle);
int cudnnBackendCreateDescriptor(int descriptorType, void **descriptor);
int cudnnBackendSetAttribute(void *descriptor, int name, int type, int64_t count, const void *elements);
int cudnnBackendFinalize(void *descriptor);
int cudnnCreateRNNDescriptor(void **rnnDesc);

enum {
    OPERATIONGRAPH = 15, OPERATION_SDPA_FWD = 41,     /* cudnnBackendDescriptorType_t */
    ATTR_OPERATIONGRAPH_HANDLE = 800, ATTR_OPERATIONGRAPH_OPS = 801,
    TYPE_HANDLE = 0, TYPE_BACKEND_DESCRIPTOR = 15,
};

static int expect(const char *what, int st, int want)
{
    if (st == want)
        return 0;
    printf("FAIL %s returned %d, expected %d\n", what, st, want);
    return 1;
}

int main(void)
{
    void *h = NULL, *op = NULL, *graph = NULL, *d = NULL;
    if (expect("cudnnCreate", cudnnCreate(&h), 0) ||
        expect("cudnnBackendCreateDescriptor(SDPA_FWD)", cudnnBackendCreateDescriptor(OPERATION_SDPA_FWD, &op), 0) ||
        expect("cudnnBackendFinalize(SDPA_FWD)", cudnnBackendFinalize(op), 0) ||
        expect("cudnnBackendCreateDescriptor(graph)", cudnnBackendCreateDescriptor(OPERATIONGRAPH, &graph), 0) ||
        expect("set handle", cudnnBackendSetAttribute(graph, ATTR_OPERATIONGRAPH_HANDLE, TYPE_HANDLE, 1, &h), 0) ||
        expect("set ops", cudnnBackendSetAttribute(graph, ATTR_OPERATIONGRAPH_OPS, TYPE_BACKEND_DESCRIPTOR, 1, &op), 0) ||
        expect("cudnnBackendFinalize(graph)", cudnnBackendFinalize(graph), WANT_STATUS) ||
        expect("cudnnCreateRNNDescriptor", cudnnCreateRNNDescriptor(&d), WANT_STATUS))
        return 1;
    printf("PASS dnn_unsupported\n");
    return 0;
}
