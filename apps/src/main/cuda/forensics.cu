// The forensics app's kernels (ForensicsCudaKernels launches them; PrnuExtractor, PceComparator and NccComparator
// are the cpu reference they are tested against). Compiled by scripts/build-kernels into kernels/forensics.*.
//
// Images are row-major h x w (h rows, w columns), n = h*w pixels; every index into an image is a long long so that
// large photos cannot overflow. Items in cache slots start with the 16-byte PrnuLayout header; data follows at
// byte 16 (float offset 4), so slot pointers are passed as they are and the kernels skip the header themselves.
// Reductions are two-stage and deterministic: each block reduces its share in shared memory into partial[block],
// then one block sums the partials in block order.

#define FORENSICS_BLOCK 256
#define FORENSICS_HEADER_FLOATS 4

// PrnuLayout kind tags.
#define FORENSICS_KIND_PATTERN 0x50415454
#define FORENSICS_KIND_SPECTRUM 0x53504543

// Tree reduction of one double per thread over a block of FORENSICS_BLOCK threads; thread 0 gets the total.
__device__ double forensics_block_sum(double value, double* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (int stride = FORENSICS_BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            shared[threadIdx.x] += shared[threadIdx.x + stride];
        }
        __syncthreads();
    }
    double total = shared[0];
    __syncthreads(); // the shared array may be reused right after
    return total;
}

__device__ __forceinline__ long long forensics_first() {
    return (long long) blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ long long forensics_stride() {
    return (long long) gridDim.x * blockDim.x;
}

// ---- preprocess: noise residual -------------------------------------------------------------------------------

// d/dx and d/dy of `a` at (r, c) as NoiseResidualFilter computes them: central differences inside (0.5f * (next -
// previous)), one-sided at the first and last column or row. h, w >= 2.
__device__ __forceinline__ float forensics_dx(const float* a, long long row, int c, int w) {
    if (c == 0) {
        return a[row + 1] - a[row];
    }
    if (c == w - 1) {
        return a[row + w - 1] - a[row + w - 2];
    }
    return 0.5f * (a[row + c + 1] - a[row + c - 1]);
}

__device__ __forceinline__ float forensics_dy(const float* a, int r, int c, int h, int w) {
    long long here = (long long) r * w + c;
    if (r == 0) {
        return a[here + w] - a[here];
    }
    if (r == h - 1) {
        return a[here] - a[here - w];
    }
    return 0.5f * (a[here + w] - a[here - w]);
}

// Gradients of the gray image (the GRAY item's data), each scaled by 1/(1 + |grad|) in double; the x gradient
// goes to grad[0, n), the y gradient to grad[n, 2n).
extern "C" __global__ void forensics_gradients(const float* grayItem, float* grad, int h, int w) {
    const float* gray = grayItem + FORENSICS_HEADER_FLOATS;
    long long n = (long long) h * w;
    float* gx = grad;
    float* gy = grad + n;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        int r = (int) (i / w);
        int c = (int) (i - (long long) r * w);
        double dx = forensics_dx(gray, (long long) r * w, c, w);
        double dy = forensics_dy(gray, r, c, h, w);
        double s = 1.0 / (1.0 + sqrt(dx * dx + dy * dy));
        gx[i] = (float) (dx * s);
        gy[i] = (float) (dy * s);
    }
}

// The residual = divergence of the scaled gradient, written as complex values (re = residual, im = 0) into z.
extern "C" __global__ void forensics_divergence(const float* grad, float2* z, int h, int w) {
    long long n = (long long) h * w;
    const float* gx = grad;
    const float* gy = grad + n;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        int r = (int) (i / w);
        int c = (int) (i - (long long) r * w);
        float x = forensics_dx(gx, (long long) r * w, c, w);
        float y = forensics_dy(gy, r, c, h, w);
        z[i] = make_float2(__fadd_rn(x, y), 0.0f);
    }
}

// ---- preprocess: zero-mean total ------------------------------------------------------------------------------

// Column pass, one thread per column: the means of the even and of the odd rows, summed in row order in double
// (the cpu's order, so the means are bit-identical), subtracted from those rows.
extern "C" __global__ void forensics_zero_mean_columns(float2* z, int h, int w) {
    long long c = forensics_first();
    if (c >= w) {
        return;
    }
    double even = 0.0;
    double odd = 0.0;
    for (int r = 0; r < h; r++) {
        float v = z[(long long) r * w + c].x;
        if ((r & 1) == 0) {
            even += v;
        } else {
            odd += v;
        }
    }
    int evenRows = (h + 1) / 2;
    int oddRows = h / 2;
    even /= evenRows;
    if (oddRows > 0) {
        odd /= oddRows;
    }
    for (int r = 0; r < h; r++) {
        long long i = (long long) r * w + c;
        z[i].x = (float) ((double) z[i].x - ((r & 1) == 0 ? even : odd));
    }
}

