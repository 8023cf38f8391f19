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

// ---- preprocess: noise residual and column sums -------------------------------------------------------------
//
// Preprocess kernels work on tiles of FORENSICS_TILE_W columns x FORENSICS_TILE_H rows, one thread per pixel of a
// tile (blocks of FORENSICS_BLOCK threads: tx = threadIdx.x % 32 walks the columns, so every warp reads and writes
// 32 consecutive pixels of one row). Grids are one-dimensional; blockIdx.x is split into the tile column and the
// tile row (or strip) here, so the launch needs no second grid dimension.

#define FORENSICS_TILE_W 32
#define FORENSICS_TILE_H (FORENSICS_BLOCK / FORENSICS_TILE_W)
// Rows of one residual block: it walks FORENSICS_STRIP / FORENSICS_TILE_H tiles down and keeps one column sum
// per thread, so the column partials are one pair per column per strip (h / 64 pairs, not h).
#define FORENSICS_STRIP 64
// The Wiener window's largest half-width (the 9 x 9 window).
#define FORENSICS_WIENER_HALF 4

// The gradient of the gray image at (r, c) as NoiseResidualFilter computes it: central differences inside
// (0.5f * (next - previous)), one-sided at the first and last column or row, both scaled by 1/(1 + |grad|) in
// double. h, w >= 2.
__device__ __forceinline__ void forensics_gradient(const float* a, int r, int c, int h, int w, float* gx,
                                                   float* gy) {
    long long here = (long long) r * w + c;
    float dx;
    if (c == 0) {
        dx = a[here + 1] - a[here];
    } else if (c == w - 1) {
        dx = a[here] - a[here - 1];
    } else {
        dx = 0.5f * (a[here + 1] - a[here - 1]);
    }
    float dy;
    if (r == 0) {
        dy = a[here + w] - a[here];
    } else if (r == h - 1) {
        dy = a[here] - a[here - w];
    } else {
        dy = 0.5f * (a[here + w] - a[here - w]);
    }
    double x = dx;
    double y = dy;
    double s = 1.0 / (1.0 + sqrt(x * x + y * y));
    *gx = (float) (x * s);
    *gy = (float) (y * s);
}

