// mbarrier_pipeline_sm75: mbarrier_pipeline.cu built for nvcc's default
// architecture (no -arch), where libcu++'s cuda::barrier, memcpy_async and
// cuda::pipeline use no mbarrier and no cp.async: a barrier of atomics with
// __nanosleep back-off, and plain copies. The PTX-level kernel is left out.
#define MBARRIER_TEST_NAME "mbarrier_pipeline_sm75"
#define MBARRIER_RAW 0
#include "mbarrier_pipeline.cu"
