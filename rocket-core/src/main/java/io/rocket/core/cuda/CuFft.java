package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import jcuda.driver.CUcontext;

import java.util.Optional;

/**
 * 2-D FFTs on the GPU with the system's cuFFT (single precision): plans for real-to-complex, complex-to-real and
 * complex-to-complex transforms of {@code nx} rows by {@code ny} columns, row-major, one or a batch of them at once.
 * Plans come from {@link CudaKernelContext#fft2d} and run on the device's kernel stream like any kernel of the step.
 *
 * <p>Layouts (cuFFT's): real data is {@code nx·ny} floats; the half spectrum of a real transform is {@code nx} rows
 * of {@code ny/2+1} interleaved complex values (8 bytes each); complex data is {@code nx·ny} interleaved complex
 * values. A batch of {@code b} transforms reads and writes {@code b} such arrays one right after another (cuFFT's
 * basic batched layout, {@code cufftPlanMany}). Transforms are unnormalised: forward then inverse multiplies by
 * {@code nx·ny}.
 *
 * <p>cuFFT is optional: {@link #unavailabilityCause()} says why it cannot be used (typically: not installed), so
 * applications that need it can fail with a clear message and tests can skip.
 */
public final class CuFft {
    private static final int FORWARD = -1;
    private static final int INVERSE = 1;

    private CuFft() {
    }

    /** The single-precision transform kinds. */
    public enum Type {
        /** Real input, half-spectrum complex output; runs {@link Plan#forward} only. */
        R2C(0x2a),
        /** Half-spectrum complex input, real output; runs {@link Plan#inverse} only. */
        C2R(0x2c),
        /** Complex to complex, either direction. */
        C2C(0x29);

        private final int code;

        Type(int code) {
            this.code = code;
        }

        /** cuFFT's {@code cufftType} value. */
        int code() {
            return code;
        }
    }

    /**
     * Empty when cuFFT is loaded, else a one-line reason. Loads the library on the first call.
     *
     * @return empty when cuFFT can be used, else why not (typically: not installed); never throws
     */
    public static Optional<String> unavailabilityCause() {
        return Optional.ofNullable(CuFftLibrary.load().cause());
    }

    /**
     * The loaded library and cuFFT version, e.g. {@code libcufft.so.12 (cuFFT 12000)}, if loaded.
     *
     * @return the library and version for logs and the summary, or empty when cuFFT cannot be used
     */
    public static Optional<String> library() {
        CuFftLibrary.Loaded loaded = CuFftLibrary.load();
        return loaded.cause() != null ? Optional.empty()
                : Optional.of(loaded.library() + " (cuFFT " + loaded.version() + ")");
    }

    /** Makes a plan of {@code batch} transforms in the current context, bound to {@code stream}. */
    static Plan plan2d(int nx, int ny, Type type, int batch, CudaStream stream, CUcontext owner, String device) {
        String cause = CuFftLibrary.load().cause();
        if (cause != null) {
            throw new CudaException("cuFFT plan on " + device + ": " + cause, -1, "CUFFT_NOT_AVAILABLE", null);
        }
        if (nx < 1 || ny < 1 || batch < 1) {
            throw new IllegalArgumentException("FFT size " + nx + "x" + ny + " and batch " + batch
                    + " must be positive");
        }
        int[] handle = new int[1];
        if (batch == 1) {
            check(CuFftLibrary.cufftPlan2d(handle, nx, ny, type.code()), "cufftPlan2d(" + nx + ", " + ny + ", "
                    + type + ") on " + device);
        } else {
            planMany(handle, nx, ny, type, batch, device);
        }
        Plan plan = new Plan(handle[0], nx, ny, type, batch, owner, device);
        try {
            check(CuFftLibrary.cufftSetStream(handle[0], stream.address()), "cufftSetStream on " + device);
        } catch (RuntimeException e) {
            plan.close();
            throw e;
        }
        return plan;
    }

