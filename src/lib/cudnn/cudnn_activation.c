/* cudnn_activation.c: activation descriptors (the activations themselves:
 * cudnn_pointwise.c). */
#include "cudnn_internal.h"

#include <stdlib.h>

static cudnnActivationDescriptor_t act_of(cudnnActivationDescriptor_t d)
{
    return d && d->magic == CUDNN_MAGIC_ACTIVATION ? d : NULL;
}

cudnnStatus_t cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateActivationDescriptor", "NULL");
    cudnnActivationDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_ACTIVATION;
    d->mode = CUDNN_ACTIVATION_RELU;
    d->swish_beta = 1.0;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (!act_of(d))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyActivationDescriptor", "not an activation descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetActivationDescriptor(cudnnActivationDescriptor_t d, cudnnActivationMode_t mode,
                                           cudnnNanPropagation_t reluNanOpt, double coef)
{
    const char *fn = "cudnnSetActivationDescriptor";
    if (!act_of(d))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not an activation descriptor");
    if ((unsigned)mode > CUDNN_ACTIVATION_SWISH || (unsigned)reluNanOpt > CUDNN_PROPAGATE_NAN)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "mode %d, NaN option %d", (int)mode, (int)reluNanOpt);
    if (coef != coef || ((mode == CUDNN_ACTIVATION_CLIPPED_RELU || mode == CUDNN_ACTIVATION_ELU) && coef < 0))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "coef %g", coef);
    d->mode = mode;
    d->nan = reluNanOpt;
    d->coef = coef;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetActivationDescriptor(const cudnnActivationDescriptor_t d, cudnnActivationMode_t *mode,
                                           cudnnNanPropagation_t *reluNanOpt, double *coef)
{
    if (!act_of(d) || !mode || !reluNanOpt || !coef)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetActivationDescriptor", "bad descriptor or NULL output");
    *mode = d->mode;
    *reluNanOpt = d->nan;
    *coef = d->coef;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t d, double swish_beta)
{
    if (!act_of(d) || swish_beta != swish_beta)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetActivationDescriptorSwishBeta", "bad descriptor or beta");
    d->swish_beta = swish_beta;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t d, double *swish_beta)
{
    if (!act_of(d) || !swish_beta)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetActivationDescriptorSwishBeta", "bad descriptor or NULL");
    *swish_beta = d->swish_beta;
    return CUDNN_STATUS_SUCCESS;
}
