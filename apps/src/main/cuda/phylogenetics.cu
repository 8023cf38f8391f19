// The phylogenetics app's kernels (PhyloCudaKernels launches them; CompositionVectorBuilder and CvDistance are the
// cpu reference they are tested against). Compiled by scripts/build-kernels into kernels/phylogenetics.*.
//
// Preprocess builds the composition vector of one parsed proteome (FastaParser layout: int proteins, int residues,
// then residue codes 0..19, each protein followed by 0xFF) in four steps:
//   1. count every K-, (K-1)- and (K-2)-string occurrence (k-strings never span a separator): dense count tables
//      for the (K-1)- and (K-2)-strings; for the K-strings a dense table of 20^K counts when K <= 6, or, at K = 7
//      (20^7 counts would take 5 GB), an open-addressing hash table sized to twice the proteome's positions;
//   2. visit every candidate K-string s in key order, chunk by chunk: s is an entry when its (K-1)-prefix p and
//      (K-1)-suffix q both occur; each block counts its entries and sums their a(s)^2;
//   3. one block turns the per-chunk counts into output offsets (exclusive scan) and sums the squares (in chunk
//      order, so the result does not depend on timing);
//   4. every chunk writes its entries at its offset: ascending keys, then the values a(s)/||a|| as floats — the
//      CompositionVector layout (int count, int k, int keys[count], float values[count]).
// a(s) = n(s)/n0(s) - 1 with n0(s) = n(p)·n(q)/n(m)·N_K·N_{K-2}/N_{K-1}^2 (m = s2..s_{K-1}) is evaluated in double
// in the same order as the cpu builder, without fused multiply-adds; as there, a value within PHYLO_ZERO_CHECK of 0
// is set to exactly 0 when n(s)·n(m)·N_{K-1}^2 = n(p)·n(q)·N_K·N_{K-2} in integers (a rounding residue of an exact
// zero), and the host fails an item whose entries are all zero (results[3] == 0): its distances are undefined.
//
// Compare: each thread takes entries of the left vector and binary-searches their keys in the right one; products
// are summed in double (two-stage, deterministic); D = (1 - C)/2. A tile of pairs is one launch group (two
// launches for up to PHYLO_TILE_PAIRS pairs) that reads the vectors through a table of their addresses and sums each
// pair in the same blocks as its own launch would, so both paths give the same bits.

#define PHYLO_BLOCK 256
// Candidates per thread in steps 2 and 4; a chunk (one block) covers PHYLO_BLOCK * PHYLO_PER candidates.
#define PHYLO_PER 64
#define PHYLO_SEPARATOR 255
#define PHYLO_EMPTY 0xFFFFFFFFu
// Below this |a(s)| the counts are compared in integers (CompositionVectorBuilder.ZERO_CHECK).
#define PHYLO_ZERO_CHECK 1e-9

// Totals of step 1 (unsigned long long each): positions of K-, (K-1)-, (K-2)-strings, bytes that are neither a
// residue code nor a separator.
#define PHYLO_N_K 0
#define PHYLO_N_K1 1
#define PHYLO_N_K2 2
#define PHYLO_INVALID 3
#define PHYLO_TOTALS 4

__device__ double phylo_block_sum(double value, double* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (int stride = PHYLO_BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            shared[threadIdx.x] += shared[threadIdx.x + stride];
        }
        __syncthreads();
    }
    double total = shared[0];
    __syncthreads();
    return total;
}

__device__ __forceinline__ unsigned int phylo_hash(unsigned int key, unsigned long long mask) {
    unsigned int x = key * 0x9E3779B1u;
    x ^= x >> 15;
    x *= 0x85EBCA77u;
    x ^= x >> 13;
    return (unsigned int) (x & mask);
}

// Adds one occurrence of K-string `code` to the hash table (capacity mask + 1, a power of two, at least twice the
// number of positions, so a free slot is always found).
__device__ void phylo_hash_add(unsigned int* keys, unsigned int* counts, unsigned long long mask, unsigned int code) {
    unsigned long long slot = phylo_hash(code, mask);
    for (unsigned long long probe = 0; probe <= mask; probe++) {
        unsigned int previous = atomicCAS(&keys[slot], PHYLO_EMPTY, code);
        if (previous == PHYLO_EMPTY || previous == code) {
            atomicAdd(&counts[slot], 1u);
            return;
        }
        slot = (slot + 1) & mask;
    }
}

