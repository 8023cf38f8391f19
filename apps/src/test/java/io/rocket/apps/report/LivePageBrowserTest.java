package io.rocket.apps.report;

import io.rocket.apps.Launcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The live page of a running job in headless Chromium: its progress grows between two loads, without script errors. */
class LivePageBrowserTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void livePage_progressGrowsBetweenTwoScreenshots_noScriptError() throws Exception {
        Chromium chromium = Chromium.find().orElse(null);
        Assumptions.assumeTrue(chromium != null, Chromium.INSTALL_HINT);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path status = dir.resolve("status");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "synthetic", "--items", "400", "--item-bytes", "64", "--compare-ms", "1",
                "--device", "sim:2", "--host-threads", "1", "--status-port", "0", "--status-dir", status.toString()));
        Process run = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("run.log").toFile())
                .start();
        try {
            Path urlFile = status.resolve("status.url");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!Files.exists(urlFile) && run.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            String url = Files.readString(urlFile).trim();
            String first = chromium.dumpDom(url, Files.createDirectories(dir.resolve("one")), dir.resolve("one.png"));
            Thread.sleep(2000);
            String second = chromium.dumpDom(url, Files.createDirectories(dir.resolve("two")), dir.resolve("two.png"));
            assertThat(run.isAlive()).as("the run still going at the second load").isTrue();
            for (String dom : List.of(first, second)) {
                assertThat(Chromium.attributes(dom, "html")).doesNotContainKey("data-js-error");
                assertThat(dom).contains("data-plot=\"progress\"").contains("data-plot=\"rates\"")
                        .contains("data-plot=\"busy\"").contains("data-plot=\"cache\"");
            }
            Map<String, String> one = Chromium.attributes(first, "body");
            Map<String, String> two = Chromium.attributes(second, "body");
            assertThat(one.get("data-status-state")).isEqualTo("running");
            assertThat(Long.parseLong(two.get("data-pairs-done"))).isGreaterThan(Long.parseLong(one.get("data-pairs-done")));
            assertThat(dir.resolve("one.png")).isNotEmptyFile();
            assertThat(dir.resolve("two.png")).isNotEmptyFile();
        } finally {
            run.destroyForcibly().waitFor();
        }
    }
}
