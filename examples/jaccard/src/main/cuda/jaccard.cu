// Jaccard kernels for NVIDIA GPUs (JaccardCudaKernels launches them; the cpu kernels in JaccardApp are the
// reference). Built with `mvn -Pcuda package` into kernels/jaccard.ptx on the class path.

// Preprocess: the cached item is the parsed set itself, so copy it into its slot, 8 bytes per thread and step.
extern "C" __global__ void jaccard_copy(const unsigned long long* in, unsigned long long* out, long long count) {
    for (long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x; k < count;
         k += (long long) gridDim.x * blockDim.x) {
        out[k] = in[k];
    }
}

// |A n B| over one block: each thread looks its share of the left set up in the right set by binary search and the
// block sums the hits (thread 0 gets the total). Both sets are sorted and distinct in Java's order of long, which is
// signed: the search compares signed values too (unsigned, a set with negative and positive hashes is out of order,
// and about half the common hashes are missed).
__device__ long long jaccard_common(const long long* left, long long n, const long long* right, long long m,
                                    long long* hits) {
    long long mine = 0;
    for (long long i = threadIdx.x; i < n; i += blockDim.x) {
        long long x = left[i];
        long long lo = 0, hi = m;
        while (lo < hi) {
            long long mid = (lo + hi) / 2;
            if (right[mid] < x) lo = mid + 1; else hi = mid;
        }
        mine += lo < m && right[lo] == x;
    }
    hits[threadIdx.x] = mine;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) hits[threadIdx.x] += hits[threadIdx.x + half];
        __syncthreads();
    }
    return hits[0];
}

// Compare one pair: one block of 256 threads; thread 0 writes |A n B| / |A u B| as a double.
extern "C" __global__ void jaccard_compare(const long long* left, long long n,
                                           const long long* right, long long m, double* result) {
    __shared__ long long hits[256];
    long long common = jaccard_common(left, n, right, m, hits);
    if (threadIdx.x == 0) {
        result[0] = (double) common / (double) (n + m - common);
    }
}

// Compare a tile: one block of 256 threads per pair, all pairs in one launch. items[t] is tile item t's set and
// counts[t] its length; pair p compares items pairs[2p] and pairs[2p + 1] and writes its similarity to
// results[p * stride] (stride in doubles).
extern "C" __global__ void jaccard_tile(const long long* const* items, const int* counts, const int* pairs,
                                        double* results, int stride) {
    __shared__ long long hits[256];
    int p = blockIdx.x;
    int a = pairs[2 * p];
    int b = pairs[2 * p + 1];
    long long n = counts[a];
    long long m = counts[b];
    long long common = jaccard_common(items[a], n, items[b], m, hits);
    if (threadIdx.x == 0) {
        results[(long long) p * stride] = (double) common / (double) (n + m - common);
    }
}