// Row pass, one block per row: the means of the even and of the odd columns, subtracted from those columns.
extern "C" __global__ void forensics_zero_mean_rows(float2* z, int h, int w) {
    __shared__ double shared[FORENSICS_BLOCK];
    int r = blockIdx.x;
    if (r >= h) {
        return; // whole block leaves together: no barrier is skipped by part of it
    }
    long long row = (long long) r * w;
    double even = 0.0;
    double odd = 0.0;
    for (int c = threadIdx.x; c < w; c += blockDim.x) {
        float v = z[row + c].x;
        if ((c & 1) == 0) {
            even += v;
        } else {
            odd += v;
        }
    }
    even = forensics_block_sum(even, shared);
    odd = forensics_block_sum(odd, shared);
    int evenCols = (w + 1) / 2;
    int oddCols = w / 2;
    even /= evenCols;
    odd = oddCols > 0 ? odd / oddCols : 0.0;
    for (int c = threadIdx.x; c < w; c += blockDim.x) {
        z[row + c].x = (float) ((double) z[row + c].x - ((c & 1) == 0 ? even : odd));
    }
}

// ---- preprocess: Wiener filter in the DFT domain --------------------------------------------------------------

// Partial sums of x^2 over the real parts of z, one per block.
extern "C" __global__ void forensics_square_partials(const float2* z, long long n, double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sum = 0.0;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        double v = z[i].x;
        sum += v * v;
    }
    sum = forensics_block_sum(sum, shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// One block: sigma^2 = n/(n-1) * sum x^2 from the partials, into stats[0].
extern "C" __global__ void forensics_noise_variance(const double* partial, int blocks, long long n, double* stats) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sum = 0.0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
        sum += partial[b];
    }
    sum = forensics_block_sum(sum, shared);
    if (threadIdx.x == 0) {
        stats[0] = n > 1 ? sum * (double) n / (double) (n - 1) : sum;
    }
}

// P = |F|^2 in double.
extern "C" __global__ void forensics_power(const float2* z, double* power, long long n) {
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        double re = z[i].x;
        double im = z[i].y;
        power[i] = re * re + im * im;
    }
}

// F(k) <- F(k) * sigma^2 / max(sigma^2, local(k)), local(k) = min over windows 3, 5, 7, 9 of the window sum of P
// around k divided by side^2, the window clipped at the spectrum's edges (zero padding, no wrap). The four sums
// are taken from one pass over the 9 x 9 neighbourhood: a point at Chebyshev distance d from k belongs to the
// windows of half-width d and more. sigma^2 = stats[0]; sigma^2 <= 0 (a constant residual) zeroes the spectrum.
extern "C" __global__ void forensics_wiener(float2* z, const double* power, int h, int w, const double* stats) {
    double sigma2 = stats[0];
    long long n = (long long) h * w;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        if (!(sigma2 > 0.0)) {
            z[i] = make_float2(0.0f, 0.0f);
            continue;
        }
        int r = (int) (i / w);
        int c = (int) (i - (long long) r * w);
        double sums[5] = {0.0, 0.0, 0.0, 0.0, 0.0}; // sums[d]: the points at distance exactly d
        for (int dr = -4; dr <= 4; dr++) {
            int rr = r + dr;
            if (rr < 0 || rr >= h) {
                continue;
            }
            int ar = dr < 0 ? -dr : dr;
            long long row = (long long) rr * w;
            for (int dc = -4; dc <= 4; dc++) {
                int cc = c + dc;
                if (cc < 0 || cc >= w) {
                    continue;
                }
                int ac = dc < 0 ? -dc : dc;
                sums[ar > ac ? ar : ac] += power[row + cc];
            }
        }
        double window = sums[0];
        double local = -1.0; // means are never negative: -1 marks "none yet"
        for (int half = 1; half <= 4; half++) {
            window += sums[half];
            int side = 2 * half + 1;
            double mean = window / (double) (side * side);
            if (local < 0.0 || mean < local) {
                local = mean;
            }
        }
        if (local > sigma2) {
            float gain = (float) (sigma2 / local);
            float2 v = z[i];
            z[i] = make_float2(v.x * gain, v.y * gain);
        }
    }
}

// ---- preprocess: the cached item ------------------------------------------------------------------------------

