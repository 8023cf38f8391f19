package io.rocket.apps.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in README.md and docs/ resolves: the file or directory it names exists, and an anchor names a
 * heading of the page it points into (GitHub's anchors). Links to the web are not followed (no network).
 */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** [text](target) and ![alt](target), the target up to a blank or ')'; an optional "title" is ignored. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ID = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<Path> pages = pages();
        assertThat(pages).as("README.md and the docs/ pages").hasSizeGreaterThan(1);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = proseLines(page);
            for (int n = 0; n < lines.size(); n++) {
                Matcher m = LINK.matcher(withoutCodeSpans(lines.get(n)));
                while (m.find()) {
                    String problem = check(page, m.group(1));
                    if (problem != null) {
                        broken.add(ROOT.relativize(page) + ":" + (n + 1) + ": " + m.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void readmeStaysShort() throws IOException {
        // The README is the front page: what Rocket is, the set-up commands, a first example, links into docs/.
        assertThat(Files.readAllLines(ROOT.resolve("README.md")).size()).as("README.md lines").isLessThanOrEqualTo(160);
    }

    @Test
    void anchorsOfHeadingsWithFormattingFollowGitHub() {
        assertThat(Markdown.anchor("The `rocket report` command")).isEqualTo("the-rocket-report-command");
        assertThat(Markdown.anchor("Failures and restarts")).isEqualTo("failures-and-restarts");
        assertThat(Markdown.anchor("Phylogenetics (composition vectors)")).isEqualTo("phylogenetics-composition-vectors");
    }

    private String check(Path page, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null;   // http:, https:, mailto: and the like: not checked offline
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor != null && !anchor.isEmpty()) {
            if (!resolved.toString().endsWith(".md") || Files.isDirectory(resolved)) {
                return "an anchor into a file that is not a Markdown page";
            }
            if (!anchorsOf(resolved).contains(anchor)) {
                return "no heading with anchor #" + anchor + " in " + ROOT.relativize(resolved);
            }
        }
        return null;
    }

    private Set<String> anchorsOf(Path page) throws IOException {
        Set<String> known = anchors.get(page);
        if (known != null) {
            return known;
        }
        Set<String> found = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(page)) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String base = Markdown.anchor(headingText(h.group(1)));
                int repeat = seen.merge(base, 1, Integer::sum) - 1;
                found.add(repeat == 0 ? base : base + "-" + repeat);
            }
            Matcher id = HTML_ID.matcher(line);
            while (id.find()) {
                found.add(id.group(1));
            }
        }
        anchors.put(page, found);
        return found;
    }

    /** A heading's visible text: links become their text, code marks and emphasis go. */
    private static String headingText(String heading) {
        return heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
    }

    /** The page's lines with fenced code blocks blanked (links and headings in code are not links or headings). */
    private static List<String> proseLines(Path page) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(page, StandardCharsets.UTF_8));
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String stripped = lines.get(i).strip();
            boolean fence = stripped.startsWith("```") || stripped.startsWith("~~~");
            if (fence || inFence) {
                lines.set(i, "");
            }
            if (fence) {
                inFence = !inFence;
            }
        }
        return lines;
    }

    private static String withoutCodeSpans(String line) {
        return line.replaceAll("`[^`]*`", "");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        Path docs = ROOT.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> walk = Files.walk(docs)) {
                walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }
}
