/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The rate of the time-stamp counter, found on first use.
 *
 * DPDK calibrates at init by sleeping; rtemem's start-up must cost a few
 * milliseconds, so the rate is taken from CPUID leaf 0x15 when the CPU
 * reports its crystal ratio there, else measured against
 * CLOCK_MONOTONIC_RAW over about 10 ms the first time someone asks.
 */

#include <cpuid.h>
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#define TSC_MEASURE_NS (10 * 1000 * 1000) /* measuring interval, ns */

/*
 * The rate is a property of the machine, not of an EAL instance, and
 * rte_get_tsc_hz() may be called before rte_eal_init() and from any
 * thread: a process-wide cache is right here. It is written once with the
 * same value by whichever threads race on the first call. 0: not known.
 */
static uint64_t tsc_hz_cache;

/* @return the rate from CPUID leaf 0x15 (crystal and ratio), or 0. */
static uint64_t
tsc_hz_from_cpuid(void)
{
	unsigned int denom, numer, crystal_hz, edx;

	if (__get_cpuid_max(0, NULL) < 0x15)
		return 0;
	__cpuid_count(0x15, 0, denom, numer, crystal_hz, edx);
	RTE_SET_USED(edx);
	if (denom == 0 || numer == 0 || crystal_hz == 0)
		return 0;
	return (uint64_t)crystal_hz * numer / denom;
}

static uint64_t
clock_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* @return the rate measured against the raw monotonic clock. */
static uint64_t
tsc_hz_measure(void)
{
	struct timespec pause = { 0, TSC_MEASURE_NS };
	uint64_t ns0, ns1, tsc0, tsc1;

	ns0 = clock_raw_ns();
	tsc0 = rte_rdtsc_precise();
	/* A signal may cut the sleep short: both clocks see the same time. */
	nanosleep(&pause, NULL);
	ns1 = clock_raw_ns();
	tsc1 = rte_rdtsc_precise();
	if (ns1 <= ns0)
		return 0;
	return (uint64_t)((unsigned __int128)(tsc1 - tsc0) * NS_PER_S /
			(ns1 - ns0));
}

uint64_t
rte_get_tsc_hz(void)
{
	uint64_t hz = __atomic_load_n(&tsc_hz_cache, __ATOMIC_RELAXED);

	if (likely(hz != 0))
		return hz;
	hz = tsc_hz_from_cpuid();
	if (hz == 0)
		hz = tsc_hz_measure();
	__atomic_store_n(&tsc_hz_cache, hz, __ATOMIC_RELAXED);
	return hz;
}

void
rte_delay_us_block(unsigned int us)
{
	uint64_t start = rte_rdtsc();
	uint64_t ticks = (uint64_t)((unsigned __int128)us * rte_get_tsc_hz() /
			US_PER_S);

	while (rte_rdtsc() - start < ticks)
		rte_pause();
}

void
rte_delay_us_sleep(unsigned int us)
{
	struct timespec req = {
		.tv_sec = us / US_PER_S,
		.tv_nsec = (long)(us % US_PER_S) * 1000,
	};

	while (nanosleep(&req, &req) != 0 && errno == EINTR)
		;
}

void
rte_delay_us(unsigned int us)
{
	rte_delay_us_block(us);
}