__device__ void forensics_write_header(float* item, int kind, int h, int w) {
    int* header = (int*) item;
    header[0] = kind;
    header[1] = h;
    header[2] = w;
    header[3] = 0;
}

// PCE item: the Hermitian part (G(k) + conj(G(-k)))/2 of the filtered full spectrum G, half columns 0..w/2 only,
// which is the unnormalised R2C transform of the pattern Re(IFFT2(G))/n (as HalfSpectrum.hermitianPart).
extern "C" __global__ void forensics_half_spectrum(const float2* g, float* item, int h, int w) {
    int hw = w / 2 + 1;
    long long count = (long long) h * hw;
    float2* half = (float2*) (item + FORENSICS_HEADER_FLOATS);
    for (long long i = forensics_first(); i < count; i += forensics_stride()) {
        int r = (int) (i / hw);
        int c = (int) (i - (long long) r * hw);
        int mr = r == 0 ? 0 : h - r;
        int mc = c == 0 ? 0 : w - c;
        float2 a = g[(long long) r * w + c];
        float2 b = g[(long long) mr * w + mc];
        half[i] = make_float2(0.5f * (a.x + b.x), 0.5f * (a.y - b.y));
    }
    if (forensics_first() == 0) {
        forensics_write_header(item, FORENSICS_KIND_SPECTRUM, h, w);
    }
}

// NCC item: the pattern x = Re(IFFT2(F))/n from the unnormalised inverse in z (scaled as JTransforms scales).
extern "C" __global__ void forensics_pattern(const float2* z, float* item, int h, int w) {
    long long n = (long long) h * w;
    float scale = (float) (1.0 / (double) n);
    float* pattern = item + FORENSICS_HEADER_FLOATS;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        pattern[i] = z[i].x * scale;
    }
    if (forensics_first() == 0) {
        forensics_write_header(item, FORENSICS_KIND_PATTERN, h, w);
    }
}

// ---- compare: PCE ---------------------------------------------------------------------------------------------

// conj(X) * Y over the h x (w/2+1) half spectra of two SPECTRUM items.
extern "C" __global__ void forensics_cross_spectrum(const float* leftItem, const float* rightItem, float2* product,
                                                    long long count) {
    const float2* x = (const float2*) (leftItem + FORENSICS_HEADER_FLOATS);
    const float2* y = (const float2*) (rightItem + FORENSICS_HEADER_FLOATS);
    for (long long i = forensics_first(); i < count; i += forensics_stride()) {
        float2 a = x[i];
        float2 b = y[i];
        product[i] = make_float2(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x);
    }
}

// Whether circular lag index i of a dimension of `size` lies within +-5 of 0 (PceComparator.inBox).
__device__ __forceinline__ bool forensics_in_box(int i, int size) {
    int d = i < size - i ? i : size - i;
    return d <= 5;
}

// Partial sums of c^2 over the lags outside the 11 x 11 box around (0, 0), wrapping; `surface` is the unnormalised
// C2R inverse (n times the correlation), so each value is scaled by 1/n first.
extern "C" __global__ void forensics_energy_partials(const float* surface, int h, int w, double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    long long n = (long long) h * w;
    double inverseN = 1.0 / (double) n;
    double sum = 0.0;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        int r = (int) (i / w);
        int c = (int) (i - (long long) r * w);
        if (!(forensics_in_box(r, h) && forensics_in_box(c, w))) {
            double v = (double) surface[i] * inverseN;
            sum += v * v;
        }
    }
    sum = forensics_block_sum(sum, shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// One block: PCE = sign(peak) * peak^2 / energy into result[0] (the pair's one double), the energy being the mean
// over the `outside` lags and the peak c(0, 0); 0 when the energy is not positive (as the cpu).
extern "C" __global__ void forensics_pce(const double* partial, int blocks, const float* surface, long long n,
                                         long long outside, double* result) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sum = 0.0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
        sum += partial[b];
    }
    sum = forensics_block_sum(sum, shared);
    if (threadIdx.x == 0) {
        double peak = (double) surface[0] / (double) n;
        double energy = outside > 0 ? sum / (double) outside : 0.0;
        double pce = 0.0;
        if (energy > 0.0) {
            double sign = peak > 0.0 ? 1.0 : (peak < 0.0 ? -1.0 : 0.0);
            pce = sign * peak * peak / energy;
        }
        result[0] = pce;
    }
}

// ---- compare: NCC ---------------------------------------------------------------------------------------------

