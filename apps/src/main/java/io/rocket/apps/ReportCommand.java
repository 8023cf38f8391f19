package io.rocket.apps;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.cli.OutputFile;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocket.core.RocketException;
import io.rocket.report.EventLogReplay;
import io.rocket.report.HtmlReport;
import io.rocket.report.LivePage;
import io.rocket.report.ReportData;
import io.rocket.report.RunTraces;
import io.rocket.report.SummaryFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rocket report --trace FILE... [--summary FILE] --output REPORT.html}: one self-contained HTML page from the
 * traces of a run (one per node for a cluster run) and optionally its JSON summary.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Makes one self-contained HTML page from a run's traces (--trace; a cluster run writes one "
                + "per node: give them all) and, optionally, its --summary-json: a zoomable timeline per thread "
                + "and node, busy time per resource against wall time and T_min, pairs per second per device, "
                + "cache hits per level and L3 hits per hop, steals and helps, R and system efficiency. Every plot "
                + "exports as PNG. Open the page in any browser; it needs no network."})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--trace", paramLabel = "FILE", arity = "1..*",
            description = "Trace files written by --trace (JSON, plain or gzip-compressed).")
    List<Path> traces;

    @Option(names = "--event-log", paramLabel = "FILE",
            description = "Instead of traces: a run's --event-log. Makes the page of the run as far as the log goes "
                    + "(a run killed or stopped at a time limit included): its progress, pairs per second per node, "
                    + "busy time per resource and cache hits, as its live page showed them.")
    Path eventLog;

    @Option(names = "--summary", paramLabel = "FILE",
            description = "The run's summary from --summary-json (optional; without it figures are estimated "
                    + "from the traces).")
    Path summary;

    @OutputFile
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The HTML page to write.")
    Path output;

    @Option(names = "--max-boxes", paramLabel = "N", defaultValue = "250000",
            description = "Most task boxes in the timeline; beyond, tasks close together are merged. "
                    + "Default: ${DEFAULT-VALUE}.")
    long maxBoxes;

    @Option(names = "--bins", paramLabel = "N", defaultValue = "200",
            description = "Time bins of the throughput plot. Default: ${DEFAULT-VALUE}.")
    int bins;

    @Override
    public Integer call() {
        if ((traces == null) == (eventLog == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --trace FILE... or --event-log FILE");
        }
        if (eventLog != null) {
            return fromEventLog();
        }
        if (maxBoxes < 1000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-boxes must be at least 1000");
        }
        if (bins < 1 || bins > 100_000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--bins must be between 1 and 100000");
        }
        RunTraces run = RunTraces.read(traces);
        JsonNode summaryJson = summary == null ? null : SummaryFile.read(summary);
        ReportData data = ReportData.of(run, traces, summaryJson, summary, new ReportData.Options(maxBoxes, bins));
        long bytes = HtmlReport.write(data, output);
        var out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "report: %s (%.1f MB): %d node%s, %,d tasks in %,d timeline boxes%s%n", output,
                bytes / 1e6, run.nodes().size(), run.nodes().size() == 1 ? "" : "s", data.timeline().tasks(),
                data.timeline().boxes(), summary == null ? ", no summary (figures estimated from the trace)" : "");
        for (String w : run.warnings()) {
            spec.commandLine().getErr().println("report: warning: " + w);
        }
        out.flush();
        return 0;
    }

    private int fromEventLog() {
        ObjectNode status = EventLogReplay.read(eventLog);
        byte[] page = LivePage.replay(status).getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(output, page);
        } catch (IOException e) {
            throw new RocketException("cannot write report " + output + ": " + e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "report: %s (%.1f kB) from %d status lines: %s, %,d of %,d pairs%s%n", output,
                page.length / 1e3, status.path("history").size(), status.path("job").path("state").asText(),
                status.path("pairs_done").asLong(), status.path("pairs_total").asLong(),
                status.path("torn_lines").asInt() > 0 ? " (a torn last line skipped)" : "");
        out.flush();
        return 0;
    }
}
