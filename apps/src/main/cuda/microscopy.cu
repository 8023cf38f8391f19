// Particle registration kernels (MicroscopyCudaKernels launches them; GmmKernels holds the cpu reference they must
// match within 1e-6 relative). A particle slot is doubles (ParticleSlot): [n, cx, cy, rms, kc, kf, x[n], y[n],
// s2[n], then the coarse components x[kc], y[kc], w[kc], then the fine ones x[kf], y[kf], w[kf]].
//
// Registrar steps all starts of a stage together, so one cost launch evaluates every start's pose (the first five
// given as arguments, see MICROSCOPY_INLINE_POSES): the 1-D grid is
// count poses x model_blocks blocks of model points (one per thread) x scene_chunks chunks of scene points, staged
// through shared memory in tiles. Each block reduces its threads' sums in double into partials; the last block to
// finish (a counter, after a fence) adds each pose's block sums in a fixed order and writes count x K doubles to
// out, the only thing the host reads back. The sums are deterministic run to run.

#define MICROSCOPY_BLOCK 128
#define MICROSCOPY_TILE 128
#define MICROSCOPY_CUTOFF 36.0
#define MICROSCOPY_HEADER 6
// A pose is 4 doubles: tx, ty, cos θ, sin θ (cos and sin from the host, as the cpu kernels compute them). A launch
// takes at most 32 arguments and the runtime has no host-to-device copy inside a compare, so the first
// MICROSCOPY_INLINE_POSES poses of a batch travel as arguments of the cost or score launch itself, and any further
// ones are written beforehand into the poses buffer by microscopy_set_poses, MICROSCOPY_POSES_PER_SET a launch.
#define MICROSCOPY_INLINE_POSES 5
#define MICROSCOPY_POSES_PER_SET 7
#define MICROSCOPY_INLINE_PARAMS double i0, double i1, double i2, double i3, double i4, double i5, double i6, \
        double i7, double i8, double i9, double i10, double i11, double i12, double i13, double i14, double i15, \
        double i16, double i17, double i18, double i19
#define MICROSCOPY_INLINE_ARGS i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19
// Eight blocks of 128 threads per multiprocessor (half of its 2048 threads) need at most 64 registers a thread.
#define MICROSCOPY_MIN_BLOCKS 8

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

// Called by every block after it wrote its K partials (blockIdx.x * K ...): the last block of the grid adds each
// pose's per_pose block sums, in block order split over `lanes` threads per value and then the lanes in order, and
// writes out[pose * K + k]; then it re-arms the counter for the next launch. `shared` holds BLOCK doubles.
template <int K>
__device__ void microscopy_finish(const double* partials, unsigned* done, double* out, int count, int per_pose,
                                  double* shared) {
    __shared__ int last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) {
        return;
    }
    // Every block's partials are visible now; read them past the L1 (volatile) all the same.
    const volatile double* p = partials;
    int values = count * K;
    int lanes = MICROSCOPY_BLOCK / values;
    lanes = lanes < 1 ? 1 : lanes;
    int groups = MICROSCOPY_BLOCK / lanes;
    int g = threadIdx.x / lanes;
    int lane = threadIdx.x % lanes;
    for (int first = 0; first < values; first += groups) {
        int v = first + g;
        double sum = 0.0;
        if (g < groups && v < values) {
            int pose = v / K;
            int k = v % K;
            for (int j = lane; j < per_pose; j += lanes) {
                sum += p[((long long) pose * per_pose + j) * K + k];
            }
        }
        shared[threadIdx.x] = sum;
        __syncthreads();
        if (lane == 0 && g < groups && v < values) {
            double total = 0.0;
            for (int l = 0; l < lanes; l++) {
                total += shared[threadIdx.x + l];
            }
            out[v] = total;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        *done = 0;
    }
}

// One of a slot's three point sets: the full localizations (no weights) or the coarse or fine components.
struct MicroscopySet {
    const double* x;
    const double* y;
    const double* w;
    int n;
};

__device__ MicroscopySet microscopy_set(const double* slot, int set) {
    int n = (int) slot[0];
    int kc = (int) slot[4];
    int kf = (int) slot[5];
    const double* full = slot + MICROSCOPY_HEADER;
    MicroscopySet s;
    if (set == 2) {
        s.x = full;
        s.y = full + n;
        s.w = nullptr;
        s.n = n;
    } else if (set == 0) {
        const double* base = full + 3 * n;
        s.x = base;
        s.y = base + kc;
        s.w = base + 2 * kc;
        s.n = kc;
    } else {
        const double* base = full + 3 * n + 3 * kc;
        s.x = base;
        s.y = base + kf;
        s.w = base + 2 * kf;
        s.n = kf;
    }
    return s;
}

