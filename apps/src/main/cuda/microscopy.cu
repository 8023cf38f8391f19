// Particle registration kernels (MicroscopyCudaKernels launches them; GmmKernels holds the cpu reference they must
// match within 1e-6 relative). A particle slot is doubles: [n, cx, cy, rms, x[n], y[n], s2[n]] (ParticleSlot).
// The cost and score kernels run on a 2-D grid: blockIdx.x picks a chunk of model points (one per thread),
// blockIdx.y a chunk of scene points, staged through shared memory in tiles; each block reduces its threads' sums
// in double and writes them to partials[(blockIdx.y * gridDim.x + blockIdx.x) * K + k]; the host adds the
// partials up (a few hundred doubles) in a fixed order.

#define MICROSCOPY_BLOCK 128
#define MICROSCOPY_TILE 128
#define MICROSCOPY_CUTOFF 36.0

// Sums K values of every thread of the block; thread 0 writes them to out[0..K-1]. Uses `shared` (K * BLOCK).
template <int K>
__device__ void microscopy_block_sum(double (&v)[K], double* shared, double* out) {
    for (int k = 0; k < K; k++) {
        shared[k * MICROSCOPY_BLOCK + threadIdx.x] = v[k];
    }
    __syncthreads();
    for (int stride = MICROSCOPY_BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            for (int k = 0; k < K; k++) {
                shared[k * MICROSCOPY_BLOCK + threadIdx.x] += shared[k * MICROSCOPY_BLOCK + threadIdx.x + stride];
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        for (int k = 0; k < K; k++) {
            out[k] = shared[k * MICROSCOPY_BLOCK];
        }
    }
}

// Preprocess: the parsed slot is already the cached form; copy it word by word.
extern "C" __global__ void microscopy_preprocess(const double* in, double* out, long long words) {
    long long stride = (long long) gridDim.x * blockDim.x;
    for (long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x; k < words; k += stride) {
        out[k] = in[k];
    }
}

// GMM-L2 cost terms and gradient sums at (tx, ty, theta): per block, sum e, sum e*dx, sum e*dy and
// sum e*(d . R'x_i), with e = exp(-|R x_i + t - y_j|^2 / s^2) (terms past the cutoff skipped). The host scales by
// 1/(mn) and -2/(s^2 mn).
extern "C" __global__ void microscopy_cost(const double* model, const double* scene, double* partials,
                                           double tx, double ty, double c, double s, double inv_s2) {
    __shared__ double tile_x[MICROSCOPY_TILE];
    __shared__ double tile_y[MICROSCOPY_TILE];
    __shared__ double reduce[4 * MICROSCOPY_BLOCK];
    const int m = (int) model[0];
    const int n = (int) scene[0];
    const double* mx = model + 4;
    const double* my = mx + m;
    const double* sx = scene + 4;
    const double* sy = sx + n;
    int i = blockIdx.x * MICROSCOPY_BLOCK + threadIdx.x;
    bool valid = i < m;
    double px = valid ? mx[i] : 0.0;
    double py = valid ? my[i] : 0.0;
    double qx = c * px - s * py + tx;
    double qy = s * px + c * py + ty;
    double e0 = 0.0, ex = 0.0, ey = 0.0;
    int chunk = (n + gridDim.y - 1) / gridDim.y;
    int begin = blockIdx.y * chunk;
    int end = min(n, begin + chunk);
    for (int base = begin; base < end; base += MICROSCOPY_TILE) {
        int count = min(MICROSCOPY_TILE, end - base);
        __syncthreads();
        if (threadIdx.x < count) {
            tile_x[threadIdx.x] = sx[base + threadIdx.x];
            tile_y[threadIdx.x] = sy[base + threadIdx.x];
        }
        __syncthreads();
        if (valid) {
            for (int j = 0; j < count; j++) {
                double dx = qx - tile_x[j];
                double dy = qy - tile_y[j];
                double a = (dx * dx + dy * dy) * inv_s2;
                if (a < MICROSCOPY_CUTOFF) {
                    double e = exp(-a);
                    e0 += e;
                    ex += e * dx;
                    ey += e * dy;
                }
            }
        }
    }
    double sums[4] = {e0, ex, ey, ex * (-s * px - c * py) + ey * (c * px - s * py)};
    microscopy_block_sum<4>(sums, reduce, partials + (blockIdx.y * gridDim.x + blockIdx.x) * 4);
}

// Bhattacharyya cross term at (tx, ty, theta): per block, sum exp(-|R x_i + t - y_j|^2 / (s2_i + s2_j)).
extern "C" __global__ void microscopy_score(const double* model, const double* scene, double* partials,
                                            double tx, double ty, double c, double s) {
    __shared__ double tile_x[MICROSCOPY_TILE];
    __shared__ double tile_y[MICROSCOPY_TILE];
    __shared__ double tile_s2[MICROSCOPY_TILE];
    __shared__ double reduce[MICROSCOPY_BLOCK];
    const int m = (int) model[0];
    const int n = (int) scene[0];
    const double* mx = model + 4;
    const double* my = mx + m;
    const double* ms2 = my + m;
    const double* sx = scene + 4;
    const double* sy = sx + n;
    const double* ss2 = sy + n;
    int i = blockIdx.x * MICROSCOPY_BLOCK + threadIdx.x;
    bool valid = i < m;
    double px = valid ? mx[i] : 0.0;
    double py = valid ? my[i] : 0.0;
    double pv = valid ? ms2[i] : 1.0;
    double qx = c * px - s * py + tx;
    double qy = s * px + c * py + ty;
    double total = 0.0;
    int chunk = (n + gridDim.y - 1) / gridDim.y;
    int begin = blockIdx.y * chunk;
    int end = min(n, begin + chunk);
    for (int base = begin; base < end; base += MICROSCOPY_TILE) {
        int count = min(MICROSCOPY_TILE, end - base);
        __syncthreads();
        if (threadIdx.x < count) {
            tile_x[threadIdx.x] = sx[base + threadIdx.x];
            tile_y[threadIdx.x] = sy[base + threadIdx.x];
            tile_s2[threadIdx.x] = ss2[base + threadIdx.x];
        }
        __syncthreads();
        if (valid) {
            for (int j = 0; j < count; j++) {
                double dx = qx - tile_x[j];
                double dy = qy - tile_y[j];
                double a = (dx * dx + dy * dy) / (pv + tile_s2[j]);
                if (a < MICROSCOPY_CUTOFF) {
                    total += exp(-a);
                }
            }
        }
    }
    double sums[1] = {total};
    microscopy_block_sum<1>(sums, reduce, partials + blockIdx.y * gridDim.x + blockIdx.x);
}

// Writes the pair's result (S, tx, ty, theta) into its result buffer, where the copy thread expects it.
extern "C" __global__ void microscopy_store(double* result, double score, double tx, double ty, double theta) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        result[0] = score;
        result[1] = tx;
        result[2] = ty;
        result[3] = theta;
    }
}
