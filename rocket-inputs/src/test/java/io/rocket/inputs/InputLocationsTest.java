package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rocket.core.RocketException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputLocationsTest {

    @TempDir
    Path tmp;

    private InputLocations locations() {
        return new InputLocations(RemoteSettings.isolated(tmp.resolve("home/.ssh"), "tester"));
    }

    @Test
    void localPathsAndFileUrisAreDefaultFileSystemPaths() throws IOException {
        Path f = Files.writeString(tmp.resolve("a b.txt"), "x");
        try (InputLocations inputs = locations()) {
            assertThat(inputs.resolve(f.toString())).isEqualTo(f);
            assertThat(inputs.resolve("relative/dir")).isEqualTo(Path.of("relative/dir"));
            assertThat(inputs.resolve("C:\\data\\x.jpg")).isEqualTo(Path.of("C:\\data\\x.jpg"));
            assertThat(inputs.resolve("odd:name")).isEqualTo(Path.of("odd:name"));
            assertThat(inputs.resolve("~/x")).isEqualTo(Path.of(System.getProperty("user.home"), "x"));
            assertThat(inputs.resolve(f.toUri().toString())).isEqualTo(f);
            assertThat(inputs.resolve("file:" + f.toUri().getRawPath())).isEqualTo(f);
            assertThat(inputs.resolve("FILE://localhost" + f.toUri().getRawPath())).isEqualTo(f);
            Path p = inputs.resolve(f.toString());
            assertThat(InputLocations.scheme(p)).isEqualTo("file");
            assertThat(InputLocations.isRemote(p)).isFalse();
            assertThat(InputLocations.display(p)).isEqualTo(f.toString());
        }
    }

    @Test
    void anUnknownSchemeNamesItAndTheKnownOnes() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("foo://x"))
                    .isInstanceOf(RocketException.class)
                    .hasMessage("foo://x: unknown scheme 'foo' (use a local path, file:, sftp://, s3:// or https://)");
            assertThatThrownBy(() -> inputs.resolve("gs://bucket/x"))
                    .hasMessageStartingWith("gs://bucket/x: unknown scheme 'gs'");
        }
    }

    @Test
    void malformedLocationsAreOneLineErrors() {
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.resolve("")).hasMessage("an input location is empty");
            assertThatThrownBy(() -> inputs.resolve("sftp:///x")).hasMessage("sftp:///x: no host after sftp://");
            assertThatThrownBy(() -> inputs.resolve("s3:///x")).hasMessage("s3:///x: no bucket after s3://");
            assertThatThrownBy(() -> inputs.resolve("sftp://h:99999/x"))
                    .hasMessage("sftp://h:99999/x: bad port '99999' (1 to 65535)");
            assertThatThrownBy(() -> inputs.resolve("file://server/share/x"))
                    .hasMessageContaining("file: URIs with a host are not local files");
            assertThatThrownBy(() -> inputs.resolve("https://u:pw@example.org/x"))
                    .hasMessage("https://u:***@example.org/x: credentials in URLs are refused (they end up in shell"
                            + " history and logs); use a URL that needs none, such as a pre-signed one");
        }
    }

    @Test
    void locationsSplitIntoTheirParts() {
        Location l = Location.parse("sftp://me@[::1]:2222/data/x y", "sftp");
        assertThat(l.user()).isEqualTo("me");
        assertThat(l.host()).isEqualTo("::1");
        assertThat(l.port()).isEqualTo(2222);
        assertThat(l.path()).isEqualTo("/data/x y");
        assertThat(l.password()).isFalse();
        Location bare = Location.parse("sftp://host", "sftp");
        assertThat(bare.port()).isEqualTo(-1);
        assertThat(bare.path()).isEmpty();
        assertThat(Location.masked("sftp://me:secret@host/x")).isEqualTo("sftp://me:***@host/x");
        assertThat(Location.masked("sftp://me@host/a:b@c")).isEqualTo("sftp://me@host/a:b@c");
    }

    @Test
    void readListSkipsBlanksAndCommentsAndTrims() throws IOException {
        Path list = Files.writeString(tmp.resolve("inputs.txt"), "\uFEFF# photos for the run\n"
                + "\n"
                + "  /data/a.jpg  \n"
                + "\t# indented comment\n"
                + "relative/b.jpg\n"
                + "file:///data/c.jpg\n"
                + "https://example.org/d.jpg\n"
                + "http://example.org/e.jpg\r\n");
        try (InputLocations inputs = locations()) {
            List<Path> paths = inputs.readList(list);
            assertThat(paths).extracting(InputLocations::display).containsExactly("/data/a.jpg", "relative/b.jpg",
                    "/data/c.jpg", "https://example.org/d.jpg", "http://example.org/e.jpg");
            assertThat(paths).extracting(InputLocations::scheme)
                    .containsExactly("file", "file", "file", "https", "http");
        }
    }

    @Test
    void aBadLineIsReportedAsFileColonLine() throws IOException {
        Path list = Files.writeString(tmp.resolve("inputs.txt"), "# header\n/data/a.jpg\n\nfoo://x\n");
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.readList(list))
                    .isInstanceOf(RocketException.class)
                    .hasMessage(list + ":4: foo://x: unknown scheme 'foo' (use a local path, file:, sftp://, s3://"
                            + " or https://)");
        }
    }

    @Test
    void anEmptyOrMissingListIsAnError() throws IOException {
        Path empty = Files.writeString(tmp.resolve("empty.txt"), "# nothing yet\n\n   \n");
        try (InputLocations inputs = locations()) {
            assertThatThrownBy(() -> inputs.readList(empty))
                    .isInstanceOf(RocketException.class)
                    .hasMessage(empty + ": the input list names no inputs (only blank lines and # comments)");
            Path missing = tmp.resolve("missing.txt");
            assertThatThrownBy(() -> inputs.readList(missing))
                    .isInstanceOf(RocketException.class)
                    .hasMessage(missing + ": cannot read the input list: no such file " + missing);
        }
    }

    @Test
    void aClosedInstanceRefusesWorkAndTheDefaultsAreShared() {
        InputLocations inputs = locations();
        inputs.close();
        inputs.close();
        assertThatThrownBy(() -> inputs.resolve("/x")).isInstanceOf(IllegalStateException.class);
        assertThat(InputLocations.defaults()).isSameAs(InputLocations.defaults());
    }
}
