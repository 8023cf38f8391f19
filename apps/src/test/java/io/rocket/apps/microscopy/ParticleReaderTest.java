package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParticleReaderTest {

    private static Particle read(String text) throws ParticleFormatException {
        Particle p = new Particle();
        new ParticleReader().read("p.txt", ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), p);
        return p;
    }

    @Test
    void read_jsonArray_keepsEveryLocalizationAndIgnoresOtherFields() throws Exception {
        Particle p = read(" [ {\"x\": 1.5, \"y\": -2, \"sigma\": 3, \"frame\": 7},\n {\"sigma\": 4.25, \"y\": 6, \"x\": 5,"
                + " \"extra\": {\"a\": [1, 2]}} ] ");
        assertThat(p.size()).isEqualTo(2);
        assertThat(new double[]{p.x(0), p.y(0), p.sigma(0), p.x(1), p.y(1), p.sigma(1)})
                .containsExactly(1.5, -2, 3, 5, 6, 4.25);
    }

    @Test
    void read_csvWithHeaderCommentsAndCrlf_keepsEveryLocalization() throws Exception {
        Particle p = read("# particle 3\r\nx,y,sigma\r\n1,2,3\r\n\r\n 4 , 5 , 6 \r\n");
        assertThat(p.size()).isEqualTo(2);
        assertThat(new double[]{p.x(1), p.y(1), p.sigma(1)}).containsExactly(4, 5, 6);
    }

    @Test
    void read_badInput_failsWithAMessageNamingTheFileAndPlace() {
        String[][] cases = {
                {"[{\"x\": 1, \"y\": 2, \"sigma\": 3},", "malformed JSON"},
                {"[{\"x\": 1, \"y\": 2}]", "element 0 lacks sigma"},
                {"[{\"x\": \"a\", \"y\": 2, \"sigma\": 1}]", "element 0: x is not a number"},
                {"[1, 2]", "element 0 is not an object"},
                {"[]", "no localizations"},
                {"   ", "empty file"},
                {"[{\"x\": 1, \"y\": 2, \"sigma\": -1}]", "element 0: sigma -1.0 is not a positive number"},
                {"[{\"x\": 1, \"y\": 2, \"sigma\": 0}]", "sigma 0.0 is not a positive number"},
                {"[{\"x\": NaN, \"y\": 2, \"sigma\": 1}]", "malformed JSON"},
                {"1,2,3\nNaN,2,3", "line 2: position (NaN, 2.0) is not finite"},
                {"1,2,3\n1,Infinity,3", "line 2: position (1.0, Infinity) is not finite"},
                {"1,2,NaN", "line 1: sigma NaN is not a positive number"},
                {"1,2", "line 1: 2 fields, expected 3"},
                {"1,2,3,4", "line 1: more than 3 fields"},
                {"1,2,3\nx,y,sigma", "line 2: 'x' is not a number"},
                {"x,y,sigma\n# nothing", "no localizations"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> read(c[0])).as(c[0])
                    .isInstanceOf(ParticleFormatException.class)
                    .hasMessageStartingWith("p.txt: ")
                    .hasMessageContaining(c[1]);
        }
    }
}
