/* Fibers: 1000 fibers ping-pong with the main context in rounds, a fiber
 * switching directly to another, stacks reused across generations, and
 * floating-point and callee-saved state surviving switches. */
#include "platform/fiber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFIBERS 1000
#define ROUNDS 20

static cb_fiber main_fiber;
static cb_fiber fibers[NFIBERS];
static cb_fiber_stack stacks[NFIBERS];
static int counters[NFIBERS];
static int finished;

/* Each round: bump the counter, check a local survived, go back to main. */
static void ping(void *arg)
{
    int id = (int)(long)arg;
    volatile double acc = id * 0.5;
    for (int r = 0; r < ROUNDS; r++) {
        if (counters[id] != r) {
            fprintf(stderr, "FAIL fiber %d round %d saw counter %d\n", id, r, counters[id]);
            exit(1);
        }
        counters[id]++;
        acc += 1.0;
        cb_fiber_switch(&fibers[id], &main_fiber);
    }
    if (acc != id * 0.5 + ROUNDS) {
        fprintf(stderr, "FAIL fiber %d lost its double: %f\n", id, (double)acc);
        exit(1);
    }
    finished++;
    cb_fiber_switch_final(&fibers[id], &main_fiber);
}

static int ping_pong(void)
{
    memset(counters, 0, sizeof counters);
    finished = 0;
    for (int i = 0; i < NFIBERS; i++)
        cb_fiber_init(&fibers[i], &stacks[i], ping, (void *)(long)i);
    for (int r = 0; r <= ROUNDS; r++)
        for (int i = 0; i < NFIBERS; i++)
            cb_fiber_switch(&main_fiber, &fibers[i]);
    for (int i = 0; i < NFIBERS; i++)
        if (counters[i] != ROUNDS) {
            fprintf(stderr, "FAIL fiber %d counter %d\n", i, counters[i]);
            return 1;
        }
    if (finished != NFIBERS) {
        fprintf(stderr, "FAIL %d fibers finished\n", finished);
        return 1;
    }
    return 0;
}

/* A chain: fiber i switches straight to fiber i+1, the last back to main. */
static int chain_order[NFIBERS];
static int chain_len;

static void link_step(void *arg)
{
    int id = (int)(long)arg;
    chain_order[chain_len++] = id;
    cb_fiber *next = id + 1 < NFIBERS ? &fibers[id + 1] : &main_fiber;
    cb_fiber_switch_final(&fibers[id], next);
}

static int chain(void)
{
    chain_len = 0;
    for (int i = 0; i < NFIBERS; i++)
        cb_fiber_init(&fibers[i], &stacks[i], link_step, (void *)(long)i);
    cb_fiber_switch(&main_fiber, &fibers[0]);
    for (int i = 0; i < NFIBERS; i++)
        if (chain_order[i] != i) {
            fprintf(stderr, "FAIL chain position %d ran fiber %d\n", i, chain_order[i]);
            return 1;
        }
    return chain_len == NFIBERS ? 0 : 1;
}

/* Deep recursion on a fiber: the lazily committed stack holds it. */
static long deep(int n, volatile char *sink)
{
    volatile char pad[512];
    pad[0] = (char)n;
    *sink = pad[0];
    return n == 0 ? 0 : 1 + deep(n - 1, sink);
}

static long depth_result;

static void deep_fiber(void *arg)
{
    volatile char sink;
    depth_result = deep((int)(long)arg, &sink);
    cb_fiber_switch_final(&fibers[0], &main_fiber);
}

int main(void)
{
    cb_fiber_init_main(&main_fiber);
    for (int i = 0; i < NFIBERS; i++)
        if (cb_fiber_stack_alloc(&stacks[i], 64 * 1024) != 0) {
            perror("cb_fiber_stack_alloc");
            return 1;
        }
    /* Two generations on the same stacks. */
    if (ping_pong() || ping_pong() || chain())
        return 1;
    cb_fiber_init(&fibers[0], &stacks[0], deep_fiber, (void *)(long)60);
    cb_fiber_switch(&main_fiber, &fibers[0]);
    if (depth_result != 60) {
        fprintf(stderr, "FAIL recursion depth %ld\n", depth_result);
        return 1;
    }
    for (int i = 0; i < NFIBERS; i++)
        cb_fiber_stack_free(&stacks[i]);
    printf("ok\n");
    return 0;
}
