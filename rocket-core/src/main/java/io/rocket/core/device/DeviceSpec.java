package io.rocket.core.device;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which devices a node uses, as given on the command line: {@code cpu}, {@code sim}, {@code cpu:4} (four cpu
 * devices), {@code cpu:all} (one cpu device per core the node can compute on, see {@link #computeCores}), or for GPUs {@code cuda} (all) and {@code cuda:0,2} (those ordinals). Simulated devices may be made
 * slower, to model a straggler or a node with older GPUs: {@code sim@4} and {@code sim:2@4} multiply every modelled
 * cost (kernels and copies) by 4.
 *
 * @param kind the backend
 * @param count number of devices (cpu/sim), or -1 for "all" (cuda)
 * @param ordinals explicit device ordinals (cuda), empty otherwise
 * @param slowdown factor on every modelled cost of the sim devices ({@code @F}); 1 for every other kind
 */
public record DeviceSpec(DeviceKind kind, int count, List<Integer> ordinals, double slowdown) {

    /**
     * Checks the slowdown and copies the ordinals.
     *
     * @param kind the backend, never null
     * @param count the number of devices (cpu, sim), or -1 for all of them (cuda)
     * @param ordinals the device ordinals to use (cuda), empty otherwise; copied, never null
     * @param slowdown the factor on every modelled cost, a finite number above 0; 1 unless {@code kind} is sim
     * @throws IllegalArgumentException when {@code slowdown} is not a finite number above 0, or is not 1 for a kind
     *         other than sim
     */
    public DeviceSpec {
        if (!(slowdown > 0) || Double.isInfinite(slowdown)) {
            throw new IllegalArgumentException("slowdown must be a finite number > 0, got " + slowdown);
        }
        if (slowdown != 1 && kind != DeviceKind.SIM) {
            throw new IllegalArgumentException("a slowdown applies only to sim devices");
        }
        ordinals = List.copyOf(ordinals);
    }

    /**
     * Devices at their own speed.
     *
     * @param kind the backend, never null
     * @param count the number of devices (cpu, sim), or -1 for all of them (cuda)
     * @param ordinals the device ordinals to use (cuda), empty otherwise; copied
     */
    public DeviceSpec(DeviceKind kind, int count, List<Integer> ordinals) {
        this(kind, count, ordinals, 1);
    }

    /**
     * The spec {@code cpu:all}: one cpu device per core this node can compute on.
     *
     * @return a cpu spec of {@link #computeCores(int)} devices for this machine's available processors
     */
    public static DeviceSpec cpuAll() {
        return new DeviceSpec(DeviceKind.CPU, computeCores(Runtime.getRuntime().availableProcessors()), List.of());
    }

    /**
     * How many cores of a node compute pairs when its cpu devices are {@code cpu:all}. Each cpu device computes
     * its cached pairs on its own kernel thread (a leaf at a time, see the node pipeline's tiles), so a
     * device keeps one core busy. On a small node every core
     * computes: the runtime's own threads (I/O, parse, copies, the result writer) are idle once the items are
     * cached. From 5 cores up one core is left to them, because there they have enough work (reading, parsing and
     * writing results for the other cores) to be worth a core.
     *
     * @param cores the processors the JVM may use, at least 1
     * @return the number of cpu devices, at least 1
     */
    public static int computeCores(int cores) {
        return cores <= 4 ? Math.max(1, cores) : cores - 1;
    }

    /**
     * Parses a device option value.
     *
     * @param text {@code cpu}, {@code sim}, {@code cuda}, {@code cpu:N} or {@code sim:N} (N at least 1),
     *        {@code cpu:all} (see {@link #cpuAll()}),
     *        {@code sim@F} or {@code sim:N@F} (F a slowdown above 0), or {@code cuda:0,1} (ordinals); case and
     *        surrounding blanks are ignored
     * @return the spec, never null
     * @throws RocketException when {@code text} has none of these forms; the message says what is expected
     */
    public static DeviceSpec parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        double slowdown = 1;
        int at = s.indexOf('@');
        if (at >= 0) {
            slowdown = parseSlowdown(text, s.substring(at + 1));
            s = s.substring(0, at);
        }
        String name = s;
        String arg = null;
        int colon = s.indexOf(':');
        if (colon >= 0) {
            name = s.substring(0, colon);
            arg = s.substring(colon + 1);
        }
        DeviceKind kind;
        try {
            kind = DeviceKind.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new RocketException("unknown device '" + text
                    + "' (expected cpu, sim, cuda, cpu:N, cpu:all, sim:N, sim:N@F or cuda:0,1)");
        }
        if (at >= 0 && kind != DeviceKind.SIM) {
            throw new RocketException("bad device '" + text + "': a slowdown @F applies only to sim devices");
        }
        if (kind == DeviceKind.CUDA) {
            List<Integer> ordinals = new ArrayList<>();
            if (arg != null) {
                for (String part : arg.split(",")) {
                    ordinals.add(parseCount(text, part, 0));
                }
            }
            return new DeviceSpec(kind, ordinals.isEmpty() ? -1 : ordinals.size(), List.copyOf(ordinals));
        }
        if (kind == DeviceKind.CPU && "all".equals(arg)) {
            return cpuAll();
        }
        return new DeviceSpec(kind, arg == null ? 1 : parseCount(text, arg, 1), List.of(), slowdown);
    }

    private static double parseSlowdown(String text, String part) {
        try {
            double value = Double.parseDouble(part.trim());
            if (value > 0 && !Double.isInfinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new RocketException("bad device '" + text + "': slowdown '" + part + "' is not a number > 0");
    }

    private static int parseCount(String text, String part, int min) {
        try {
            int value = Integer.parseInt(part.trim());
            if (value < min) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new RocketException("bad device '" + text + "': '" + part + "' is not a number >= " + min);
        }
    }

    @Override
    public String toString() {
        if (kind == DeviceKind.CUDA) {
            return ordinals.isEmpty() ? "cuda" : "cuda:" + String.join(",", ordinals.stream().map(String::valueOf).toList());
        }
        String devices = count == 1 ? kind.id() : kind.id() + ":" + count;
        return slowdown == 1 ? devices : devices + "@" + (slowdown == Math.rint(slowdown)
                ? String.valueOf((long) slowdown) : String.valueOf(slowdown));
    }
}