// Partial sums of x and y over two PATTERN items: partial[2b], partial[2b+1].
extern "C" __global__ void forensics_ncc_means(const float* leftItem, const float* rightItem, long long n,
                                               double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    const float* x = leftItem + FORENSICS_HEADER_FLOATS;
    const float* y = rightItem + FORENSICS_HEADER_FLOATS;
    double sx = 0.0;
    double sy = 0.0;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        sx += x[i];
        sy += y[i];
    }
    sx = forensics_block_sum(sx, shared);
    sy = forensics_block_sum(sy, shared);
    if (threadIdx.x == 0) {
        partial[2 * blockIdx.x] = sx;
        partial[2 * blockIdx.x + 1] = sy;
    }
}

// One block: the means x-bar = stats[0], y-bar = stats[1] from the partials of forensics_ncc_means.
extern "C" __global__ void forensics_ncc_finish_means(const double* partial, int blocks, long long n, double* stats) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sx = 0.0;
    double sy = 0.0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
        sx += partial[2 * b];
        sy += partial[2 * b + 1];
    }
    sx = forensics_block_sum(sx, shared);
    sy = forensics_block_sum(sy, shared);
    if (threadIdx.x == 0) {
        stats[0] = sx / (double) n;
        stats[1] = sy / (double) n;
    }
}

// Partial sums of (x-x-bar)(y-y-bar), (x-x-bar)^2, (y-y-bar)^2: partial[3b], [3b+1], [3b+2].
extern "C" __global__ void forensics_ncc_products(const float* leftItem, const float* rightItem, long long n,
                                                  const double* stats, double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    const float* x = leftItem + FORENSICS_HEADER_FLOATS;
    const float* y = rightItem + FORENSICS_HEADER_FLOATS;
    double mx = stats[0];
    double my = stats[1];
    double sxy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (long long i = forensics_first(); i < n; i += forensics_stride()) {
        double dx = x[i] - mx;
        double dy = y[i] - my;
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    sxy = forensics_block_sum(sxy, shared);
    sxx = forensics_block_sum(sxx, shared);
    syy = forensics_block_sum(syy, shared);
    if (threadIdx.x == 0) {
        partial[3 * blockIdx.x] = sxy;
        partial[3 * blockIdx.x + 1] = sxx;
        partial[3 * blockIdx.x + 2] = syy;
    }
}

// One block: NCC = sxy / sqrt(sxx * syy) into result[0], 0 when a pattern is constant.
extern "C" __global__ void forensics_ncc(const double* partial, int blocks, double* result) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sxy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
        sxy += partial[3 * b];
        sxx += partial[3 * b + 1];
        syy += partial[3 * b + 2];
    }
    sxy = forensics_block_sum(sxy, shared);
    sxx = forensics_block_sum(sxx, shared);
    syy = forensics_block_sum(syy, shared);
    if (threadIdx.x == 0) {
        double denominator = sqrt(sxx * syy);
        result[0] = denominator > 0.0 ? sxy / denominator : 0.0;
    }
}

// ---- compare: NCC of a tile of pairs ------------------------------------------------------------------------------
//
// A tile is up to FORENSICS_TILE_ITEMS PATTERN items (a table of their addresses) and up to FORENSICS_TILE_PAIRS
// pairs among them (pairs[2p], pairs[2p+1]: tile items). One pass over the pixels: each block walks chunks of
// FORENSICS_CHUNK pixels (grid-stride), stages the chunk of every tile item in shared memory (one coalesced 128-byte
// row per item), then each thread accumulates its pairs' sum of products over the chunk in float and adds it to a
// double; threads 0..items-1 do the same for their item's sum and sum of squares. The block's partial sums go to
// partial[block][0 .. pairs + 2 items); forensics_ncc_tile_finish adds them over the blocks in double and forms
// NCC = (Sxy - Sx Sy / n) / sqrt((Sxx - Sx^2 / n) (Syy - Sy^2 / n)), the cpu tile's one-pass formula (patterns are
// nearly zero-mean, so centring afterwards loses nothing). Each item is read from memory once per tile instead of
// twice per pair: 32 items of 1024^2 pixels are 128 MB for 256 pairs, where pair by pair it was 2 GB.
#define FORENSICS_TILE_ITEMS 64
#define FORENSICS_TILE_PAIRS 1024
#define FORENSICS_CHUNK 32
#define FORENSICS_TILE_PAIRS_PER_THREAD (FORENSICS_TILE_PAIRS / FORENSICS_BLOCK)

