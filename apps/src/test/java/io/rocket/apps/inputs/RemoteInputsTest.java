package io.rocket.apps.inputs;

import io.rocket.apps.Cli;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import io.rocket.inputs.InputLocations;
import io.rocket.inputs.S3ServerFixture;
import io.rocket.inputs.SftpServerFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application commands on inputs from a local directory, an SFTP server and an S3 server (both real, on
 * 127.0.0.1): the same photos and proteomes give identical score and distance matrices from every storage; and
 * each kind of bad remote input is one line, or one failed item, never a hang.
 */
@Timeout(300)
class RemoteInputsTest {
    private static final String USER = "scientist";

    @TempDir
    static Path tmp;
    static SftpServerFixture sftp;
    static S3ServerFixture s3;
    static Path local;

    @BeforeAll
    static void servers() throws Exception {
        sftp = new SftpServerFixture(tmp);
        s3 = new S3ServerFixture(tmp);
        local = sftp.root; // the SFTP server serves the local directory itself
        Cli.Result g = Cli.run("generate", "forensics", "--out", local.resolve("photos").toString(), "--cameras",
                "2", "--images-per-camera", "3", "--width", "96", "--height", "64", "--seed", "5");
        assertThat(g.code()).as(g.both()).isZero();
        PhyloGenerator.generate(local.resolve("proteomes"), 8, 0.5, 60, 9);
        try (Stream<Path> files = Files.walk(local)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                s3.put("lab", local.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
            }
        }
        sftp.trustServer();
        KeyPair key = sftp.writeKey("id_ed25519", null);
        sftp.authorized.put(USER, key.getPublic());
        InputLocations.setDefaults(new InputLocations(sftp.settings(USER).withEnvironment(s3.environment())));
    }

    @AfterAll
    static void stop() throws Exception {
        InputLocations.setDefaults(null);
        sftp.close();
        s3.close();
    }

    private static String sftpUri(String path) {
        return "sftp://" + USER + "@127.0.0.1:" + sftp.port() + "/" + path;
    }

    @Test
    void forensics_localSftpS3_identicalMatrices() throws IOException {
        List<String> fromLocal = matrix("forensics", local.resolve("photos").toString(), "f-local");
        assertThat(fromLocal).hasSize(7);
        assertThat(matrix("forensics", sftpUri("photos"), "f-sftp")).isEqualTo(fromLocal);
        assertThat(matrix("forensics", "s3://lab/photos", "f-s3")).isEqualTo(fromLocal);
    }

    @Test
    void phylogenetics_localSftpS3_identicalMatrices() throws IOException {
        List<String> fromLocal = matrix("phylogenetics", local.resolve("proteomes").toString(), "p-local");
        assertThat(fromLocal).hasSize(9);
        assertThat(matrix("phylogenetics", sftpUri("proteomes"), "p-sftp")).isEqualTo(fromLocal);
        assertThat(matrix("phylogenetics", "s3://lab/proteomes", "p-s3")).isEqualTo(fromLocal);
    }

    @Test
    void inputList_mixedSchemes_sameMatrixAsTheDirectory() throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(local.resolve("proteomes"))) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".faa.gz")).sorted().toList();
        }
        StringBuilder list = new StringBuilder("# proteomes from three places\n");
        for (int k = 0; k < names.size(); k++) {
            String name = names.get(k);
            list.append(switch (k % 3) {
                case 0 -> local.resolve("proteomes").resolve(name).toString();
                case 1 -> sftpUri("proteomes/" + name);
                default -> "s3://lab/proteomes/" + name;
            }).append("\n\n");
        }
        Path listFile = tmp.resolve("inputs.txt");
        Files.writeString(listFile, list);
        Path m = tmp.resolve("p-list.phy");
        Cli.Result r = Cli.run("phylogenetics", "--input-list", listFile.toString(), "--k", "4", "--matrix",
                m.toString(), "--no-progress", "--summary-json", tmp.resolve("p-list.json").toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(Files.readAllLines(m)).isEqualTo(matrix("phylogenetics", local.resolve("proteomes").toString(),
                "p-dir"));
        assertThat(Files.readString(tmp.resolve("p-list.json"))).contains("\"file\"", "\"sftp\"", "\"s3\"");
    }

    @Test
    void badRemoteInputs_oneLineEach() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertError(Cli.run("phylogenetics", "gopher://lab/proteomes"), "unknown scheme 'gopher'");
        assertError(Cli.run("phylogenetics", "sftp://" + USER + "@127.0.0.1:" + closed + "/proteomes"),
                "127.0.0.1:" + closed);
        assertError(Cli.run("phylogenetics", "sftp://mallory@127.0.0.1:" + sftp.port() + "/proteomes"),
                "id_ed25519");
        assertError(Cli.run("phylogenetics", "s3://no-such-bucket/proteomes"), "no-such-bucket");
        assertError(Cli.run("phylogenetics", "s3://lab/nothing-here/"), "nothing-here");
        assertError(Cli.run("phylogenetics", "--input-list", tmp.resolve("missing-list.txt").toString()),
                "missing-list.txt");
        assertError(Cli.run("phylogenetics", "sftp://" + USER + ":secret@127.0.0.1:" + sftp.port() + "/x"),
                "ssh");
    }

    @Test
    void missingObjectInAList_failsAloneNamed() throws IOException {
        Path listFile = tmp.resolve("with-missing.txt");
        List<String> lines = new java.util.ArrayList<>();
        try (Stream<Path> files = Files.list(local.resolve("proteomes"))) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".faa.gz")).sorted()
                    .forEach(n -> lines.add("s3://lab/proteomes/" + n));
        }
        lines.add("s3://lab/proteomes/deleted.faa.gz");
        Files.write(listFile, lines);

        Cli.Result r = Cli.run("phylogenetics", "--input-list", listFile.toString(), "--k", "4", "--no-progress");

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.out()).contains("8 errors").contains("deleted.faa.gz");
    }

    private static void assertError(Cli.Result r, String mentions) {
        assertThat(r.code()).as(r.both()).isIn(1, 2);
        assertThat(r.err()).as(r.both()).contains(mentions);
        assertThat(r.err().strip().lines().filter(l -> l.contains("error")).count()).as(r.both()).isEqualTo(1);
    }

    private static List<String> matrix(String app, String input, String name) throws IOException {
        Path m = tmp.resolve(name + ".tsv");
        Cli.Result r = app.equals("forensics")
                ? Cli.run("forensics", input, "--matrix", m.toString(), "--metric", "ncc", "--no-progress")
                : Cli.run("phylogenetics", input, "--k", "4", "--matrix", m.toString(), "--no-progress");
        assertThat(r.code()).as(r.both()).isZero();
        return Files.readAllLines(m);
    }
}
