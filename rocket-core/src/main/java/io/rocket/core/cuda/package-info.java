/**
 * The cuda backend: NVIDIA GPUs through the CUDA driver API (JCuda 12.6, which needs only {@code libcuda.so.1} at
 * run time), pinned host memory for the node's host buffers, kernels packaged as PTX/fatbin class-path resources,
 * and cuFFT bound with JNA.
 *
 * <p>Applications see only {@link io.rocket.core.cuda.CudaKernelContext} (launch a kernel by name with typed
 * arguments, make cuFFT plans), {@link io.rocket.core.cuda.CudaLaunch}, {@link io.rocket.core.cuda.CuFft} and
 * {@link io.rocket.core.cuda.CudaException}; no JCuda type appears in a public signature. Everything else is
 * package-private plumbing found through {@link io.rocket.core.cuda.CudaDeviceProvider}.
 */
package io.rocket.core.cuda;
