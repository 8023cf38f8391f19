// Kernels the runtime itself needs on every GPU. Compiled by scripts/build-kernels into kernels/rocket.fatbin and
// kernels/rocket.ptx; loaded into each GPU's context when the cuda device opens.

// Nanoseconds of the GPU's global timer: wall time, independent of the SM clock (which boosts and throttles), so
// a modelled cost means the same on every GPU. Recent GPUs update it about every microsecond.
__device__ __forceinline__ unsigned long long rocket_global_nanos() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// KernelContext.occupy(nanos) on the cuda device: one thread spins, so the kernel stream is busy for `nanos` and
// nothing else is computed. Used by workloads that model a kernel's cost.
extern "C" __global__ void rocket_occupy(long long nanos) {
    if (blockIdx.x != 0 || threadIdx.x != 0 || nanos <= 0) {
        return;
    }
    unsigned long long start = rocket_global_nanos();
    while ((long long) (rocket_global_nanos() - start) < nanos) {
    }
}
