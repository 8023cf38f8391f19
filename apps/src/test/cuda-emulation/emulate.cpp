// Runs the forensics, phylogenetics, microscopy and jaccard example CUDA kernels on the CPU through cuda_emu.h, launch
// by launch as ForensicsCudaKernels (with ForensicsPceTiles), PhyloCudaKernels (with PhyloCudaTiles),
// MicroscopyCudaKernels and JaccardCudaKernels issue them (cuFFT replaced by a naive DFT, a batched plan by one per
// transform), and
// compares the items and scores with the cpu kernels' (written by Reference.java). Exit 0 when they agree. Driven by
// ./run.
#include "cuda_emu.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <complex>
#include <cmath>
#include <vector>
#include "forensics.cu"
#include "phylogenetics.cu"
#include "jaccard.cu"
#include "microscopy.cu"

static std::vector<char> readFile(const std::string& p) {
    FILE* f = fopen(p.c_str(), "rb"); if (!f) { perror(p.c_str()); exit(1); }
    std::vector<char> v; char buf[65536]; size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
    fclose(f); return v;
}
static const int B = 256;
static int MAXG = 8; // small grids exercise the grid-stride loops
static int grid(long long e) { long long g = (e + B - 1) / B; if (g < 1) g = 1; if (g > MAXG) g = MAXG; return (int) g; }

// naive unnormalised 2D DFT, sign -1 forward, +1 inverse
static void dft2(float2* z, int h, int w, int sign) {
    std::vector<std::complex<double>> a(h * (size_t) w), t(std::max(h, w));
    for (size_t i = 0; i < a.size(); i++) a[i] = {z[i].x, z[i].y};
    for (int r = 0; r < h; r++) {
        for (int k = 0; k < w; k++) { std::complex<double> s = 0; for (int j = 0; j < w; j++) s += a[r * (size_t) w + j] * std::polar(1.0, sign * 2 * M_PI * (double) ((long long) k * j % w) / w); t[k] = s; }
        for (int k = 0; k < w; k++) a[r * (size_t) w + k] = t[k];
    }
    for (int c = 0; c < w; c++) {
        for (int k = 0; k < h; k++) { std::complex<double> s = 0; for (int j = 0; j < h; j++) s += a[j * (size_t) w + c] * std::polar(1.0, sign * 2 * M_PI * (double) ((long long) k * j % h) / h); t[k] = s; }
        for (int k = 0; k < h; k++) a[k * (size_t) w + c] = t[k];
    }
    for (size_t i = 0; i < a.size(); i++) z[i] = make_float2((float) a[i].real(), (float) a[i].imag());
}
static void c2r(const float2* half, float* out, int h, int w) {
    int hw = w / 2 + 1;
    std::vector<float2> full(h * (size_t) w);
    for (int r = 0; r < h; r++) for (int c = 0; c < w; c++) {
        if (c < hw) full[r * (size_t) w + c] = half[r * (size_t) hw + c];
        else { float2 v = half[((h - r) % h) * (size_t) hw + (w - c)]; full[r * (size_t) w + c] = make_float2(v.x, -v.y); }
    }
    dft2(full.data(), h, w, +1);
    for (size_t i = 0; i < full.size(); i++) out[i] = full[i].x;
}

