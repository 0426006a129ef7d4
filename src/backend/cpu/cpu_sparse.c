/* placeholder */
#include "backend/cpu/cpu_lib.h"
void cb_cpu_sparse_fill(cb_backend_lib *lib) { (void)lib; }
