package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.testapp.FileSimilarity;
import io.rocket.testapp.Misfits;
import io.rocket.testapp.NumberDistance;
import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How key texts become keys: by KeyParser, else by the key type bound through the class hierarchy. */
class KeyTypesTest {

    /** Binds K through a type variable of its own superclass's interface. */
    abstract static class Middle<X> implements Application<X, String> {
    }

    abstract static class Bound extends Middle<List<String>> {
    }

    @Test
    void theKeyTypeIsFoundThroughGenericSuperclasses() {
        assertThat(KeyTypes.keyType(WordSimilarity.class)).isEqualTo(String.class);
        assertThat(KeyTypes.keyType(FileSimilarity.class)).isEqualTo(Path.class);
        assertThat(KeyTypes.keyType(NumberDistance.class)).isEqualTo(Integer.class);
        assertThat(KeyTypes.erasure(KeyTypes.keyType(Bound.class))).isEqualTo(List.class);
        assertThat(KeyTypes.keyType(Middle.class).getTypeName()).isEqualTo("X");
        assertThat(KeyTypes.erasure(KeyTypes.keyType(Middle.class))).isEqualTo(Object.class);
    }

    @Test
    void textsBecomeKeysByType() {
        assertThat(KeyTypes.parser(new WordSimilarity(), "io.rocket.Main").apply("night owl")).isEqualTo("night owl");
        assertThat(KeyTypes.parser(new FileSimilarity(), "io.rocket.Main").apply("a/b.txt"))
                .isEqualTo(Path.of("a/b.txt"));
        assertThat(KeyTypes.parser(new NumberDistance(), "io.rocket.Main").apply("-4")).isEqualTo(-4);
    }

    @Test
    void anotherKeyTypeNeedsAKeyParser() {
        assertThatThrownBy(() -> KeyTypes.parser(new Misfits.UuidKeys(), "rocket"))
                .isInstanceOfSatisfying(CommandFailure.class, f -> assertThat(f.exitCode()).isEqualTo(ExitCode.USAGE))
                .hasMessageContaining("java.util.UUID, which rocket cannot make from text")
                .hasMessageContaining("io.rocket.core.KeyParser<java.util.UUID>");
    }
}