// Pose `pose` of a batch into q: one of the launch's inline arguments, or from the poses buffer.
__device__ void microscopy_pose(int pose, const double* poses, double (&q)[4], MICROSCOPY_INLINE_PARAMS) {
    switch (pose) {
        case 0: q[0] = i0; q[1] = i1; q[2] = i2; q[3] = i3; break;
        case 1: q[0] = i4; q[1] = i5; q[2] = i6; q[3] = i7; break;
        case 2: q[0] = i8; q[1] = i9; q[2] = i10; q[3] = i11; break;
        case 3: q[0] = i12; q[1] = i13; q[2] = i14; q[3] = i15; break;
        case 4: q[0] = i16; q[1] = i17; q[2] = i18; q[3] = i19; break;
        default:
            for (int k = 0; k < 4; k++) {
                q[k] = poses[4 * pose + k];
            }
    }
}

// Writes up to MICROSCOPY_POSES_PER_SET poses of a batch, from pose `first` (at least MICROSCOPY_INLINE_POSES) on,
// into the poses buffer, ahead of the cost or score launch that reads them.
extern "C" __global__ void microscopy_set_poses(double* poses, int first, int count,
        double a0, double a1, double a2, double a3, double a4, double a5, double a6, double a7, double a8,
        double a9, double a10, double a11, double a12, double a13, double a14, double a15, double a16, double a17,
        double a18, double a19, double a20, double a21, double a22, double a23, double a24, double a25, double a26,
        double a27) {
    double v[4 * MICROSCOPY_POSES_PER_SET] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14,
            a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27};
    for (int t = threadIdx.x; t < 4 * count; t += blockDim.x) {
        poses[4 * first + t] = v[t];
    }
}

// Preprocess: the parsed slot is already the cached form; copy it word by word.
extern "C" __global__ void microscopy_preprocess(const double* in, double* out, long long words) {
    long long stride = (long long) gridDim.x * blockDim.x;
    for (long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x; k < words; k += stride) {
        out[k] = in[k];
    }
}

// The GMM-L2 sums of one block: model points of block `model_block`, scene points of chunk `chunk` of `chunks`,
// at pose (tx, ty, c, s). Per model point, e = w_j exp(-|R x_i + t - y_j|^2 / s^2) summed over j as e0, e*dx,
// e*dy (terms past the cutoff skipped), then weighted by w_i, with the theta term e*(d . R'x_i). Weighted sets
// (the bins) multiply by the weights; the full set has none (the cpu kernel's unweighted sum).
template <bool Weighted>
__device__ void microscopy_cost_block(MicroscopySet ms, MicroscopySet ss, int model_block, int chunk, int chunks,
                                      double tx, double ty, double c, double s, double inv_s2, double* shared,
                                      double* partial) {
    __shared__ double tile_x[MICROSCOPY_TILE];
    __shared__ double tile_y[MICROSCOPY_TILE];
    __shared__ double tile_w[MICROSCOPY_TILE];
    int i = model_block * MICROSCOPY_BLOCK + threadIdx.x;
    bool valid = i < ms.n;
    double px = valid ? ms.x[i] : 0.0;
    double py = valid ? ms.y[i] : 0.0;
    double pw = Weighted && valid ? ms.w[i] : 1.0;
    double qx = c * px - s * py + tx;
    double qy = s * px + c * py + ty;
    double e0 = 0.0, ex = 0.0, ey = 0.0;
    int size = (ss.n + chunks - 1) / chunks;
    int begin = chunk * size;
    int end = min(ss.n, begin + size);
    for (int base = begin; base < end; base += MICROSCOPY_TILE) {
        int count = min(MICROSCOPY_TILE, end - base);
        __syncthreads();
        if (threadIdx.x < count) {
            tile_x[threadIdx.x] = ss.x[base + threadIdx.x];
            tile_y[threadIdx.x] = ss.y[base + threadIdx.x];
            if (Weighted) {
                tile_w[threadIdx.x] = ss.w[base + threadIdx.x];
            }
        }
        __syncthreads();
        if (valid) {
            for (int j = 0; j < count; j++) {
                double dx = qx - tile_x[j];
                double dy = qy - tile_y[j];
                double a = (dx * dx + dy * dy) * inv_s2;
                if (a < MICROSCOPY_CUTOFF) {
                    double e = Weighted ? tile_w[j] * exp(-a) : exp(-a);
                    e0 += e;
                    ex += e * dx;
                    ey += e * dy;
                }
            }
        }
    }
    double sums[4] = {pw * e0, pw * ex, pw * ey, pw * (ex * (-s * px - c * py) + ey * (c * px - s * py))};
    microscopy_block_sum<4>(sums, shared, partial);
}

