package io.rocket.cache.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiskKeyTest {
    @TempDir
    Path tmp;

    @Test
    void sameInputs_giveEqualKeys_namedByTheSha256OfTheText() throws Exception {
        Path input = Files.writeString(tmp.resolve("a.txt"), "hello");
        DiskKey a = DiskKey.of(Payloads.JOB, "parsed", "a.txt", List.of(input));
        DiskKey b = DiskKey.of(Payloads.JOB, "parsed", "a.txt", List.of(input));

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.digest()).hasSize(64).isEqualTo(HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(a.text().getBytes(StandardCharsets.UTF_8))));
        assertThat(EntryFormat.isEntryName(a.digest())).isTrue();
        assertThat(a.text()).startsWith(DiskKey.HEADER_LINE + "\n")
                .contains("job " + Payloads.JOB.length() + ":" + Payloads.JOB)
                .contains("form 6:parsed", "label 5:a.txt", "size 5")
                .contains("input " + input.toAbsolutePath().toString().length() + ":" + input.toAbsolutePath());
        assertThat(a.label()).isEqualTo("a.txt");
    }

    @Test
    void anyChangeToJobFormLabelOrInput_givesAnotherKey() throws Exception {
        Path input = Files.writeString(tmp.resolve("a.txt"), "hello");
        Path other = Files.writeString(tmp.resolve("b.txt"), "hello");
        Files.setLastModifiedTime(other, Files.getLastModifiedTime(input));
        DiskKey base = DiskKey.of("app", "parsed", "a", List.of(input));

        assertThat(DiskKey.of("app --x 2", "parsed", "a", List.of(input))).isNotEqualTo(base);
        assertThat(DiskKey.of("app", "preprocessed/cuda", "a", List.of(input))).isNotEqualTo(base);
        assertThat(DiskKey.of("app", "parsed", "b", List.of(input))).isNotEqualTo(base);
        assertThat(DiskKey.of("app", "parsed", "a", List.of(other))).isNotEqualTo(base);
        assertThat(DiskKey.of("app", "parsed", "a", List.of(input, other))).isNotEqualTo(base);

        Files.setLastModifiedTime(input, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        DiskKey touched = DiskKey.of("app", "parsed", "a", List.of(input));
        assertThat(touched).isNotEqualTo(base);
        FileTime time = Files.getLastModifiedTime(input);
        Files.writeString(input, "hello!");
        Files.setLastModifiedTime(input, time);
        assertThat(DiskKey.of("app", "parsed", "a", List.of(input))).isNotEqualTo(touched).isNotEqualTo(base);
    }

    @Test
    void fieldsAreLengthPrefixed_soNoValueCanForgeTheNextField() {
        DiskKey a = DiskKey.of("app\nform 6:parsed", "x", "a", List.of(), List.of());
        DiskKey b = DiskKey.of("app", "parsed\nform 1:x", "a", List.of(), List.of());
        assertThat(a).isNotEqualTo(b);
        assertThat(a.digest()).isNotEqualTo(b.digest());
    }

    @Test
    void preReadAttributes_giveTheSameKeyAsReadingThem() throws Exception {
        Path input = Files.writeString(tmp.resolve("a.txt"), "hello");
        BasicFileAttributes attributes = Files.readAttributes(input, BasicFileAttributes.class);
        assertThat(DiskKey.of("app", "parsed", "a", List.of(input), List.of(attributes)))
                .isEqualTo(DiskKey.of("app", "parsed", "a", List.of(input)));
        assertThatThrownBy(() -> DiskKey.of("app", "parsed", "a", List.of(input), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unreadableInput_throwsIOExceptionNamingIt() {
        Path missing = tmp.resolve("missing.bin");
        assertThatThrownBy(() -> DiskKey.of("app", "parsed", "item-3", List.of(missing)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("item-3");
    }
}
