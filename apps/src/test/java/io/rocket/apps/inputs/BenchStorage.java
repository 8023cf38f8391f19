package io.rocket.apps.inputs;

import io.rocket.inputs.InputLocations;
import io.rocket.inputs.S3ServerFixture;
import io.rocket.inputs.SftpServerFixture;

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

    /**
     * Every storage the benchmark compares, serving the files of {@code data}: the local directory, an SFTP server
     * and an S3 server on 127.0.0.1 (the servers' own stores hold hard links to the same files).
     */
    static List<BenchStorage> all(Path work, Path data) throws Exception {
        List<BenchStorage> all = new ArrayList<>();
        all.add(local(data));
        SftpServerFixture sftp = new SftpServerFixture(work.resolve("sftp"));
        link(data, sftp.root.resolve("inputs"));
        sftp.trustServer();
        sftp.authorized.put("bench", sftp.writeKey("id_ed25519", null).getPublic());
        S3ServerFixture s3 = new S3ServerFixture(work);
        s3.put("bench", "created", new byte[0]); // creates the bucket
        link(data, work.resolve("s3").resolve("bench").resolve("inputs"));
        InputLocations locations = new InputLocations(sftp.settings("bench").withEnvironment(s3.environment()));
        all.add(remote("sftp", locations, "sftp://bench@127.0.0.1:" + sftp.port() + "/inputs", sftp));
        all.add(remote("s3", locations, "s3://bench/inputs/", () -> {
            s3.close();
            locations.close();
        }));
        return all;
    }

    private static void link(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        for (Path f : sorted(from)) {
            Files.createLink(to.resolve(f.getFileName().toString()), f);
        }
    }

    private static BenchStorage remote(String name, InputLocations locations, String uri, AutoCloseable server) {
        return new BenchStorage() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Path> keys() throws IOException {
                return sorted(locations.resolve(uri));
            }

            @Override
            public void close() throws Exception {
                server.close();
            }
        };
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
