package io.rocket.apps.inputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Where the input benchmark reads its files from: one storage and the inputs' paths on it. */
interface BenchStorage extends AutoCloseable {

    /** The storage's scheme as the summary names it. */
    String name();

    /** The inputs, sorted by name. */
    List<Path> keys() throws IOException;

    @Override
    void close() throws Exception;

    /** Every storage the benchmark compares, serving the files of {@code data}. */
    static List<BenchStorage> all(Path work, Path data) throws Exception {
        List<BenchStorage> all = new ArrayList<>();
        all.add(local(data));
        return all;
    }

    /** The files on the local file system. */
    static BenchStorage local(Path data) {
        return new BenchStorage() {
            @Override
            public String name() {
                return "file";
            }

            @Override
            public List<Path> keys() throws IOException {
                return sorted(data);
            }

            @Override
            public void close() {
            }
        };
    }

    /** The regular files of a directory on any file system, sorted by name. */
    static List<Path> sorted(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isRegularFile)
                    .sorted(java.util.Comparator.comparing(p -> p.getFileName().toString())).toList();
        }
    }
}
