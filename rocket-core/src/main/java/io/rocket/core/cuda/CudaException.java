package io.rocket.core.cuda;

import io.rocket.core.RocketException;

/**
 * A CUDA driver or cuFFT call failed. The message names the operation, the device and the error code's name
 * (e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}), so it can be shown to a user as is.
 */
public class CudaException extends RocketException {
    /** The driver's {@code CUresult} or cuFFT's {@code cufftResult} value. */
    private final int code;
    /** The symbolic name of {@link #code}, e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}. */
    private final String codeName;

    CudaException(String operation, int code, String codeName) {
        super(operation + " failed: " + codeName);
        this.code = code;
        this.codeName = codeName;
    }

    CudaException(String message, int code, String codeName, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.codeName = codeName;
    }

    /**
     * The numeric error code returned by the library.
     *
     * @return the driver's {@code CUresult} or cuFFT's {@code cufftResult} value
     */
    public int code() {
        return code;
    }

    /**
     * The symbolic name of {@link #code()}.
     *
     * @return the name, e.g. {@code CUDA_ERROR_OUT_OF_MEMORY}, never null
     */
    public String codeName() {
        return codeName;
    }
}
