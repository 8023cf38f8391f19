package io.rocket.apps.forensics;

import io.rocket.files.InputDirectory;
import io.rocket.cli.InputsMixin;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The photos of a forensics run: the files of a directory named {@code *.jpg} or {@code *.jpeg} (any case), in
 * file-name order, and the image size of the collection.
 *
 * <p>Other files (notes, thumbnails in other formats) are not photos and are listed as ignored; a generated set's
 * {@code truth.tsv} is expected beside the photos and not listed.
 * A {@code .jpg} that is not a readable JPEG is still a photo: it fails at parse time with its own message, like a
 * truncated one. The size of the collection is the most common size among the first {@value #SIZE_SAMPLE} photos
 * whose headers can be read (so one odd or broken photo at the start does not decide it); a photo of another
 * size later fails alone.
 */
public final class PhotoDirectory {

    /** How many photo headers are read to find the collection's size. */
    static final int SIZE_SAMPLE = 16;

    /**
     * What a scan found.
     *
     * @param photos       the photo files, sorted by name
     * @param ignored      names of the other entries
     * @param maxFileBytes the size of the largest photo file
     */
    public record Listing(List<Path> photos, List<String> ignored, long maxFileBytes) {
    }

    private PhotoDirectory() {
    }

    /** Lists the photos of {@code dir}: at least 2. */
    public static Listing scan(Path dir) {
        return scan(new InputsMixin.Source(dir, null, InputDirectory.display(dir)), 2);
    }

    /**
     * Lists the photos of a command's input source (a directory or an input list).
     *
     * @param least the fewest photos the run can use: 2 to compare them with each other, 1 for queries against
     *              references ({@code --against}) or for the references
     * @throws RocketException when the source holds fewer
     */
    public static Listing scan(InputsMixin.Source source, int least) {
        InputDirectory.Listing found = InputDirectory.scan(source, "photo", PhotoDirectory::isPhotoName,
                Set.of(TruthTable.FILE_NAME));
        if (found.items().size() < least) {
            throw new RocketException(source.name() + ": found " + found.items().size() + " JPEG photo(s) "
                    + "(*.jpg, *.jpeg); need at least " + least + (least > 1 ? " to compare (or 1 against "
                    + "references, --against)" : ""));
        }
        return new Listing(found.items(), found.ignored(), found.largestBytes());
    }

    /** Whether a file name has a JPEG extension. */
    static boolean isPhotoName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".jpg") || lower.endsWith(".jpeg");
    }

    /** Bytes read from the start of a photo to find its size: the frame header nearly always lies within them. */
    static final int HEADER_BYTES = 256 << 10;

    /**
     * A photo's size from its first {@value #HEADER_BYTES} bytes, or from the whole file when its frame header lies
     * further on (a large embedded thumbnail): on remote storage, sizing a collection must not read whole photos.
     */
    static int[] dimensions(JpegGrayDecoder decoder, String name, Path photo) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
        long size;
        try (SeekableByteChannel channel = Files.newByteChannel(photo)) {
            size = channel.size();
            while (head.hasRemaining() && channel.read(head) > 0) {
                // keep reading: a remote channel may return fewer bytes per call
            }
        }
        head.flip();
        if (size <= head.limit()) {
            return decoder.dimensions(name, head);
        }
        try {
            return decoder.dimensions(name, head);
        } catch (PhotoFormatException e) {
            return decoder.dimensions(name, ByteBuffer.wrap(Files.readAllBytes(photo)));
        }
    }

    /**
     * The collection's size as {@code {width, height}}: the most common among the first readable headers (ties go
     * to the earliest photo).
     *
     * @throws RocketException when none of the sampled photos has a readable header
     */
    public static int[] commonSize(List<Path> photos) {
        Map<Long, Integer> votes = new HashMap<>();
        List<Long> order = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (JpegGrayDecoder decoder = new JpegGrayDecoder()) {
            for (Path photo : photos) {
                if (order.size() == SIZE_SAMPLE) {
                    break;
                }
                String name = photo.getFileName().toString();
                try {
                    int[] size = dimensions(decoder, name, photo);
                    long key = ((long) size[0] << 32) | size[1];
                    votes.merge(key, 1, Integer::sum);
                    order.add(key);
                } catch (IOException e) { // unreadable file or not a JPEG (PhotoFormatException)
                    problems.add(e.getMessage());
                }
            }
        }
        if (order.isEmpty()) {
            throw new RocketException("no readable JPEG among the first photos: " + String.join("; ", problems));
        }
        long best = order.get(0);
        for (long key : order) {
            if (votes.get(key) > votes.get(best)) {
                best = key;
            }
        }
        return new int[] {(int) (best >>> 32), (int) best};
    }
}
