package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * The uncompressed text size of a proteome file, found before the run so that the cache slots can be sized for the
 * largest proteome. Plain files: the file size. Gzip files (recognised by their magic bytes, as the parser does):
 * the ISIZE field of the gzip trailer (the last four bytes), which costs two small reads instead of a
 * decompression. ISIZE describes only the last gzip member and wraps at 4 GiB, so it is trusted only when it is
 * plausible: no smaller than the file could be if stored uncompressed, and at most {@link #MAX_RATIO} times the file
 * size (protein FASTA compresses about 2:1; a larger ratio more likely means garbage from a truncated file). Files
 * with a gzip extra field (bgzip writes one, and its files are many small members) and implausible trailers are
 * decompressed and counted instead. A file that cannot be decompressed counts with its own size: its parse will fail
 * and name the problem, and it must not inflate every slot meanwhile. A file of concatenated plain gzip members
 * whose last member looks plausible is underestimated; its parse then fails with a message naming the size needed.
 */
public final class TextSize {

    /** Largest compression ratio trusted from a gzip trailer. */
    public static final int MAX_RATIO = 16;

    private static final int FLAG_EXTRA = 0x04;

    private TextSize() {
    }

    /** The uncompressed size in bytes of {@code file}'s text (an estimate for unusual gzip files, see above). */
    public static long of(Path file) throws IOException {
        long size;
        ByteBuffer head = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer tail = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            size = channel.size();
            if (size < 18) { // smaller than an empty gzip member: plain text (or junk the parser rejects)
                return size;
            }
            readFully(channel, head, 0);
            if ((head.get(0) & 0xff) != 0x1f || (head.get(1) & 0xff) != 0x8b) {
                return size;
            }
            if ((head.get(3) & FLAG_EXTRA) != 0) {
                return streamedSize(file, size);
            }
            readFully(channel, tail, size - 4);
        }
        long isize = Integer.toUnsignedLong(tail.getInt(0));
        return plausible(isize, size) ? isize : streamedSize(file, size);
    }

    /** Whether a trailer's ISIZE can be the text size of a single-member gzip file of {@code fileSize} bytes. */
    static boolean plausible(long isize, long fileSize) {
        // deflate's stored blocks cost 5 bytes per at most 64 KiB; header and trailer 18 bytes (plus optional name)
        long storedSize = isize + 5 * (isize / 65_535 + 1) + 18;
        return storedSize + 256 >= fileSize && isize <= MAX_RATIO * fileSize;
    }

    private static long streamedSize(Path file, long fileSize) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16)) {
            long total = 0;
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
            }
            return total;
        } catch (IOException e) {
            return fileSize;
        }
    }

    private static void readFully(SeekableByteChannel channel, ByteBuffer target, long position) throws IOException {
        channel.position(position);
        while (target.hasRemaining()) {
            if (channel.read(target) < 0) {
                throw new IOException("file shrank while being read");
            }
        }
    }
}
