package io.rocket.apps;

import io.rocket.cluster.ClusterSecurity;
import io.rocket.cluster.DataPlane;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code rocket bench-data-plane}: measures the cluster data plane between two JVMs on this host — the item size
 * the paper's forensics app moves (150 MB by default), sent from a direct buffer and read straight into another
 * JVM's direct buffer, as the L3 cache does — in each security mode, one after the other in one run: plain (an open
 * cluster), authenticated (a cluster secret) and encrypted (--cluster-encrypt).
 */
@Command(name = "bench-data-plane", mixinStandardHelpOptions = true,
        description = "Sends one large item between two JVMs over the data plane on 127.0.0.1 and reports GB/s, "
                + "plain, authenticated and encrypted.")
public final class DataPlaneBenchCommand implements Callable<Integer> {

    /** The security modes measured. */
    enum Mode { plain, authenticated, encrypted }

    @Spec
    CommandSpec spec;

    @Option(names = "--megabytes", defaultValue = "150", description = "Item size in MB. Default: ${DEFAULT-VALUE}.")
    int megabytes;

    @Option(names = "--repeat", defaultValue = "5", description = "Transfers to time per mode. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = "--warmup", defaultValue = "1",
            description = "Untimed transfers first in each mode (JIT compilation of the ciphers). Default: ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = "--modes", split = ",", defaultValue = "plain,authenticated,encrypted",
            description = "Modes to measure, in order: plain, authenticated, encrypted. Default: ${DEFAULT-VALUE}.")
    List<Mode> modes;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "The cluster secret for the authenticated and encrypted modes. Default: a random one.")
    Path secretFile;

    @Option(names = "--receiver", hidden = true, description = "Run as the receiving JVM.")
    boolean receiver;

    @Override
    public Integer call() throws Exception {
        int bytes = megabytes << 20;
        return receiver ? receive(bytes) : send(bytes);
    }

    private ClusterSecurity security(Mode mode) {
        return mode == Mode.plain ? ClusterSecurity.NONE : ClusterSecurity.fromFile(secretFile, mode == Mode.encrypted);
    }

    /**
     * The child JVM: one data plane per mode (all receiving into the same buffer, as transfers come one at a time);
     * prints each plane's port, then one line of nanoseconds per frame received.
     */
    private int receive(int bytes) throws Exception {
        ByteBuffer target = ByteBuffer.allocateDirect(bytes);
        CountDownLatch all = new CountDownLatch(modes.size() * (warmup + repeat));
        long[] begun = new long[1];
        PrintWriter out = new PrintWriter(System.out, true);
        List<DataPlane> planes = new ArrayList<>();
        for (Mode mode : modes) {
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
            }, security(mode), 0, r -> true);
            planes.add(plane);
            out.println("port " + plane.address().getPort());
        }
        all.await(5, TimeUnit.MINUTES);
        planes.forEach(DataPlane::close);
        return 0;
    }

    private int send(int bytes) throws Exception {
        var w = spec.commandLine().getOut();
        Path made = null;
        if (secretFile == null && modes.stream().anyMatch(m -> m != Mode.plain)) {
            made = Files.createTempFile("rocket-bench-secret", "",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Files.write(made, secret);
            secretFile = made;
        }
        ByteBuffer source = ByteBuffer.allocateDirect(bytes);
        for (int k = 0; k + 8 <= bytes; k += 8) {
            source.putLong(k, k * 0x9E3779B97F4A7C15L);
        }
        Map<Mode, double[]> results;
        try {
            results = measure(bytes, source, w);
        } finally {
            if (made != null) {
                Files.deleteIfExists(made);
            }
        }
        double plain = results.containsKey(Mode.plain) ? results.get(Mode.plain)[0] : 0;
        for (Map.Entry<Mode, double[]> e : results.entrySet()) {
            w.printf(Locale.ROOT, "data plane %-13s %d MB items between two JVMs on loopback: mean %.2f GB/s, best %.2f GB/s%s%n",
                    e.getKey() + ":", megabytes, e.getValue()[0], e.getValue()[1],
                    plain > 0 && e.getKey() != Mode.plain
                            ? String.format(Locale.ROOT, " (%.2f × plain)", e.getValue()[0] / plain) : "");
        }
        w.flush();
        return 0;
    }

    /**
     * One receiving JVM with a data plane per mode; the modes take turns, one transfer each per round, so that
     * whatever else the machine does affects them alike. Returns {mean, best} GB/s per mode.
     */
    private Map<Mode, double[]> measure(int bytes, ByteBuffer source, PrintWriter w) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:MaxDirectMemorySize=" + (2L * bytes + (64 << 20)),
                "-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "bench-data-plane",
                "--receiver", "--megabytes", "" + megabytes, "--repeat", "" + repeat, "--warmup", "" + warmup,
                "--modes", String.join(",", modes.stream().map(Mode::name).toList())));
        if (secretFile != null) {
            cmd.addAll(List.of("--secret-file", secretFile.toString()));
        }
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<DataPlane> planes = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            List<InetSocketAddress> targets = new ArrayList<>();
            for (Mode mode : modes) {
                String line = in.readLine();
                if (line == null || !line.startsWith("port ")) {
                    throw new IllegalStateException("receiver did not start: " + line);
                }
                targets.add(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        Integer.parseInt(line.substring(5).trim())));
                planes.add(new DataPlane(InetAddress.getLoopbackAddress(), new DataPlane.Sink() {
                    @Override
                    public ByteBuffer begin(long requestId, int item, long length) {
                        return null;
                    }

                    @Override
                    public void end(long requestId, int hop, long length, boolean ok) {
                    }
                }, security(mode), 1, r -> true));
            }
            Map<Mode, double[]> results = new LinkedHashMap<>();
            modes.forEach(m -> results.put(m, new double[2]));
            for (int r = -warmup; r < repeat; r++) {
                for (int m = 0; m < modes.size(); m++) {
                    Mode mode = modes.get(m);
                    CountDownLatch sent = new CountDownLatch(1);
                    planes.get(m).send(targets.get(m), r, 0, 1, source, bytes, sent::countDown);
                    sent.await();
                    String frame = in.readLine();
                    String[] f = frame == null ? new String[0] : frame.split(" ");
                    if (f.length < 4 || !f[3].equals("true")) {
                        throw new IllegalStateException(mode + ": transfer " + (r + 1) + " failed: " + frame);
                    }
                    if (r < 0) {
                        continue;
                    }
                    double gbps = bytes / (Long.parseLong(f[1]) / 1e9) / 1e9;
                    double[] figures = results.get(mode);
                    figures[0] += gbps / repeat;
                    figures[1] = Math.max(figures[1], gbps);
                    w.printf(Locale.ROOT, "%s transfer %d: %d MB in %.1f ms = %.2f GB/s%n", mode, r + 1, megabytes,
                            Long.parseLong(f[1]) / 1e6, gbps);
                }
            }
            return results;
        } finally {
            planes.forEach(DataPlane::close);
            child.waitFor(30, TimeUnit.SECONDS);
            child.destroy();
        }
    }
}