extern "C" __global__ void forensics_ncc_tile_partials(const float* const* items, int itemCount, const int* pairs,
                                                       int pairCount, long long n, double* partial) {
    // Padded to 33 floats a row: threads reading the same pixel of different items hit different banks.
    __shared__ float chunk[FORENSICS_TILE_ITEMS][FORENSICS_CHUNK + 1];
    double dot[FORENSICS_TILE_PAIRS_PER_THREAD];
    int left[FORENSICS_TILE_PAIRS_PER_THREAD];
    int right[FORENSICS_TILE_PAIRS_PER_THREAD];
    for (int k = 0; k < FORENSICS_TILE_PAIRS_PER_THREAD; k++) {
        int p = threadIdx.x + k * FORENSICS_BLOCK;
        dot[k] = 0.0;
        left[k] = p < pairCount ? pairs[2 * p] : 0;
        right[k] = p < pairCount ? pairs[2 * p + 1] : 0;
    }
    double sum = 0.0;
    double square = 0.0;
    int lane = threadIdx.x % FORENSICS_CHUNK;
    int rowsPerPass = FORENSICS_BLOCK / FORENSICS_CHUNK;
    long long chunks = (n + FORENSICS_CHUNK - 1) / FORENSICS_CHUNK;
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
        long long base = c * FORENSICS_CHUNK;
        long long remaining = n - base;
        int length = remaining < FORENSICS_CHUNK ? (int) remaining : FORENSICS_CHUNK;
        for (int t = threadIdx.x / FORENSICS_CHUNK; t < itemCount; t += rowsPerPass) {
            chunk[t][lane] = lane < length ? items[t][FORENSICS_HEADER_FLOATS + base + lane] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < FORENSICS_TILE_PAIRS_PER_THREAD; k++) {
            if (threadIdx.x + k * FORENSICS_BLOCK < pairCount) {
                const float* x = chunk[left[k]];
                const float* y = chunk[right[k]];
                float s = 0.0f;
                #pragma unroll
                for (int i = 0; i < FORENSICS_CHUNK; i++) {
                    s = fmaf(x[i], y[i], s);
                }
                dot[k] += s;
            }
        }
        if (threadIdx.x < itemCount) {
            const float* x = chunk[threadIdx.x];
            float s = 0.0f;
            float q = 0.0f;
            #pragma unroll
            for (int i = 0; i < FORENSICS_CHUNK; i++) {
                s += x[i];
                q = fmaf(x[i], x[i], q);
            }
            sum += s;
            square += q;
        }
        __syncthreads();
    }
    double* out = partial + (long long) blockIdx.x * (pairCount + 2 * itemCount);
    for (int k = 0; k < FORENSICS_TILE_PAIRS_PER_THREAD; k++) {
        int p = threadIdx.x + k * FORENSICS_BLOCK;
        if (p < pairCount) {
            out[p] = dot[k];
        }
    }
    if (threadIdx.x < itemCount) {
        out[pairCount + threadIdx.x] = sum;
        out[pairCount + itemCount + threadIdx.x] = square;
    }
}

// One block per pair (grid = pairs, FORENSICS_BLOCK threads): the blocks' partial sums added in double, then the
// pair's NCC into its result slot, results[p * stride] (stride in doubles: the application's result bytes / 8); 0 when
// a pattern is constant.
extern "C" __global__ void forensics_ncc_tile_finish(const double* partial, int blocks, const int* pairs,
                                                     int pairCount, int itemCount, long long n, double* results,
                                                     int stride) {
    __shared__ double shared[FORENSICS_BLOCK];
    int p = blockIdx.x;
    int a = pairs[2 * p];
    int b = pairs[2 * p + 1];
    long long width = pairCount + 2 * itemCount;
    double sxy = 0.0;
    double sx = 0.0;
    double sy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (int k = threadIdx.x; k < blocks; k += blockDim.x) {
        const double* row = partial + k * width;
        sxy += row[p];
        sx += row[pairCount + a];
        sy += row[pairCount + b];
        sxx += row[pairCount + itemCount + a];
        syy += row[pairCount + itemCount + b];
    }
    sxy = forensics_block_sum(sxy, shared);
    sx = forensics_block_sum(sx, shared);
    sy = forensics_block_sum(sy, shared);
    sxx = forensics_block_sum(sxx, shared);
    syy = forensics_block_sum(syy, shared);
    if (threadIdx.x == 0) {
        double count = (double) n;
        double cxy = sxy - sx * sy / count;
        double cxx = sxx - sx * sx / count;
        double cyy = syy - sy * sy / count;
        double denominator = sqrt(cxx * cyy);
        results[(long long) p * stride] = denominator > 0.0 ? cxy / denominator : 0.0;
    }
}
