package io.rocket.cli;

import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The generic command's assembly: the job's identity, and how each invocation names itself in help and errors. */
class ApplicationCommandTest {
    private static final String WORDS = WordSimilarity.class.getName();

    /** What a command line did. */
    record Result(int code, String out, String err) {
    }

    static Result run(Invocation invocation, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ApplicationCommand.execute(invocation, args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    private static ApplicationCommand.Job job(String... options) {
        var cl = ApplicationCommand.commandLine(ApplicationClass.instantiate(WORDS, Invocation.MAIN), Invocation.MAIN,
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        cl.parseArgs(options);
        return cl.getCommand();
    }

    private static String jobOptions(String... options) {
        return job(options).runtime.jobOptions();
    }

    private static String fingerprint(String... options) {
        return job(options).runtime.fingerprint(List.of("one", "two"));
    }

    @Test
    void anApplicationOptionIsPartOfTheJobIdentity() {
        assertThat(jobOptions("--q", "2")).isEqualTo(WORDS + "\n--q=2");
        assertThat(fingerprint("--q", "2")).isEqualTo(fingerprint("--q", "2", "--output", "x.tsv", "--device", "cpu:2"))
                .isNotEqualTo(fingerprint("--q", "3"));
    }

    @Test
    void theLauncherInvocationNamesRocketInHelpAndErrors() {
        Result help = run(Invocation.LAUNCHER, WORDS, "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("scripts/rocket --classpath APP_CLASSES").contains(WORDS + " [OPTIONS] KEY...")
                .contains("--q=Q").doesNotContain("io.rocket.Main");

        Result contract = run(Invocation.LAUNCHER, "--help");
        assertThat(contract.out()).contains("'rocket APP_CLASS --help' lists them").doesNotContain("io.rocket.Main");

        Result bad = run(Invocation.LAUNCHER, WORDS, "--no-such-option", "a", "b");
        assertThat(bad.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(bad.err().lines().toList()).hasSize(1).first().asString()
                .startsWith("rocket: Unknown option: '--no-such-option'").endsWith("(see: rocket " + WORDS + " --help)");
        assertThat(run(Invocation.MAIN, WORDS, "--no-such-option", "a", "b").err().strip())
                .endsWith("(see: io.rocket.Main " + WORDS + " --help)");

        assertThat(run(Invocation.LAUNCHER, WORDS).err().strip()).endsWith("(see: rocket --help)");
        assertThat(run(Invocation.LAUNCHER, "com.example.Nowhere", "a", "b").err().strip())
                .contains("not found").endsWith("(scripts/rocket --classpath APP_CLASSES APP_CLASS [OPTIONS] KEY...)");
    }

    @Test
    void everyInvocationPrintsTheOneVersion() {
        for (Invocation invocation : Invocation.values()) {
            assertThat(run(invocation, "--version").out().strip()).isEqualTo(Version.line());
            assertThat(run(invocation, WORDS, "--version").out().strip()).isEqualTo(Version.line());
        }
    }

    @Test
    void anArgumentLooksLikeAnApplicationClassWhenItHasADotOrIsAClass() {
        assertThat(ApplicationCommand.looksLikeApplicationClass("com.example.MyApp")).isTrue();
        assertThat(ApplicationCommand.looksLikeApplicationClass(WORDS)).isTrue();
        assertThat(ApplicationCommand.looksLikeApplicationClass("Foo.class")).isTrue(); // refused with its reason
        assertThat(ApplicationCommand.looksLikeApplicationClass("synthtic")).isFalse();
        assertThat(ApplicationCommand.looksLikeApplicationClass("--items")).isFalse();
        assertThat(ApplicationCommand.looksLikeApplicationClass("@keys.txt")).isFalse();
        assertThat(ApplicationCommand.looksLikeApplicationClass("")).isFalse();
    }
}
