/* dnn_unsupported.c: calls of cuDNN exports cubridge does not implement
 * (cudnnCreateRNNDescriptor) or not in the mode asked for
 * (cudnnBackendCreateDescriptor of a resample operation, a descriptor type
 * the graph API of cubridge lacks) answer NOT_SUPPORTED -- counted, traced, UNSUPPORTED in the report --
 * never success. Built twice: against cubridge's libcudnn.so.9 (cuDNN 9's
 * code, 3000) and libcudnn.so.8 (cuDNN 8's, 9) (lib_inspect_test.sh, case
 * "dnn-unsupported"); under NVIDIA's library the calls would succeed, so
 * this is not a tests/lib program for the GPU. */
#include <stdio.h>

#ifndef WANT_STATUS
#define WANT_STATUS 3000   /* CUDNN_STATUS_NOT_SUPPORTED of cuDNN 9 */
#endif

/* cudnn_graph.h's and cudnn_adv.h's, as plain C prototypes */
int cudnnBackendCreateDescriptor(int descriptorType, void **descriptor);
int cudnnCreateRNNDescriptor(void **rnnDesc);

int main(void)
{
    void *d = NULL;
    int st = cudnnBackendCreateDescriptor(25, &d);   /* CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR */
    if (st != WANT_STATUS) {
        printf("FAIL cudnnBackendCreateDescriptor returned %d, expected %d\n", st, WANT_STATUS);
        return 1;
    }
    st = cudnnCreateRNNDescriptor(&d);
    if (st != WANT_STATUS) {
        printf("FAIL cudnnCreateRNNDescriptor returned %d, expected %d\n", st, WANT_STATUS);
        return 1;
    }
    printf("PASS dnn_unsupported\n");
    return 0;
}
