package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextSizeTest {

    @TempDir
    Path dir;

    private static byte[] text(int proteins) {
        SplittableRandom random = new SplittableRandom(11);
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < proteins; p++) {
            out.append(">p").append(p).append('\n');
            for (int i = 0; i < 120; i++) {
                out.append(Alphabet.letter(random.nextInt(Alphabet.SIZE)));
            }
            out.append('\n');
        }
        return Proteomes.bytes(out.toString());
    }

    @Test
    void of_plainFile_isFileSize() throws IOException {
        Path file = Files.write(dir.resolve("a.faa"), text(10));
        assertThat(TextSize.of(file)).isEqualTo(Files.size(file));
    }

    @Test
    void of_gzipFile_isUncompressedSizeWhateverTheName() throws IOException {
        byte[] plain = text(50);
        Path file = Files.write(dir.resolve("a.faa"), Proteomes.gzip(plain));
        assertThat(TextSize.of(file)).isEqualTo(plain.length);
    }

    @Test
    void of_concatenatedMembersWithSmallLastMember_countsTheWholeText() throws IOException {
        byte[] big = text(200);
        byte[] small = text(1);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(Proteomes.gzip(big));
        both.writeBytes(Proteomes.gzip(small));
        Path file = Files.write(dir.resolve("a.faa.gz"), both.toByteArray());
        assertThat(TextSize.of(file)).isEqualTo(big.length + small.length);
    }

    @Test
    void of_gzipWithExtraField_decompressesAndCounts() throws IOException {
        byte[] plain = text(30);
        byte[] gz = Proteomes.gzip(plain);
        // the same deflate data behind a header with an (empty-payload) extra field, as bgzip writes one
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(gz, 0, 3);
        out.write(gz[3] | 0x04);
        out.write(gz, 4, 6);
        out.writeBytes(new byte[] {4, 0, 'X', 'Y', 0, 0});
        out.write(gz, 10, gz.length - 10 - 4);
        out.writeBytes(new byte[] {0, 0, 0, 0}); // a lying trailer: the count must not come from it
        // a wrong ISIZE makes GZIPInputStream fail, so the file counts with its own size, as a corrupt file does
        Path file = Files.write(dir.resolve("x.faa.gz"), out.toByteArray());
        assertThat(TextSize.of(file)).isEqualTo(Files.size(file));
        byte[] honest = out.toByteArray();
        System.arraycopy(gz, gz.length - 4, honest, honest.length - 4, 4);
        Files.write(file, honest);
        assertThat(TextSize.of(file)).isEqualTo(plain.length);
    }

    @Test
    void of_truncatedGzip_atMostSixteenTimesItsSize() throws IOException {
        byte[] gz = Proteomes.gzip(text(100));
        Path file = Files.write(dir.resolve("t.faa.gz"), Arrays.copyOf(gz, gz.length / 2));
        assertThat(TextSize.of(file)).isBetween(0L, TextSize.MAX_RATIO * Files.size(file));
    }

    @Test
    void plausible_rejectsTrailersSmallerThanStoredOrBeyondTheRatio() {
        assertThat(TextSize.plausible(2_000_000, 1_000_000)).isTrue();
        assertThat(TextSize.plausible(30, 60)).isTrue();
        assertThat(TextSize.plausible(400_000, 1_000_000)).isFalse();
        assertThat(TextSize.plausible(17_000_000, 1_000_000)).isFalse();
    }
}