__device__ unsigned int phylo_hash_count(const unsigned int* keys, const unsigned int* counts,
                                         unsigned long long mask, unsigned int code) {
    unsigned long long slot = phylo_hash(code, mask);
    for (unsigned long long probe = 0; probe <= mask; probe++) {
        unsigned int key = keys[slot];
        if (key == code) {
            return counts[slot];
        }
        if (key == PHYLO_EMPTY) {
            return 0;
        }
        slot = (slot + 1) & mask;
    }
    return 0;
}

// Sets `count` unsigned ints to `value`.
extern "C" __global__ void phylo_fill(unsigned int* a, long long count, unsigned int value) {
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (long long) gridDim.x * blockDim.x) {
        a[i] = value;
    }
}

// Zeroes the totals.
extern "C" __global__ void phylo_clear_totals(unsigned long long* totals) {
    if (blockIdx.x == 0 && threadIdx.x < PHYLO_TOTALS) {
        totals[threadIdx.x] = 0;
    }
}

// Step 1. Position i of the residue stream (`parsed` is the whole parsed item; the stream starts at byte 8 and is
// `length` bytes) ends the strings made of the residues i-L+1..i for every L up to the run of residues ending at
// i. countK is the dense K table (hashMask == 0) or null with the hash table (hashKeys, hashCounts, hashMask).
extern "C" __global__ void phylo_count(const unsigned char* parsed, long long length, int k, unsigned int* countK,
                                       unsigned int* hashKeys, unsigned int* hashCounts, long long hashMask,
                                       unsigned int* countK1, unsigned int* countK2, unsigned int modK1,
                                       unsigned int modK2, unsigned long long* totals) {
    __shared__ unsigned long long blockTotals[PHYLO_TOTALS];
    if (threadIdx.x < PHYLO_TOTALS) {
        blockTotals[threadIdx.x] = 0;
    }
    __syncthreads();
    const unsigned char* stream = parsed + 8;
    unsigned long long nK = 0;
    unsigned long long nK1 = 0;
    unsigned long long nK2 = 0;
    unsigned long long invalid = 0;
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < length;
         i += (long long) gridDim.x * blockDim.x) {
        unsigned int here = stream[i];
        if (here >= 20) {
            if (here != PHYLO_SEPARATOR) {
                invalid++;
            }
            continue;
        }
        // The code of the run of residues ending at i, at most k long: a separator (or an invalid byte) restarts it.
        unsigned int code = 0;
        int run = 0;
        for (int back = k - 1; back >= 0; back--) {
            long long at = i - back;
            if (at < 0) {
                continue;
            }
            unsigned int v = stream[at];
            if (v < 20) {
                code = code * 20u + v;
                run++;
            } else {
                code = 0;
                run = 0;
            }
        }
        if (run >= k) {
            if (hashMask == 0) {
                atomicAdd(&countK[code], 1u);
            } else {
                phylo_hash_add(hashKeys, hashCounts, (unsigned long long) hashMask, code);
            }
            nK++;
        }
        if (run >= k - 1) {
            atomicAdd(&countK1[code % modK1], 1u);
            nK1++;
        }
        if (run >= k - 2) {
            atomicAdd(&countK2[code % modK2], 1u);
            nK2++;
        }
    }
    if (nK != 0) atomicAdd(&blockTotals[PHYLO_N_K], nK);
    if (nK1 != 0) atomicAdd(&blockTotals[PHYLO_N_K1], nK1);
    if (nK2 != 0) atomicAdd(&blockTotals[PHYLO_N_K2], nK2);
    if (invalid != 0) atomicAdd(&blockTotals[PHYLO_INVALID], invalid);
    __syncthreads();
    if (threadIdx.x < PHYLO_TOTALS && blockTotals[threadIdx.x] != 0) {
        atomicAdd(&totals[threadIdx.x], blockTotals[threadIdx.x]);
    }
}

// What steps 2 and 4 need to evaluate a candidate.
struct PhyloTables {
    const unsigned int* countK;
    const unsigned int* hashKeys;
    const unsigned int* hashCounts;
    unsigned long long hashMask;
    const unsigned int* countK1;
    const unsigned int* countK2;
    unsigned int modK1;
    unsigned int modK2;
    double factor; // N_K·N_{K-2}/N_{K-1}^2
    unsigned long long nK1Squared; // N_{K-1}^2
    unsigned long long nKnK2; // N_K·N_{K-2}
};

