package io.rocket.results.journal;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test helper: appends {@code i j result} lines to one file (buffered until the journal flushes) and keeps what it
 * was given and what was replayed to it.
 */
final class LineSink implements ResultSink<Integer, Long>, SinkFiles {
    final Map<String, Long> accepted = new TreeMap<>();
    final Map<String, Long> replayed = new TreeMap<>();
    final Map<String, String> replayedFailures = new TreeMap<>();
    private final Path file;
    private final StringBuilder buffer = new StringBuilder();
    private FileChannel channel;

    LineSink(Path file) {
        this.file = file;
    }

    @Override
    public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
        accepted.put(i + " " + j, result);
        buffer.append(i).append(' ').append(j).append(' ').append(result).append('\n');
    }

    @Override
    public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
        buffer.append(i).append(' ').append(j).append(" failed\n");
    }

    @Override
    public synchronized void replay(int i, int j, Integer left, Integer right, Long result) {
        replayed.put(i + " " + j, result);
    }

    @Override
    public synchronized void replayFailed(int i, int j, Integer left, Integer right, Throwable error) {
        replayedFailures.put(i + " " + j, error.getMessage());
    }

    @Override
    public SinkFiles files() {
        return this;
    }

    @Override
    public List<Path> paths() {
        return List.of(file);
    }

    @Override
    public synchronized long[] flush() throws IOException {
        open();
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(buffer.toString());
        buffer.setLength(0);
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        return new long[] {channel.position()};
    }

    @Override
    public void force() throws IOException {
        channel.force(false);
    }

    @Override
    public synchronized void cut(long[] lengths) throws IOException {
        open();
        if (channel.size() < lengths[0]) {
            throw new IOException(file + " is too short");
        }
        channel.truncate(lengths[0]);
        channel.position(lengths[0]);
    }

    private void open() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            channel.position(channel.size());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
