package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.core.status.StatusPage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The live page of a running job, in the report's look ({@code report.css}): headline cards, progress, pairs per
 * second per node, busy time per resource, cache hits and a table of the nodes. Served by the status endpoint (found
 * as its {@link StatusPage}), it reads {@code status} every few seconds; made from an event log
 * ({@link #replay}), it holds its one status document and needs nothing else.
 */
public final class LivePage implements StatusPage {

    /** For {@link java.util.ServiceLoader}. */
    public LivePage() {
    }

    @Override
    public String html() {
        return render("Rocket live status", "null");
    }

    /**
     * The page of a run rebuilt from its event log: it shows {@code status} (with its history) and reads nothing.
     *
     * @param status the status document, with its history
     * @return the page
     */
    public static String replay(JsonNode status) {
        // '<' occurs only inside JSON strings, where \u003c means the same: no "</script>" can end the block early.
        return render("Rocket run " + status.path("job").path("app").asText(),
                status.toString().replace("<", "\\u003c"));
    }

    private static String render(String title, String json) {
        return resource("live.html").replace("{{TITLE}}", HtmlReport.escape(title))
                .replace("/*{{CSS}}*/", resource("report.css"))
                .replace("/*{{JS}}*/", resource("live.js"))
                .replace("{{DATA}}", json);
    }

    private static String resource(String name) {
        try (InputStream in = LivePage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
