package io.rocket.apps.report;

import io.rocket.report.TraceBuilder;
import io.rocket.apps.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rocket report} on the command line: the page it writes, and one-line errors for bad input. */
class ReportCommandTest {

    @TempDir
    Path dir;

    @Test
    void writesOneSelfContainedPage() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json.gz"));
        Path html = dir.resolve("report.html");
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "-o", html.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).contains("report: " + html).contains("1 node, 26 tasks in 26 timeline boxes")
                .contains("no summary");
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<title>Rocket report: synthetic</title>")
                .contains("<script id=\"report-data\" type=\"application/json\">{\"title\"")
                .contains("function selfTest()").contains("No run summary given")
                .doesNotContain("{{DATA}}").doesNotContain("/*{{JS}}*/").doesNotContain("/*{{CSS}}*/");
        // nothing from the network: no external scripts, styles or fonts
        assertThat(page).doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("@import");
    }

    @Test
    void namesThatLookLikeMarkup_cannotEndTheDataBlock() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket </script><b>x</b>").write(dir.resolve("t.json"));
        Path html = dir.resolve("r.html");
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "--output", html.toString());
        assertThat(r.code()).as(r.both()).isZero();
        String page = Files.readString(html);
        assertThat(page).doesNotContain("</script><b>").contains("\\u003c/script>");
        assertThat(page).contains("<title>Rocket report: &lt;/script&gt;&lt;b&gt;x&lt;/b&gt;</title>");
    }

    @Test
    void withSummary() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        Path summary = Files.writeString(dir.resolve("s.json"), "{\"app\":\"synthetic\",\"items\":4,\"pairs\":6,"
                + "\"pairs_computed\":6,\"wall_seconds\":0.002,\"R\":1.0,\"t_min_seconds\":0.00068,"
                + "\"system_efficiency\":0.34,\"cache\":{\"device\":{\"hits\":8,\"misses\":4},"
                + "\"host\":{\"hits\":0,\"misses\":4}}}");
        Path html = dir.resolve("r.html");
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "--summary", summary.toString(),
                "-o", html.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(r.out()).doesNotContain("no summary");
        assertThat(Files.readString(html)).contains("\"source\":\"summary\"").doesNotContain("No run summary given")
                .doesNotContain("are the summary and the traces from the same run");
    }

    @Test
    void summaryFromAnotherRun_isPointedOut() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        Path summary = Files.writeString(dir.resolve("s.json"), "{\"pairs\":100,\"pairs_computed\":100,"
                + "\"wall_seconds\":3}");
        Path html = dir.resolve("r.html");
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "--summary", summary.toString(),
                "-o", html.toString());
        assertThat(r.code()).as(r.both()).isZero();
        assertThat(Files.readString(html)).contains("The summary counts 100 pairs computed, the traces 6");
    }

    @Test
    void missingTrace_oneLineErrorExit1() {
        Path missing = dir.resolve("missing.json.gz");
        Cli.Result r = Cli.run("report", "--trace", missing.toString(), "-o", dir.resolve("r.html").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("rocket: error: cannot read trace " + missing + ": no such file"
                + System.lineSeparator());
        assertThat(dir.resolve("r.html")).doesNotExist();
    }

    @Test
    void notATrace_oneLineErrorExit1() throws Exception {
        Path png = Files.write(dir.resolve("picture.png"), new byte[]{(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        Cli.Result r = Cli.run("report", "--trace", png.toString(), "-o", dir.resolve("r.html").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("rocket: error: " + png + " is not a Chrome trace").hasLineCount(1);
    }

    @Test
    void badSummary_oneLineErrorExit1() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        Path notSummary = trace; // a trace is JSON but not a summary
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "--summary", notSummary.toString(),
                "-o", dir.resolve("r.html").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("rocket: error: " + notSummary + " is not a run summary").hasLineCount(1);
        Cli.Result missing = Cli.run("report", "--trace", trace.toString(), "--summary",
                dir.resolve("nope.json").toString(), "-o", dir.resolve("r.html").toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("cannot read summary").hasLineCount(1);
    }

    @Test
    void badCommandLine_exit2() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        Cli.Result noOutput = Cli.run("report", "--trace", trace.toString());
        assertThat(noOutput.code()).isEqualTo(2);
        assertThat(noOutput.err()).contains("--output");
        Cli.Result noTrace = Cli.run("report", "-o", dir.resolve("r.html").toString());
        assertThat(noTrace.code()).isEqualTo(2);
        assertThat(noTrace.err()).contains("--trace");
        Cli.Result bins = Cli.run("report", "--trace", trace.toString(), "-o", dir.resolve("r.html").toString(),
                "--bins", "0");
        assertThat(bins.code()).isEqualTo(2);
        assertThat(bins.err()).contains("--bins");
    }

    @Test
    void unwritableOutput_oneLineUsageErrorExit2() throws Exception {
        Path trace = TraceBuilder.smallRun(0, "rocket synthetic").write(dir.resolve("t.json"));
        Path out = dir.resolve("no-such-dir").resolve("r.html");
        Cli.Result r = Cli.run("report", "--trace", trace.toString(), "-o", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("rocket: --output " + out + ": no directory " + out.getParent())
                .hasLineCount(1);
    }
}