    /**
     * A batched plan with the basic layout spelt out (JNA passes no null arrays in direct mapping): each transform's
     * input and output packed, one after another. The complex side of a real transform has {@code ny/2+1} columns.
     */
    private static void planMany(int[] handle, int nx, int ny, Type type, int batch, String device) {
        int[] real = {nx, ny};
        int[] complex = {nx, type == Type.C2C ? ny : ny / 2 + 1};
        int[] in = type == Type.R2C ? real : complex;
        int[] out = type == Type.C2R ? real : complex;
        check(CuFftLibrary.cufftPlanMany(handle, 2, new int[]{nx, ny}, in, 1, in[0] * in[1], out, 1,
                out[0] * out[1], type.code(), batch), "cufftPlanMany(" + nx + ", " + ny + ", " + type + ", batch "
                + batch + ") on " + device);
    }

    static void check(int result, String operation) {
        if (result != 0) {
            throw new CudaException(operation, result, resultName(result));
        }
    }

    /** As {@link #check(int, String)}, naming the device only on failure (the execute path allocates nothing). */
    static void check(int result, String function, String device) {
        if (result != 0) {
            check(result, function + " on " + device);
        }
    }

    /** cufftResult names (cufft.h); codes newer than this list show as numbers. */
    static String resultName(int result) {
        return switch (result) {
            case 0 -> "CUFFT_SUCCESS";
            case 1 -> "CUFFT_INVALID_PLAN";
            case 2 -> "CUFFT_ALLOC_FAILED";
            case 3 -> "CUFFT_INVALID_TYPE";
            case 4 -> "CUFFT_INVALID_VALUE";
            case 5 -> "CUFFT_INTERNAL_ERROR";
            case 6 -> "CUFFT_EXEC_FAILED";
            case 7 -> "CUFFT_SETUP_FAILED";
            case 8 -> "CUFFT_INVALID_SIZE";
            case 9 -> "CUFFT_UNALIGNED_DATA";
            case 11 -> "CUFFT_INVALID_DEVICE";
            case 13 -> "CUFFT_NO_WORKSPACE";
            case 14 -> "CUFFT_NOT_IMPLEMENTED";
            case 16 -> "CUFFT_NOT_SUPPORTED";
            case 17 -> "CUFFT_MISSING_DEPENDENCY";
            default -> "cufftResult " + result;
        };
    }

    /**
     * A cuFFT plan of fixed size, type and batch on one GPU's kernel stream. Executing only queues the transform; it is
     * complete when the kernel step ends. Use it on the kernel thread; {@link #close()} is idempotent.
     */
    public static final class Plan implements AutoCloseable {
        private final int handle;
        private final int nx;
        private final int ny;
        private final Type type;
        private final int batch;
        private final CUcontext owner;
        private final String device;
        private boolean closed;

        private Plan(int handle, int nx, int ny, Type type, int batch, CUcontext owner, String device) {
            this.handle = handle;
            this.nx = nx;
            this.ny = ny;
            this.type = type;
            this.batch = batch;
            this.owner = owner;
            this.device = device;
        }

        /**
         * The number of rows.
         *
         * @return the number of rows the plan was made for, at least 1
         */
        public int nx() {
            return nx;
        }

        /**
         * The number of columns: the fastest-varying dimension.
         *
         * @return the number of columns the plan was made for, at least 1
         */
        public int ny() {
            return ny;
        }

        /**
         * The transform kind.
         *
         * @return the kind the plan was made for, never null
         */
        public Type type() {
            return type;
        }

        /**
         * The number of transforms one execution runs.
         *
         * @return the batch the plan was made for, at least 1
         */
        public int batch() {
            return batch;
        }

        /**
         * Bytes of the real side ({@code nx·ny} floats a transform, times the batch).
         *
         * @return the size in bytes of the real arrays: the least capacity of a real input or output buffer
         */
        public long realBytes() {
            return (long) nx * ny * Float.BYTES * batch;
        }

