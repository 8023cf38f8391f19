package io.rocket.cli;

import io.rocket.cluster.ClusterSecurity;
import io.rocket.runtime.status.StatusOptions;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The options of a run's live status: its endpoint ({@code /status}, {@code /metrics}, a live page), the directory
 * where rank 0 writes the endpoint's URL and the final status, and the event log. A part of
 * {@link RuntimeOptionsMixin}; none of them changes a result, so none is part of a job's identity.
 */
final class StatusOptionsMixin {

    @Option(names = "--status-port", paramLabel = "PORT",
            description = "Serve the run's live status on PORT (0: a free port, printed): /status (JSON), /metrics "
                    + "(Prometheus) and / (a live page) on rank 0; /metrics and /status of its own figures on the "
                    + "other nodes given a port. With a cluster secret, a request must carry its token "
                    + "(rocket status makes it). Default: off.")
    Integer port;

    @Option(names = "--status-bind", paramLabel = "ADDR", defaultValue = StatusOptions.LOOPBACK,
            description = "The address the status endpoint listens on (0.0.0.0: every interface, for a login node "
                    + "or Prometheus to reach it). Default: ${DEFAULT-VALUE}, this machine only.")
    String bind;

    @Option(names = "--status-dir", paramLabel = "DIR",
            description = "Rank 0 writes the endpoint's URL to DIR/" + StatusOptions.URL_FILE + " and, when the run "
                    + "ends, its final status to DIR/" + StatusOptions.FINAL_FILE + ": what `rocket status DIR` "
                    + "reads.")
    Path dir;

    @OutputFile
    @Option(names = "--event-log", paramLabel = "FILE",
            description = "Rank 0 appends the run's status to FILE as a JSON line each second it changed, so that "
                    + "`rocket report --event-log FILE` can show a run that never finished.")
    Path eventLog;

    /**
     * The status options, or null when none is asked for.
     *
     * @param security the run's cluster secret, read only when the endpoint is on
     * @param err      where the endpoint's URL is printed
     * @param rank     this node's rank, named in the line
     * @return the options, or null
     */
    StatusOptions toStatusOptions(Supplier<ClusterSecurity> security, PrintWriter err, int rank) {
        if (port == null && dir == null && eventLog == null) {
            return null;
        }
        String who = rank == 0 ? "" : "rank " + rank + ": ";
        return new StatusOptions(port == null ? StatusOptions.OFF : port, bind, dir, eventLog,
                port == null ? null : security.get(), url -> {
                    err.println(CommandLines.PREFIX + who + "status at " + url);
                    err.flush();
                });
    }
}
