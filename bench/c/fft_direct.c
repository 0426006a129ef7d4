/* fft_direct: the FFT behind cubridge's libcufft (src/lib/cufft/fft_core.c)
 * called directly, 2^20 complex, forward, in place, single and double: the
 * "direct call of the FFT library used" that bench_fft's facade path is compared
 * with. Prints "RESULT fft_2p20_c2c MS" and "RESULT fft_2p20_z2z MS", best of
 * ROUNDS runs after one warm-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/cufft/fft_core.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static double run(fft_precision prec, int rounds)
{
    size_t n = 1u << 20, es = prec == FFT_DOUBLE ? 16 : 8;
    fft_plan *p = fft_plan_create(n, prec);
    void *d = calloc(n, es), *w = malloc(fft_work_elements(p) * es);
    double best = 1e30;
    for (int r = 0; r <= rounds; r++) {
        double t0 = now_ms();
        fft_execute(p, d, w, -1);
        double t = now_ms() - t0;
        if (r && t < best)
            best = t;
    }
    fft_plan_destroy(p);
    free(d);
    free(w);
    return best;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    printf("RESULT fft_2p20_c2c %.3f\n", run(FFT_SINGLE, rounds));
    printf("RESULT fft_2p20_z2z %.3f\n", run(FFT_DOUBLE, rounds));
    return 0;
}
