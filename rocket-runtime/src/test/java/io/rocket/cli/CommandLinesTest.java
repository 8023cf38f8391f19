package io.rocket.cli;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/** The one error handling and version of every Rocket command line. */
class CommandLinesTest {

    @Command(name = "top", mixinStandardHelpOptions = true, subcommands = {Group.class})
    static final class Top implements Runnable {
        @Override
        public void run() {
        }
    }

    @Command(name = "group", mixinStandardHelpOptions = true, subcommands = {Leaf.class})
    static final class Group implements Runnable {
        @Override
        public void run() {
        }
    }

    @Command(name = "leaf", mixinStandardHelpOptions = true)
    static final class Leaf implements Callable<Integer> {
        @Option(names = "--fail")
        String fail = "";

        @Option(names = "--n")
        int n;

        @Override
        public Integer call() {
            switch (fail) {
                case "usage" -> throw new CommandFailure(ExitCode.USAGE, "bad thing");
                case "rocket" -> throw new IllegalStateException("wrapped", new RocketException("disk full"));
                case "bug" -> throw new NullPointerException("oops");
                default -> {
                    return 0;
                }
            }
        }
    }

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CommandLines.configure(new CommandLine(new Top()), new PrintWriter(out, true),
                new PrintWriter(err, true), CommandLines::qualifiedName);
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void errorsAreOneLineWithTheirExitCode() {
        Result usage = run("group", "leaf", "--fail", "usage");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).isEqualTo("rocket: bad thing" + System.lineSeparator());
        Result error = run("group", "leaf", "--fail", "rocket");
        assertThat(error.code()).isEqualTo(1);
        assertThat(error.err().strip()).isEqualTo("rocket: error: disk full");
        Result bug = run("group", "leaf", "--fail", "bug");
        assertThat(bug.code()).isEqualTo(1);
        assertThat(bug.err()).startsWith("rocket: internal error: java.lang.NullPointerException: oops")
                .contains("\tat ");
    }

    @Test
    void aBadCommandLineIsOneLineNamingTheSubcommandsHelp() {
        Result r = run("group", "leaf", "--n", "many");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1).first().asString().startsWith("rocket: ")
                .contains("--n").endsWith("(see: top group leaf --help)");
        Result typo = run("group", "leafy");
        assertThat(typo.err().lines().toList()).hasSize(1).first().asString()
                .contains("did you mean").endsWith("(see: top group --help)");
    }

    @Test
    void laterOptionsOverrideEarlierOnes() {
        assertThat(run("group", "leaf", "--n", "1", "--n", "2").code()).isZero();
    }

    @Test
    void everyCommandPrintsTheOneVersion() {
        assertThat(Version.line()).startsWith("Rocket ").doesNotContain("unknown").doesNotContain("${");
        for (String[] args : new String[][] {{"--version"}, {"group", "--version"}, {"group", "leaf", "-V"}}) {
            assertThat(run(args).out().strip()).isEqualTo(Version.line());
        }
    }
}
