/* check.c: checked library calls (check.h). */
#include "lib/common/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void free_copies(cbl_checked *c)
{
    for (int i = 0; i < c->nops; i++) {
        free(c->ops[i].before);
        free(c->ops[i].ref);
        free(c->ops[i].result);
        c->ops[i].before = c->ops[i].ref = c->ops[i].result = NULL;
    }
    c->verify = 0;
}

CUresult cbl_check_begin(cbl_checked *c)
{
    const cb_lib_services *s = c->op->sv;
    for (int i = 0; i < c->nops; i++) {
        cbl_operand *o = &c->ops[i];
        if (!o->bytes || !o->addr)
            continue;
        if (!s->mem_valid(o->addr, o->bytes)) {
            cbl_log(CB_LOG_ERROR, "%s: %s: operand %s [0x%llx, +%zu bytes) is not in device memory: the call fails with "
                                  "an illegal address, as on the GPU",
                    c->library, c->function, o->name, (unsigned long long)o->addr, o->bytes);
            return CUDA_ERROR_ILLEGAL_ADDRESS;
        }
    }
    c->verify = 0;
    if (!(s->inspect_flags() & CB_INSPECT_VERIFY))
        return CUDA_SUCCESS;
    for (int i = 0; i < c->nops; i++) {
        cbl_operand *o = &c->ops[i];
        if (!o->bytes)
            continue;
        o->before = malloc(o->bytes);
        o->ref = malloc(o->bytes);
        o->result = o->out ? malloc(o->bytes) : NULL;
        if (!o->before || !o->ref || (o->out && !o->result)) {
            free_copies(c);
            s->check(&(cb_lib_check){.library = c->library, .function = c->function, .note = "snapshots: out of memory"});
            return CUDA_SUCCESS;
        }
        if (o->addr) {
            if (cbl_read(c->op, o->before, o->addr, o->bytes) != CUDA_SUCCESS) {
                free_copies(c);
                return CUDA_ERROR_ILLEGAL_ADDRESS;
            }
        } else {
            memcpy(o->before, o->host, o->bytes);
        }
        memcpy(o->ref, o->before, o->bytes);
    }
    c->verify = 1;
    return CUDA_SUCCESS;
}

void cbl_break_result(void *data, size_t bytes, cb_inspect_elem cmp, unsigned elem_bytes)
{
    if (!bytes)
        return;
    switch (cmp) {
    case CB_ELEM_F32: {
        float v;
        memcpy(&v, data, 4);
        v = v * 1.01f + 1.0f;
        memcpy(data, &v, 4);
        break;
    }
    case CB_ELEM_F64: {
        double v;
        memcpy(&v, data, 8);
        v = v * 1.01 + 1.0;
        memcpy(data, &v, 8);
        break;
    }
    case CB_ELEM_F16:
    case CB_ELEM_BF16: {
        unsigned short v;
        memcpy(&v, data, 2);
        v = (unsigned short)(v + 0x100);   /* many ulps up (or a different exponent) */
        memcpy(data, &v, 2);
        break;
    }
    default: {
        unsigned char *p = data;
        (void)elem_bytes;
        p[0] = (unsigned char)(p[0] + 1);
        break;
    }
    }
}

/* CUBRIDGE_TEST_BREAK_LIB: corrupts the first output where the program
 * sees it (device memory or the host result). */
static void apply_break(cbl_checked *c)
{
    for (int i = 0; i < c->nops; i++) {
        cbl_operand *o = &c->ops[i];
        if (!o->out || !o->bytes)
            continue;
        size_t w = o->cmp == CB_ELEM_F64 ? 8 : o->cmp == CB_ELEM_F32 ? 4 : o->cmp == CB_ELEM_F16 || o->cmp == CB_ELEM_BF16 ? 2 : 1;
        unsigned char first[8];
        if (o->addr) {
            if (cbl_read(c->op, first, o->addr, w) != CUDA_SUCCESS)
                return;
            cbl_break_result(first, w, o->cmp, o->elem_bytes);
            cbl_write(c->op, o->addr, first, w);
        } else {
            cbl_break_result(o->host, w, o->cmp, o->elem_bytes);
        }
        cbl_log(CB_LOG_WARN, "CUBRIDGE_TEST_BREAK_LIB: %s's output %s corrupted on purpose", c->function, o->name);
        return;
    }
}

static size_t cmp_width(const cbl_operand *o)
{
    switch (o->cmp) {
    case CB_ELEM_F64: return 8;
    case CB_ELEM_F32: return 4;
    case CB_ELEM_F16:
    case CB_ELEM_BF16: return 2;
    case CB_ELEM_INT: return o->elem_bytes ? o->elem_bytes : 4;
    default: return o->elem_bytes ? o->elem_bytes : 1;
    }
}

int cbl_check_end(cbl_checked *c, void (*reference)(void *ctx, cbl_operand *ops), void *ctx)
{
    if (cbl_test_break(c->function))
        apply_break(c);
    if (!c->verify)
        return 0;
    const cb_lib_services *s = c->op->sv;
    int nouts = 0;
    for (int i = 0; i < c->nops; i++) {
        cbl_operand *o = &c->ops[i];
        if (!o->out || !o->bytes)
            continue;
        if (o->addr)
            cbl_read(c->op, o->result, o->addr, o->bytes);
        else
            memcpy(o->result, o->host, o->bytes);
        nouts++;
    }
    if (!reference) {
        s->check(&(cb_lib_check){.library = c->library, .function = c->function, .note = "no C reference"});
        free_copies(c);
        return 0;
    }
    reference(ctx, c->ops);
    cb_inspect_output *outs = calloc((size_t)(nouts ? nouts : 1), sizeof *outs);
    if (!outs) {
        free_copies(c);
        return 0;
    }
    int k = 0;
    for (int i = 0; i < c->nops; i++) {
        cbl_operand *o = &c->ops[i];
        if (!o->out || !o->bytes)
            continue;
        outs[k++] = (cb_inspect_output){.name = o->name, .result = o->result, .reference = o->ref,
                                        .count = o->bytes / cmp_width(o), .type = o->cmp, .before = o->before,
                                        .elem_bytes = o->elem_bytes, .tolerance_scale = o->tol_scale};
    }
    int drift = s->check(&(cb_lib_check){.library = c->library, .function = c->function, .outs = outs,
                                          .nouts = (size_t)k, .note = c->note[0] ? c->note : NULL});
    free(outs);
    free_copies(c);
    return drift;
}

void cbl_check_abandon(cbl_checked *c) { free_copies(c); }
