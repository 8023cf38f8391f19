package io.rocket.apps;

import io.rocket.steal.cluster.DataPlane;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code rocket bench-data-plane}: measures the cluster data plane between two JVMs on this host — the item size
 * the paper's forensics app moves (150 MB by default), sent from a direct buffer and read straight into another
 * JVM's direct buffer, as the L3 cache does.
 */
@Command(name = "bench-data-plane", mixinStandardHelpOptions = true,
        description = "Sends one large item between two JVMs over the data plane on 127.0.0.1 and reports GB/s.")
public final class DataPlaneBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--megabytes", defaultValue = "150", description = "Item size in MB. Default: ${DEFAULT-VALUE}.")
    int megabytes;

    @Option(names = "--repeat", defaultValue = "5", description = "Transfers to time. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = "--receiver", hidden = true, description = "Run as the receiving JVM.")
    boolean receiver;

    @Override
    public Integer call() throws Exception {
        int bytes = megabytes << 20;
        return receiver ? receive(bytes) : send(bytes);
    }

    /** The child JVM: prints its port, then one line of nanoseconds per frame received. */
    private int receive(int bytes) throws Exception {
        ByteBuffer target = ByteBuffer.allocateDirect(bytes);
        CountDownLatch all = new CountDownLatch(repeat);
        long[] begun = new long[1];
        PrintWriter out = new PrintWriter(System.out, true);
        DataPlane plane = new DataPlane(InetAddress.getLoopbackAddress(), new DataPlane.Sink() {
            @Override
            public ByteBuffer begin(long requestId, int item, long length) {
                begun[0] = System.nanoTime();
                return target;
            }

            @Override
            public void end(long requestId, int hop, long length, boolean ok) {
                out.println("frame " + (System.nanoTime() - begun[0]) + " " + length + " " + ok);
                all.countDown();
            }
        });
        out.println("port " + plane.address().getPort());
        all.await(5, TimeUnit.MINUTES);
        plane.close();
        return 0;
    }

    private int send(int bytes) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:MaxDirectMemorySize=" + (2L * bytes + (64 << 20)),
                "-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "bench-data-plane",
                "--receiver", "--megabytes", "" + megabytes, "--repeat", "" + repeat));
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var w = spec.commandLine().getOut();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line = in.readLine();
            if (line == null || !line.startsWith("port ")) {
                throw new IllegalStateException("receiver did not start: " + line);
            }
            int port = Integer.parseInt(line.substring(5).trim());
            ByteBuffer source = ByteBuffer.allocateDirect(bytes);
            for (int k = 0; k < bytes; k += 8) {
                source.putLong(k, k * 0x9E3779B97F4A7C15L);
            }
            DataPlane plane = new DataPlane(InetAddress.getLoopbackAddress(), new DataPlane.Sink() {
                @Override
                public ByteBuffer begin(long requestId, int item, long length) {
                    return null;
                }

                @Override
                public void end(long requestId, int hop, long length, boolean ok) {
                }
            });
            InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            double best = 0;
            double sum = 0;
            for (int r = 0; r < repeat; r++) {
                CountDownLatch sent = new CountDownLatch(1);
                plane.send(to, r, 0, 1, source, bytes, sent::countDown);
                sent.await();
                String frame = in.readLine();
                String[] f = frame.split(" ");
                double gbps = bytes / (Long.parseLong(f[1]) / 1e9) / 1e9;
                best = Math.max(best, gbps);
                sum += gbps;
                w.printf(Locale.ROOT, "transfer %d: %d MB in %.1f ms = %.2f GB/s%n", r + 1, megabytes,
                        Long.parseLong(f[1]) / 1e6, gbps);
            }
            w.printf(Locale.ROOT, "data plane: %d MB items between two JVMs on loopback: mean %.2f GB/s, best %.2f GB/s%n",
                    megabytes, sum / repeat, best);
            w.flush();
            plane.close();
        } finally {
            child.waitFor(30, TimeUnit.SECONDS);
            child.destroy();
        }
        return 0;
    }
}
