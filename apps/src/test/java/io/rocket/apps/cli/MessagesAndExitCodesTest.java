package io.rocket.apps.cli;

import io.rocket.apps.Cli;
import io.rocket.apps.docs.ReferenceDocs;
import io.rocket.cli.ExitCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exit code of each kind of mistake is the one the reference page gives (the page is generated from
 * {@link ExitCode}), and no message shows the user a Java class, an exception's name or a {@code null}.
 */
class MessagesAndExitCodesTest {
    /** A qualified Java name ({@code io.rocket.core.RocketException}, {@code java.lang.String}). */
    private static final Pattern JAVA_NAME = Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*");

    @TempDir
    static Path data;

    private record Case(ExitCode expected, String... args) {
    }

    @BeforeAll
    static void generate() {
        SmallData.generate(data);
    }

    private static List<Case> cases() {
        String photos = data.resolve("photos").toString();
        String prot = data.resolve("prot").toString();
        String parts = data.resolve("parts").toString();
        String nodir = data.resolve("nodir").resolve("e.tsv").toString();
        List<Case> cases = new ArrayList<>();
        cases.add(new Case(ExitCode.USAGE, "forensics", photos, "--top-k", "0"));
        cases.add(new Case(ExitCode.USAGE, "phylogenetics", prot, "--k", "9"));
        cases.add(new Case(ExitCode.USAGE, "forensics", photos, "--size", "256x"));
        cases.add(new Case(ExitCode.USAGE, "forensics", photos, "--errors", nodir));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "--device", "gpu"));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "--host-cache-size", "12x"));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "--progress-interval", "-1"));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "-q", "-v"));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "--frobnicate"));
        cases.add(new Case(ExitCode.USAGE, "microscopy", parts, "--output", data.resolve("x.npy").toString()));
        cases.add(new Case(ExitCode.USAGE, "forensics", photos, "--matrix", data.resolve("m.tsv").toString(),
                "--top-k", "1"));
        cases.add(new Case(ExitCode.USAGE, "forensics", photos, "--errors", "-"));
        cases.add(new Case(ExitCode.USAGE, "synthetic", "--items", "5", "--output", "-", "--journal",
                data.resolve("journal").toString()));
        cases.add(new Case(ExitCode.ERROR, "forensics", photos, "--host-cache-size", "1K", "--no-progress"));
        if (java.nio.file.Files.isWritable(Path.of("/dev/full"))) { // a disk that is full: one line naming the file
            cases.add(new Case(ExitCode.ERROR, "synthetic", "--items", "300", "--output", "/dev/full",
                    "--no-progress"));
            cases.add(new Case(ExitCode.ERROR, "synthetic", "--items", "20", "--errors", "/dev/full",
                    "--no-progress"));
        }
        return cases;
    }

    @Test
    void eachMistake_exitsWithTheDocumentedCode_inOneLineWithoutJava() {
        String page = ReferenceDocs.pages().get("exit-codes.md");
        for (Case c : cases()) {
            Cli.Result r = Cli.run(c.args());
            String what = String.join(" ", c.args()) + "\n" + r.both();
            assertThat(r.code()).as(what).isEqualTo(c.expected().code());
            assertThat(page).contains("| " + r.code() + " |");
            assertThat(r.err().lines().filter(l -> l.startsWith("rocket: ")).count()).as(what).isEqualTo(1);
            assertThat(r.err()).as(what).doesNotContainPattern(JAVA_NAME).doesNotContain("Exception")
                    .doesNotContain("null").doesNotContain("\tat ");
        }
    }

    @Test
    void theReferencePage_listsEveryCode_includingTheSignals() {
        String page = ReferenceDocs.pages().get("exit-codes.md");
        for (ExitCode c : ExitCode.values()) {
            assertThat(page).contains("| " + c.code() + " | " + c.meaning() + " |");
        }
        assertThat(ExitCode.TERMINATED.code()).isEqualTo(143);
        assertThat(ExitCode.INTERRUPTED.code()).isEqualTo(130);
    }
}
