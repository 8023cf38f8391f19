package io.rocket.apps.cuda;

import io.rocket.testkit.Gpu;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.cuda.CuFft;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceKernelContext;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.Devices;
import org.jtransforms.fft.FloatFFT_2D;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * cuFFT through Rocket's binding against JTransforms on the CPU: 2-D R2C, C2R and C2C, each within 1e-4 of the
 * largest magnitude, including sizes that are not powers of two; a batched C2R plan against one transform at a time.
 */
@Tag("gpu")
class CuFftGpuTest {
    private static final double TOLERANCE = 1e-4;
    private Devices.Opened opened;
    private Device device;
    private DeviceKernelContext context;

    @BeforeEach
    void open() {
        Gpu.assumePresent();
        assumeTrue(CuFft.unavailabilityCause().isEmpty(), () -> CuFft.unavailabilityCause().orElse(""));
        opened = Devices.open(DeviceSpec.parse("cuda:0"));
        device = opened.devices().get(0);
        context = device.kernelContext();
    }

    @AfterEach
    void close() {
        if (opened != null) {
            opened.devices().forEach(Device::close);
            opened.hostMemory().close();
        }
    }

    @ParameterizedTest
    @CsvSource({"64, 48", "45, 30", "128, 256"})
    void realToComplexAndBack_matchJTransforms(int nx, int ny) {
        float[] real = random(nx * ny, nx * 31L + ny);
        CudaKernelContext cuda = CudaKernelContext.of(context);
        CuFft.Plan forward = cuda.fft2d(nx, ny, CuFft.Type.R2C);
        CuFft.Plan inverse = cuda.fft2d(nx, ny, CuFft.Type.C2R);
        DeviceBuffer spatial = device.allocate(forward.realBytes());
        DeviceBuffer spectrum = device.allocate(forward.complexBytes());
        upload(real, spatial);
        context.begin();
        forward.forward(spatial, spectrum);
        context.end();
        float[] gpu = download(spectrum, nx * (ny / 2 + 1) * 2);

        float[] full = new float[2 * nx * ny];
        System.arraycopy(real, 0, full, 0, real.length);
        new FloatFFT_2D(nx, ny).realForwardFull(full);
        float[] half = new float[gpu.length];
        for (int r = 0; r < nx; r++) {
            System.arraycopy(full, r * 2 * ny, half, r * 2 * (ny / 2 + 1), 2 * (ny / 2 + 1));
        }
        assertClose(gpu, half);

        context.begin();
        inverse.inverse(spectrum, spatial);
        context.end();
        float[] back = download(spatial, nx * ny);
        for (int k = 0; k < back.length; k++) {
            back[k] /= nx * ny;
        }
        assertClose(back, real);
        forward.close();
        inverse.close();
    }

    @ParameterizedTest
    @CsvSource({"32, 32", "27, 50"})
    void complexForwardAndInverse_matchJTransforms(int nx, int ny) {
        float[] data = random(2 * nx * ny, 7L * nx + ny);
        CuFft.Plan plan = CudaKernelContext.of(context).fft2d(nx, ny, CuFft.Type.C2C);
        DeviceBuffer buffer = device.allocate(plan.complexBytes());
        upload(data, buffer);
        context.begin();
        plan.forward(buffer, buffer);
        context.end();
        float[] expected = data.clone();
        new FloatFFT_2D(nx, ny).complexForward(expected);
        assertClose(download(buffer, data.length), expected);

        context.begin();
        plan.inverse(buffer, buffer);
        context.end();
        float[] back = download(buffer, data.length);
        for (int k = 0; k < back.length; k++) {
            back[k] /= nx * ny;
        }
        assertClose(back, data);
    }

    @ParameterizedTest
    @CsvSource({"45, 30, 3", "64, 48, 8"})
    void batchedComplexToReal_matchesOneTransformAtATime(int nx, int ny, int batch) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        CuFft.Plan single = cuda.fft2d(nx, ny, CuFft.Type.C2R);
        CuFft.Plan many = cuda.fft2d(nx, ny, CuFft.Type.C2R, batch);
        assertThat(many.batch()).isEqualTo(batch);
        assertThat(many.complexBytes()).isEqualTo(batch * single.complexBytes());
        assertThat(many.realBytes()).isEqualTo(batch * single.realBytes());
        int halfFloats = (int) (single.complexBytes() / 4);
        int realFloats = (int) (single.realBytes() / 4);
        // Half spectra of real arrays (so C2R is well defined): each the R2C of its own random array.
        CuFft.Plan forward = cuda.fft2d(nx, ny, CuFft.Type.R2C);
        DeviceBuffer spatial = device.allocate(single.realBytes());
        DeviceBuffer spectra = device.allocate(many.complexBytes());
        float[] all = new float[batch * halfFloats];
        for (int b = 0; b < batch; b++) {
            upload(random(realFloats, 13L * b + nx), spatial);
            DeviceBuffer spectrum = device.allocate(single.complexBytes());
            context.begin();
            forward.forward(spatial, spectrum);
            context.end();
            System.arraycopy(download(spectrum, halfFloats), 0, all, b * halfFloats, halfFloats);
        }
        upload(all, spectra);
        DeviceBuffer surfaces = device.allocate(many.realBytes());
        context.begin();
        many.inverse(spectra, surfaces);
        context.end();
        float[] batched = download(surfaces, batch * realFloats);
        DeviceBuffer one = device.allocate(single.complexBytes());
        for (int b = 0; b < batch; b++) {
            float[] half = new float[halfFloats];
            System.arraycopy(all, b * halfFloats, half, 0, halfFloats);
            upload(half, one);
            context.begin();
            single.inverse(one, spatial);
            context.end();
            float[] part = new float[realFloats];
            System.arraycopy(batched, b * realFloats, part, 0, realFloats);
            assertClose(part, download(spatial, realFloats));
        }
        forward.close();
        single.close();
        many.close();
    }

    private void upload(float[] values, DeviceBuffer target) {
        HostBuffer host = opened.hostMemory().allocate(4L * values.length);
        host.byteBuffer().asFloatBuffer().put(values);
        device.copyToDevice(host, target, 4L * values.length);
    }

    private float[] download(DeviceBuffer source, int count) {
        HostBuffer host = opened.hostMemory().allocate(4L * count);
        device.copyToHost(source, host, 4L * count);
        float[] values = new float[count];
        host.byteBuffer().asFloatBuffer().get(values);
        return values;
    }

    private static float[] random(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] values = new float[count];
        for (int k = 0; k < count; k++) {
            values[k] = (float) (random.nextDouble() * 2 - 1);
        }
        return values;
    }

    private static void assertClose(float[] actual, float[] expected) {
        assertThat(actual).hasSameSizeAs(expected);
        double scale = 0;
        for (float v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        double worst = 0;
        for (int k = 0; k < actual.length; k++) {
            worst = Math.max(worst, Math.abs(actual[k] - expected[k]));
        }
        assertThat(worst / scale).as("largest error relative to the largest magnitude").isLessThan(TOLERANCE);
    }
}
