package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class S3InputsTest {

    @TempDir
    static Path tmp;
    static S3ServerFixture server;
    static byte[] big;
    static Instant started;

    @BeforeAll
    static void start() throws Exception {
        started = Instant.now().minusSeconds(5);
        server = new S3ServerFixture(tmp);
        big = new byte[12 * 1024 * 1024 + 17];
        new Random(3).nextBytes(big);
        server.put("data", "photos/a.jpg", big);
        server.put("data", "photos/b.jpg", "bee".getBytes());
        server.put("data", "photos/sub/c.jpg", "sea".getBytes());
        server.put("data", "photosynthesis.txt", "not a photo".getBytes());
        server.put("data", "doomed/x.bin", "short-lived".getBytes());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static RemoteSettings settings(Map<String, String> env) {
        return RemoteSettings.isolated(tmp.resolve("home/.ssh"), "tester").withEnvironment(env)
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(10));
    }

    private static InputLocations locations() {
        return new InputLocations(settings(server.environment()));
    }

    @Test
    void aPrefixListsAsADirectoryAndObjectsReadBackWithSizesAndTimes() throws Exception {
        try (InputLocations inputs = locations()) {
            Path photos = inputs.resolve("s3://data/photos");
            assertThat(InputLocations.scheme(photos)).isEqualTo("s3");
            assertThat(InputLocations.isRemote(photos)).isTrue();
            assertThat(Files.isDirectory(photos)).isTrue();
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(photos)) {
                entries.forEach(p -> names.add(p.getFileName().toString()));
            }
            assertThat(names).containsExactlyInAnyOrder("a.jpg", "b.jpg", "sub/");

            Path a = inputs.resolve("s3://data/photos/a.jpg");
            assertThat(Files.isRegularFile(a)).isTrue();
            assertThat(Files.size(a)).isEqualTo(big.length);
            assertThat(SftpInputsTest.readAll(a)).isEqualTo(big);
            BasicFileAttributes attrs = Files.readAttributes(a, BasicFileAttributes.class);
            assertThat(attrs.lastModifiedTime().toInstant()).isBetween(started, Instant.now().plusSeconds(5));
            assertThat(attrs.fileKey()).isNotNull();
            assertThat(InputLocations.display(a)).isEqualTo("s3://data/photos/a.jpg");
            assertThat(Files.readString(photos.resolve("b.jpg"))).isEqualTo("bee");
            assertThat(InputLocations.display(inputs.resolve("s3://data/photos/")))
                    .isEqualTo("s3://data/photos/");
        }
    }

    @Test
    void aMissingBucketIsOneClearLine() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("s3://no-such-bucket/x"))
                    .isInstanceOf(RocketException.class)
                    .hasMessage("s3://no-such-bucket/x: no such bucket 'no-such-bucket' at " + server.endpoint());
        }
    }

    @Test
    void anEmptyPrefixIsOneClearLine() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("s3://data/nothing"))
                    .isInstanceOf(RocketException.class)
                    .hasMessage("s3://data/nothing: no object 'nothing' and no objects under 'nothing/' in bucket"
                            + " 'data' at " + server.endpoint());
            assertThatThrownBy(() -> inputs.resolve("s3://data/nothing/"))
                    .hasMessage("s3://data/nothing/: no objects under prefix 'nothing/' in bucket 'data' at "
                            + server.endpoint());
        }
    }

    @Test
    void anObjectDeletedAfterListingFailsItsReadNamingIt() throws Exception {
        try (InputLocations inputs = locations()) {
            Path doomed = inputs.resolve("s3://data/doomed");
            List<Path> listed = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(doomed)) {
                entries.forEach(listed::add);
            }
            assertThat(listed).hasSize(1);
            server.store.removeBlob("data", "doomed/x.bin");
            long start = System.nanoTime();
            assertThatThrownBy(() -> SftpInputsTest.readAll(listed.get(0)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("doomed/x.bin");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60)); // a bound on a hang
        }
    }

    @Test
    void wrongCredentialsAreRefusedNamingWhereTheyCameFrom() {
        Map<String, String> env = new HashMap<>(server.environment());
        env.put("AWS_SECRET_ACCESS_KEY", "wrong");
        try (InputLocations inputs = new InputLocations(settings(env))) {
            assertThatThrownBy(() -> inputs.resolve("s3://data/photos"))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining("access to bucket 'data' denied at " + server.endpoint())
                    .hasMessageContaining("AWS_ACCESS_KEY_ID rocket-test")
                    .hasMessageNotContaining("wrong");
        }
    }

    @Test
    void anUnreachableEndpointFailsQuickly() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> env = new HashMap<>(server.environment());
        env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:" + port);
        long start = System.nanoTime();
        try (InputLocations inputs = new InputLocations(settings(env))) {
            assertThatThrownBy(() -> inputs.resolve("s3://data/photos"))
                    .isInstanceOf(RocketException.class)
                    .hasMessageStartingWith("s3://data/photos: cannot reach http://127.0.0.1:" + port + ": ");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60)); // a bound on a hang
    }

    @Test
    void theProfileFilesSupplyEndpointRegionAndKeys() throws IOException {
        Path aws = Files.createDirectories(tmp.resolve("profile-home/.aws"));
        Files.writeString(aws.resolve("config"), "[profile lab]\nregion = eu-west-1\nendpoint_url = "
                + server.endpoint() + "\n");
        Files.writeString(aws.resolve("credentials"), "[lab]\naws_access_key_id = " + S3ServerFixture.KEY_ID
                + "\naws_secret_access_key = " + S3ServerFixture.SECRET + "\n");
        RemoteSettings s = settings(Map.of("AWS_PROFILE", "lab")).withAwsDir(aws);
        S3Settings derived = S3Settings.from(s);
        assertThat(derived.region()).isEqualTo("eu-west-1");
        assertThat(derived.endpoint()).hasValue(java.net.URI.create(server.endpoint()));
        assertThat(derived.credentialsSource()).startsWith("profile 'lab'");
        try (InputLocations inputs = new InputLocations(s)) {
            assertThat(Files.readString(inputs.resolve("s3://data/photos/b.jpg"))).isEqualTo("bee");
        }
    }

    @Test
    void theEnvironmentWinsOverTheProfileAsInTheAwsTools() throws IOException {
        Path aws = Files.createDirectories(tmp.resolve("env-home/.aws"));
        Files.writeString(aws.resolve("config"), "[default]\nregion = eu-west-1\nendpoint_url = http://x:1\n");
        Path other = Files.writeString(tmp.resolve("other-config"), "[default]\nregion = ap-south-1\n");
        RemoteSettings base = settings(Map.of()).withAwsDir(aws);
        assertThat(S3Settings.from(base).region()).isEqualTo("eu-west-1");
        assertThat(S3Settings.from(base.withEnvironment(Map.of("AWS_DEFAULT_REGION", "us-west-2"))).region())
                .isEqualTo("us-west-2");
        assertThat(S3Settings.from(base.withEnvironment(Map.of("AWS_DEFAULT_REGION", "us-west-2",
                "AWS_REGION", "ca-central-1"))).region()).isEqualTo("ca-central-1");
        assertThat(S3Settings.from(base.withEnvironment(Map.of("AWS_CONFIG_FILE", other.toString()))).region())
                .isEqualTo("ap-south-1");
        assertThat(S3Settings.from(base.withEnvironment(Map.of("AWS_ENDPOINT_URL", "http://a:2",
                "AWS_ENDPOINT_URL_S3", "http://b:3"))).endpoint()).hasValue(java.net.URI.create("http://b:3"));
        assertThat(S3Settings.from(base.withEnvironment(Map.of("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true")))
                .endpoint()).isEmpty();
        assertThat(S3Settings.from(settings(Map.of()).withAwsDir(tmp.resolve("none"))).region())
                .isEqualTo("us-east-1");
        assertThatThrownBy(() -> S3Settings.from(base.withEnvironment(Map.of("AWS_PROFILE", "nope"))))
                .hasMessageContaining("AWS_PROFILE=nope: no such profile");
    }

    @Test
    void anInputListTakesS3LinesAsObjectsWithoutAskingAndReportsABadBucketByLine() throws IOException {
        Path list = Files.writeString(tmp.resolve("list.txt"), "# mixed\n"
                + "s3://data/photos/a.jpg\n"
                + "s3://data/photos/not-yet-there.jpg\n"
                + "s3://data/photos/\n"
                + "/local/file.bin\n"
                + "https://example.org/f.bin\n");
        try (InputLocations inputs = locations()) {
            List<Path> paths = inputs.readList(list);
            assertThat(paths).extracting(InputLocations::display).containsExactly("s3://data/photos/a.jpg",
                    "s3://data/photos/not-yet-there.jpg", "s3://data/photos/", "/local/file.bin",
                    "https://example.org/f.bin");
            assertThat(paths).extracting(InputLocations::scheme).containsExactly("s3", "s3", "s3", "file", "https");
            assertThat(Files.size(paths.get(0))).isEqualTo(big.length);
            assertThat(Files.isDirectory(paths.get(2))).isTrue();

            Path bad = Files.writeString(tmp.resolve("bad.txt"), "s3://data/photos/a.jpg\n\ns3://nope/x\n");
            assertThatThrownBy(() -> inputs.readList(bad))
                    .isInstanceOf(RocketException.class)
                    .hasMessage(bad + ":3: s3://nope/x: no such bucket 'nope' at " + server.endpoint());
        }
    }

    @Test
    void credentialsInTheUriAreRefused() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("s3://AKIA:secret@data/photos"))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining("credentials in s3:// URIs are refused")
                    .hasMessageNotContaining("secret@");
        }
    }
}
