/* SHA-256 against the FIPS 180-4 / NIST example vectors, and streaming in
 * odd-sized pieces against one-shot hashing; with the processor's SHA
 * extensions where it has them, then the portable code, and both agree on
 * 64 KiB of varied bytes. */
#include "platform/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect_hex(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL %s:\n  got  %s\n  want %s\n", what, got, want);
        failures++;
    }
}

static void test_vectors(void)
{
    char hex[65];
    cb_sha256_hex_of("", 0, hex);
    expect_hex("empty", hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    cb_sha256_hex_of("abc", 3, hex);
    expect_hex("abc", hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    cb_sha256_hex_of(two, strlen(two), hex);
    expect_hex("448-bit", hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    cb_sha256_hex_of(four, strlen(four), hex);
    expect_hex("896-bit", hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    /* One million 'a', fed in pieces of 997 bytes. */
    char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    cb_sha256 s;
    cb_sha256_init(&s);
    size_t left = 1000000;
    while (left > 0) {
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        cb_sha256_update(&s, chunk, n);
        left -= n;
    }
    unsigned char digest[32];
    cb_sha256_final(&s, digest);
    cb_sha256_hex(digest, hex);
    expect_hex("million a", hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Every split point of messages around the block boundaries. */
static void test_streaming(void)
{
    unsigned char msg[200];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)(i * 7 + 3);
    for (size_t len = 50; len <= sizeof msg; len += 17) {
        char whole[65];
        cb_sha256_hex_of(msg, len, whole);
        for (size_t cut = 0; cut <= len; cut++) {
            cb_sha256 s;
            unsigned char d[32];
            char hex[65];
            cb_sha256_init(&s);
            cb_sha256_update(&s, msg, cut);
            cb_sha256_update(&s, msg + cut, len - cut);
            cb_sha256_final(&s, d);
            cb_sha256_hex(d, hex);
            if (strcmp(hex, whole) != 0) {
                fprintf(stderr, "FAIL streaming len %zu cut %zu\n", len, cut);
                failures++;
                return;
            }
        }
    }
}

/* The default implementation and the portable one agree on every length up
 * to 64 KiB in steps that cross block boundaries. */
static void test_implementations_agree(void)
{
    static unsigned char msg[65536];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof msg; i++) {
        x = x * 1103515245u + 12345u;
        msg[i] = (unsigned char)(x >> 16);
    }
    for (size_t len = 0; len <= sizeof msg; len = len * 3 + 1) {
        char fast[65], slow[65];
        cb_sha256_force_portable(0);
        cb_sha256_hex_of(msg, len, fast);
        cb_sha256_force_portable(1);
        cb_sha256_hex_of(msg, len, slow);
        if (strcmp(fast, slow) != 0) {
            fprintf(stderr, "FAIL implementations differ at length %zu\n", len);
            failures++;
        }
    }
    cb_sha256_force_portable(0);
}

int main(void)
{
    test_vectors();
    test_streaming();
    cb_sha256_force_portable(1);
    test_vectors();
    test_streaming();
    cb_sha256_force_portable(0);
    test_implementations_agree();
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
