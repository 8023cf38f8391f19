// Times the forensics preprocess on a GPU, kernel by kernel (CUDA events), as ForensicsCudaKernels launches it, on
// one generated gray photo, and writes the item so that two builds can be compared float for float. Built with
// -DOLD it runs the launch sequence before issue 43 (gradients, divergence, one-thread-per-column zero mean,
// squares, power, Wiener) against that commit's forensics.cu. It also times cuFFT's plan creation, which the
// first preprocess carried before ForensicsCudaKernels.prepare. Needs a GPU and cuFFT; from the repository root:
//
//   nvcc -O3 -arch=sm_90 -I. -DKERNELS='"apps/src/main/cuda/forensics.cu"' -o bench-new \
//        apps/src/test/cuda-emulation/preprocess_bench.cu -lcufft
//   git show 36694d6:apps/src/main/cuda/forensics.cu > /tmp/forensics-old.cu
//   nvcc -O3 -arch=sm_90 -DOLD -DKERNELS='"/tmp/forensics-old.cu"' -o bench-old \
//        apps/src/test/cuda-emulation/preprocess_bench.cu -lcufft
//   ./bench-old 2736 3648 pce 30 old.bin; ./bench-new 2736 3648 pce 30 new.bin   (h w pce|ncc iterations item)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <chrono>
#include <cmath>
#include <cufft.h>
#include KERNELS
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
#define FK(x) do { cufftResult e = (x); if (e != CUFFT_SUCCESS) { printf("%s: %d\n", #x, (int) e); exit(1); } } while (0)
static double now() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static int gridFor(long long e) { long long g = (e + 255) / 256; if (g > 2048) g = 2048; if (g < 1) g = 1; return (int) g; }

