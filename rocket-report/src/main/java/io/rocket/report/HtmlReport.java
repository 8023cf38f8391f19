package io.rocket.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.core.RocketException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the report page: the template ({@code report.html} with {@code report.css} and {@code report.js}, resources
 * of this package) with the report's data embedded as JSON, so the page needs no network and no other file.
 */
public final class HtmlReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HtmlReport() {
    }

    /** The page as text. */
    public static String render(ReportData data) {
        String json;
        try {
            json = JSON.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report data not serialisable", e);
        }
        // '<' occurs only inside JSON strings, where \u003c means the same: no "</script>" can end the block early.
        json = json.replace("<", "\\u003c");
        String page = resource("report.html");
        return page.replace("{{TITLE}}", escape(data.title()))
                .replace("/*{{CSS}}*/", resource("report.css"))
                .replace("/*{{JS}}*/", resource("report.js"))
                .replace("{{DATA}}", json);
    }

    /** Writes the page to {@code file}. */
    public static long write(ReportData data, Path file) {
        byte[] bytes = render(data).getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new RocketException("cannot write report " + file + ": " + e.getMessage());
        }
        return bytes.length;
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
