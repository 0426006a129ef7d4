/* coverage_data.c: the generated table of NVIDIA exports (coverage_data.inc,
 * from scripts/gen_coverage.py). Depends on nothing else, so that the CLI can
 * link it alone. */
#include <stddef.h>

#include "inspect/coverage.h"

const cbi_cov_entry cbi_cov_entries[] = {
#define CBI_COV(lib, sym, tested) {lib, sym, tested},
#include "inspect/coverage_data.inc"
#undef CBI_COV
};
const size_t cbi_cov_count = sizeof cbi_cov_entries / sizeof cbi_cov_entries[0];