// mirrors ForensicsCudaKernels.preprocess (tiles of 32 x 8, residual strips of 64 rows)
static std::vector<float> forensicsPreprocess(std::vector<char>& grayItem, int h, int w, bool pce) {
    long long n = (long long) h * w, half = (long long) h * (w / 2 + 1);
    int tilesX = (w + 31) / 32, strips = (h + 63) / 64, tileRows = (h + 7) / 8;
    // Scratch starts as garbage, as cudaMalloc leaves it: a kernel that reads what it did not write shows up.
    std::vector<float2> spec(n, make_float2(-7.f, 3.f)), filtered(n, make_float2(5.f, -9.f));
    std::vector<double> columnPartial(2LL * strips * w, 1e30), columnMeans(2LL * w, -1e30), rowSquares(h, 1e30),
        stats(8, -3.0);
    size_t itemBytes = 16 + (pce ? 8 * half : 4 * n);
    std::vector<float> item(itemBytes / 4, -12345.f);
    const float* gray = (const float*) grayItem.data();
    launch(tilesX * strips, B, [&] { forensics_residual(gray, spec.data(), columnPartial.data(), h, w); });
    launch(tilesX, B, [&] { forensics_column_means(columnPartial.data(), strips, columnMeans.data(), h, w); });
    launch(h, B, [&] { forensics_zero_mean_rows(spec.data(), columnMeans.data(), rowSquares.data(), h, w); });
    launch(1, B, [&] { forensics_noise_variance(rowSquares.data(), h, n, stats.data()); });
    dft2(spec.data(), h, w, -1);
    launch(tilesX * tileRows, B, [&] { forensics_wiener(spec.data(), filtered.data(), h, w, stats.data()); });
    if (pce) {
        launch(grid(half), B, [&] { forensics_half_spectrum(filtered.data(), item.data(), h, w); });
    } else {
        dft2(filtered.data(), h, w, +1);
        launch(grid(n), B, [&] { forensics_pattern(filtered.data(), item.data(), h, w); });
    }
    return item;
}
static double forensicsCompare(std::vector<float>& a, std::vector<float>& b, int h, int w, bool pce) {
    long long n = (long long) h * w, half = (long long) h * (w / 2 + 1);
    std::vector<double> partial(3 * 2048), means(8), result(1);
    int g = grid(n);
    if (pce) {
        std::vector<float2> product(half); std::vector<float> surface(n);
        launch(grid(half), B, [&] { forensics_cross_spectrum(a.data(), b.data(), product.data(), half); });
        c2r(product.data(), surface.data(), h, w);
        launch(g, B, [&] { forensics_energy_partials(surface.data(), h, w, partial.data()); });
        long long box = (long long) std::min(h, 11) * std::min(w, 11);
        launch(1, B, [&] { forensics_pce(partial.data(), g, surface.data(), n, n - box, result.data()); });
    } else {
        launch(g, B, [&] { forensics_ncc_means(a.data(), b.data(), n, partial.data()); });
        launch(1, B, [&] { forensics_ncc_finish_means(partial.data(), g, n, means.data()); });
        launch(g, B, [&] { forensics_ncc_products(a.data(), b.data(), n, means.data(), partial.data()); });
        launch(1, B, [&] { forensics_ncc(partial.data(), g, result.data()); });
    }
    return result[0];
}
// Two-pass NCC in double over two PATTERN items (NccComparator's formula): the reference for the tile kernels.
static double nccReference(const std::vector<float>& a, const std::vector<float>& b, long long n) {
    double sx = 0, sy = 0;
    for (long long i = 0; i < n; i++) { sx += a[4 + i]; sy += b[4 + i]; }
    double mx = sx / n, my = sy / n, sxy = 0, sxx = 0, syy = 0;
    for (long long i = 0; i < n; i++) {
        double dx = a[4 + i] - mx, dy = b[4 + i] - my;
        sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
    }
    double d = std::sqrt(sxx * syy);
    return d > 0 ? sxy / d : 0.0;
}

// Mirrors ForensicsCudaKernels.compareTile (NCC) on a tile of six items made from the two preprocessed ones (mixes,
// a constant pattern, a shifted mean) and every ordered pair among them, launched in two groups as the Java side
// splits a tile: each score must match the two-pass double NCC. Returns the largest relative difference.
static double forensicsTileCheck(const std::vector<float>& i1, const std::vector<float>& i2, int h, int w) {
    long long n = (long long) h * w;
    std::vector<std::vector<float>> items(6, i1);
    for (long long i = 0; i < n; i++) {
        float x = i1[4 + i], y = i2[4 + i];
        items[1][4 + i] = y;
        items[2][4 + i] = 0.6f * x + 0.4f * y;
        items[3][4 + i] = 0.25f;                       // constant: NCC 0 with everything
        items[4][4 + i] = y - 0.3f * x + 40.0f;        // a mean far from 0 (tens of standard deviations)
        items[5][4 + i] = -x;
    }
    std::vector<int> pairs;
    for (int a = 0; a < 6; a++) for (int b = 0; b < 6; b++) if (a != b) { pairs.push_back(a); pairs.push_back(b); }
    int pairCount = (int) pairs.size() / 2;
    int blocks = (int) std::min<long long>(MAXG, (n + 31) / 32);
    double worst = 0;
    // Two launch groups, as a tile with more items than one launch takes is split: pairs [0, 13) and [13, 30).
    int cuts[3] = {0, 13, pairCount};
    for (int g = 0; g < 2; g++) {
        int first = cuts[g], count = cuts[g + 1] - first;
        std::vector<int> local(6, -1); std::vector<const float*> table; std::vector<int> groupPairs;
        for (int p = first; p < first + count; p++) for (int e = 0; e < 2; e++) {
            int item = pairs[2 * p + e];
            if (local[item] < 0) { local[item] = (int) table.size(); table.push_back(items[item].data()); }
            groupPairs.push_back(local[item]);
        }
        int itemCount = (int) table.size();
        std::vector<double> partial((size_t) blocks * (count + 2 * itemCount)), results(2 * pairCount, -7.0);
        launch(blocks, B, [&] { forensics_ncc_tile_partials(table.data(), itemCount, groupPairs.data(), count, n, partial.data()); });
        launch(count, B, [&] { forensics_ncc_tile_finish(partial.data(), blocks, groupPairs.data(), count, itemCount, n, results.data() + 2 * first, 2); });
        for (int p = first; p < first + count; p++) {
            double expected = nccReference(items[pairs[2 * p]], items[pairs[2 * p + 1]], n);
            double got = results[2 * p];
            worst = std::max(worst, std::fabs(got - expected) / std::max(std::fabs(expected), 0.01));
            if (results[2 * p + 1] != -7.0) worst = 1; // wrote outside its slot
        }
    }
    return worst;
}

