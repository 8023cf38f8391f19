// Kernels for the cuda backend's own tests: argument marshalling and a data-parallel step.

// Stores each argument at a fixed offset of `out`, so the test can read back exactly what the kernel received.
extern "C" __global__ void rocket_test_args(int i, long long l, float f, double d, unsigned char* out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *(int*) (out + 0) = i;
        *(long long*) (out + 8) = l;
        *(float*) (out + 16) = f;
        *(double*) (out + 24) = d;
    }
}

// out[k] = in[k] + delta for k < n, grid-stride.
extern "C" __global__ void rocket_test_add(const int* in, int* out, int n, int delta) {
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
        out[k] = in[k] + delta;
    }
}