__device__ __forceinline__ double phylo_factor(const unsigned long long* totals) {
    double nK = (double) totals[PHYLO_N_K];
    double nK1 = (double) totals[PHYLO_N_K1];
    double nK2 = (double) totals[PHYLO_N_K2];
    return nK * nK2 / (nK1 * nK1);
}

// Whether n(s) = n0(s) exactly: ns·nm·N_{K-1}^2 == np·nq·N_K·N_{K-2} as 128-bit products (every factor is below
// 2^32, so each pair's product fits 64 bits). CompositionVectorBuilder.countsAsExpected.
__device__ __forceinline__ bool phylo_counts_as_expected(const PhyloTables& t, unsigned int ns, unsigned int nm,
                                                         unsigned int np, unsigned int nq) {
    unsigned long long observed = (unsigned long long) ns * nm;
    unsigned long long expected = (unsigned long long) np * nq;
    return observed * t.nK1Squared == expected * t.nKnK2
        && __umul64hi(observed, t.nK1Squared) == __umul64hi(expected, t.nKnK2);
}

// Whether candidate s is an entry; if so its a(s) in *a. Same operations, in the same order, as
// CompositionVectorBuilder.enumerate: inverseScale = n(m)/(n(p)·factor); a = n(s)·(inverseScale·(1/n(q))) − 1,
// then 0 exactly when the counts say n(s) = n0(s).
__device__ bool phylo_entry(const PhyloTables& t, unsigned int s, double* a) {
    unsigned int p = s / 20u;
    unsigned int q = s % t.modK1;
    unsigned int np = t.countK1[p];
    if (np == 0) {
        return false;
    }
    unsigned int nq = t.countK1[q];
    if (nq == 0) {
        return false;
    }
    unsigned int nm = t.countK2[p % t.modK2];
    unsigned int ns = t.hashMask == 0 ? t.countK[s] : phylo_hash_count(t.hashKeys, t.hashCounts, t.hashMask, s);
    double inverseScale = __ddiv_rn((double) nm, __dmul_rn((double) np, t.factor));
    double reciprocal = __ddiv_rn(1.0, (double) nq);
    double value = __dsub_rn(__dmul_rn((double) ns, __dmul_rn(inverseScale, reciprocal)), 1.0);
    if (value < PHYLO_ZERO_CHECK && value > -PHYLO_ZERO_CHECK && phylo_counts_as_expected(t, ns, nm, np, nq)) {
        value = 0.0;
    }
    *a = value;
    return true;
}

#define PHYLO_TABLES(t) \
    PhyloTables t; \
    t.countK = countK; t.hashKeys = hashKeys; t.hashCounts = hashCounts; \
    t.hashMask = (unsigned long long) hashMask; t.countK1 = countK1; t.countK2 = countK2; \
    t.modK1 = modK1; t.modK2 = modK2; t.factor = phylo_factor(totals); \
    t.nK1Squared = totals[PHYLO_N_K1] * totals[PHYLO_N_K1]; t.nKnK2 = totals[PHYLO_N_K] * totals[PHYLO_N_K2];

// Step 2: per chunk (block b covers candidates [b·CHUNK, (b+1)·CHUNK) ∩ [0, candidates)), the number of entries
// and the sum of a(s)^2.
extern "C" __global__ void phylo_chunk_counts(const unsigned int* countK, const unsigned int* hashKeys,
                                              const unsigned int* hashCounts, long long hashMask,
                                              const unsigned int* countK1, const unsigned int* countK2,
                                              unsigned int modK1, unsigned int modK2,
                                              const unsigned long long* totals, long long candidates,
                                              unsigned int* chunkCount, double* chunkSquares) {
    __shared__ double shared[PHYLO_BLOCK];
    PHYLO_TABLES(t)
    long long first = ((long long) blockIdx.x * PHYLO_BLOCK + threadIdx.x) * PHYLO_PER;
    long long end = first + PHYLO_PER < candidates ? first + PHYLO_PER : candidates;
    double squares = 0.0;
    double entries = 0.0;
    for (long long s = first; s < end; s++) {
        double a;
        if (phylo_entry(t, (unsigned int) s, &a)) {
            entries += 1.0;
            squares += a * a;
        }
    }
    entries = phylo_block_sum(entries, shared); // exact: at most CHUNK, far below 2^53
    squares = phylo_block_sum(squares, shared);
    if (threadIdx.x == 0) {
        chunkCount[blockIdx.x] = (unsigned int) entries;
        chunkSquares[blockIdx.x] = squares;
    }
}

