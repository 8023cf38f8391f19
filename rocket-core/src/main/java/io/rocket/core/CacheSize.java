package io.rocket.core;

import java.util.Locale;

/**
 * A cache size as users give it: bytes with an optional K/M/G/T suffix (binary units), or a slot count such as
 * {@code 40slots}. Resolved to a slot count once the slot size is known.
 *
 * @param bytes bytes, or -1 when given as slots
 * @param slots slot count, or -1 when given as bytes
 */
public record CacheSize(long bytes, long slots) {

    /**
     * Parses {@code 512M}, {@code 2G}, {@code 1048576}, {@code 40slots}.
     *
     * @param text a non-negative number of bytes, possibly fractional ({@code 1.5G}), with an optional K, M, G or T
     *        suffix (powers of 1024) and an optional trailing {@code B}; or a whole number followed by {@code slots}
     *        ({@code slot} also works). Case and surrounding blanks are ignored.
     * @return the size, with {@link #bytes()} or {@link #slots()} set and the other -1
     * @throws RocketException when {@code text} is neither form, or negative
     */
    public static CacheSize parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("slots") || s.endsWith("slot")) {
                long n = Long.parseLong(s.substring(0, s.indexOf("slot")).trim());
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return new CacheSize(-1, n);
            }
            long unit = 1;
            char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
            if (s.endsWith("b")) {
                s = s.substring(0, s.length() - 1);
                last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
            }
            switch (last) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
            if (unit != 1) {
                s = s.substring(0, s.length() - 1);
            }
            double value = Double.parseDouble(s.trim());
            if (value < 0 || Double.isNaN(value)) {
                throw new NumberFormatException();
            }
            return new CacheSize((long) (value * unit), -1);
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new RocketException("bad size '" + text + "': expected a non-negative number of bytes with an "
                    + "optional K/M/G suffix (e.g. 512M) or a slot count (e.g. 40slots)");
        }
    }

    /**
     * Slots of {@code slotBytes} that fit.
     *
     * @param slotBytes the size of one slot in bytes (values below 1 count as 1)
     * @return the slot count as given, or the number of whole slots that fit in the bytes given; at least 0
     */
    public long slots(long slotBytes) {
        return slots >= 0 ? slots : bytes / Math.max(1, slotBytes);
    }

    @Override
    public String toString() {
        return slots >= 0 ? slots + "slots" : bytes + "B";
    }
}
