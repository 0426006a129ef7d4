/* fuzz_cudnn_backend.c: libFuzzer harness for the cuDNN facade's backend
 * (graph) API descriptors (src/lib/cudnn/cudnn_backend_desc.c and
 * cudnn_backend_graph.c), where an application hands the library attribute
 * names, attribute types, element counts and arrays it chose. Called
 * through the public names (the facade's exports, linked in as objects);
 * no GPU, no backend, no handle.
 *
 * The input is a list of operations on 8 descriptor slots, each one byte
 * (op % OPS) and its arguments: create (a descriptor type from the input,
 * any value), set attribute, get attribute, finalize, initialize, destroy,
 * execute. An attribute name is one of the names the facade knows (or,
 * one time in eight, any 16-bit value), its type any of cuDNN's attribute
 * types (or beyond), the element count a number from the input. Arrays sit
 * in heap buffers of exactly count elements of the type's size, so ASan
 * sees any read or write past what the caller gave. Descriptor-valued
 * elements are the slots' descriptors (or NULL), handles are NULL.
 *
 * Postconditions, else abort():
 *   - every status is one cuDNN 9 defines, with a text;
 *   - Set and Finalize never succeed on a finalized descriptor; Get on a
 *     descriptor that is neither finalized nor a tensor never succeeds;
 *   - a Get that succeeds reports a count >= 0 and writes at most the
 *     requested elements (the bytes after them keep their marker);
 *   - a tensor's dims, once set, read back as set;
 *   - Execute without a handle fails. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudnn.h>

#include "fuzz_input.h"

static int known_status(cudnnStatus_t s)
{
    int v = (int)s;
    return v == 0 || (v >= 1001 && v <= 1008) || (v >= 2000 && v <= 2012) || (v >= 3000 && v <= 3014) ||
           (v >= 4000 && v <= 4006) || (v >= 5000 && v <= 5004);
}

static cudnnStatus_t chk(cudnnStatus_t s)
{
    require(known_status(s));
    const char *text = cudnnGetErrorString(s);
    require(text != NULL && text[0] != 0);
    return s;
}

static int num(rd *r)
{
    uint8_t b = u8(r);
    if (b < 0xF0)
        return (int)b - 4;
    if (b == 0xF1)
        return 1 << 20;
    return (int)(int32_t)raw_bytes(r, 4);
}

/* Bytes of one element of an attribute type (0 for unknown types: 8). */
static size_t elem_size(int type)
{
    switch (type) {
    case CUDNN_TYPE_HANDLE: case CUDNN_TYPE_INT64: case CUDNN_TYPE_DOUBLE: case CUDNN_TYPE_VOID_PTR:
    case CUDNN_TYPE_BACKEND_DESCRIPTOR:
        return 8;
    case CUDNN_TYPE_BOOLEAN: case CUDNN_TYPE_CHAR: return 1;
    case CUDNN_TYPE_FRACTION: return 16;
    default: return 4;
    }
}

static const int names[] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101, 102, 103, 104, 105, 106, 200, 201, 202, 203, 204, 300, 301, 302, 303,
    304, 400, 401, 402, 403, 404, 405, 407, 600, 601, 700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711,
    712, 713, 714, 715, 716, 717, 750, 751, 752, 753, 754, 755, 756, 757, 758, 800, 801, 802, 803, 900, 901, 902,
    903, 904, 905, 906, 907, 908, 909, 1000, 1001, 1002, 1003, 1300, 1301, 1302, 1303, 1305, 1306, 1500, 1520,
    1521, 1522, 1523, 1600, 1601, 1602, 1610, 1611, 1612};

enum { SLOTS = 8, MAX_ELEMS = 64 };

typedef struct state {
    cudnnBackendDescriptor_t slot[SLOTS];
    int type[SLOTS];
    int finalized[SLOTS];
} state;

static int attr_name(rd *r)
{
    uint8_t b = u8(r);
    if (b % 8 == 7)
        return (int)raw_bytes(r, 2);
    return names[b % (sizeof names / sizeof names[0])];
}

/* count elements of type t in exactly count * size bytes (1 byte for none). */
static void *elements(rd *r, state *s, int type, int count)
{
    int k = count <= 0 ? 0 : count > MAX_ELEMS ? MAX_ELEMS : count;
    size_t es = elem_size(type), bytes = (size_t)k * es;
    uint8_t *p = malloc(bytes ? bytes : 1);
    require(p != NULL);
    for (int i = 0; i < k; i++) {
        if (type == CUDNN_TYPE_BACKEND_DESCRIPTOR) {
            uint8_t j = u8(r);
            cudnnBackendDescriptor_t d = j < SLOTS ? s->slot[j % SLOTS] : NULL;
            memcpy(p + i * es, &d, sizeof d);
        } else if (type == CUDNN_TYPE_HANDLE) {
            memset(p + i * es, 0, es);
        } else {
            for (size_t b = 0; b < es; b++)
                p[i * es + b] = u8(r);
        }
    }
    return p;
}

