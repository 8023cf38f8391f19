package io.rocket.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CacheSizeTest {

    @Test
    void parse_suffixes_binaryUnits() {
        assertThat(CacheSize.parse("512").bytes()).isEqualTo(512);
        assertThat(CacheSize.parse("4K").bytes()).isEqualTo(4096);
        assertThat(CacheSize.parse("2m").bytes()).isEqualTo(2L << 20);
        assertThat(CacheSize.parse("1.5G").bytes()).isEqualTo(3L << 29);
        assertThat(CacheSize.parse("3GB").bytes()).isEqualTo(3L << 30);
    }

    @Test
    void parse_slots_countsSlots() {
        CacheSize size = CacheSize.parse("40slots");
        assertThat(size.slots()).isEqualTo(40);
        assertThat(size.slots(1 << 20)).isEqualTo(40);
    }

    @Test
    void slots_bytes_dividesBySlotSize() {
        assertThat(CacheSize.parse("10M").slots(1 << 20)).isEqualTo(10);
        assertThat(CacheSize.parse("100").slots(1 << 20)).isZero();
    }

    @Test
    void parse_negativeOrJunk_throwsNamingValue() {
        assertThatThrownBy(() -> CacheSize.parse("-5M")).isInstanceOf(RocketException.class).hasMessageContaining("-5M");
        assertThatThrownBy(() -> CacheSize.parse("lots")).isInstanceOf(RocketException.class).hasMessageContaining("lots");
        assertThatThrownBy(() -> CacheSize.parse("-3slots")).isInstanceOf(RocketException.class);
        assertThatThrownBy(() -> CacheSize.parse("")).isInstanceOf(RocketException.class);
    }
}
