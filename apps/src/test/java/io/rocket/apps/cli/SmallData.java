package io.rocket.apps.cli;

import io.rocket.apps.Cli;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Tiny generated data sets of the three applications, for command-line tests: {@code photos}, {@code prot}, {@code parts}. */
final class SmallData {
    private SmallData() {
    }

    /** Writes 4 photos of 64x64 (2 cameras), 4 proteomes of 5 proteins and 3 particles under {@code dir}. */
    static void generate(Path dir) {
        assertThat(Cli.run("generate", "forensics", "--out", dir.resolve("photos").toString(), "--cameras", "2",
                "--images-per-camera", "2", "--width", "64", "--height", "64").code()).isZero();
        assertThat(Cli.run("generate", "phylogenetics", "--out", dir.resolve("prot").toString(), "--taxa", "4",
                "--proteins", "5").code()).isZero();
        assertThat(Cli.run("generate", "microscopy", "--out", dir.resolve("parts").toString(), "--particles",
                "3").code()).isZero();
    }
}