// Mirrors ForensicsPceTiles.compare on a tile of four SPECTRUM items made from the two preprocessed ones (X, Y, a
// mix, -X: a negative peak) and 11 pairs among them, the self pair first, with a workspace of PCE_BATCH pairs (the
// Java side sizes it from WORKSPACE_BYTES; 4 here splits the tile into batches of 4, 4, 2 and 1 pairs, one batched
// C2R each, the naive DFT per transform). Each score must be the per-pair path's, bit for bit (the same launches
// sum each surface in the same blocks), a slot's neighbour must stay untouched, and the pair (X, Y) must score the
// cpu kernel's `expected` within 1e-4. Returns the number of pairs that fail.
static const int PCE_BATCH = 4;
static int pceTileCheck(const std::vector<float>& i1, const std::vector<float>& i2, int h, int w, double expectedXY) {
    long long n = (long long) h * w, half = (long long) h * (w / 2 + 1);
    std::vector<std::vector<float>> items(4, i1);
    for (long long i = 4; i < (long long) i1.size(); i++) {
        items[1][i] = i2[i];
        items[2][i] = 0.6f * i1[i] + 0.4f * i2[i];
        items[3][i] = -i1[i];
    }
    std::vector<int> pairs = {0, 0};
    for (int a = 0; a < 4; a++) for (int b = 0; b < 4; b++) if (a != b) { pairs.push_back(a); pairs.push_back(b); }
    int pairCount = 11;
    int parts = grid(n); // the per-pair energy grid
    long long box = (long long) std::min(h, 11) * std::min(w, 11);
    // Scratch starts as garbage, as cudaMalloc leaves it.
    std::vector<float2> product(PCE_BATCH * half, make_float2(3.f, -2.f));
    std::vector<float> surface(PCE_BATCH * n, 9.f);
    std::vector<double> partial((size_t) PCE_BATCH * parts, 1e30), results(2 * pairCount, -7.0);
    std::vector<const float*> table(2 * PCE_BATCH);
    int batches = 0;
    for (int start = 0; start < pairCount; batches++) {
        int count = std::min(PCE_BATCH, 1 << (31 - __builtin_clz(pairCount - start)));
        for (int q = 0; q < count; q++) {
            table[2 * q] = items[pairs[2 * (start + q)]].data();
            table[2 * q + 1] = items[pairs[2 * (start + q) + 1]].data();
        }
        long long elements = count * half;
        launch(grid(elements), B, [&] { forensics_tile_cross_spectrum(table.data(), half, elements, product.data()); });
        for (int q = 0; q < count; q++) c2r(product.data() + q * half, surface.data() + q * n, h, w); // batched C2R
        launch(count * parts, B, [&] { forensics_tile_energy_partials(surface.data(), h, w, parts, partial.data()); });
        launch(count, B, [&] { forensics_tile_pce(partial.data(), parts, surface.data(), n, n - box, results.data() + 2 * start, 2); });
        start += count;
    }
    int differ = 0;
    for (int p = 0; p < pairCount; p++) {
        std::vector<float> a = items[pairs[2 * p]], b = items[pairs[2 * p + 1]];
        double expected = forensicsCompare(a, b, h, w, true);
        if (results[2 * p] != expected || results[2 * p + 1] != -7.0) differ++;
    }
    double rel = std::fabs(results[2] - expectedXY) / std::max(std::fabs(expectedXY), 1.0); // pair 1 is (X, Y)
    printf("pce tile of %d pairs in %d batches: %d differ from the per-pair path, (X, Y) %.12g against the cpu's"
           " (relative difference %.3g)\n", pairCount, batches, differ, results[2], rel);
    return differ + (rel < 1e-4 ? 0 : 1);
}

