package io.rocket.core.device;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which devices a node uses, as given on the command line: {@code cpu}, {@code sim}, {@code cpu:4} (four cpu
 * devices), or for GPUs {@code cuda} (all) and {@code cuda:0,2} (those ordinals).
 *
 * @param kind the backend
 * @param count number of devices (cpu/sim), or -1 for "all" (cuda)
 * @param ordinals explicit device ordinals (cuda), empty otherwise
 */
public record DeviceSpec(DeviceKind kind, int count, List<Integer> ordinals) {

    /** Parses a device option value. */
    public static DeviceSpec parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
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
            throw new RocketException("unknown device '" + text + "' (expected cpu, sim, cuda, cpu:N, sim:N or cuda:0,1)");
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
        return new DeviceSpec(kind, arg == null ? 1 : parseCount(text, arg, 1), List.of());
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
        return count == 1 ? kind.id() : kind.id() + ":" + count;
    }
}
