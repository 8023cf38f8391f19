package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class RadixSortTest {

    @Property(tries = 200)
    void sort_randomValues_sameAsArraysSort(@ForAll List<@IntRange(min = 0, max = 1_279_999_999) Integer> values,
                                            @ForAll @IntRange(min = 0, max = 30) int dropBits) {
        int[] data = values.stream().mapToInt(v -> v >>> dropBits).toArray();
        int[] expected = data.clone();
        Arrays.sort(expected);
        int[] tmp = new int[data.length];

        RadixSort.sort(data, tmp, new int[1 << RadixSort.MAX_DIGIT_BITS], data.length,
                RadixSort.bitsFor((1_279_999_999L >>> dropBits) + 1));

        assertThat(data).containsExactly(expected);
    }
}