static double maxRel(const float* x, const float* ref, size_t count) {
    double scale = 0; for (size_t i = 0; i < count; i++) scale = std::max(scale, (double) std::fabs(ref[i]));
    double m = 0; for (size_t i = 0; i < count; i++) m = std::max(m, std::fabs((double) x[i] - ref[i]) / scale);
    return m;
}

// mirrors PhyloCudaKernels.preprocess; returns the vector item as ints
static std::vector<int> phyloPreprocess(std::vector<char>& parsed, int k, bool hash, long long maxEntries, int* res) {
    long long candidates = 1; for (int i = 0; i < k; i++) candidates *= 20;
    unsigned modK1 = candidates / 20, modK2 = modK1 / 20;
    long long CH = 256LL * 64; int chunks = (candidates + CH - 1) / CH;
    long long length = parsed.size() - 8;
    long long cap = 1024; while (cap < 2 * length) cap <<= 1;
    std::vector<unsigned> countK(hash ? 1 : candidates, 77), hk(hash ? cap : 1, 5), hc(hash ? cap : 1, 5),
        c1(modK1, 9), c2(modK2, 9), chunkCount(chunks);
    std::vector<double> results(4);
    std::vector<unsigned long long> totals(4, 99);
    std::vector<double> squares(chunks), inv(1);
    std::vector<int> out(2 + 2 * std::max(0LL, maxEntries), -777);
    unsigned* tK = hash ? hk.data() : countK.data(); unsigned* keys = hash ? hk.data() : countK.data();
    unsigned* counts = hash ? hc.data() : countK.data(); long long mask = hash ? cap - 1 : 0;
    if (!hash) launch(grid(candidates), B, [&] { phylo_fill(countK.data(), candidates, 0); });
    else { launch(grid(cap), B, [&] { phylo_fill(hk.data(), cap, 0xFFFFFFFFu); }); launch(grid(cap), B, [&] { phylo_fill(hc.data(), cap, 0); }); }
    launch(grid(modK1), B, [&] { phylo_fill(c1.data(), modK1, 0); });
    launch(grid(modK2), B, [&] { phylo_fill(c2.data(), modK2, 0); });
    launch(1, 32, [&] { phylo_clear_totals(totals.data()); });
    launch(grid(length), B, [&] { phylo_count((const unsigned char*) parsed.data(), length, k, tK, keys, counts, mask, c1.data(), c2.data(), modK1, modK2, totals.data()); });
    launch(chunks, B, [&] { phylo_chunk_counts(tK, keys, counts, mask, c1.data(), c2.data(), modK1, modK2, totals.data(), candidates, chunkCount.data(), squares.data()); });
    launch(1, B, [&] { phylo_scan(chunkCount.data(), squares.data(), chunks, totals.data(), results.data(), inv.data()); });
    launch(chunks, B, [&] { phylo_write(tK, keys, counts, mask, c1.data(), c2.data(), modK1, modK2, totals.data(), candidates, chunkCount.data(), results.data(), inv.data(), maxEntries, k, out.data()); });
    for (int i = 0; i < 4; i++) res[i] = (int) results[i];
    return out;
}
// PhyloCudaKernels.parts: a block per 4 left entries a thread, at most PHYLO_MAX_PARTS (4 per multiprocessor; 8
// here, as for two multiprocessors, so a large vector's pair is capped and a small one's is not).
static const int PHYLO_MAX_PARTS = 8;
static int phyloParts(const std::vector<int>& left) {
    long long perBlock = 256LL * 4;
    return (int) std::max(1LL, std::min((long long) PHYLO_MAX_PARTS, (left[0] + perBlock - 1) / perBlock));
}
static double phyloCompare(std::vector<int>& a, std::vector<int>& b) {
    int g = phyloParts(a); std::vector<double> partial(g), result(1);
    launch(g, B, [&] { phylo_dot(a.data(), b.data(), partial.data()); });
    launch(1, B, [&] { phylo_distance(partial.data(), g, a.data(), b.data(), result.data()); });
    return result[0];
}