int main(int argc, char** argv) {
    int h = atoi(argv[1]), w = atoi(argv[2]); bool pce = strcmp(argv[3], "pce") == 0; int iters = atoi(argv[4]);
    const char* out = argv[5];
    long long n = (long long) h * w, halfLen = (long long) h * (w / 2 + 1);
    std::vector<float> gray(4 + n);
    unsigned long long s = 12345;
    for (long long i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int r = (int) (i / w), c = (int) (i % w);
        double scene = 120 + 60 * sin(r * 0.01) * cos(c * 0.013);
        double noise = ((s >> 33) % 1000) / 1000.0 - 0.5;
        gray[4 + i] = (float) std::round(scene * (1 + 0.01 * noise) + 2 * noise);
    }
    double t0 = now();
    CK(cudaFree(0));
    double tInit = now() - t0;
    t0 = now();
    float *dGray, *item; float2 *spec, *filt; double *colPart, *colMeans, *rowSq, *stats, *partial;
    int strips = (h + 63) / 64;
#ifndef OLD
    int tilesX = (w + 31) / 32, tileRows = (h + 7) / 8;
#endif
    CK(cudaMalloc(&dGray, 4 * (4 + n)));
    CK(cudaMalloc(&item, 16 + (pce ? 8 * halfLen : 4 * n)));
    CK(cudaMalloc(&spec, 8 * n));
    CK(cudaMalloc(&filt, 8 * n)); // old: grad (2n floats, then n doubles)
    CK(cudaMalloc(&colPart, 16LL * strips * w));
    CK(cudaMalloc(&colMeans, 16LL * w));
    CK(cudaMalloc(&rowSq, 8LL * h));
    CK(cudaMalloc(&stats, 64));
    CK(cudaMalloc(&partial, 8 * 3 * 2048));
    CK(cudaDeviceSynchronize());
    double tMalloc = now() - t0;
    t0 = now();
    cufftHandle c2c, c2r;
    FK(cufftPlan2d(&c2c, h, w, CUFFT_C2C));
    double tPlanC2C = now() - t0;
    t0 = now();
    FK(cufftPlan2d(&c2r, h, w, CUFFT_C2R));
    double tPlanC2R = now() - t0;
    CK(cudaMemcpy(dGray, gray.data(), 4 * (4 + n), cudaMemcpyHostToDevice));
    const int K = 12;
    cudaEvent_t ev[K];
    for (int i = 0; i < K; i++) CK(cudaEventCreate(&ev[i]));
    const char* names[K] = {};
    int m = 0;
    auto mark = [&](const char* name) { names[m] = name; CK(cudaEventRecord(ev[m++])); };
    auto preprocess = [&]() {
        m = 0;
        mark("start");
#ifdef OLD
        int g = gridFor(n);
        float* grad = (float*) filt;
        forensics_gradients<<<g, 256>>>(dGray, grad, h, w); mark("gradients");
        forensics_divergence<<<g, 256>>>(grad, spec, h, w); mark("divergence");
        forensics_zero_mean_columns<<<(w + 31) / 32, 32>>>(spec, h, w); mark("zero_mean_columns");
        forensics_zero_mean_rows<<<h, 256>>>(spec, h, w); mark("zero_mean_rows");
        forensics_square_partials<<<g, 256>>>(spec, n, partial); mark("square_partials");
        forensics_noise_variance<<<1, 256>>>(partial, g, n, stats); mark("noise_variance");
        FK(cufftExecC2C(c2c, (cufftComplex*) spec, (cufftComplex*) spec, CUFFT_FORWARD)); mark("fft forward");
        forensics_power<<<g, 256>>>(spec, (double*) grad, n); mark("power");
        forensics_wiener<<<g, 256>>>(spec, (double*) grad, h, w, stats); mark("wiener");
        if (pce) { forensics_half_spectrum<<<gridFor(halfLen), 256>>>(spec, item, h, w); mark("half_spectrum"); }
        else { FK(cufftExecC2C(c2c, (cufftComplex*) spec, (cufftComplex*) spec, CUFFT_INVERSE)); mark("fft inverse");
               forensics_pattern<<<gridFor(n), 256>>>(spec, item, h, w); mark("pattern"); }
#else
        forensics_residual<<<tilesX * strips, 256>>>(dGray, spec, colPart, h, w); mark("residual");
        forensics_column_means<<<tilesX, 256>>>(colPart, strips, colMeans, h, w); mark("column_means");
        forensics_zero_mean_rows<<<h, 256>>>(spec, colMeans, rowSq, h, w); mark("zero_mean_rows");
        forensics_noise_variance<<<1, 256>>>(rowSq, h, n, stats); mark("noise_variance");
        FK(cufftExecC2C(c2c, (cufftComplex*) spec, (cufftComplex*) spec, CUFFT_FORWARD)); mark("fft forward");
        forensics_wiener<<<tilesX * tileRows, 256>>>(spec, filt, h, w, stats); mark("wiener");
        if (pce) { forensics_half_spectrum<<<gridFor(halfLen), 256>>>(filt, item, h, w); mark("half_spectrum"); }
        else { FK(cufftExecC2C(c2c, (cufftComplex*) filt, (cufftComplex*) filt, CUFFT_INVERSE)); mark("fft inverse");
               forensics_pattern<<<gridFor(n), 256>>>(filt, item, h, w); mark("pattern"); }
#endif
        CK(cudaGetLastError());
    };
    t0 = now();
    preprocess();
    CK(cudaDeviceSynchronize());
    double tCold = now() - t0;
    std::vector<double> per(K, 0.0);
    double wall = 0;
    for (int it = 0; it < iters; it++) {
        double a = now();
        preprocess();
        CK(cudaDeviceSynchronize());
        wall += now() - a;
        for (int k = 1; k < m; k++) { float ms; CK(cudaEventElapsedTime(&ms, ev[k - 1], ev[k])); per[k] += ms; }
    }
    double gpu = 0; for (int k = 1; k < m; k++) gpu += per[k];
    printf("%s %dx%d %s: init %.1f ms, malloc %.1f ms, plan C2C %.1f ms, plan C2R %.1f ms, cold preprocess %.2f ms; "
           "steady preprocess %.3f ms (events) %.3f ms (host wall incl. sync), %d iterations\n",
#ifdef OLD
           "old",
#else
           "new",
#endif
           w, h, pce ? "pce" : "ncc", tInit, tMalloc, tPlanC2C, tPlanC2R, tCold, gpu / iters, wall / iters, iters);
    for (int k = 1; k < m; k++) printf("  %-18s %8.1f us\n", names[k], 1000 * per[k] / iters);
    std::vector<float> host((16 + (pce ? 8 * halfLen : 4 * n)) / 4);
    CK(cudaMemcpy(host.data(), item, 4 * host.size(), cudaMemcpyDeviceToHost));
    FILE* f = fopen(out, "wb"); fwrite(host.data(), 4, host.size(), f); fclose(f);
    return 0;
}
