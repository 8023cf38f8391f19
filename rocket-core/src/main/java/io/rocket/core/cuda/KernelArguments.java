package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import jcuda.Pointer;
import jcuda.driver.CUcontext;

/**
 * Marshals kernel arguments into the {@code void** kernelParams} array cuLaunchKernel expects, with no allocation
 * per launch. Argument {@code k} of each type has its own one-element array and a {@link Pointer} to it, made once;
 * JCuda reads the arrays' current contents at each call, so a launch only stores values and picks, for its arity,
 * a pre-made parameter array. Device buffers are passed as 8-byte addresses, exactly like {@code long}s.
 *
 * <p>Type mapping (the kernel's parameter must match): {@link DeviceBuffer} → a pointer ({@code T*}), {@code int}
 * → {@code int}, {@code long} → {@code long long}, {@code float} → {@code float}, {@code double} → {@code double}.
 * Confined to the kernel thread of one device.
 */
final class KernelArguments {
    /** The most arguments one kernel may take. */
    static final int MAX = 32;

    private final CUcontext owner;
    private final int[][] ints = new int[MAX][1];
    private final long[][] longs = new long[MAX][1];
    private final float[][] floats = new float[MAX][1];
    private final double[][] doubles = new double[MAX][1];
    private final Pointer[] intPointers = new Pointer[MAX];
    private final Pointer[] longPointers = new Pointer[MAX];
    private final Pointer[] floatPointers = new Pointer[MAX];
    private final Pointer[] doublePointers = new Pointer[MAX];
    /** For each arity n, the n pointers handed to the driver and the pointer to that array. */
    private final Pointer[][] parameters = new Pointer[MAX + 1][];
    private final Pointer[] kernelParams = new Pointer[MAX + 1];
    private final Pointer[] current = new Pointer[MAX];
    private int count;

    /** @param owner the context whose buffers these kernels may take */
    KernelArguments(CUcontext owner) {
        this.owner = owner;
        for (int k = 0; k < MAX; k++) {
            intPointers[k] = Pointer.to(ints[k]);
            longPointers[k] = Pointer.to(longs[k]);
            floatPointers[k] = Pointer.to(floats[k]);
            doublePointers[k] = Pointer.to(doubles[k]);
        }
    }

    /** Starts a new argument list. */
    void clear() {
        count = 0;
    }

    /** Adds one argument of any supported type (the varargs path); boxed numbers are unboxed. */
    void add(Object arg) {
        if (arg instanceof DeviceBuffer buffer) {
            add(buffer);
        } else if (arg instanceof Integer i) {
            add(i.intValue());
        } else if (arg instanceof Long l) {
            add(l.longValue());
        } else if (arg instanceof Float f) {
            add(f.floatValue());
        } else if (arg instanceof Double d) {
            add(d.doubleValue());
        } else {
            throw new IllegalArgumentException("kernel argument " + count + " is "
                    + (arg == null ? "null" : "a " + arg.getClass().getSimpleName())
                    + "; kernels take DeviceBuffer, int, long, float or double");
        }
    }

    void add(DeviceBuffer buffer) {
        if (!(buffer instanceof CudaBuffer cuda)) {
            throw new IllegalArgumentException("kernel argument " + count + " is not cuda device memory ("
                    + (buffer == null ? "null" : buffer.getClass().getSimpleName()) + ")");
        }
        if (!cuda.ownedBy(owner)) {
            throw new IllegalArgumentException("kernel argument " + count + " is memory of another GPU");
        }
        add(cuda.address());
    }

    void add(int value) {
        int k = next();
        ints[k][0] = value;
        current[k] = intPointers[k];
    }

    void add(long value) {
        int k = next();
        longs[k][0] = value;
        current[k] = longPointers[k];
    }

    void add(float value) {
        int k = next();
        floats[k][0] = value;
        current[k] = floatPointers[k];
    }

    void add(double value) {
        int k = next();
        doubles[k][0] = value;
        current[k] = doublePointers[k];
    }

    private int next() {
        if (count == MAX) {
            throw new IllegalArgumentException("a kernel takes at most " + MAX + " arguments");
        }
        return count++;
    }

    /** The number of arguments added since {@link #clear()}. */
    int count() {
        return count;
    }

    /** The {@code kernelParams} pointer for the current arguments; null for a kernel without parameters. */
    Pointer kernelParams() {
        if (count == 0) {
            return null;
        }
        Pointer[] array = parameters[count];
        if (array == null) {
            // Once per arity for the life of the context.
            array = new Pointer[count];
            parameters[count] = array;
            kernelParams[count] = Pointer.to(array);
        }
        System.arraycopy(current, 0, array, 0, count);
        return kernelParams[count];
    }

    /** The pointer passed for argument {@code k} (for tests). */
    Pointer parameter(int k) {
        return parameters[count] == null ? current[k] : parameters[count][k];
    }

    /** The value stored for argument {@code k}, boxed (for tests and error messages). */
    Object value(int k) {
        Pointer p = current[k];
        if (p == intPointers[k]) {
            return ints[k][0];
        } else if (p == longPointers[k]) {
            return longs[k][0];
        } else if (p == floatPointers[k]) {
            return floats[k][0];
        }
        return doubles[k][0];
    }
}