// Mirrors PhyloCudaTiles.compare on a tile of items {A, B, A, a one-entry vector} and the pairs (0,1), (1,0), (0,2),
// (2,1), (1,1), (3,0), (0,3) in two launch groups ([0, 3) and [3, 7), as a group full of pairs or blocks is cut), each
// pair taking phyloParts of its left vector's blocks: every distance must be the per-pair path's bit for bit, and a
// slot's neighbour must stay untouched, and the pairs of A and B must be the cpu kernel's `expected` within 1e-5.
// Returns the number of pairs that fail.
static int phyloTileCheck(std::vector<int>& v1, std::vector<int>& v2, double expected) {
    std::vector<int> one = {1, v1[1], v1[2], 0};
    float unit = 1.0f;
    std::memcpy(&one[3], &unit, 4);
    std::vector<std::vector<int>*> items = {&v1, &v2, &v1, &one};
    int pairs[14] = {0, 1, 1, 0, 0, 2, 2, 1, 1, 1, 3, 0, 0, 3};
    int pairCount = 7, cuts[3] = {0, 3, pairCount};
    std::vector<double> results(2 * pairCount, -7.0);
    for (int g = 0; g < 2; g++) {
        std::vector<const int*> table; std::vector<int> first = {0};
        for (int p = cuts[g]; p < cuts[g + 1]; p++) {
            table.push_back(items[pairs[2 * p]]->data());
            table.push_back(items[pairs[2 * p + 1]]->data());
            first.push_back(first.back() + phyloParts(*items[pairs[2 * p]]));
        }
        int count = cuts[g + 1] - cuts[g];
        std::vector<double> partial(first.back(), 1e30);
        launch(first.back(), B, [&] { phylo_tile_dot(table.data(), first.data(), count, partial.data()); });
        launch(count, B, [&] { phylo_tile_distance(partial.data(), first.data(), table.data(), results.data() + 2 * cuts[g], 2); });
    }
    int differ = 0;
    for (int p = 0; p < pairCount; p++) {
        double perPair = phyloCompare(*items[pairs[2 * p]], *items[pairs[2 * p + 1]]);
        if (std::memcmp(&results[2 * p], &perPair, 8) != 0 || results[2 * p + 1] != -7.0) differ++;
    }
    int far = 0;
    for (int p : {0, 1, 3}) far += std::fabs(results[2 * p] - expected) < 1e-5 ? 0 : 1; // (A,B), (B,A), (A',B)
    printf("tile of %d pairs in two launch groups (%d and %d blocks a pair): %d differ from the per-pair path, %d of"
           " 3 from the cpu's\n", pairCount, phyloParts(v1), phyloParts(v2), differ, far);
    return differ + far;
}

