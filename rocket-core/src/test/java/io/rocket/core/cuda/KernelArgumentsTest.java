package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Launch-argument marshalling, which needs no GPU: values, types, reuse and refusals. */
class KernelArgumentsTest {
    private final CUcontext context = new CUcontext();
    private final KernelArguments args = new KernelArguments(context);

    @Test
    void add_eachType_storesValueInItsSlot() {
        CudaBuffer buffer = new CudaBuffer(context, new DevicePointer(), 64);
        args.add(7);
        args.add(1L << 40);
        args.add(2.5f);
        args.add(-0.125);
        args.add((DeviceBuffer) buffer);
        assertThat(args.count()).isEqualTo(5);
        assertThat(args.value(0)).isEqualTo(7);
        assertThat(args.value(1)).isEqualTo(1L << 40);
        assertThat(args.value(2)).isEqualTo(2.5f);
        assertThat(args.value(3)).isEqualTo(-0.125);
        assertThat(args.value(4)).isEqualTo(buffer.address());
        assertThat(args.kernelParams()).isNotNull();
    }

    @Test
    void addObject_boxedNumbers_unboxToTheirCudaTypes() {
        args.add((Object) 3);
        args.add((Object) 4L);
        args.add((Object) 1.5f);
        args.add((Object) 2.0);
        assertThat(args.value(0)).isInstanceOf(Integer.class).isEqualTo(3);
        assertThat(args.value(1)).isInstanceOf(Long.class).isEqualTo(4L);
        assertThat(args.value(2)).isInstanceOf(Float.class).isEqualTo(1.5f);
        assertThat(args.value(3)).isInstanceOf(Double.class).isEqualTo(2.0);
    }

    @Test
    void secondLaunch_sameArity_reusesEveryPointer() {
        args.add(1);
        args.add(2L);
        Pointer params = args.kernelParams();
        Pointer first = args.parameter(0);
        Pointer second = args.parameter(1);

        args.clear();
        args.add(10);
        args.add(20L);
        assertThat(args.kernelParams()).isSameAs(params);
        assertThat(args.parameter(0)).isSameAs(first);
        assertThat(args.parameter(1)).isSameAs(second);
        assertThat(args.value(0)).isEqualTo(10);
        assertThat(args.value(1)).isEqualTo(20L);
    }

    @Test
    void sameIndex_differentType_pointsAtThatTypesStorage() {
        args.add(1);
        args.kernelParams();
        Pointer asInt = args.parameter(0);
        args.clear();
        args.add(1.0);
        args.kernelParams();
        assertThat(args.parameter(0)).isNotSameAs(asInt);
        assertThat(args.value(0)).isEqualTo(1.0);
    }

    @Test
    void noArguments_passesNoParameterArray() {
        assertThat(args.kernelParams()).isNull();
    }

    @Test
    void unsupportedTypes_refusedNamingTheArgument() {
        args.add(1);
        assertThatThrownBy(() -> args.add((Object) "text"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("argument 1").hasMessageContaining("String")
                .hasMessageContaining("DeviceBuffer, int, long, float or double");
        assertThatThrownBy(() -> args.add((Object) null)).hasMessageContaining("null");
        assertThatThrownBy(() -> args.add((Object) (short) 2)).hasMessageContaining("Short");
    }

    @Test
    void foreignBuffers_refused() {
        DeviceBuffer hostMemory = new DeviceBuffer(8) {
            @Override
            public ByteBuffer byteBuffer() {
                return ByteBuffer.allocateDirect(8);
            }
        };
        assertThatThrownBy(() -> args.add(hostMemory)).hasMessageContaining("not cuda device memory");
        CudaBuffer otherGpu = new CudaBuffer(new CUcontext(), new DevicePointer(), 8);
        assertThatThrownBy(() -> args.add((DeviceBuffer) otherGpu)).hasMessageContaining("another GPU");
    }

    @Test
    void tooManyArguments_refused() {
        for (int k = 0; k < KernelArguments.MAX; k++) {
            args.add(k);
        }
        assertThatThrownBy(() -> args.add(0)).hasMessageContaining("at most " + KernelArguments.MAX);
    }
}
