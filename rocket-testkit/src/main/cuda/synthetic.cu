// The synthetic workload's kernels (SyntheticCudaKernels launches them; SyntheticApp's cpu kernels are the
// reference they must match byte for byte). Compiled by scripts/build-kernels into kernels/synthetic.fatbin/.ptx.

// Wall-clock nanoseconds from the GPU's global timer, so a modelled cost does not depend on the SM clock.
__device__ __forceinline__ unsigned long long synthetic_nanos() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Keeps the calling thread busy for `nanos`: the kernel then lasts as long as the configured cost.
__device__ void synthetic_busy(long long nanos) {
    if (nanos <= 0) {
        return;
    }
    unsigned long long start = synthetic_nanos();
    while ((long long) (synthetic_nanos() - start) < nanos) {
    }
}

// Preprocess: copies the parsed item into its cache slot (8 bytes per thread and step, then the tail byte by byte;
// device allocations are 256-byte aligned), then thread 0 spends the modelled preprocess cost.
extern "C" __global__ void synthetic_preprocess(const unsigned char* in, unsigned char* out, long long bytes,
                                                long long nanos) {
    long long first = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long) gridDim.x * blockDim.x;
    long long words = bytes / 8;
    const unsigned long long* in8 = (const unsigned long long*) in;
    unsigned long long* out8 = (unsigned long long*) out;
    for (long long k = first; k < words; k += stride) {
        out8[k] = in8[k];
    }
    for (long long k = words * 8 + first; k < bytes; k += stride) {
        out[k] = in[k];
    }
    if (first == 0) {
        synthetic_busy(nanos);
    }
}

// Compare: the result is v(i) XOR v(j), the first 8 bytes of both slots; then the modelled compare cost.
extern "C" __global__ void synthetic_compare(const unsigned long long* left, const unsigned long long* right,
                                             unsigned long long* result, long long nanos) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        result[0] = left[0] ^ right[0];
        synthetic_busy(nanos);
    }
}
