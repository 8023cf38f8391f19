package io.rocket.apps.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: renders a page in headless Chromium and returns the DOM after its scripts ran. The binary is
 * $ROCKET_CHROMIUM, else the first of chromium, chromium-browser, google-chrome found in /usr/bin or on the PATH.
 */
final class Chromium {
    static final String INSTALL_HINT = "no working chromium found, so the report is not checked in a browser: "
            + "install it (apt-get install chromium) or point ROCKET_CHROMIUM at a Chromium/Chrome binary";

    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    /** A Chromium that runs here (its --version answers), or empty. */
    static Optional<Chromium> find() {
        return binary().filter(Chromium::runs).map(Chromium::new);
    }

    private static boolean runs(Path binary) {
        try {
            Process p = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--version")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Optional<Path> binary() {
        String env = System.getenv("ROCKET_CHROMIUM");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        List<Path> candidates = new ArrayList<>();
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            candidates.add(Path.of("/usr/bin", name));
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    candidates.add(Path.of(dir, name));
                }
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Loads {@code page} (with {@code fragment} after '#', or none when null) in a fresh profile under
     * {@code work}, optionally saving a screenshot, and returns the serialised DOM.
     */
    String dumpDom(Path page, String fragment, Path work, Path screenshot) throws IOException, InterruptedException {
        return dumpDom(page.toUri() + (fragment == null ? "" : "#" + fragment), work, screenshot);
    }

    /** Loads {@code url} as {@link #dumpDom(Path, String, Path, Path)} does a page. */
    String dumpDom(String url, Path work, Path screenshot) throws IOException, InterruptedException {
        List<String> common = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--window-size=1400,3000", "--virtual-time-budget=10000");
        if (screenshot != null) {
            run(common, work, "shot", List.of("--screenshot=" + screenshot, url));
        }
        return run(common, work, "dom", List.of("--dump-dom", url));
    }

    private String run(List<String> common, Path work, String name, List<String> extra)
            throws IOException, InterruptedException {
        Path profile = Files.createDirectories(work.resolve("profile-" + name));
        List<String> cmd = new ArrayList<>();
        cmd.add(binary.toString());
        cmd.addAll(common);
        cmd.add("--user-data-dir=" + profile);
        cmd.addAll(extra);
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IOException("chromium did not finish in 120 s: " + String.join(" ", cmd));
        }
        String dom = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0 || (extra.contains("--dump-dom") && !dom.contains("<body"))) {
            throw new IOException("chromium exited " + p.exitValue() + "; stderr: " + Files.readString(err));
        }
        return dom;
    }

    /** The attributes of the first start tag matching {@code tagRegex} (e.g. {@code body} or {@code section[^>]*id="x"}). */
    static Map<String, String> attributes(String dom, String tagRegex) {
        Matcher tag = Pattern.compile("<(" + tagRegex + ")[^>]*>").matcher(dom);
        Map<String, String> attrs = new LinkedHashMap<>();
        if (!tag.find()) {
            return attrs;
        }
        Matcher a = Pattern.compile("([\\w-]+)=\"([^\"]*)\"").matcher(tag.group());
        while (a.find()) {
            attrs.put(a.group(1), a.group(2).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">")
                    .replace("&amp;", "&"));
        }
        return attrs;
    }

    /** The attributes of the plot section {@code id}. */
    static Map<String, String> plot(String dom, String id) {
        return attributes(dom, "section[^>]*id=\"plot-" + id + "\"");
    }
}
