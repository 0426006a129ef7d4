/* sp8_meta_check.c: checks candidate sparse-metadata layouts of mma.sp with
 * 8-bit types (s8/u8 m16n8k32/k64, e4m3 m16n8k64) against what a GPU
 * computed for the probes sp_s8_k32_s1, sp_u8s8_k64_s0 and sp_e4m3_k64_s0
 * (mma_golden.bin). A developer tool, not a test: it is how the layout of
 * cb_sp_col (src/codegen/c/mma.c, docs/ptx.md) was found.
 *
 * The probes' inputs are recomputed from mma_inputs.h; A's non-zeros are
 * placed by the ISA's sparse fragment table (row g / g+8, columns 8t..8t+7,
 * +32 for registers 2 and 3), B and C by the dense tables (confirmed by the
 * dense probes), and for each candidate every row of D - C is recomputed
 * exactly (integers; the e4m3 probe's values are small integers too) and
 * compared. Build and run from this directory:
 *   cc -O2 -o /tmp/sp8_meta_check sp8_meta_check.c && /tmp/sp8_meta_check
 * With the H200 recording only candidate 0 matches all 16 rows of all three. */
#include <stdio.h>
#include <string.h>

#include "mma_inputs.h"

typedef struct mma_case {
    const char *kernel, *classes;
    char check;
} mma_case;

static const mma_case cases[] = {
#define MMA_CASE(k, c, x) {k, c, x},
#include "mma_cases.h"
#undef MMA_CASE
};
enum { NCASES = sizeof cases / sizeof cases[0], NCAND = 4 };

static const char *const cand_text[NCAND] = {
    "lane 4g + 2sel + (r>=8) + 2(ch/8), bits 4(ch%8)  [T0: row g, T1: row g+8; T2/T3: chunks 8..15]",
    "lane 4g + 2sel + 2(r>=8) + ch/8, bits 4(ch%8)    [T0/T1: row g, T2/T3: row g+8]",
    "lane 4g + 2sel + ch/4, bits 16(r>=8) + 4(ch%4)   [the 16-bit types' layout]",
    "lane 4g + (ch/4)%2 + 2(r>=8), bits 4(ch%4) + 16(ch/8)",
};

/* Where candidate c keeps the metadata nibble of row r, 4-wide chunk ch: lane offset in the group, bit. */
static void cand_where(int c, int r, int ch, int sel, int *lane, int *bit)
{
    int hi = r >= 8;
    switch (c) {
    case 0: *lane = 2 * sel + hi + 2 * (ch >> 3); *bit = 4 * (ch & 7); break;
    case 1: *lane = 2 * sel + 2 * hi + (ch >> 3); *bit = 4 * (ch & 7); break;
    case 2: *lane = 2 * sel + (ch >> 2); *bit = 16 * hi + 4 * (ch & 3); break;
    default: *lane = (ch >> 2 & 1) + 2 * hi; *bit = 4 * (ch & 3) + 16 * (ch >> 3); break;
    }
}

/* The integer value of an 8-bit element: kind 0 s8, 1 u8, 2 e4m3 (of an integer, as class 'e' draws them). */
static long long elem(int kind, uint32_t b)
{
    if (kind == 0)
        return (int8_t)b;
    if (kind == 1)
        return (uint8_t)b;
    if ((b & 0x7f) == 0)
        return 0;
    int sh = (int)(b >> 3 & 15) - 10;
    long long v = 8 + (b & 7), s = b & 128 ? -1 : 1;
    return s * (sh >= 0 ? v << sh : v >> -sh);
}

static uint32_t in[32][MMA_WORDS], out[32][MMA_WORDS];
static long long B[64][8], T[16][8], A[16][16][2];   /* A: row, chunk, which non-zero */

/* Fills B, A (the non-zeros by chunk) and T = D - C from in and out (one case of K, with these kinds). */
static void load_case(int K, int kind_a, int kind_b)
{
    int na = 16 * K / 64, nb = K / 4, wa = na / 4, wb = nb / 4;
    for (int l = 0; l < 32; l++) {
        int g = l >> 2, t = l & 3;
        for (int i = 0; i < nb; i++)
            B[4 * t + i % 4 + 16 * (i / 4)][g] = elem(kind_b, in[l][wa + i / 4] >> (8 * (i % 4)) & 255);
        for (int i = 0; i < na; i++) {
            int q = i >> 2, e = i & 3;
            A[g + 8 * (q & 1)][2 * t + 8 * (q >> 1) + (e >> 1)][e & 1] = elem(kind_a, in[l][i / 4] >> (8 * (i % 4)) & 255);
        }
        for (int i = 0; i < 4; i++) {
            int r = g + 8 * (i >> 1), c = 2 * t + (i & 1);
            uint32_t cw = in[l][wa + wb + i], dw = out[l][i];
            if (kind_a == 2) {
                float cf, df;
                memcpy(&cf, &cw, 4);
                memcpy(&df, &dw, 4);
                T[r][c] = (long long)df - (long long)cf;
            } else {
                T[r][c] = (long long)(int32_t)dw - (long long)(int32_t)cw;
            }
        }
    }
}

/* How many of the 16 rows candidate c reproduces. */
static int cand_rows(int c, int K, int sel)
{
    int rows = 0;
    for (int r = 0; r < 16; r++) {
        long long v[8] = {0};
        for (int ch = 0; ch < K / 4; ch++) {
            int lane, bit;
            cand_where(c, r, ch, sel, &lane, &bit);
            uint32_t nib = in[4 * (r & 7) + (lane & 3)][60] >> bit & 15;
            for (int s = 0; s < 2; s++)
                for (int j = 0; j < 8; j++)
                    v[j] += A[r][ch][s] * B[4 * ch + (nib >> (2 * s) & 3)][j];
        }
        rows += !memcmp(v, T[r], sizeof v);
    }
    return rows;
}

int main(int argc, char **argv)
{
    static unsigned char g[1 << 18];
    FILE *f = fopen(argc > 1 ? argv[1] : "mma_golden.bin", "rb");
    size_t len = f ? fread(g, 1, sizeof g, f) : 0, rec = 64 + 32 * MMA_WORDS * 4;
    if (f)
        fclose(f);
    if (len < 16 || memcmp(g, "CBMMAGLD", 8) != 0) {
        fprintf(stderr, "no mma_golden.bin (pass its path)\n");
        return 1;
    }
    for (int k = 0; k < NCASES; k++) {
        const char *nm = cases[k].kernel;
        if (strncmp(nm, "sp_", 3) || !(strstr(nm, "s8") || strstr(nm, "e4m3")))
            continue;
        if (16 + (size_t)(k + 1) * rec > len || strcmp((const char *)g + 16 + k * rec, nm)) {
            fprintf(stderr, "%s: not where mma_cases.h puts it in the golden file\n", nm);
            return 1;
        }
        memcpy(out, g + 16 + k * rec + 64, sizeof out);
        for (uint32_t l = 0; l < 32; l++)
            for (uint32_t w = 0; w < MMA_WORDS; w++)
                in[l][w] = mma_word((uint32_t)k, l, w, cases[k].classes[w]);
        int K = strstr(nm, "k64") ? 64 : 32, sel = nm[strlen(nm) - 1] - '0';
        int kind_a = strstr(nm, "e4m3") ? 2 : strstr(nm, "u8") ? 1 : 0;
        load_case(K, kind_a, kind_a == 2 ? 2 : 0);
        for (int c = 0; c < NCAND; c++)
            printf("%-16s candidate %d: %2d/16 rows match  %s\n", nm, c, cand_rows(c, K, sel), cand_text[c]);
    }
    return 0;
}
