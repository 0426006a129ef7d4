// mbarrier_pipeline_sm90: mbarrier_pipeline.cu built with -arch=sm_90 (see
// CMakeLists.txt) and run with CUBRIDGE_SM=90, so that the sm_90 PTX is the
// one translated: libcu++ then waits with mbarrier.try_wait (with and
// without .parity), arrives with a count in one instruction, and tests
// whether the barrier is in the cluster's shared memory (isspacep
// .shared::cluster).
#define MBARRIER_TEST_NAME "mbarrier_pipeline_sm90"
#define MBARRIER_RAW 1
#include "mbarrier_pipeline.cu"
