package io.rocket.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code .npy} file read back the way the format defines it, independently of the writers: header and data. */
public record NpyFile(int version, int headerLength, String dict, String descr, long[] shape, ByteBuffer data) {
    private static final Pattern DESCR = Pattern.compile("'descr': ('[^']*'|\\[[^\\]]*\\])");
    private static final Pattern SHAPE = Pattern.compile("'shape': \\(([^)]*)\\)");

    public static NpyFile read(Path path) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[6];
        all.get(magic);
        if (!Arrays.equals(magic, new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'})) {
            throw new IOException(path + ": no .npy magic");
        }
        int version = all.get();
        all.get();
        long length = version == 1 ? Short.toUnsignedInt(all.getShort()) : Integer.toUnsignedLong(all.getInt());
        int headerLength = (int) (all.position() + length);
        String dict = new String(Arrays.copyOfRange(all.array(), all.position(), headerLength),
                StandardCharsets.US_ASCII);
        Matcher d = DESCR.matcher(dict);
        Matcher s = SHAPE.matcher(dict);
        if (!d.find() || !s.find()) {
            throw new IOException(path + ": header without descr or shape: " + dict);
        }
        long[] shape = Arrays.stream(s.group(1).split(",")).map(String::trim).filter(t -> !t.isEmpty())
                .mapToLong(Long::parseLong).toArray();
        ByteBuffer data = all.position(headerLength).slice().order(ByteOrder.LITTLE_ENDIAN);
        return new NpyFile(version, headerLength, dict, d.group(1), shape, data);
    }

    /** The number at {@code element} of a plain float array. */
    public double number(long element) {
        return switch (descr) {
            case "'<f4'" -> data.getFloat((int) element * 4);
            case "'<f8'" -> data.getDouble((int) element * 8);
            default -> throw new IllegalStateException("not a plain float array: " + descr);
        };
    }

    public long elements() {
        return Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    }
}
