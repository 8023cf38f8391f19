package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole CVTree computation in plain Java on one thread, without the runtime: parse, build every vector, compare
 * all pairs, build a tree. It is the reference the runtime's output is checked against, and is quick enough for
 * tests and small data sets (all vectors are held in memory, packed to their exact sizes).
 */
public final class SerialCvTree {

    private SerialCvTree() {
    }

    /** The CVTree distance matrix of {@code files} at string length {@code k}; names from {@link TaxonLabels}. */
    public static DistanceMatrix distances(List<Path> files, int k) throws IOException {
        return distances(files, k, Convention.CVTREE);
    }

    /** As {@link #distances(List, int)}, reading the text with {@code convention}. */
    public static DistanceMatrix distances(List<Path> files, int k, Convention convention) throws IOException {
        CompositionVectorBuilder builder = new CompositionVectorBuilder(k);
        CvWorkspace workspace = new CvWorkspace();
        FastaParser parser = new FastaParser(convention);
        List<ByteBuffer> vectors = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            ByteBuffer parsed = parse(parser, file, name);
            long maxBytes = CompositionVector.maxBytes(k, FastaParser.residueCount(parsed));
            ByteBuffer scratch = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, maxBytes))
                    .order(ByteOrder.LITTLE_ENDIAN);
            int bytes = builder.build(name, parsed, scratch, workspace);
            ByteBuffer vector = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
            vector.put(scratch.limit(bytes)).flip();
            vectors.add(vector);
            names.add(TaxonLabels.fromPath(file));
        }
        DistanceMatrix matrix = new DistanceMatrix(names);
        for (int i = 0; i < vectors.size(); i++) {
            for (int j = 0; j < i; j++) {
                matrix.set(i, j, CvDistance.distance(vectors.get(i), vectors.get(j)));
            }
        }
        return matrix;
    }

    /** The neighbour-joining tree of {@code files} at string length {@code k}. */
    public static TreeNode neighborJoiningTree(List<Path> files, int k) throws IOException {
        return NeighborJoining.build(distances(files, k));
    }

    /** Parses a file, growing the output buffer once if the first guess (3 × file size) is too small. */
    private static ByteBuffer parse(FastaParser parser, Path file, String name) throws IOException {
        long guess = FastaParser.maxParsedBytes(3 * Files.size(file));
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, guess);
        while (true) {
            ByteBuffer out = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
            try (InputStream in = Files.newInputStream(file)) {
                int bytes = parser.parse(name, in, out);
                return out.limit(bytes);
            } catch (BufferTooSmallException e) {
                if (e.requiredBytes() > Integer.MAX_VALUE - 8) {
                    throw e;
                }
                capacity = (int) e.requiredBytes();
            }
        }
    }
}
