package io.rocket.cli;

import io.rocket.core.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The output files a command line names are checked before anything runs. */
class OutputPathsTest {

    @TempDir
    Path dir;

    @Command(name = "demo")
    static final class Demo {
        @OutputFile(pairFormats = true)
        @Option(names = "--output")
        Path output;

        @OutputFile
        @Option(names = "--tree")
        Path tree;

        @Option(names = "--input")
        Path input;
    }

    private void check(String... args) {
        CommandLine line = new CommandLine(new Demo());
        line.parseArgs(args);
        OutputPaths.check(line.getCommandSpec());
    }

    @Test
    void writableOutputs_standardOutput_andInputs_pass() {
        assertThatCode(() -> check("--output", dir.resolve("a.tsv.gz").toString(), "--tree",
                dir.resolve("t.nwk").toString(), "--input", "/no/such/input")).doesNotThrowAnyException();
        assertThatCode(() -> check("--output", "-")).doesNotThrowAnyException();
    }

    @Test
    void missingDirectory_namesTheOptionAndTheDirectory() {
        assertThatThrownBy(() -> check("--tree", "nodir/t.nwk")).isInstanceOf(UsageException.class)
                .hasMessage("--tree nodir/t.nwk: no directory nodir (make it first, or write elsewhere)");
    }

    @Test
    void aFileWhereTheDirectoryShouldBe_aDirectoryAsTheFile_andStandardOutputElsewhere_refused() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertThatThrownBy(() -> check("--tree", file.resolve("t.nwk").toString()))
                .hasMessageEndingWith(file + " is not a directory");
        assertThatThrownBy(() -> check("--tree", dir.toString())).hasMessageContaining("is a directory");
        assertThatThrownBy(() -> check("--tree", "-")).hasMessageContaining("only --output writes to standard output");
    }

    @Test
    void pairOutputs_ofAnUnknownFormat_refused() {
        assertThatThrownBy(() -> check("--output", dir.resolve("pairs.csv").toString()))
                .isInstanceOf(UsageException.class).hasMessageContaining("unknown format '.csv'");
        assertThatCode(() -> check("--tree", dir.resolve("tree.csv").toString())).doesNotThrowAnyException();
    }
}