        /**
         * Bytes of the complex side: the half spectrum for R2C/C2R, the full array for C2C, times the batch.
         *
         * @return the size in bytes of the complex arrays: the least capacity of a complex input or output buffer
         */
        public long complexBytes() {
            long columns = type == Type.C2C ? ny : ny / 2 + 1;
            return (long) nx * columns * 2 * Float.BYTES * batch;
        }

        /**
         * The forward transform: R2C (real → half spectrum) or C2C forward. In place when both are the same.
         * Queued on the kernel stream; complete when the kernel step ends.
         *
         * @param in device memory of this plan's GPU: {@link #realBytes()} (R2C) or {@link #complexBytes()} (C2C)
         *        at least, read from offset 0
         * @param out device memory of this plan's GPU, {@link #complexBytes()} at least, written from offset 0; may
         *        be {@code in}
         * @throws IllegalStateException for a C2R plan, or when the plan is closed
         * @throws IllegalArgumentException when a buffer is not this GPU's memory or is too small
         * @throws CudaException when cuFFT refuses the transform
         */
        public void forward(DeviceBuffer in, DeviceBuffer out) {
            switch (type) {
                case R2C -> check(CuFftLibrary.cufftExecR2C(handle, address(in, realBytes(), "input"),
                        address(out, complexBytes(), "output")), "cufftExecR2C", device);
                case C2C -> check(CuFftLibrary.cufftExecC2C(handle, address(in, complexBytes(), "input"),
                        address(out, complexBytes(), "output"), FORWARD), "cufftExecC2C", device);
                case C2R -> throw new IllegalStateException("a C2R plan only runs inverse transforms");
            }
        }

        /**
         * The inverse transform, unnormalised: C2R (half spectrum → real) or C2C inverse. In place when both are the
         * same. Queued on the kernel stream; complete when the kernel step ends.
         *
         * @param in device memory of this plan's GPU, {@link #complexBytes()} at least, read from offset 0 (cuFFT
         *        may overwrite it for C2R)
         * @param out device memory of this plan's GPU: {@link #realBytes()} (C2R) or {@link #complexBytes()} (C2C)
         *        at least, written from offset 0; may be {@code in}
         * @throws IllegalStateException for an R2C plan, or when the plan is closed
         * @throws IllegalArgumentException when a buffer is not this GPU's memory or is too small
         * @throws CudaException when cuFFT refuses the transform
         */
        public void inverse(DeviceBuffer in, DeviceBuffer out) {
            switch (type) {
                case C2R -> check(CuFftLibrary.cufftExecC2R(handle, address(in, complexBytes(), "input"),
                        address(out, realBytes(), "output")), "cufftExecC2R", device);
                case C2C -> check(CuFftLibrary.cufftExecC2C(handle, address(in, complexBytes(), "input"),
                        address(out, complexBytes(), "output"), INVERSE), "cufftExecC2C", device);
                case R2C -> throw new IllegalStateException("an R2C plan only runs forward transforms");
            }
        }

        private long address(DeviceBuffer buffer, long needed, String role) {
            if (closed) {
                throw new IllegalStateException("cuFFT plan is closed");
            }
            if (!(buffer instanceof CudaBuffer cuda) || !cuda.ownedBy(owner)) {
                throw new IllegalArgumentException("FFT " + role + " is not device memory of " + device);
            }
            if (buffer.capacity() < needed) {
                throw new IllegalArgumentException("FFT " + role + " of " + buffer.capacity() + " bytes is smaller "
                        + "than the " + needed + " " + batch + " " + nx + "x" + ny + " " + type
                        + " transform(s) need");
            }
            return cuda.address();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                check(CuFftLibrary.cufftDestroy(handle), "cufftDestroy", device);
            }
        }
    }
}