// GMM-L2 cost terms and gradient sums of `count` poses on one of the pair's point sets (set: 0 coarse bins,
// 1 fine bins, 2 full): out[4p..4p+3] = sum w e, sum w e dx, sum w e dy, sum w e (d . R'x) of pose p. The host
// scales them by 1/(mn) and -2/(s^2 mn). Grid: count * model_blocks * scene_chunks blocks of MICROSCOPY_BLOCK.
extern "C" __global__ void __launch_bounds__(MICROSCOPY_BLOCK, MICROSCOPY_MIN_BLOCKS)
microscopy_cost(const double* model, const double* scene, int set, const double* poses, int count,
                int model_blocks, int scene_chunks, double inv_s2, double* partials, unsigned* done, double* out,
                MICROSCOPY_INLINE_PARAMS) {
    __shared__ double reduce[4 * MICROSCOPY_BLOCK];
    int per_pose = model_blocks * scene_chunks;
    int pose = blockIdx.x / per_pose;
    int rest = blockIdx.x % per_pose;
    double q[4];
    microscopy_pose(pose, poses, q, MICROSCOPY_INLINE_ARGS);
    MicroscopySet ms = microscopy_set(model, set);
    MicroscopySet ss = microscopy_set(scene, set);
    if (set == 2) {
        microscopy_cost_block<false>(ms, ss, rest / scene_chunks, rest % scene_chunks, scene_chunks, q[0], q[1],
                                     q[2], q[3], inv_s2, reduce, partials + (long long) blockIdx.x * 4);
    } else {
        microscopy_cost_block<true>(ms, ss, rest / scene_chunks, rest % scene_chunks, scene_chunks, q[0], q[1],
                                    q[2], q[3], inv_s2, reduce, partials + (long long) blockIdx.x * 4);
    }
    microscopy_finish<4>(partials, done, out, count, per_pose, reduce);
}

// Bhattacharyya cross term of `count` poses on the full point sets: out[p] = sum exp(-|R x_i + t - y_j|^2 /
// (s2_i + s2_j)) at pose p. Same grid as microscopy_cost.
extern "C" __global__ void __launch_bounds__(MICROSCOPY_BLOCK, MICROSCOPY_MIN_BLOCKS)
microscopy_score(const double* model, const double* scene, const double* poses, int count, int model_blocks,
                 int scene_chunks, double* partials, unsigned* done, double* out, MICROSCOPY_INLINE_PARAMS) {
    __shared__ double tile_x[MICROSCOPY_TILE];
    __shared__ double tile_y[MICROSCOPY_TILE];
    __shared__ double tile_s2[MICROSCOPY_TILE];
    __shared__ double reduce[MICROSCOPY_BLOCK];
    int per_pose = model_blocks * scene_chunks;
    int pose = blockIdx.x / per_pose;
    int rest = blockIdx.x % per_pose;
    int model_block = rest / scene_chunks;
    int chunk = rest % scene_chunks;
    double q[4];
    microscopy_pose(pose, poses, q, MICROSCOPY_INLINE_ARGS);
    double tx = q[0], ty = q[1], c = q[2], s = q[3];
    const int m = (int) model[0];
    const int n = (int) scene[0];
    const double* mx = model + MICROSCOPY_HEADER;
    const double* my = mx + m;
    const double* ms2 = my + m;
    const double* sx = scene + MICROSCOPY_HEADER;
    const double* sy = sx + n;
    const double* ss2 = sy + n;
    int i = model_block * MICROSCOPY_BLOCK + threadIdx.x;
    bool valid = i < m;
    double px = valid ? mx[i] : 0.0;
    double py = valid ? my[i] : 0.0;
    double pv = valid ? ms2[i] : 1.0;
    double qx = c * px - s * py + tx;
    double qy = s * px + c * py + ty;
    double total = 0.0;
    int size = (n + scene_chunks - 1) / scene_chunks;
    int begin = chunk * size;
    int end = min(n, begin + size);
    for (int base = begin; base < end; base += MICROSCOPY_TILE) {
        int count_here = min(MICROSCOPY_TILE, end - base);
        __syncthreads();
        if (threadIdx.x < count_here) {
            tile_x[threadIdx.x] = sx[base + threadIdx.x];
            tile_y[threadIdx.x] = sy[base + threadIdx.x];
            tile_s2[threadIdx.x] = ss2[base + threadIdx.x];
        }
        __syncthreads();
        if (valid) {
            for (int j = 0; j < count_here; j++) {
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
    microscopy_block_sum<1>(sums, reduce, partials + blockIdx.x);
    microscopy_finish<1>(partials, done, out, count, per_pose, reduce);
}

// Sets the launch counter of microscopy_finish to 0 once, after the scratch is allocated (its contents are
// undefined); each last block re-arms it.
extern "C" __global__ void microscopy_clear(unsigned* done) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *done = 0;
    }
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