// mirrors JaccardCudaKernels: preprocess copies the set into its slot, compare is one block of 256 threads
static int jaccardCheck(const std::string& d) {
    auto a = readFile(d + "/set1.bin"), b = readFile(d + "/set2.bin");
    long long n = a.size() / 8, m = b.size() / 8;
    std::vector<unsigned long long> sa(n, 7), sb(m, 7);
    launch(grid(n), B, [&] { jaccard_copy((const unsigned long long*) a.data(), sa.data(), n); });
    launch(grid(m), B, [&] { jaccard_copy((const unsigned long long*) b.data(), sb.data(), m); });
    bool copied = std::memcmp(sa.data(), a.data(), a.size()) == 0 && std::memcmp(sb.data(), b.data(), b.size()) == 0;
    std::vector<double> result(1, -1);
    launch(1, 256, [&] { jaccard_compare((const long long*) sa.data(), n, (const long long*) sb.data(), m, result.data()); });
    FILE* f = fopen((d + "/jaccard.txt").c_str(), "r");
    double expected = 0; if (!f || fscanf(f, "%lf", &expected) != 1) { printf("no expected similarity\n"); return 1; }
    fclose(f);
    // A tile as JaccardCudaKernels.compareTile launches it: items {A, B, A}, pairs (0,1), (1,0), (0,2), (2,1), one
    // block each, results two doubles apart (the second must stay untouched).
    const long long* table[3] = {(const long long*) sa.data(), (const long long*) sb.data(), (const long long*) sa.data()};
    int counts[3] = {(int) n, (int) m, (int) n};
    int pairs[8] = {0, 1, 1, 0, 0, 2, 2, 1};
    std::vector<double> tile(8, -7.0);
    launch(4, 256, [&] { jaccard_tile(table, counts, pairs, tile.data(), 2); });
    bool tileOk = std::fabs(tile[0] - expected) < 1e-12 && std::fabs(tile[2] - expected) < 1e-12
            && tile[4] == 1.0 && std::fabs(tile[6] - expected) < 1e-12
            && tile[1] == -7.0 && tile[3] == -7.0 && tile[5] == -7.0 && tile[7] == -7.0;
    bool ok = copied && std::fabs(result[0] - expected) < 1e-12 && tileOk;
    printf("%lld x %lld hashes: similarity %.12g expected %.12g, tile %s, sets copied %s: %s\n", n, m, result[0],
           expected, tileOk ? "agrees" : "DIFFERS", copied ? "intact" : "CHANGED", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}

// ---- microscopy: mirrors MicroscopyCudaKernels (grid, Pair.upload, Pair.costs, Pair.scores) ----
static const int MICRO_BLOCK = 128, MICRO_BLOCKS_PER_SM = 8, MICRO_MIN_CHUNK = 32;

// MicroscopyCudaKernels.grid: blocks per pose as [model blocks, scene chunks].
static void microscopyGrid(int count, int m, int n, int target, int& modelBlocks, int& chunks) {
    modelBlocks = (m + MICRO_BLOCK - 1) / MICRO_BLOCK;
    int wanted = (target + count - 1) / count;
    chunks = (wanted + modelBlocks - 1) / modelBlocks;
    chunks = std::max(1, std::min(chunks, (n + MICRO_MIN_CHUNK - 1) / MICRO_MIN_CHUNK));
}
// Pair.upload: the batch's poses as (tx, ty, cos, sin), the first MICROSCOPY_INLINE_POSES into `inl` (the launch's
// arguments, the rest zero), the others through microscopy_set_poses, MICROSCOPY_POSES_PER_SET per launch.
static void microscopyPose(const double* batch, int first, int count, double* into) {
    for (int k = 0; k < count; k++) {
        double theta = batch[3 * (first + k) + 2];
        into[4 * k] = batch[3 * (first + k)];
        into[4 * k + 1] = batch[3 * (first + k) + 1];
        into[4 * k + 2] = std::cos(theta);
        into[4 * k + 3] = std::sin(theta);
    }
}
static void microscopyUpload(double* poses, const double* batch, int count, double* inl) {
    std::fill(inl, inl + 4 * MICROSCOPY_INLINE_POSES, 0.0);
    microscopyPose(batch, 0, std::min(MICROSCOPY_INLINE_POSES, count), inl);
    for (int first = MICROSCOPY_INLINE_POSES; first < count; first += MICROSCOPY_POSES_PER_SET) {
        int here = std::min(MICROSCOPY_POSES_PER_SET, count - first);
        double v[4 * MICROSCOPY_POSES_PER_SET] = {0};
        microscopyPose(batch, first, here, v);
        launch(1, 32, [&] { microscopy_set_poses(poses, first, here, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22],
                v[23], v[24], v[25], v[26], v[27]); });
    }
}
#define MICRO_INLINE(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], \
        a[15], a[16], a[17], a[18], a[19]
