package io.rocket.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.cluster.ClusterSecurity;
import io.rocket.core.RocketException;
import io.rocket.runtime.status.StatusOptions;
import io.rocket.runtime.status.StatusToken;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code rocket status URL|DIR}: one screen of a running (or finished) job's status, for a terminal (say, a SLURM
 * job's, asked from the login node), or its JSON. A URL is a status endpoint's; a directory is a run's
 * {@code --status-dir}, whose final status is read when the run has ended and whose endpoint is asked otherwise.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Shows a running job's status on one screen: pairs done, pairs/s now and overall, ETA, and "
                + "each node's state, rate, cache hit rates, L3 traffic, steals, memory and GPU busy time. Give the "
                + "URL rank 0 printed (--status-port), or the run's --status-dir (which also holds the final "
                + "status once the run ended)."})
public final class StatusCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL|DIR", description = "The status endpoint's URL, or the run's --status-dir.")
    String target;

    @Option(names = "--json", description = "Print the status document (JSON) instead of the screen.")
    boolean json;

    @Option(names = "--cluster-secret-file", paramLabel = "FILE", defaultValue = "${env:ROCKET_CLUSTER_SECRET_FILE}",
            description = "The run's cluster secret, from which the endpoint's token is made. "
                    + "Default: $ROCKET_CLUSTER_SECRET_FILE, else none (an open run).")
    Path secretFile;

    @Option(names = "--print-token", description = "Print the endpoint's token for the cluster secret (for a "
            + "Prometheus credentials file, or curl -H 'Authorization: Bearer TOKEN') and exit.")
    boolean printToken;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long to wait for the endpoint. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        StatusToken token = secretFile == null ? null : StatusToken.of(ClusterSecurity.fromFile(secretFile, false));
        var out = spec.commandLine().getOut();
        if (printToken) {
            if (token == null) {
                throw new RocketException("--print-token needs --cluster-secret-file FILE");
            }
            out.println(token.text());
            out.flush();
            return 0;
        }
        JsonNode status = read(token);
        out.print(json ? status.toPrettyString() + "\n" : StatusScreen.format(status));
        out.flush();
        return 0;
    }

    private JsonNode read(StatusToken token) throws IOException, InterruptedException {
        String url = target;
        Path dir = Path.of(target.contains("://") ? "." : target);
        if (!target.contains("://")) {
            if (!Files.isDirectory(dir)) {
                throw new RocketException(target + " is neither a status URL (http://...) nor a directory");
            }
            Path done = dir.resolve(StatusOptions.FINAL_FILE);
            if (Files.isRegularFile(done)) {
                return JSON.readTree(done.toFile());
            }
            Path urlFile = dir.resolve(StatusOptions.URL_FILE);
            if (!Files.isRegularFile(urlFile)) {
                throw new RocketException(dir + " holds neither " + StatusOptions.FINAL_FILE + " nor "
                        + StatusOptions.URL_FILE + ": is it a run's --status-dir, and has the run started?");
            }
            url = Files.readString(urlFile).trim();
        }
        return fetch(url, token);
    }

    private JsonNode fetch(String url, StatusToken token) throws IOException, InterruptedException {
        String base = url.endsWith("/status") ? url : (url.endsWith("/") ? url : url + "/") + "status";
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base)).timeout(Duration.ofSeconds(timeoutSeconds));
        if (token != null) {
            request.header("Authorization", "Bearer " + token.text());
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RocketException("cannot reach " + base + " (has the run ended?): " + e.getMessage(), e);
        }
        if (response.statusCode() == 401) {
            throw new RocketException(base + " refused the request: "
                    + (token == null ? "the run has a cluster secret; give --cluster-secret-file FILE"
                    : "the token does not match the run's cluster secret"));
        }
        if (response.statusCode() != 200) {
            throw new RocketException(base + " answered " + response.statusCode() + ": " + response.body().trim());
        }
        return JSON.readTree(response.body());
    }
}
