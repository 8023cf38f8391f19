package io.rocket.apps.forensics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForensicsGeneratorTest {

    @Test
    void generate_smallSet_writesPhotosAndTruth(@TempDir Path dir) throws Exception {
        TruthTable truth = ForensicsGenerator.generate(dir, 3, 2, 64, 48, 0.02, 85, 7);
        assertThat(truth.files()).hasSize(6).doesNotHaveDuplicates();
        assertThat(truth.cameras()).containsOnly("cam00", "cam01", "cam02");
        for (String camera : new String[] {"cam00", "cam01", "cam02"}) {
            assertThat(truth.cameras().stream().filter(camera::equals)).hasSize(2);
        }
        TruthTable reread = TruthTable.read(dir);
        assertThat(reread.files()).isEqualTo(truth.files());
        assertThat(reread.cameras()).isEqualTo(truth.cameras());
        for (String file : truth.files()) {
            BufferedImage image = ImageIO.read(Files.newInputStream(dir.resolve(file)));
            assertThat(image.getWidth()).isEqualTo(64);
            assertThat(image.getHeight()).isEqualTo(48);
        }
    }

    @Test
    void generate_sameSeed_givesIdenticalFiles(@TempDir Path dir) throws Exception {
        TruthTable a = ForensicsGenerator.generate(dir.resolve("a"), 2, 2, 40, 32, 0.02, 80, 11);
        ForensicsGenerator.generate(dir.resolve("b"), 2, 2, 40, 32, 0.02, 80, 11);
        ForensicsGenerator.generate(dir.resolve("c"), 2, 2, 40, 32, 0.02, 80, 12);
        for (String file : a.files()) {
            byte[] bytesA = Files.readAllBytes(dir.resolve("a").resolve(file));
            assertThat(Files.readAllBytes(dir.resolve("b").resolve(file))).isEqualTo(bytesA);
        }
        assertThat(Files.readAllBytes(dir.resolve("c").resolve(a.files().get(0))))
                .isNotEqualTo(Files.readAllBytes(dir.resolve("a").resolve(a.files().get(0))));
    }

    @Test
    void scene_staysInTheDocumentedRange() {
        float[] scene = ForensicsGenerator.scene(100, 80, new SplittableRandom(3));
        for (float v : scene) {
            assertThat(v).isBetween(40f, 210f);
        }
    }

    @Test
    void poisson_meanAndVariance_matchLambda() {
        SplittableRandom random = new SplittableRandom(5);
        for (double lambda : new double[] {3.0, 30.0, 400.0}) {
            int draws = 200_000;
            double sum = 0;
            double sum2 = 0;
            for (int i = 0; i < draws; i++) {
                long k = ForensicsGenerator.poisson(lambda, random);
                sum += k;
                sum2 += (double) k * k;
            }
            double mean = sum / draws;
            double variance = sum2 / draws - mean * mean;
            assertThat(mean).as("mean at %s", lambda).isCloseTo(lambda, within(0.02 * lambda));
            assertThat(variance).as("variance at %s", lambda).isCloseTo(lambda, within(0.05 * lambda));
        }
    }

    @Test
    void boxRadii_totalVarianceMatchesSigma() {
        for (double sigma : new double[] {8, 13.7, 25, 40}) {
            double variance = 0;
            for (int r : SmoothField.boxRadii(sigma)) {
                int width = 2 * r + 1;
                variance += (width * width - 1) / 12.0;
            }
            assertThat(Math.sqrt(variance)).as("sigma %s", sigma).isCloseTo(sigma, within(0.05 * sigma));
        }
    }

    @Test
    void options_outOfRange_areRejected() {
        assertThatThrownBy(() -> new GeneratorOptions(0, 2, 64, 64, 0.02, 85, 1)).hasMessageContaining("camera");
        assertThatThrownBy(() -> new GeneratorOptions(2, 2, 8, 64, 0.02, 85, 1)).hasMessageContaining("16x16");
        assertThatThrownBy(() -> new GeneratorOptions(2, 2, 64, 64, 0.02, 101, 1)).hasMessageContaining("quality");
    }
}
