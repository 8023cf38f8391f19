package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.rocket.core.RocketException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpInputsTest {

    static final Instant MODIFIED = Instant.parse("2024-03-01T12:30:00Z");
    static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

    @TempDir
    static Path tmp;
    static HttpServer server;
    static byte[] data;
    static final CountDownLatch release = new CountDownLatch(1);

    @BeforeAll
    static void start() throws IOException {
        data = new byte[1_000_003];
        new Random(5).nextBytes(data);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-http");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/files/data.bin", ex -> serveData(ex, true));
        server.createContext("/files/head-without-length.bin", ex -> serveData(ex, false));
        server.createContext("/files/no-range.bin", ex -> {
            // a server that ignores Range and has no HEAD
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.sendResponseHeaders(405, -1);
            } else {
                send(ex, 200, data, 0);
            }
            ex.close();
        });
        server.createContext("/files/stalls.bin", ex -> {
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.getResponseHeaders().add("Content-Length", String.valueOf(data.length));
                ex.sendResponseHeaders(200, -1);
                ex.close();
                return;
            }
            ex.sendResponseHeaders(200, data.length);
            ex.getResponseBody().write(data, 0, 1000);
            ex.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.createContext("/broken", ex -> {
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        server.createContext("/", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.start();
    }

    private static void serveData(HttpExchange ex, boolean headLength) throws IOException {
        ex.getResponseHeaders().add("ETag", "\"v1\"");
        ex.getResponseHeaders().add("Last-Modified",
                DateTimeFormatter.RFC_1123_DATE_TIME.format(MODIFIED.atOffset(ZoneOffset.UTC)));
        if (ex.getRequestMethod().equals("HEAD")) {
            if (headLength) {
                ex.getResponseHeaders().add("Content-Length", String.valueOf(data.length));
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
            return;
        }
        String range = ex.getRequestHeaders().getFirst("Range");
        Matcher m = range == null ? null : RANGE.matcher(range);
        if (m != null && m.matches()) {
            int from = Integer.parseInt(m.group(1));
            int to = m.group(2).isEmpty() ? data.length - 1 : Integer.parseInt(m.group(2));
            ex.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + to + "/" + data.length);
            send(ex, 206, Arrays.copyOfRange(data, 0, to + 1), from);
        } else {
            send(ex, 200, data, 0);
        }
        ex.close();
    }

    private static void send(HttpExchange ex, int status, byte[] bytes, int from) throws IOException {
        ex.sendResponseHeaders(status, bytes.length - from);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes, from, bytes.length - from);
        }
    }

    @AfterAll
    static void stop() {
        release.countDown();
        server.stop(0);
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static InputLocations locations() {
        return new InputLocations(RemoteSettings.isolated(tmp.resolve("home/.ssh"), "tester")
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }

    @Test
    void readsSizeTimeAndEtag() throws IOException {
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve(url("/files/data.bin"));
            assertThat(InputLocations.scheme(p)).isEqualTo("http");
            assertThat(InputLocations.isRemote(p)).isTrue();
            assertThat(InputLocations.display(p)).isEqualTo(url("/files/data.bin"));
            assertThat(p.getFileName()).hasToString("data.bin");
            assertThat(Files.exists(p)).isTrue();
            assertThat(Files.isRegularFile(p)).isTrue();
            assertThat(Files.size(p)).isEqualTo(data.length);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            assertThat(a.lastModifiedTime().toInstant()).isEqualTo(MODIFIED);
            assertThat(a.fileKey()).isEqualTo("\"v1\"");
            assertThat(Files.readAllBytes(p)).isEqualTo(data);
        }
    }

    @Test
    void aHeadWithoutLengthIsCompletedByARangedGet() throws IOException {
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve(url("/files/head-without-length.bin"));
            assertThat(Files.size(p)).isEqualTo(data.length);
            assertThat(Files.readAllBytes(p)).isEqualTo(data);
        }
    }

    @Test
    void seeksWithRangeRequestsOrBySkipping() throws IOException {
        try (InputLocations inputs = locations()) {
            for (String path : new String[] {"/files/data.bin", "/files/no-range.bin"}) {
                try (SeekableByteChannel ch = Files.newByteChannel(inputs.resolve(url(path)))) {
                    assertThat(ch.size()).isEqualTo(data.length);
                    ch.position(900_000);
                    ByteBuffer buf = ByteBuffer.allocate(50_000);
                    while (buf.hasRemaining() && ch.read(buf) > 0) {
                        // fill
                    }
                    assertThat(buf.array()).isEqualTo(Arrays.copyOfRange(data, 900_000, 950_000));
                    ch.position(10);
                    ByteBuffer small = ByteBuffer.allocate(5);
                    ch.read(small);
                    assertThat(small.array()).isEqualTo(Arrays.copyOfRange(data, 10, 15));
                    ch.position(data.length);
                    assertThat(ch.read(ByteBuffer.allocate(1))).isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void aMissingFileIsNoSuchFileNamingTheUrl() {
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve(url("/files/missing.bin"));
            assertThat(Files.exists(p)).isFalse();
            assertThatThrownBy(() -> Files.size(p))
                    .isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining(url("/files/missing.bin"));
            assertThatThrownBy(() -> Files.readAllBytes(p))
                    .isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining(url("/files/missing.bin"));
            assertThatThrownBy(() -> Files.readAllBytes(inputs.resolve(url("/broken"))))
                    .isInstanceOf(IOException.class)
                    .hasMessage(url("/broken") + ": HTTP 500");
        }
    }

    @Test
    void aStalledBodyFailsTheReadInsteadOfHanging() {
        long start = System.nanoTime();
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> Files.readAllBytes(inputs.resolve(url("/files/stalls.bin"))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no data for 1 s");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60)); // a bound on a hang
    }

    @Test
    void directoriesCannotBeListed() {
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve(url("/files/"));
            assertThatThrownBy(() -> Files.newDirectoryStream(p))
                    .isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("HTTP servers offer no directory listing");
            assertThat(Files.isDirectory(inputs.resolve(url("/files/data.bin")))).isFalse();
        }
    }

    @Test
    void urlPathsBehaveLikePaths() {
        try (InputLocations inputs = locations()) {
            Path p = inputs.resolve("https://example.org/a/b/c.txt?sig=1");
            assertThat(InputLocations.scheme(p)).isEqualTo("https");
            assertThat(p.getFileName()).hasToString("c.txt");
            assertThat(p.getParent()).hasToString("https://example.org/a/b");
            assertThat(p.getParent().resolve("d.txt")).hasToString("https://example.org/a/b/d.txt");
            assertThat(p.getNameCount()).isEqualTo(3);
            assertThat(p.toUri()).hasToString("https://example.org/a/b/c.txt?sig=1");
            assertThat(p.getRoot()).hasToString("https://example.org/");
            assertThat(p.getParent().relativize(p.getParent().resolve("x/y"))).hasToString("x/y");
            assertThatThrownBy(() -> inputs.resolve("https://exa mple.org/x"))
                    .isInstanceOf(RocketException.class)
                    .hasMessageStartingWith("https://exa mple.org/x: not a valid URL");
        }
    }
}
