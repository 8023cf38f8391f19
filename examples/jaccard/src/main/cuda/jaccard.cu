// Jaccard kernels for NVIDIA GPUs (JaccardCudaKernels launches them; the cpu kernels in JaccardApp are the
// reference). Built with `mvn -Pcuda package` into kernels/jaccard.ptx on the class path.

// Preprocess: the cached item is the parsed set itself, so copy it into its slot, 8 bytes per thread and step.
extern "C" __global__ void jaccard_copy(const unsigned long long* in, unsigned long long* out, long long count) {
    for (long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x; k < count;
         k += (long long) gridDim.x * blockDim.x) {
        out[k] = in[k];
    }
}

// Compare: one block; each thread looks its share of the left set up in the right set by binary search, the block
// sums the hits, and thread 0 writes |A n B| / |A u B| as a double. Both sets are sorted and distinct in Java's order
// of long, which is signed: the search compares signed values too (unsigned, a set with negative and positive hashes
// is out of order, and about half the common hashes are missed).
extern "C" __global__ void jaccard_compare(const long long* left, long long n,
                                           const long long* right, long long m, double* result) {
    __shared__ long long hits[256];
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
    if (threadIdx.x == 0) {
        result[0] = (double) hits[0] / (double) (n + m - hits[0]);
    }
}
