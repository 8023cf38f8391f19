package io.rocket.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JoinBackoffTest {

    @Test
    void waits_doubleFromTheFirst_upToTheCap() {
        assertThat(JoinBackoff.waitFor(1, 2000, 8000)).isEqualTo(2000);
        assertThat(JoinBackoff.waitFor(2, 2000, 8000)).isEqualTo(4000);
        assertThat(JoinBackoff.waitFor(3, 2000, 8000)).isEqualTo(8000);
        assertThat(JoinBackoff.waitFor(30, 2000, 8000)).isEqualTo(8000);
    }

    @Test
    void aCapBelowTheFirstWait_keepsTheFirstWait() {
        assertThat(JoinBackoff.waitFor(5, 2000, 500)).isEqualTo(2000);
    }
}
