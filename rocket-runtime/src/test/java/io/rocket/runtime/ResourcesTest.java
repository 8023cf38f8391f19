package io.rocket.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourcesTest {

    @Test
    void closesInReverseOrderOfRegistration() {
        List<String> closed = new ArrayList<>();
        Resources resources = new Resources();
        resources.onClose(() -> closed.add("devices"));
        resources.add(() -> closed.add("pipeline"));
        resources.onClose(() -> closed.add("scheduler"));
        resources.close();
        assertThat(closed).containsExactly("scheduler", "pipeline", "devices");
        resources.close(); // closing again closes nothing twice
        assertThat(closed).hasSize(3);
    }

    @Test
    void closesEverythingAndThrowsTheFirstFailureWithTheOthersSuppressed() {
        List<String> closed = new ArrayList<>();
        Resources resources = new Resources();
        resources.onClose(() -> closed.add("first"));
        resources.onClose(() -> {
            throw new IllegalStateException("second");
        });
        resources.onClose(() -> {
            throw new java.io.IOException("third");
        });
        assertThatThrownBy(resources::close).hasMessageContaining("third")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessage("second")));
        assertThat(closed).containsExactly("first");
    }

    @Test
    void anInterruptDoesNotCutClosingShort() {
        List<String> closed = new ArrayList<>();
        Resources resources = new Resources();
        resources.onClose(() -> closed.add("devices"));
        resources.onClose(() -> {
            throw new InterruptedException();
        });
        assertThatThrownBy(resources::close).hasCauseInstanceOf(InterruptedException.class);
        assertThat(closed).containsExactly("devices");
        assertThat(Thread.interrupted()).isTrue(); // set again, and cleared here
    }
}
