#!/usr/bin/env python3
"""The memory-limited comparison's peer: a band schedule for all pairs written by hand in Dask.

What an expert Dask user writes when n items do not fit in memory: the pair matrix in bands of B rows kept in
memory while every other item streams past in chunks of C columns, one dask.compute per band on the threaded
scheduler (one worker, T threads sharing the band). Items are synthetic, as Rocket's `synthetic` app makes them:
each load sleeps for its cost (waiting for storage) and fills an array of the item's bytes; a compare costs nothing
(the XOR of two words); every pair is written to a TSV. Prints one line of figures: wall seconds, loads, R and the
peak resident set size.

Usage: dask_band_schedule.py --items 1500 --item-bytes 2097152 --load-ms 5 --band 240 --chunk 8 --threads 2 OUT.tsv
"""
import argparse
import resource
import threading
import time

import dask
import numpy as np
from dask import delayed


class Counter:
    def __init__(self):
        self.n = 0
        self.lock = threading.Lock()

    def add(self):
        with self.lock:
            self.n += 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--items", type=int, required=True)
    p.add_argument("--item-bytes", type=int, default=2 << 20)
    p.add_argument("--load-ms", type=float, default=5.0)
    p.add_argument("--band", type=int, default=240, help="rows kept in memory per band")
    p.add_argument("--chunk", type=int, default=8, help="columns streamed per task")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("out")
    a = p.parse_args()
    n, words = a.items, a.item_bytes // 8
    loads = Counter()
    write_lock = threading.Lock()
    out = open(a.out, "w", buffering=1 << 20)
    out.write("item_a\titem_b\tvalue\n")

    def value(i):
        return (i * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF

    def load(i):
        time.sleep(a.load_ms / 1e3)
        item = np.empty(words, dtype=np.uint64)
        item.fill(value(i))  # every page touched, as a parsed item is
        loads.add()
        return item

    def compare(rows, row_items, cols, col_items):
        lines = []
        for i, x in zip(rows, row_items):
            xi = int(x[0])
            for j, y in zip(cols, col_items):
                if i < j:
                    lines.append("%d\t%d\t%d\n" % (i, j, xi ^ int(y[0])))
        with write_lock:
            out.write("".join(lines))

    start = time.time()
    with dask.config.set(scheduler="threads", num_workers=a.threads):
        for b0 in range(0, n, a.band):
            rows = list(range(b0, min(n, b0 + a.band)))
            row_items = {i: delayed(load)(i, dask_key_name="row-%d" % i) for i in rows}
            tasks = []
            for c0 in range(b0, n, a.chunk):  # the band's own square, then every column to its right
                cols = list(range(c0, min(n, c0 + a.chunk)))
                col_items = [row_items[j] if j in row_items else delayed(load)(j, dask_key_name="col-%d-%d" % (b0, j))
                             for j in cols]
                tasks.append(delayed(compare)(rows, [row_items[i] for i in rows], cols, col_items,
                                              dask_key_name="pairs-%d-%d" % (b0, c0)))
            dask.compute(*tasks)
    wall = time.time() - start
    out.close()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("dask: %d items, wall %.2f s, loads %d, R %.2f, peak RSS %.0f MB" % (n, wall, loads.n, loads.n / n, rss_mb))


if __name__ == "__main__":
    main()