// Step 3, one block: chunkCount becomes the exclusive prefix sums (each chunk's first output index) in place;
// results[0] = entries, results[1] = invalid bytes, results[2] = 1 when some K-string occurs, results[3] = 1 when
// some a(s) is not 0 (doubles, exact at these sizes, for the host to read back); the norm's inverse 1/sqrt(sum a^2)
// (1 when the sum is 0) goes to inverseNorm[0].
extern "C" __global__ void phylo_scan(unsigned int* chunkCount, const double* chunkSquares, int chunks,
                                      const unsigned long long* totals, double* results, double* inverseNorm) {
    __shared__ double shared[PHYLO_BLOCK];
    __shared__ unsigned long long segmentSum[PHYLO_BLOCK];
    int segment = (chunks + PHYLO_BLOCK - 1) / PHYLO_BLOCK;
    int from = threadIdx.x * segment;
    int to = from + segment < chunks ? from + segment : chunks;
    unsigned long long sum = 0;
    double squares = 0.0;
    for (int c = from; c < to; c++) {
        sum += chunkCount[c];
        squares += chunkSquares[c];
    }
    segmentSum[threadIdx.x] = sum;
    squares = phylo_block_sum(squares, shared); // has barriers: segmentSum is complete after it
    if (threadIdx.x == 0) {
        unsigned long long running = 0;
        for (int t = 0; t < PHYLO_BLOCK; t++) {
            unsigned long long here = segmentSum[t];
            segmentSum[t] = running;
            running += here;
        }
        results[0] = (double) running;
        results[1] = (double) totals[PHYLO_INVALID];
        results[2] = totals[PHYLO_N_K] > 0 ? 1.0 : 0.0;
        results[3] = squares > 0.0 ? 1.0 : 0.0;
        inverseNorm[0] = squares > 0.0 ? 1.0 / sqrt(squares) : 1.0;
    }
    __syncthreads();
    unsigned long long running = segmentSum[threadIdx.x];
    for (int c = from; c < to; c++) {
        unsigned int here = chunkCount[c];
        chunkCount[c] = (unsigned int) running;
        running += here;
    }
}

// Step 4: every chunk writes its entries at its offset (chunkOffset from step 3) into the vector item `out`, and
// block 0 writes the header. Nothing is written when the vector has more than maxEntries entries (the host then
// reports the slot too small).
extern "C" __global__ void phylo_write(const unsigned int* countK, const unsigned int* hashKeys,
                                       const unsigned int* hashCounts, long long hashMask,
                                       const unsigned int* countK1, const unsigned int* countK2,
                                       unsigned int modK1, unsigned int modK2,
                                       const unsigned long long* totals, long long candidates,
                                       const unsigned int* chunkOffset, const double* results,
                                       const double* inverseNorm, long long maxEntries, int k, int* out) {
    __shared__ unsigned int threadOffset[PHYLO_BLOCK];
    if (results[0] > (double) maxEntries) {
        return; // the whole grid leaves: no barrier is reached by part of a block
    }
    unsigned int entries = (unsigned int) results[0]; // at most 20^7 < 2^32
    PHYLO_TABLES(t)
    long long first = ((long long) blockIdx.x * PHYLO_BLOCK + threadIdx.x) * PHYLO_PER;
    long long end = first + PHYLO_PER < candidates ? first + PHYLO_PER : candidates;
    unsigned int mine = 0;
    for (long long s = first; s < end; s++) {
        double a;
        if (phylo_entry(t, (unsigned int) s, &a)) {
            mine++;
        }
    }
    threadOffset[threadIdx.x] = mine;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int running = chunkOffset[blockIdx.x];
        for (int i = 0; i < PHYLO_BLOCK; i++) {
            unsigned int here = threadOffset[i];
            threadOffset[i] = running;
            running += here;
        }
    }
    __syncthreads();
    int* keys = out + 2;
    float* values = (float*) (out + 2 + entries);
    double scale = inverseNorm[0];
    unsigned int at = threadOffset[threadIdx.x];
    for (long long s = first; s < end; s++) {
        double a;
        if (phylo_entry(t, (unsigned int) s, &a)) {
            keys[at] = (int) s;
            values[at] = (float) __dmul_rn(a, scale);
            at++;
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = (int) entries;
        out[1] = k;
    }
}