// The noise residual = divergence of the scaled gradient of the gray image (the GRAY item's data), written as
// complex values (re = residual, im = 0) into z, in one pass: each 32 x 8 tile computes the scaled gradients of
// itself and a one-pixel border into shared memory (the gradients never go through global memory), then the
// divergence from there. Block b covers columns 32 * (b % tilesX) .. + 31 and the strip of FORENSICS_STRIP rows
// number b / tilesX; it also leaves the sums of its residuals per column over the strip's even and over its odd
// rows, in double and in a fixed order, in columnPartial[(2 * strip + parity) * w + c] for
// forensics_column_means. Grid: tilesX * strips blocks of FORENSICS_BLOCK threads, tilesX = ceil(w / 32),
// strips = ceil(h / FORENSICS_STRIP).
extern "C" __global__ void forensics_residual(const float* grayItem, float2* z, double* columnPartial, int h, int w) {
    __shared__ float gx[FORENSICS_TILE_H + 2][FORENSICS_TILE_W + 2];
    __shared__ float gy[FORENSICS_TILE_H + 2][FORENSICS_TILE_W + 2];
    __shared__ double sums[FORENSICS_TILE_H][FORENSICS_TILE_W];
    const float* gray = grayItem + FORENSICS_HEADER_FLOATS;
    int tilesX = (w + FORENSICS_TILE_W - 1) / FORENSICS_TILE_W;
    int strip = blockIdx.x / tilesX;
    int c0 = (blockIdx.x - strip * tilesX) * FORENSICS_TILE_W;
    int tx = threadIdx.x % FORENSICS_TILE_W;
    int ty = threadIdx.x / FORENSICS_TILE_W;
    int c = c0 + tx;
    const int haloCount = (FORENSICS_TILE_H + 2) * (FORENSICS_TILE_W + 2);
    // Rows of one thread differ by FORENSICS_TILE_H (even) and strips start on even rows: a thread's rows all have
    // the parity of ty, so one sum per thread is its column's even or odd sum.
    double sum = 0.0;
    for (int r0 = strip * FORENSICS_STRIP; r0 < h && r0 < (strip + 1) * FORENSICS_STRIP; r0 += FORENSICS_TILE_H) {
        for (int k = threadIdx.x; k < haloCount; k += blockDim.x) {
            int hr = k / (FORENSICS_TILE_W + 2);
            int hc = k - hr * (FORENSICS_TILE_W + 2);
            int r = r0 - 1 + hr;
            int cc = c0 - 1 + hc;
            float x = 0.0f;
            float y = 0.0f;
            if (r >= 0 && r < h && cc >= 0 && cc < w) { // the border outside the image is never read
                forensics_gradient(gray, r, cc, h, w, &x, &y);
            }
            gx[hr][hc] = x;
            gy[hr][hc] = y;
        }
        __syncthreads();
        int r = r0 + ty;
        if (r < h && c < w) {
            int hr = ty + 1;
            int hc = tx + 1;
            float x;
            if (c == 0) {
                x = gx[hr][hc + 1] - gx[hr][hc];
            } else if (c == w - 1) {
                x = gx[hr][hc] - gx[hr][hc - 1];
            } else {
                x = 0.5f * (gx[hr][hc + 1] - gx[hr][hc - 1]);
            }
            float y;
            if (r == 0) {
                y = gy[hr + 1][hc] - gy[hr][hc];
            } else if (r == h - 1) {
                y = gy[hr][hc] - gy[hr - 1][hc];
            } else {
                y = 0.5f * (gy[hr + 1][hc] - gy[hr - 1][hc]);
            }
            float v = __fadd_rn(x, y);
            z[(long long) r * w + c] = make_float2(v, 0.0f);
            sum += v;
        }
        __syncthreads(); // the next tile overwrites gx, gy
    }
    sums[ty][tx] = sum;
    __syncthreads();
    if (ty < 2 && c < w) { // ty 0 adds the even rows' sums, ty 1 the odd rows', in ty order
        double total = 0.0;
        for (int k = ty; k < FORENSICS_TILE_H; k += 2) {
            total += sums[k][tx];
        }
        columnPartial[(2LL * strip + ty) * w + c] = total;
    }
}

// ---- preprocess: zero-mean total ------------------------------------------------------------------------------

// Column means from the strip partials of forensics_residual: columnMeans[c] = mean of column c over the even
// rows, columnMeans[w + c] over the odd rows (0 when there are none). Block b covers columns 32b .. 32b + 31; its
// 8 warps sum interleaved strips, then warp 0 adds their sums in warp order (fixed order: deterministic).
// Grid: ceil(w / 32) blocks of FORENSICS_BLOCK threads.
extern "C" __global__ void forensics_column_means(const double* columnPartial, int strips, double* columnMeans,
                                                  int h, int w) {
    __shared__ double sums[2][FORENSICS_TILE_H][FORENSICS_TILE_W];
    int tx = threadIdx.x % FORENSICS_TILE_W;
    int ty = threadIdx.x / FORENSICS_TILE_W;
    int c = blockIdx.x * FORENSICS_TILE_W + tx;
    double even = 0.0;
    double odd = 0.0;
    if (c < w) {
        for (int s = ty; s < strips; s += FORENSICS_TILE_H) {
            even += columnPartial[(2LL * s) * w + c];
            odd += columnPartial[(2LL * s + 1) * w + c];
        }
    }
    sums[0][ty][tx] = even;
    sums[1][ty][tx] = odd;
    __syncthreads();
    if (ty < 2 && c < w) {
        double total = 0.0;
        for (int k = 0; k < FORENSICS_TILE_H; k++) {
            total += sums[ty][k][tx];
        }
        int rows = ty == 0 ? (h + 1) / 2 : h / 2;
        columnMeans[(long long) ty * w + c] = rows > 0 ? total / rows : 0.0;
    }
}

