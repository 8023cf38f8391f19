package io.rocket.apps.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The committed reference ({@code docs/reference/}) is exactly what the code generates now. */
class ReferenceDocsTest {
    static final Path REFERENCE = Path.of("..", "docs", "reference");

    @Test
    void committedReferenceIsCurrent() throws IOException {
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> page : ReferenceDocs.pages().entrySet()) {
            Path file = REFERENCE.resolve(page.getKey());
            if (!Files.isRegularFile(file)
                    || !Files.readString(file, StandardCharsets.UTF_8).equals(page.getValue())) {
                stale.add("docs/reference/" + page.getKey());
            }
        }
        assertThat(stale).as("generated reference pages that differ from the code (run scripts/docs-reference and "
                + "commit the result)").isEmpty();
    }

    @Test
    void everyCommandAndOptionIsDocumented() {
        String commands = ReferenceDocs.pages().get("commands.md");
        assertThat(commands).contains("## rocket synthetic", "## rocket forensics", "## rocket phylogenetics",
                "## rocket microscopy", "## rocket generate forensics", "## rocket report", "## io.rocket.Main",
                "## Runtime options", "`--device DEV`", "`--journal DIR`", "`--input-list LIST`", "--k K`");
        assertThat(ReferenceDocs.pages().get("exit-codes.md")).contains("| 0 |", "| 3 |", "| 4 |");
        assertThat(ReferenceDocs.pages().get("trace.md")).contains("`compare`", "`L2 host cache`", "`worker N`");
    }

    @Test
    void anchorsFollowGitHub() {
        assertThat(Markdown.anchor("rocket generate forensics")).isEqualTo("rocket-generate-forensics");
        assertThat(Markdown.anchor("io.rocket.Main")).isEqualTo("iorocketmain");
        assertThat(Markdown.anchor("Journal and resume")).isEqualTo("journal-and-resume");
    }
}