// Compare, step 1, for one part of `parts` (a virtual block): this thread's share of C = sum over the left entries
// whose key the right vector holds of a_i·b_j (binary search in the right's ascending keys), the left entries taken
// part * blockDim + threadIdx, then every parts * blockDim. The per-pair and the tile kernels both sum this way and
// in the same blocks, so a pair's distance is the same bits whichever path compared it.
__device__ double phylo_dot_share(const int* left, const int* right, long long part, long long parts) {
    int na = left[0];
    int nb = right[0];
    const int* keysA = left + 2;
    const float* valuesA = (const float*) (left + 2 + na);
    const int* keysB = right + 2;
    const float* valuesB = (const float*) (right + 2 + nb);
    double sum = 0.0;
    for (long long i = part * blockDim.x + threadIdx.x; i < na; i += parts * blockDim.x) {
        int key = keysA[i];
        int lo = 0;
        int hi = nb;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (keysB[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo < nb && keysB[lo] == key) {
            sum += (double) valuesA[i] * (double) valuesB[lo];
        }
    }
    return sum;
}

// Compare, step 2, for one pair (a whole block): D = (1 - C)/2 from the pair's `parts` partial sums; NaN when the
// vectors were built for different K. Thread 0 gets it.
__device__ double phylo_distance_of(const double* partial, int parts, const int* left, const int* right,
                                    double* shared) {
    double sum = 0.0;
    for (int b = threadIdx.x; b < parts; b += blockDim.x) {
        sum += partial[b];
    }
    sum = phylo_block_sum(sum, shared);
    return left[1] == right[1] ? (1.0 - sum) / 2.0 : __longlong_as_double(0x7ff8000000000000LL);
}

// Compare, step 1 (one pair, a grid of `parts` blocks): partial[b] = block b's share of C.
extern "C" __global__ void phylo_dot(const int* left, const int* right, double* partial) {
    __shared__ double shared[PHYLO_BLOCK];
    double sum = phylo_block_sum(phylo_dot_share(left, right, blockIdx.x, gridDim.x), shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// Compare, step 2 (one block): D = (1 - C)/2 into result[0].
extern "C" __global__ void phylo_distance(const double* partial, int blocks, const int* left, const int* right,
                                          double* result) {
    __shared__ double shared[PHYLO_BLOCK];
    double distance = phylo_distance_of(partial, blocks, left, right, shared);
    if (threadIdx.x == 0) {
        result[0] = distance;
    }
}

// ---- compare: a tile of pairs ---------------------------------------------------------------------------------
//
// A launch group of a tile is up to PHYLO_TILE_PAIRS pairs: items[2p] and items[2p + 1] are pair p's vectors (device
// addresses), and pair p takes blocks first[p] .. first[p + 1] - 1 of one grid, as many as its per-pair launch
// would (PhyloCudaKernels.parts: by the left vector's entries), so every block of the grid has work however the
// tile mixes large and small proteomes. phylo_tile_dot leaves each block's share in partial[block];
// phylo_tile_distance (a block per pair) adds a pair's shares and writes D into its result slot.
#define PHYLO_TILE_PAIRS 1024

// The pair whose blocks include `block`: the last p with first[p] <= block (first[0] = 0, ascending).
__device__ __forceinline__ int phylo_tile_pair(const int* first, int pairCount, int block) {
    int lo = 0;
    int hi = pairCount - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (first[mid] <= block) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

extern "C" __global__ void phylo_tile_dot(const int* const* items, const int* first, int pairCount,
                                          double* partial) {
    __shared__ double shared[PHYLO_BLOCK];
    __shared__ int pair;
    if (threadIdx.x == 0) {
        pair = phylo_tile_pair(first, pairCount, blockIdx.x);
    }
    __syncthreads();
    int p = pair;
    long long part = blockIdx.x - first[p];
    long long parts = first[p + 1] - first[p];
    double sum = phylo_block_sum(phylo_dot_share(items[2 * p], items[2 * p + 1], part, parts), shared);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
    }
}

// One block per pair: results[p * stride] = D of pair p (stride in doubles: the application's result bytes / 8).
extern "C" __global__ void phylo_tile_distance(const double* partial, const int* first, const int* const* items,
                                               double* results, int stride) {
    __shared__ double shared[PHYLO_BLOCK];
    int p = blockIdx.x;
    double distance = phylo_distance_of(partial + first[p], first[p + 1] - first[p], items[2 * p],
                                        items[2 * p + 1], shared);
    if (threadIdx.x == 0) {
        results[(long long) p * stride] = distance;
    }
}