// Row pass, one block per row, on the columns' zero-mean values y = (float) (x - column mean) (as the cpu's column
// pass leaves them; recomputed here, so the column pass never writes z): the means of y over the even and over
// the odd columns are subtracted, the result is written back (imaginary part 0) and its sum of squares, in
// double, goes to rowSquares[r] for forensics_noise_variance.
extern "C" __global__ void forensics_zero_mean_rows(float2* z, const double* columnMeans, double* rowSquares,
                                                    int h, int w) {
    __shared__ double shared[FORENSICS_BLOCK];
    int r = blockIdx.x;
    if (r >= h) {
        return; // whole block leaves together: no barrier is skipped by part of it
    }
    long long row = (long long) r * w;
    const double* means = columnMeans + (long long) (r & 1) * w;
    double even = 0.0;
    double odd = 0.0;
    for (int c = threadIdx.x; c < w; c += blockDim.x) {
        float v = (float) ((double) z[row + c].x - means[c]);
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
    double squares = 0.0;
    for (int c = threadIdx.x; c < w; c += blockDim.x) {
        float v = (float) ((double) z[row + c].x - means[c]);
        float x = (float) ((double) v - ((c & 1) == 0 ? even : odd));
        z[row + c] = make_float2(x, 0.0f);
        squares += (double) x * x;
    }
    squares = forensics_block_sum(squares, shared);
    if (threadIdx.x == 0) {
        rowSquares[r] = squares;
    }
}

// ---- preprocess: Wiener filter in the DFT domain --------------------------------------------------------------

// One block: sigma^2 = n/(n-1) * sum x^2 from the partials (the per-row sums of forensics_zero_mean_rows), into
// stats[0].
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

// out(k) = F(k) * sigma^2 / max(sigma^2, local(k)) for the spectrum F in z, local(k) = min over windows 3, 5, 7, 9
// of the window sum of P = |F|^2 (in double) around k divided by side^2, the window clipped at the spectrum's
// edges (zero padding, no wrap). Each 32 x 8 tile computes P over itself and a 4-pixel border once into shared
// memory (P never goes through global memory); the four sums come from one pass over the 9 x 9 neighbourhood: a
// point at Chebyshev distance d from k belongs to the windows of half-width d and more. Out of place (neighbouring
// tiles read the border of this one). sigma^2 = stats[0]; sigma^2 <= 0 (a constant residual) zeroes the spectrum.
// Grid: ceil(w / 32) * ceil(h / 8) blocks of FORENSICS_BLOCK threads.
extern "C" __global__ void forensics_wiener(const float2* z, float2* out, int h, int w, const double* stats) {
    const int side = FORENSICS_WIENER_HALF;
    const int haloW = FORENSICS_TILE_W + 2 * side;
    const int haloH = FORENSICS_TILE_H + 2 * side;
    __shared__ double power[haloH][haloW];
    double sigma2 = stats[0];
    int tilesX = (w + FORENSICS_TILE_W - 1) / FORENSICS_TILE_W;
    int tileRow = blockIdx.x / tilesX;
    int c0 = (blockIdx.x - tileRow * tilesX) * FORENSICS_TILE_W;
    int r0 = tileRow * FORENSICS_TILE_H;
    int tx = threadIdx.x % FORENSICS_TILE_W;
    int ty = threadIdx.x / FORENSICS_TILE_W;
    int r = r0 + ty;
    int c = c0 + tx;
    bool inside = r < h && c < w;
    long long i = (long long) r * w + c;
    if (!(sigma2 > 0.0)) { // uniform over the grid: no barrier below is skipped by part of a block
        if (inside) {
            out[i] = make_float2(0.0f, 0.0f);
        }
        return;
    }
    for (int k = threadIdx.x; k < haloH * haloW; k += blockDim.x) {
        int hr = k / haloW;
        int hc = k - hr * haloW;
        int rr = r0 - side + hr;
        int cc = c0 - side + hc;
        double p = 0.0; // outside the spectrum: zero padding (adds +0.0, which leaves every sum as it is)
        if (rr >= 0 && rr < h && cc >= 0 && cc < w) {
            float2 v = z[(long long) rr * w + cc];
            double re = v.x;
            double im = v.y;
            p = re * re + im * im;
        }
        power[hr][hc] = p;
    }
    __syncthreads();
    if (!inside) {
        return; // after the block's only barrier
    }
    double sums[side + 1] = {0.0, 0.0, 0.0, 0.0, 0.0}; // sums[d]: the points at distance exactly d
#pragma unroll
    for (int dr = -side; dr <= side; dr++) {
#pragma unroll
        for (int dc = -side; dc <= side; dc++) {
            int ar = dr < 0 ? -dr : dr;
            int ac = dc < 0 ? -dc : dc;
            sums[ar > ac ? ar : ac] += power[ty + side + dr][tx + side + dc];
        }
    }
    double window = sums[0];
    double local = -1.0; // means are never negative: -1 marks "none yet"
#pragma unroll
    for (int half = 1; half <= side; half++) {
        window += sums[half];
        int width = 2 * half + 1;
        double mean = window / (double) (width * width);
        if (local < 0.0 || mean < local) {
            local = mean;
        }
    }
    float2 v = z[i];
    if (local > sigma2) {
        float gain = (float) (sigma2 / local);
        v = make_float2(v.x * gain, v.y * gain);
    }
    out[i] = v;
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

// A thread's share of the sum of c^2 over the lags outside the 11 x 11 box around (0, 0), wrapping, for part `part`
// of `parts` (a virtual block: lags part * blockDim + threadIdx, then every parts * blockDim); `surface` is the
// unnormalised C2R inverse (n times the correlation), so each value is scaled by 1/n first. The per-pair and the tile
// kernels both sum this way in the same parts, so a pair's PCE does not depend on the path that compared it.
__device__ double forensics_energy_share(const float* surface, int h, int w, long long part, long long parts) {
    long long n = (long long) h * w;
    double inverseN = 1.0 / (double) n;
    double sum = 0.0;
    for (long long i = part * blockDim.x + threadIdx.x; i < n; i += parts * blockDim.x) {
        int r = (int) (i / w);
        int c = (int) (i - (long long) r * w);
        if (!(forensics_in_box(r, h) && forensics_in_box(c, w))) {
            double v = (double) surface[i] * inverseN;
            sum += v * v;
        }
    }
    return sum;
}

// A whole block: PCE = sign(peak) * peak^2 / energy from the pair's `blocks` energy partial sums, the energy being the
// mean over the `outside` lags and the peak c(0, 0); 0 when the energy is not positive (as the cpu). Thread 0 gets it.
__device__ double forensics_pce_of(const double* partial, int blocks, const float* surface, long long n,
                                   long long outside, double* shared) {
    double sum = 0.0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
        sum += partial[b];
    }
    sum = forensics_block_sum(sum, shared);
    double peak = (double) surface[0] / (double) n;
    double energy = outside > 0 ? sum / (double) outside : 0.0;
    double pce = 0.0;
    if (energy > 0.0) {
        double sign = peak > 0.0 ? 1.0 : (peak < 0.0 ? -1.0 : 0.0);
        pce = sign * peak * peak / energy;
    }
    return pce;
}

// Partial sums of the energy, partial[block] (grid-stride over the lags).
extern "C" __global__ void forensics_energy_partials(const float* surface, int h, int w, double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    double sum = forensics_block_sum(forensics_energy_share(surface, h, w, blockIdx.x, gridDim.x), shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// One block: the pair's PCE into result[0] (the pair's one double).
extern "C" __global__ void forensics_pce(const double* partial, int blocks, const float* surface, long long n,
                                         long long outside, double* result) {
    __shared__ double shared[FORENSICS_BLOCK];
    double pce = forensics_pce_of(partial, blocks, surface, n, outside, shared);
    if (threadIdx.x == 0) {
        result[0] = pce;
    }
}

// ---- compare: PCE of a batch of pairs ---------------------------------------------------------------------------
//
// A tile's pairs go in batches of at most the workspace's pairs (ForensicsPceTiles): items[2p], items[2p + 1] are
// pair p's SPECTRUM items (device addresses). forensics_tile_cross_spectrum writes the batch's products one after
// another (pair p's at product + p * half), a batched cuFFT C2R turns them into the batch's surfaces (pair p's at
// surface + p * n), forensics_tile_energy_partials sums each pair's energy in `parts` blocks (the per-pair grid, so
// the sums are the per-pair path's) and forensics_tile_pce (a block per pair) writes each PCE into its result slot.

// conj(X) * Y for every pair of the batch: `count` = pairs * half elements, grid-stride.
extern "C" __global__ void forensics_tile_cross_spectrum(const float* const* items, long long half, long long count,
                                                         float2* product) {
    for (long long i = forensics_first(); i < count; i += forensics_stride()) {
        long long p = i / half;
        long long j = i - p * half;
        float2 a = ((const float2*) (items[2 * p] + FORENSICS_HEADER_FLOATS))[j];
        float2 b = ((const float2*) (items[2 * p + 1] + FORENSICS_HEADER_FLOATS))[j];
        product[i] = make_float2(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x);
    }
}

// Grid = pairs * parts: block b sums part b % parts of pair b / parts's surface into partial[b].
extern "C" __global__ void forensics_tile_energy_partials(const float* surface, int h, int w, int parts,
                                                          double* partial) {
    __shared__ double shared[FORENSICS_BLOCK];
    long long p = blockIdx.x / parts;
    long long part = blockIdx.x - p * parts;
    const float* own = surface + p * ((long long) h * w);
    double sum = forensics_block_sum(forensics_energy_share(own, h, w, part, parts), shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// One block per pair: results[p * stride] = PCE of pair p (stride in doubles: the application's result bytes / 8).
extern "C" __global__ void forensics_tile_pce(const double* partial, int parts, const float* surface, long long n,
                                              long long outside, double* results, int stride) {
    __shared__ double shared[FORENSICS_BLOCK];
    long long p = blockIdx.x;
    double pce = forensics_pce_of(partial + p * parts, parts, surface + p * n, n, outside, shared);
    if (threadIdx.x == 0) {
        results[p * stride] = pce;
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

#define FORENSICS_TILE_ROWS_PER_PASS (FORENSICS_BLOCK / FORENSICS_CHUNK)
#define FORENSICS_TILE_ROWS_PER_THREAD (FORENSICS_TILE_ITEMS / FORENSICS_TILE_ROWS_PER_PASS)

// A thread's share of chunk c of every tile item: items row, row + 8, ... at pixel lane, less the item's shift
// (0 past the end, or when c is past the last chunk); the loads are independent, so they are all in flight together.
__device__ __forceinline__ void forensics_ncc_tile_load(const float* const* items, int itemCount, long long n,
                                                        long long c, int row, int lane, const float* shift,
                                                        float* next) {
    long long pixel = c * FORENSICS_CHUNK + lane;
    #pragma unroll
    for (int k = 0; k < FORENSICS_TILE_ROWS_PER_THREAD; k++) {
        int t = row + k * FORENSICS_TILE_ROWS_PER_PASS;
        next[k] = t < itemCount && pixel < n ? items[t][FORENSICS_HEADER_FLOATS + pixel] - shift[t] : 0.0f;
    }
}

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
    int row = threadIdx.x / FORENSICS_CHUNK;
    long long chunks = (n + FORENSICS_CHUNK - 1) / FORENSICS_CHUNK;
    // Software pipelining: the next chunk's pixels are loaded into registers (all of a thread's loads in flight at
    // once) while this chunk is compared from shared memory, so a step waits on memory bandwidth, not latency.
    // Each item is shifted by its first pixel: NCC does not change, and an item far from zero-mean keeps its sums
    // small (a sample is about a standard deviation from the mean), so the one-pass centring cancels nothing.
    // (In shared memory, read as broadcasts: registers are what limits the blocks per multiprocessor.)
    __shared__ float shift[FORENSICS_TILE_ITEMS];
    if (threadIdx.x < itemCount) {
        shift[threadIdx.x] = items[threadIdx.x][FORENSICS_HEADER_FLOATS];
    }
    __syncthreads();
    float next[FORENSICS_TILE_ROWS_PER_THREAD];
    long long c = blockIdx.x;
    forensics_ncc_tile_load(items, itemCount, n, c, row, lane, shift, next);
    for (; c < chunks; c += gridDim.x) {
        #pragma unroll
        for (int k = 0; k < FORENSICS_TILE_ROWS_PER_THREAD; k++) {
            int t = row + k * FORENSICS_TILE_ROWS_PER_PASS;
            if (t < itemCount) {
                chunk[t][lane] = next[k];
            }
        }
        __syncthreads();
        forensics_ncc_tile_load(items, itemCount, n, c + gridDim.x, row, lane, shift, next);
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
