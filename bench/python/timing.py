"""The timing the side-by-side benchmarks of bench/python share."""

import statistics
import time


def median_seconds(fn, repeats):
    """fn's median wall time over `repeats` calls, after one call that compiles and warms caches."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
