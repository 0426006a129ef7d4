/* device.c: which OpenCL device the backend opens (opencl_internal.h).
 *
 * CUBRIDGE_OPENCL_DEVICE: unset, the first GPU of any platform, else the
 * first device; "P:D", device D of platform P (the order of
 * clGetPlatformIDs and clGetDeviceIDs); anything else, the first device
 * whose name contains it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl_internal.h"

#define MAXP 16
#define MAXD 64

int ocl_pick_device(const char *spec, cl_platform_id *plat, cl_device_id *dev, char *err, size_t errlen)
{
    cl_platform_id ps[MAXP];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAXP, ps, &np) != CL_SUCCESS || np == 0) {
        snprintf(err, errlen, "no OpenCL platform (is an ICD installed? Debian: pocl-opencl-icd)");
        return -1;
    }
    if (np > MAXP)
        np = MAXP;
    unsigned pi = 0, di = 0;
    int by_index = spec && *spec && sscanf(spec, "%u:%u", &pi, &di) == 2;
    for (int pass = 0; pass < 2; pass++) {   /* the GPUs first, when nothing was asked for */
        for (cl_uint p = 0; p < np; p++) {
            cl_device_id ds[MAXD];
            cl_uint nd = 0;
            if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, MAXD, ds, &nd) != CL_SUCCESS)
                continue;
            if (nd > MAXD)
                nd = MAXD;
            for (cl_uint d = 0; d < nd; d++) {
                char name[256] = "";
                cl_device_type type = 0;
                clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
                clGetDeviceInfo(ds[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
                int take = by_index ? (p == pi && d == di)
                           : (spec && *spec) ? strstr(name, spec) != NULL
                           : pass == 1 || (type & CL_DEVICE_TYPE_GPU);
                if (take) {
                    *plat = ps[p];
                    *dev = ds[d];
                    return 0;
                }
            }
        }
        if (spec && *spec)
            break;
    }
    snprintf(err, errlen, "no OpenCL device matches CUBRIDGE_OPENCL_DEVICE=\"%s\"", spec ? spec : "");
    return -1;
}
