/* sparse_check.h: placeholder, filled in by the cuSPARSE tests */
