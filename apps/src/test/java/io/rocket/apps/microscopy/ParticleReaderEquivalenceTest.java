package io.rocket.apps.microscopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParticleReader} against {@link PreviousParticleReader}, the Jackson and String-per-field reader it replaced:
 * the same localizations, bit for bit, or the same error message, for generated particles and for random JSON and
 * CSV files full of the number forms, fields, blanks and mistakes either format may hold.
 */
class ParticleReaderEquivalenceTest {

    private final ParticleReader reader = new ParticleReader();
    private final PreviousParticleReader previous = new PreviousParticleReader();

    @Test
    void generatedParticles_sameValuesAsBefore(@TempDir Path dir) throws Exception {
        for (MicroscopyGenerator.Format format : MicroscopyGenerator.Format.values()) {
            Path out = dir.resolve(format.name());
            MicroscopyGenerator.Result generated = MicroscopyGenerator.generate(out,
                    new MicroscopyGenerator.Options(4, 0.7, 50, 11, format), Template.standard());
            for (Path file : generated.files()) {
                String result = assertSame(Files.readAllBytes(file));
                assertThat(result).startsWith("ok");
            }
        }
    }

    @Test
    void randomJson_sameValuesOrSameErrorAsBefore() throws Exception {
        SplittableRandom random = new SplittableRandom(43);
        int read = 0;
        for (int t = 0; t < 4000; t++) {
            read += assertSame(randomJson(random).getBytes(StandardCharsets.ISO_8859_1)).startsWith("ok") ? 1 : 0;
        }
        assertThat(read).as("files read without error").isBetween(400, 3600);
    }

    @Test
    void randomCsv_sameValuesOrSameErrorAsBefore() throws Exception {
        SplittableRandom random = new SplittableRandom(44);
        int read = 0;
        for (int t = 0; t < 4000; t++) {
            read += assertSame(randomCsv(random).getBytes(StandardCharsets.ISO_8859_1)).startsWith("ok") ? 1 : 0;
        }
        assertThat(read).as("files read without error").isBetween(400, 3600);
    }