static void op_set(rd *r, state *s)
{
    int i = u8(r) % SLOTS, name = attr_name(r), type = u8(r) % 34, count = num(r);
    if (!s->slot[i])
        return;
    int k = count <= 0 ? 0 : count > MAX_ELEMS ? MAX_ELEMS : count;
    void *v = elements(r, s, type, count);
    cudnnStatus_t st = chk(cudnnBackendSetAttribute(s->slot[i], (cudnnBackendAttributeName_t)name,
                                                    (cudnnBackendAttributeType_t)type, k, u8(r) % 16 ? v : NULL));
    if (s->finalized[i])
        require(st != CUDNN_STATUS_SUCCESS);
    if (st == CUDNN_STATUS_SUCCESS && s->type[i] == CUDNN_BACKEND_TENSOR_DESCRIPTOR &&
        name == CUDNN_ATTR_TENSOR_DIMENSIONS) {
        int64_t back[MAX_ELEMS], n = -1;
        require(chk(cudnnBackendGetAttribute(s->slot[i], (cudnnBackendAttributeName_t)name, CUDNN_TYPE_INT64,
                                             MAX_ELEMS, &n, back)) == CUDNN_STATUS_SUCCESS);
        require(n == k && memcmp(back, v, (size_t)k * 8) == 0);
    }
    free(v);
}

static void op_get(rd *r, state *s)
{
    int i = u8(r) % SLOTS, name = attr_name(r), type = u8(r) % 34, count = num(r);
    if (!s->slot[i])
        return;
    int k = count <= 0 ? 0 : count > MAX_ELEMS ? MAX_ELEMS : count;
    size_t es = elem_size(type), bytes = (size_t)k * es;
    uint8_t *out = malloc(bytes + 16);
    require(out != NULL);
    if (type == CUDNN_TYPE_BACKEND_DESCRIPTOR) {   /* the caller's descriptors to fill */
        for (int j = 0; j < k; j++) {
            uint8_t q = u8(r);
            cudnnBackendDescriptor_t d = q < SLOTS && (int)(q % SLOTS) != i ? s->slot[q % SLOTS] : NULL;
            memcpy(out + (size_t)j * es, &d, sizeof d);
        }
    } else {
        memset(out, 0xa5, bytes);
    }
    memset(out + bytes, 0x5a, 16);
    int64_t n = -7;
    int with_count = u8(r) % 8 != 0;
    cudnnStatus_t st = chk(cudnnBackendGetAttribute(s->slot[i], (cudnnBackendAttributeName_t)name,
                                                    (cudnnBackendAttributeType_t)type, k, with_count ? &n : NULL,
                                                    k ? out : NULL));
    if (!s->finalized[i] && s->type[i] != CUDNN_BACKEND_TENSOR_DESCRIPTOR)
        require(st != CUDNN_STATUS_SUCCESS);
    if (st == CUDNN_STATUS_SUCCESS && with_count)
        require(n >= 0);
    for (int b = 0; b < 16; b++)
        require(out[bytes + b] == 0x5a);
    if (st == CUDNN_STATUS_SUCCESS && type == CUDNN_TYPE_BACKEND_DESCRIPTOR)   /* filled ones are finalized now */
        for (int j = 0; j < k && j < n; j++)
            for (int q = 0; q < SLOTS; q++)
                if (s->slot[q] && memcmp(out + (size_t)j * es, &s->slot[q], 8) == 0)
                    s->finalized[q] = 1;
    free(out);
}

static void destroy(state *s, int i)
{
    if (s->slot[i])
        require(chk(cudnnBackendDestroyDescriptor(s->slot[i])) == CUDNN_STATUS_SUCCESS);
    s->slot[i] = NULL;
    s->finalized[i] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, size};
    state s;
    memset(&s, 0, sizeof s);
    for (int steps = 0; r.left && steps < 256; steps++) {
        int i;
        cudnnStatus_t st;
        switch (u8(&r) % 8) {
        case 0: case 1: {
            i = u8(&r) % SLOTS;
            destroy(&s, i);
            int type = u8(&r) % 48;
            cudnnBackendDescriptor_t d = NULL;
            if (chk(cudnnBackendCreateDescriptor((cudnnBackendDescriptorType_t)type, &d)) == CUDNN_STATUS_SUCCESS) {
                require(d != NULL);
                s.slot[i] = d;
                s.type[i] = type;
            }
            break;
        }
        case 2: case 3: op_set(&r, &s); break;
        case 4: op_get(&r, &s); break;
        case 5:
            i = u8(&r) % SLOTS;
            if (!s.slot[i])
                break;
            st = chk(cudnnBackendFinalize(s.slot[i]));
            if (s.finalized[i])
                require(st != CUDNN_STATUS_SUCCESS);
            if (st == CUDNN_STATUS_SUCCESS)
                s.finalized[i] = 1;
            break;
        case 6:
            i = u8(&r) % SLOTS;
            if (u8(&r) % 2) {
                destroy(&s, i);
            } else if (s.slot[i]) {
                require(chk(cudnnBackendInitialize(s.slot[i])) == CUDNN_STATUS_SUCCESS);
                s.finalized[i] = 0;
            }
            break;
        default:
            require(chk(cudnnBackendExecute(NULL, s.slot[u8(&r) % SLOTS], s.slot[u8(&r) % SLOTS])) !=
                    CUDNN_STATUS_SUCCESS);
            break;
        }
    }
    for (int i = 0; i < SLOTS; i++)
        destroy(&s, i);
    return 0;
}
