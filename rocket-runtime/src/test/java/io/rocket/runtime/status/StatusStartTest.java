package io.rocket.runtime.status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the status opens before the run's clock: the endpoint, its URL told and written, rank 0's event log. */
class StatusStartTest {
    @TempDir
    Path dir;

    @Test
    void rankZero_opensEndpointAndLog_tellsAndWritesTheUrl_beforeTheRunServesAnything() throws Exception {
        Files.writeString(dir.resolve(StatusOptions.FINAL_FILE), "an earlier run's end");
        List<String> told = new ArrayList<>();
        StatusOptions options = new StatusOptions(0, null, dir, dir.resolve("events.jsonl"), null, told::add);
        try (StatusStart start = StatusStart.open(options, true)) {
            assertThat(told).containsExactly(start.server().url());
            assertThat(Files.readString(dir.resolve(StatusOptions.URL_FILE))).isEqualTo(start.server().url() + "\n");
            assertThat(dir.resolve(StatusOptions.FINAL_FILE)).doesNotExist();
            assertThat(start.log()).isNotNull();
            assertThat(dir.resolve("events.jsonl")).exists();
            HttpResponse<String> early = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(start.server().url() + "status")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(early.statusCode()).isEqualTo(503);
        }
    }

    @Test
    void anotherRank_writesNoFiles_andNoStatusOpensNothing() throws Exception {
        StatusOptions options = new StatusOptions(0, null, dir, dir.resolve("events.jsonl"), null, null);
        try (StatusStart start = StatusStart.open(options, false)) {
            assertThat(start.server()).isNotNull();
            assertThat(start.log()).isNull();
            assertThat(dir.resolve(StatusOptions.URL_FILE)).doesNotExist();
            assertThat(dir.resolve("events.jsonl")).doesNotExist();
        }
        assertThat(StatusStart.open(null, true)).isNull();
        assertThat(StatusStart.open(StatusOptions.NONE, true)).isNull();
    }
}
