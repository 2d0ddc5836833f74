/*
 * bench.h - what the benchmark's files share (bench.c, bench_state.c).
 */
#ifndef DSGX_BENCH_H
#define DSGX_BENCH_H

#include <stddef.h>
#include <stdint.h>

/** Median of @p n nanosecond samples (sorted in place; the mean of the two middle ones for an
 *  even count), in microseconds; 0 for none. */
double bench_median_us(uint64_t *v, size_t n);

#endif
