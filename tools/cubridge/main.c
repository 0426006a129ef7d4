/* main.c: the cubridge command line (being written). */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "cubridge: not implemented yet\n");
    return 2;
}