// Checks the batched cost kernel on the coarse bins, fine bins and full sets, and the score kernel, against the cpu
// kernels' sums (Reference.java microscopy) for one multiprocessor count (which sets the grid: 1 gives one chunk
// per pose, more give several). Each launch runs twice: the sums must repeat bit for bit and the counter come back to 0.
static int microscopyCheck(const std::string& d, int sms) {
    auto leftBytes = readFile(d + "/slot1.bin"), rightBytes = readFile(d + "/slot2.bin");
    auto posesBytes = readFile(d + "/poses.bin");
    std::vector<double> left(leftBytes.size() / 8), right(rightBytes.size() / 8);
    std::memcpy(left.data(), leftBytes.data(), leftBytes.size());
    std::memcpy(right.data(), rightBytes.data(), rightBytes.size());
    int count = (int) (posesBytes.size() / 24);
    const double* batch = (const double*) posesBytes.data();
    int target = MICRO_BLOCKS_PER_SM * sms;
    int maxModelBlocks = ((int) std::max(left[0], right[0]) + MICRO_BLOCK - 1) / MICRO_BLOCK;
    std::vector<double> partials(4 * ((size_t) target + (size_t) count * (maxModelBlocks + 1)), -1.0);
    std::vector<double> poses(4 * count), out(4 * count), again(4 * count);
    unsigned done = 12345;
    launch(1, 1, [&] { microscopy_clear(&done); });
    double inl[4 * MICROSCOPY_INLINE_POSES];
    microscopyUpload(poses.data(), batch, count, inl);
    bool ok = done == 0;
    double worst = 0;
    const double scale = 10.0;
    int sizes[3][2] = {{(int) left[4], (int) right[4]}, {(int) left[5], (int) right[5]}, {(int) left[0], (int) right[0]}};
    for (int set = 0; set < 3; set++) {
        auto expectedBytes = readFile(d + "/cost" + std::to_string(set) + ".bin");
        const double* expected = (const double*) expectedBytes.data();
        double s = set == 0 ? 2 * scale : scale, invS2 = 1.0 / (s * s);
        int modelBlocks, chunks;
        microscopyGrid(count, sizes[set][0], sizes[set][1], target, modelBlocks, chunks);
        for (int run = 0; run < 2; run++) {
            std::vector<double>& o = run == 0 ? out : again;
            launch(count * modelBlocks * chunks, MICRO_BLOCK, [&] { microscopy_cost(left.data(), right.data(), set,
                    poses.data(), count, modelBlocks, chunks, invS2, partials.data(), &done, o.data(), MICRO_INLINE(inl)); });
            ok = ok && done == 0;
        }
        ok = ok && std::memcmp(out.data(), again.data(), 8 * out.size()) == 0;
        double norm = 1.0 / (left[0] * right[0]), g = -2.0 * invS2 * norm;
        for (int k = 0; k < count; k++) {
            const double* e = expected + 4 * k;
            double gradient = std::sqrt(e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
            double cost = std::fabs(out[4 * k] * norm - e[0]) / std::max(e[0], 1e-300);
            double grad = 0;
            for (int c = 1; c < 4; c++) grad = std::max(grad, std::fabs(g * out[4 * k + c] - e[c]) / std::max(gradient, 1e-300));
            worst = std::max(worst, std::max(cost, grad));
            ok = ok && cost < 1e-9 && grad < 1e-9 && e[0] > 0;
        }
        printf("set %d (%d x %d points): %d poses x %d model blocks x %d chunks\n", set, sizes[set][0], sizes[set][1],
               count, modelBlocks, chunks);
    }
    auto scoreBytes = readFile(d + "/score.bin");
    const double* expected = (const double*) scoreBytes.data();
    int modelBlocks, chunks;
    microscopyGrid(count, sizes[2][0], sizes[2][1], target, modelBlocks, chunks);
    for (int run = 0; run < 2; run++) {
        std::vector<double>& o = run == 0 ? out : again;
        launch(count * modelBlocks * chunks, MICRO_BLOCK, [&] { microscopy_score(left.data(), right.data(), poses.data(),
                count, modelBlocks, chunks, partials.data(), &done, o.data(), MICRO_INLINE(inl)); });
        ok = ok && done == 0;
    }
    ok = ok && std::memcmp(out.data(), again.data(), 8 * count) == 0;
    for (int k = 0; k < count; k++) {
        double rel = std::fabs(out[k] - expected[k]) / std::max(expected[k], 1e-300);
        worst = std::max(worst, rel);
        ok = ok && rel < 1e-9 && expected[k] > 0;
    }
    printf("%d poses, %d multiprocessors: largest relative difference %.3g, repeatable, counter re-armed: %s\n",
           count, sms, worst, ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}

int main(int argc, char** argv) {
    std::string mode = argv[1];
    if (mode == "jaccard") {
        return jaccardCheck(argv[2]);
    }
    if (mode == "microscopy") {
        return microscopyCheck(argv[2], atoi(argv[3]));
    }
    if (mode == "forensics") {
        int h = atoi(argv[2]), w = atoi(argv[3]); bool pce = std::string(argv[4]) == "pce";
        std::string d = argv[5];
        auto g1 = readFile(d + "/gray1.bin"), g2 = readFile(d + "/gray2.bin");
        auto i1 = forensicsPreprocess(g1, h, w, pce), i2 = forensicsPreprocess(g2, h, w, pce);
        auto ref = readFile(d + (pce ? "/item1_pce.bin" : "/item1_ncc.bin"));
        int* hdr = (int*) i1.data(); int* rh = (int*) ref.data();
        printf("header gpu %x %d %d %d ref %x %d %d %d\n", hdr[0], hdr[1], hdr[2], hdr[3], rh[0], rh[1], rh[2], rh[3]);
        printf("item bytes gpu %zu ref %zu\n", i1.size() * 4, ref.size());
        printf("item max rel diff %.3g\n", maxRel(i1.data() + 4, (const float*) ref.data() + 4, i1.size() - 4));
        double score = forensicsCompare(i1, i2, h, w, pce);
        FILE* f = fopen((d + (pce ? "/score_pce.txt" : "/score_ncc.txt")).c_str(), "r");
        double expected = 0; if (!f || fscanf(f, "%lf", &expected) != 1) { printf("no expected score\n"); return 1; }
        fclose(f);
        double floor = pce ? 1.0 : 0.01, rel = std::fabs(score - expected) / std::max(std::fabs(expected), floor);
        double itemDiff = maxRel(i1.data() + 4, (const float*) ref.data() + 4, i1.size() - 4);
        bool ok = hdr[0] == rh[0] && hdr[1] == rh[1] && hdr[2] == rh[2] && i1.size() * 4 == ref.size()
                && itemDiff < 1e-4 && rel < 1e-4;
        if (pce) {
            ok = ok && pceTileCheck(i1, i2, h, w, expected) == 0;
        } else {
            double tile = forensicsTileCheck(i1, i2, h, w);
            printf("ncc tile of 30 pairs in two launch groups: max relative difference %.3g\n", tile);
            ok = ok && tile < 1e-4;
        }
        printf("score %.12g expected %.12g (relative difference %.3g): %s\n", score, expected, rel, ok ? "ok" : "MISMATCH");
        return ok ? 0 : 1;
    } else {
        int k = atoi(argv[2]); bool hash = std::string(argv[3]) == "hash"; std::string d = argv[4];
        long long maxEntries = atoll(argv[5]);
        auto p1 = readFile(d + "/parsed1.bin"), p2 = readFile(d + "/parsed2.bin");
        int r1[4], r2[4];
        auto v1 = phyloPreprocess(p1, k, hash, maxEntries, r1), v2 = phyloPreprocess(p2, k, hash, maxEntries, r2);
        printf("results %d %d %d %d / %d %d %d %d\n", r1[0], r1[1], r1[2], r1[3], r2[0], r2[1], r2[2], r2[3]);
        if (r1[0] > maxEntries || r2[0] > maxEntries) { printf("too large\n"); return 1; }
        auto ref = readFile(d + "/vec1.bin"); const int* rv = (const int*) ref.data();
        int n = rv[0];
        printf("entries gpu %d ref %d, k %d ref %d\n", v1[0], n, v1[1], rv[1]);
        int keyDiff = 0; double valDiff = 0;
        for (int i = 0; i < std::min(n, v1[0]); i++) {
            if (v1[2 + i] != rv[2 + i]) keyDiff++;
            float a, b; std::memcpy(&a, &v1[2 + v1[0] + i], 4); std::memcpy(&b, &rv[2 + n + i], 4);
            valDiff = std::max(valDiff, (double) std::fabs(a - b));
        }
        printf("key mismatches %d, max value diff %.3g\n", keyDiff, valDiff);
        // trailing slot must be untouched beyond the item
        if ((size_t)(2 + 2 * v1[0]) < v1.size()) printf("after item: %d\n", v1[2 + 2 * v1[0]]);
        double distance = phyloCompare(v1, v2);
        FILE* f = fopen((d + "/distance.txt").c_str(), "r");
        double expected = 0; if (!f || fscanf(f, "%lf", &expected) != 1) { printf("no expected distance\n"); return 1; }
        fclose(f);
        // One protein of a single repeated residue (two proteins, 40 and 9 A's): every a(s) is exactly 0 (the
        // double evaluation leaves residues of 1e-16 that the integer check removes), so results[3] says all zero
        // and the host fails the item, as the cpu builder does.
        std::vector<char> poly(8);
        int polyHeader[2] = {2, 49};
        std::memcpy(poly.data(), polyHeader, 8);
        for (int len : {40, 9}) { for (int i = 0; i < len; i++) poly.push_back(0); poly.push_back((char) 0xFF); }
        int r3[4];
        auto v3 = phyloPreprocess(poly, k, hash, maxEntries, r3);
        bool polyZero = r3[0] >= 1 && r3[1] == 0 && r3[2] == 1 && r3[3] == 0;
        for (int i = 0; i < v3[0]; i++) { float a; std::memcpy(&a, &v3[2 + v3[0] + i], 4); polyZero = polyZero && a == 0.0f; }
        printf("one repeated residue: %d entries, all-zero flag %d: %s\n", r3[0], 1 - r3[3], polyZero ? "ok" : "MISMATCH");
        int tileDiffer = phyloTileCheck(v1, v2, expected);
        bool ok = v1[0] == n && v1[1] == rv[1] && keyDiff == 0 && valDiff < 1e-5 && std::fabs(distance - expected) < 1e-5
                && r1[1] == 0 && r1[2] == 1 && r1[3] == 1 && polyZero && tileDiffer == 0;
        printf("distance %.12g expected %.12g: %s\n", distance, expected, ok ? "ok" : "MISMATCH");
        return ok ? 0 : 1;
    }
}
