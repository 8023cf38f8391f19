package io.rocket.runtime.status;

import io.rocket.cluster.ClusterSecurity;
import io.rocket.cluster.NodeStatus;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatusServerTest {
    private static final ClusterSecurity SECRET =
            new ClusterSecurity("a secret of the cluster".getBytes(StandardCharsets.UTF_8), false);

    private static HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static StatusServer server(ClusterSecurity security) {
        NodeStatus node = NodeStatus.empty(0, "running");
        return new StatusServer(new StatusOptions(0, null, null, null, security, null),
                new StatusServer.Content(() -> "{\"ok\":true}", () -> PrometheusText.render(null, List.of(node))));
    }

    @Test
    void withSecret_onlyItsTokenIsServed_inHeaderOrQuery() throws Exception {
        String token = StatusToken.of(SECRET).text();
        try (StatusServer s = server(SECRET)) {
            assertThat(s.url()).startsWith("http://127.0.0.1:");
            assertThat(get(s.url() + "status", null).statusCode()).isEqualTo(401);
            assertThat(get(s.url() + "status", token + "x").statusCode()).isEqualTo(401);
            String other = StatusToken.of(new ClusterSecurity("another".getBytes(StandardCharsets.UTF_8), false))
                    .text();
            assertThat(get(s.url() + "metrics", other).statusCode()).isEqualTo(401);
            HttpResponse<String> ok = get(s.url() + "status", token);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("{\"ok\":true}");
            assertThat(get(s.url() + "metrics?token=" + token, null).body()).contains("rocket_node_up{rank=\"0\"");
        }
    }

    @Test
    void openRun_servesWithoutToken_andAnswers404ElsewhereAnd405ForPost() throws Exception {
        try (StatusServer s = server(ClusterSecurity.NONE)) {
            assertThat(get(s.url() + "status", null).statusCode()).isEqualTo(200);
            assertThat(get(s.url() + "nothing", null).statusCode()).isEqualTo(404);
            HttpResponse<String> post = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(s.url() + "status")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        }
    }

    @Test
    void startedBeforeTheRun_answers503_untilItIsGivenItsContent() throws Exception {
        try (StatusServer s = new StatusServer(new StatusOptions(0, null, null, null, null, null))) {
            HttpResponse<String> early = get(s.url() + "status", null);
            assertThat(early.statusCode()).isEqualTo(503);
            assertThat(early.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(get(s.url() + "metrics", null).statusCode()).isEqualTo(503);
            s.serve(new StatusServer.Content(() -> "{\"ok\":true}", () -> ""));
            assertThat(get(s.url() + "status", null).body()).isEqualTo("{\"ok\":true}");
        }
    }

    @Test
    void token_isNotTheSecret_andDiffersPerSecret() {
        String token = StatusToken.of(SECRET).text();
        assertThat(token).doesNotContain("secret").hasSize(43);
        assertThat(StatusToken.of(ClusterSecurity.NONE)).isNull();
        assertThat(StatusToken.of(SECRET).matches(token)).isTrue();
        assertThat(StatusToken.of(SECRET).matches(token.substring(1))).isFalse();
        assertThat(StatusToken.of(SECRET).matches(null)).isFalse();
    }

    @Test
    void labelValues_escapeQuoteBackslashAndNewline() {
        assertThat(PrometheusText.label("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\nd");
    }
}