    @Test
    void numberForms_sameValuesAsBefore() throws Exception {
        for (String n : NUMBERS) {
            assertSame(("[{\"x\": " + n + ", \"y\": -" + n + ", \"sigma\": 1}]").getBytes(StandardCharsets.UTF_8));
            assertSame(("x,y,sigma\n" + n + ",-" + n + ",1\n").getBytes(StandardCharsets.UTF_8));
            assertSame(("[{\"x\": 1, \"y\": 2, \"sigma\": " + n + "}]").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Reads {@code file} with both readers; returns "ok …" or the error, after checking they agree. */
    private String assertSame(byte[] file) {
        String before = outcome(file, true);
        String after = outcome(file, false);
        assertThat(after).as(new String(file, StandardCharsets.ISO_8859_1)).isEqualTo(before);
        return after;
    }

    private String outcome(byte[] file, boolean old) {
        ByteBuffer bytes = ByteBuffer.allocateDirect(file.length + 1).put((byte) '#').put(file).flip().position(1);
        Particle p = new Particle(2);
        try {
            if (old) {
                previous.read("p.txt", bytes, p);
            } else {
                reader.read("p.txt", bytes, p);
            }
        } catch (ParticleFormatException e) {
            return "error " + e.getMessage();
        }
        assertThat(bytes.position()).isEqualTo(1);
        StringBuilder values = new StringBuilder("ok ").append(p.size());
        for (int k = 0; k < p.size(); k++) {
            values.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(p.x(k))))
                    .append(' ').append(Long.toHexString(Double.doubleToRawLongBits(p.y(k))))
                    .append(' ').append(Long.toHexString(Double.doubleToRawLongBits(p.sigma(k))));
        }
        return values.toString();
    }

    /** Numbers as either format may spell them, valid or not in each. */
    private static final String[] NUMBERS = {
        "0", "-0", "0.0", "-0.0", "7", "12.5", "1.25e2", "1.25E+2", "125e-1", "0.1", "0.30000000000000004",
        "123456789012345678", "1234567890123456789", "12345678901234567890123", "9007199254740993",
        "9007199254740993.0", "1e22", "1e23", "1.7976931348623157e308", "1e309", "4.9e-324", "1e-400", "2.5e-5",
        "0.000001", "1e0", "01", "+1", ".5", "5.", "1.e3", "1e", "1e+", "--1", "1..2", "NaN", "Infinity",
        "-Infinity", "0x1p3", "1f", "2d", "1_0", "3 4", "\"5\"", "true", "null", "1.5.3",
        "0.1000000000000000055511151231257827", "3.14159265358979323846264338327950288",
        "1" + "0".repeat(30), "0." + "0".repeat(30) + "1", "1" + "0".repeat(120),
    };

    private static String randomNumber(SplittableRandom random) {
        int r = random.nextInt(100);
        if (r < 60) {
            return String.format(java.util.Locale.ROOT, "%." + random.nextInt(7) + "f",
                    (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(8)));
        }
        if (r < 75) {
            return Long.toString(random.nextLong(-100_000, 100_000_000));
        }
        if (r < 85) {
            return Double.toString(random.nextDouble() * Math.pow(10, random.nextInt(-30, 30)));
        }
        return NUMBERS[random.nextInt(NUMBERS.length)];
    }

    private static String randomJson(SplittableRandom random) {
        String[] space = {"", " ", "\n", "\r\n", "\t", "  "};
        String[] others = {"\"frame\": 7", "\"id\": \"a b\"", "\"flag\": true", "\"flag\": false", "\"n\": null",
            "\"esc\": \"a\\\"b\"", "\"u\": \"\u00e9\"", "\"nested\": {\"a\": [1, {\"b\": 2}]}", "\"list\": []",
            "\"\\u0078\": 3", "\"X\": 1", "\"sigma2\": 1", "\"t\": truex", "\"e\": 1e5", "\"neg\": -0"};
        StringBuilder text = new StringBuilder(space[random.nextInt(space.length)]).append('[');
        int objects = random.nextInt(6);
        for (int o = 0; o < objects; o++) {
            if (o > 0) {
                text.append(',');
            }
            text.append(space[random.nextInt(space.length)]).append('{');
            List<String> fields = new ArrayList<>();
            if (random.nextInt(30) != 0) {
                fields.add("\"x\": " + randomNumber(random));
            }
            if (random.nextInt(30) != 0) {
                fields.add("\"y\":" + space[random.nextInt(space.length)] + randomNumber(random));
            }
            if (random.nextInt(30) != 0) {
                fields.add("\"sigma\" : " + (random.nextInt(8) == 0 ? randomNumber(random)
                        : Double.toString(0.5 + random.nextDouble() * 9)));
            }
            if (random.nextInt(3) == 0) {
                fields.add(random.nextInt(fields.size() + 1), others[random.nextInt(others.length)]);
            }
            if (random.nextInt(20) == 0 && !fields.isEmpty()) {
                fields.add(fields.get(0)); // a repeated key
            }
            text.append(String.join("," + space[random.nextInt(space.length)], fields));
            text.append(space[random.nextInt(space.length)]).append('}');
        }
        if (random.nextInt(40) == 0) {
            text.append(',');
        }
        text.append(space[random.nextInt(space.length)]).append(']');
        String[] after = {"", "\n", " \n", "\f", "]", " x", "[]", "\u0000", "\u00ff"};
        text.append(random.nextInt(8) == 0 ? after[random.nextInt(after.length)] : "\n");
        String json = text.toString();
        if (random.nextInt(25) == 0) {
            json = json.substring(0, random.nextInt(json.length() + 1)); // truncated
        }
        if (random.nextInt(40) == 0) {
            json = "\f" + json; // a leading blank that is not JSON whitespace
        }
        return json;
    }

    private static String randomCsv(SplittableRandom random) {
        String[] blanks = {"", "", " ", "\t", "\"", " \" ", "\f", "\r"};
        StringBuilder text = new StringBuilder();
        if (random.nextInt(3) == 0) {
            text.append(random.nextBoolean() ? "x,y,sigma" : "# comment\n X , Y , Sigma ").append('\n');
        }
        int lines = random.nextInt(6);
        String newline = random.nextInt(4) == 0 ? "\r\n" : "\n";
        for (int l = 0; l < lines; l++) {
            int r = random.nextInt(40);
            if (r == 0) {
                text.append("   ");
            } else if (r == 1) {
                text.append("# note, with, commas");
            } else {
                int fields = r == 2 ? 2 : r == 3 ? 4 : 3;
                for (int f = 0; f < fields; f++) {
                    if (f > 0) {
                        text.append(',');
                    }
                    String value = f == 2 && random.nextInt(6) != 0 ? Double.toString(0.5 + random.nextDouble() * 9)
                            : randomNumber(random);
                    if (random.nextInt(5) == 0 && value.length() > 1) { // a blank inside the field
                        int at = random.nextInt(value.length());
                        value = value.substring(0, at) + blanks[random.nextInt(blanks.length)] + value.substring(at);
                    }
                    text.append(blanks[random.nextInt(blanks.length)]).append(value)
                            .append(blanks[random.nextInt(blanks.length)]);
                }
            }
            text.append(newline);
        }
        return text.toString();
    }
}
