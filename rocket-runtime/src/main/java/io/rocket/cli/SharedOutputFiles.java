package io.rocket.cli;

import io.rocket.output.TsvResultSink;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rocket.cluster.NodePart;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;
import io.rocket.output.DenseNpySink;
import io.rocket.output.MatrixLayout;
import io.rocket.output.SparseNpySink;
import io.rocket.output.TriangleLayout;
import io.rocket.runtime.SharedOutput;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code --shared-output}: the pair output of a cluster run, written by every node into a directory they all see.
 * A dense {@code .npy} is one file, created by rank 0 before any rank computes, into which every rank writes its own
 * elements. A TSV, TSV.gz or sparse {@code .npy} output {@code OUT} becomes the directory {@code OUT.parts} of one
 * part per rank, {@code part-RRRRR.tsv} (or {@code .tsv.gz}, {@code .npy}), each a whole file of its format (a TSV
 * with its header, an {@code .npy} that loads), and a {@code manifest.json} rank 0 writes at the end (and when a
 * signal stops the run) that lists them. A lost rank's part is cut back to the pairs rank 0 counted done, which
 * the others computed again. Failed pairs still go to rank 0's {@code --errors} file.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class SharedOutputFiles<K, R> implements SharedOutput<K, R> {
    /** The manifest's name in the parts directory. */
    static final String MANIFEST = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Application<K, R> app;
    private final List<K> keys;
    private final Path output;
    private final Function<R, String> format;
    private final String resultName;
    private final OutputSettings settings;
    private final int nodes;
    private final OutputFormat kind;
    /** Rank 0's own pair outputs, opened by {@link #open}; set once they exist. */
    private volatile DeferredOutputs<K, R> rankZero;
    private volatile Supplier<Map<Integer, long[]>> lengths = Map::of;
    private volatile Supplier<Set<Integer>> lost = Set::of;

    SharedOutputFiles(Application<K, R> app, List<K> keys, Path output, Function<R, String> format,
                      String resultName, OutputSettings settings, int nodes) {
        this.app = app;
        this.keys = keys;
        this.output = output;
        this.format = format;
        this.resultName = resultName;
        this.settings = settings;
        this.nodes = nodes;
        this.kind = OutputFormat.of("--output", output);
    }

    /** Rank 0: its own pair outputs (writing to {@link #file file(0)}), which {@link #open} opens. */
    void rankZero(DeferredOutputs<K, R> outputs) {
        this.rankZero = outputs;
    }

    /**
     * The directory of the parts of a TSV, TSV.gz or sparse {@code .npy} output.
     *
     * @param output the {@code --output} file
     * @return {@code OUT.parts} beside it
     */
    static Path partsDirectory(Path output) {
        return output.resolveSibling(output.getFileName() + ".parts");
    }

    /** Whether every rank writes into the one dense matrix rather than a part of its own. */
    private boolean dense() {
        return kind == OutputFormat.NPY && !settings.sparse();
    }

    /**
     * Where a rank writes its results: the dense matrix itself, or its part.
     *
     * @param rank the rank
     * @return the file
     */
    Path file(int rank) {
        if (dense()) {
            return output;
        }
        String suffix = switch (kind) {
            case NPY -> "npy";
            case TSV_GZ -> "tsv.gz";
            case TSV -> "tsv";
        };
        return partsDirectory(output).resolve(String.format(Locale.ROOT, "part-%05d.%s", rank, suffix));
    }

    /** Rank 0: clears what an earlier run left in the parts directory, then opens its own output. */
    @Override
    public void open() throws IOException {
        if (!dense()) {
            Path dir = partsDirectory(output);
            Files.createDirectories(dir);
            try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "{part-[0-9]*,manifest.json}")) {
                for (Path p : old) {
                    Files.delete(p); // parts of ranks this run has not, and an earlier run's manifest
                }
            }
        }
        rankZero.finish();
    }

    @Override
    public NodePart<K, R> part(int rank) throws IOException {
        NodePart<K, R> part = openPart(rank);
        own = part;
        return part;
    }

    /** This rank's part, once its first result opened it; null before (and on rank 0). */
    private volatile NodePart<K, R> own;

    /**
     * A rank above 0 stopped by a signal: ends its part on a whole record (the pairs rank 0 counted done are in it
     * already; the others are computed pairs too) and says where it is.
     *
     * @param signal the signal's name, e.g. {@code SIGTERM}
     * @param rank   this rank
     * @return the line to print
     */
    String stopPart(String signal, int rank) {
        NodePart<K, R> part = own;
        if (part == null) {
            return CommandLines.PREFIX + "stopped by " + signal + "; rank " + rank + " had written no pair";
        }
        String line = CommandLines.PREFIX + "stopped by " + signal + "; rank " + rank + " wrote its pairs into "
                + file(rank);
        try {
            part.close();
        } catch (Exception e) {
            return line + "; ending it failed: " + e.getMessage();
        }
        return line;
    }

    private NodePart<K, R> openPart(int rank) throws IOException {
        Path file = file(rank);
        if (dense()) {
            DenseNpySink<K, R> matrix = DenseNpySink.openShared(file, layout(),
                    settings.dtype(), ResultScores.of(app, settings.score(), "--output " + output));
            return new Part<>(matrix, () -> {
                matrix.writeHeld();
                return new long[0];
            }, matrix::sync);
        }
        ResultSink<K, R> sink = kind == OutputFormat.NPY
                ? new SparseNpySink<>(file, settings.dtype(), ResultScores.of(app, settings.score(),
                "--output " + output), false)
                : new TsvResultSink<>(file, null, app::label, format, resultName, false);
        SinkFiles files = sink.files();
        return new Part<>(sink, files::flush, files::force);
    }

    private MatrixLayout layout() {
        return settings.layout() != null ? settings.layout() : new TriangleLayout(keys.size());
    }

    @Override
    public void track(Supplier<Map<Integer, long[]>> partLengths, Supplier<Set<Integer>> lostRanks) {
        this.lengths = partLengths;
        this.lost = lostRanks;
    }

    /**
     * Rank 0, once its own output is closed: cuts each lost rank's part back to what rank 0 counted done (when the
     * run is {@code complete}; a stopped run's parts keep all they hold, every line a computed pair), and writes the
     * manifest. Nothing for a dense matrix, which is its own whole file.
     *
     * @param complete whether every pair is done (false: a signal stopped the run)
     * @return the parts directory, or null for a dense matrix
     * @throws IOException when a part cannot be cut or the manifest written
     */
    Path finish(boolean complete) throws IOException {
        if (dense()) {
            return null;
        }
        Map<Integer, long[]> acknowledged = lengths.get();
        Set<Integer> gone = new TreeSet<>(lost.get());
        if (complete) {
            for (int rank : gone) {
                long[] marked = acknowledged.get(rank);
                cutBack(file(rank), marked == null || marked.length == 0 ? 0 : marked[0]);
            }
        }
        List<Map<String, Object>> parts = new ArrayList<>();
        for (int rank = 0; rank < nodes; rank++) {
            Path part = file(rank);
            if (!Files.exists(part)) {
                continue; // a rank that never computed a pair
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("file", part.getFileName().toString());
            entry.put("rank", rank);
            entry.put("bytes", Files.size(part));
            entry.put("lost", gone.contains(rank));
            parts.add(entry);
        }
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("format", kind == OutputFormat.NPY ? "npy" : kind == OutputFormat.TSV_GZ ? "tsv.gz" : "tsv");
        manifest.put("complete", complete);
        manifest.put("nodes", nodes);
        manifest.put("parts", parts);
        Path dir = partsDirectory(output);
        Path written = dir.resolve(MANIFEST + ".tmp");
        JSON.writeValue(written.toFile(), manifest);
        try {
            Files.move(written, dir.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(written, dir.resolve(MANIFEST), StandardCopyOption.REPLACE_EXISTING);
        }
        return dir;
    }

    /** Cuts a lost rank's part back to {@code length} bytes, as a journal cuts its files (0: only the header). */
    private void cutBack(Path part, long length) throws IOException {
        if (!Files.exists(part)) {
            return;
        }
        ResultSink<K, R> sink = kind == OutputFormat.NPY
                ? new SparseNpySink<>(part, settings.dtype(), r -> 0, true)
                : new TsvResultSink<>(part, null, app::label, format, resultName, true);
        try (sink) {
            sink.files().cut(new long[] {length});
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(part + ": " + e.getMessage(), e);
        }
    }

    /** Ends a part's content and makes it durable. */
    @FunctionalInterface
    private interface Marker {
        long[] mark() throws IOException;
    }

    /** Makes a part durable. */
    @FunctionalInterface
    private interface Syncer {
        void sync() throws IOException;
    }

    /** A rank's part: its sink, driven by the rank's result stream. */
    private static final class Part<K, R> implements NodePart<K, R> {
        private final ResultSink<K, R> sink;
        private final Marker marker;
        private final Syncer syncer;

        Part(ResultSink<K, R> sink, Marker marker, Syncer syncer) {
            this.sink = sink;
            this.marker = marker;
            this.syncer = syncer;
        }

        @Override
        public void accept(int i, int j, K left, K right, R result) {
            sink.accept(i, j, left, right, result);
        }

        @Override
        public void failed(int i, int j, K left, K right, Throwable error) {
            sink.failed(i, j, left, right, error);
        }

        @Override
        public long[] mark() throws IOException {
            return marker.mark();
        }

        @Override
        public void sync() throws IOException {
            syncer.sync();
        }

        @Override
        public void close() throws Exception {
            sink.close();
        }
    }
}
