package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AlphabetTest {

    @Test
    void code_standardLetters_followCvtreeOrder() {
        for (int i = 0; i < Alphabet.SIZE; i++) {
            assertThat(Alphabet.code(Alphabet.LETTERS.charAt(i))).isEqualTo(i);
        }
        assertThat(Alphabet.LETTERS).isEqualTo("ACDEFGHIKLMNPQRSTVWY");
    }

    @Test
    void code_ambiguityLetters_foldLikeCvtree() {
        assertThat(Alphabet.code('B')).isEqualTo(Alphabet.code('D'));
        assertThat(Alphabet.code('U')).isEqualTo(Alphabet.code('C'));
        assertThat(Alphabet.code('X')).isEqualTo(Alphabet.code('G'));
        assertThat(Alphabet.code('Z')).isEqualTo(Alphabet.code('E'));
        assertThat(Alphabet.code('J')).isEqualTo(Alphabet.code('A'));
        assertThat(Alphabet.code('O')).isEqualTo(Alphabet.code('A'));
    }

    @Test
    void code_lowerCase_sameAsUpperCase() {
        for (char c = 'A'; c <= 'Z'; c++) {
            assertThat(Alphabet.code(Character.toLowerCase(c))).as("%s", c).isEqualTo(Alphabet.code(c));
        }
    }

    @Test
    void code_nonLetters_minusOne() {
        assertThat(Alphabet.code('*')).isEqualTo(-1);
        assertThat(Alphabet.code('-')).isEqualTo(-1);
        assertThat(Alphabet.code('1')).isEqualTo(-1);
        assertThat(Alphabet.code('é')).isEqualTo(-1);
    }

    @Test
    void encode_thenDecode_roundTrips() {
        long index = Alphabet.encode("WYACD");
        assertThat(index).isEqualTo(((18L * 20 + 19) * 20 * 20 + 1) * 20 + 2);
        assertThat(Alphabet.decode(index, 5)).isEqualTo("WYACD");
    }

    @Test
    void encode_nonLetter_throws() {
        assertThatThrownBy(() -> Alphabet.encode("AC*")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'*'");
    }
}
