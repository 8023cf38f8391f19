package io.rocket.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The files a {@link ResultSink} appends results to, as a run journal sees them: the journal records how long each
 * file was when it recorded a batch of results, makes the files durable before it records, and after a crash cuts
 * them back to the last recorded lengths, so a resumed run appends to files that hold exactly the recorded results.
 * The journal calls {@link #flush} while no result is being written to the sink, and {@link #force} after it, from
 * its own thread while results go on arriving.
 */
public interface SinkFiles {

    /** A sink that writes no files. */
    SinkFiles NONE = new SinkFiles() {
        @Override
        public List<Path> paths() {
            return List.of();
        }

        @Override
        public long[] flush() {
            return new long[0];
        }

        @Override
        public void force() {
        }

        @Override
        public void cut(long[] lengths) {
        }
    };

    /**
     * The files, in a fixed order: the order of the lengths below.
     *
     * @return the paths, never null; the same list on every call, empty for a sink that writes no files
     */
    List<Path> paths();

    /**
     * Ends the files' content here and returns each file's length at this point. What it ends may still be in
     * memory; {@link #force} writes it.
     *
     * @return each file's length in bytes, in the order of {@link #paths()}
     * @throws IOException when a file cannot be written
     */
    long[] flush() throws IOException;

    /**
     * Writes what {@link #flush} ended, where it is still in memory, and makes it durable (fsync).
     *
     * @throws IOException when a file cannot be written or synced
     */
    void force() throws IOException;

    /**
     * Cuts each file back to its length from an earlier {@link #flush} (0: never recorded, the file starts again)
     * and goes on appending there.
     *
     * @param lengths each file's length in bytes, in the order of {@link #paths()}, as an earlier {@link #flush}
     *        returned it
     * @throws IOException when a file is shorter than its length (it changed after it was recorded)
     */
    void cut(long[] lengths) throws IOException;
}
