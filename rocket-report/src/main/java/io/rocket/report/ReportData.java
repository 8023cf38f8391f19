package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Everything the page shows, computed on the Java side and embedded in it as JSON: the headline figures, the
 * thinned timeline, busy times, throughput, cache and stealing figures, and notes on what was missing or estimated.
 *
 * @param traces  file names of the traces
 * @param summary file name of the summary, or null
 */
public record ReportData(String title, String generated, List<String> traces, String summary, List<String> notes,
                         Headline headline, Timeline timeline, BusyTimes busy, Throughput throughput,
                         CacheFigures cache, StealFigures steals) {

    /** Report options. */
    public record Options(long maxBoxes, int bins) {
        public static final Options DEFAULT = new Options(250_000, 200);
    }

    public static ReportData of(RunTraces traces, List<Path> traceFiles, JsonNode summary, Path summaryFile,
                                Options options) {
        Headline headline = Headline.of(traces, summary);
        Timeline timeline = Timeline.of(traces, options.maxBoxes());
        BusyTimes busy = BusyTimes.of(traces, headline);
        Throughput throughput = Throughput.of(traces, options.bins());
        CacheFigures cache = CacheFigures.of(traces, summary);
        StealFigures steals = StealFigures.of(summary);

        List<String> notes = new ArrayList<>(traces.warnings());
        if (summary == null) {
            notes.add("No run summary given (--summary FILE from --summary-json): wall time, T_min, R and system "
                    + "efficiency are estimated from the trace (T_min from the mean traced preprocess and compare "
                    + "durations), cache figures come from the trace's counter tracks, and L3 hits per hop and "
                    + "steals, which only the summary records, are not shown.");
        } else {
            Long summaryNodes = Json.whole(summary, "cluster", "nodes");
            int traced = traces.nodes().size();
            if (summaryNodes != null && summaryNodes != traced) {
                notes.add(String.format(Locale.ROOT, "The summary describes %d nodes but the traces cover %d: a "
                        + "cluster run writes one trace per node (NAME.json, NAME.rank1.json, ...); give them all.",
                        summaryNodes, traced));
            }
            Long pairs = Json.whole(summary, "pairs_computed");
            long tracedPairs = traces.count("compare");
            if (pairs != null && tracedPairs != pairs && (summaryNodes == null || summaryNodes == traced)) {
                notes.add(String.format(Locale.ROOT, "The summary counts %d pairs computed, the traces %d compare "
                        + "tasks: are the summary and the traces from the same run?", pairs, tracedPairs));
            }
        }
        if (timeline.quantumMicros() > 0) {
            notes.add(String.format(Locale.ROOT, "Timeline thinned: %,d tasks drawn as %,d boxes; tasks of one "
                    + "thread less than %s apart are merged (a merged box is as dark as it was busy). Every other "
                    + "figure counts every task.", timeline.tasks(), timeline.boxes(),
                    duration(timeline.quantumMicros())));
        }
        String app = headline.app() == null ? "run" : headline.app();
        int nodes = traces.nodes().size();
        String title = "Rocket report: " + app + (nodes > 1 ? " on " + nodes + " nodes" : "");
        return new ReportData(title, java.time.OffsetDateTime.now().withNano(0).toString(),
                traceFiles.stream().map(p -> p.getFileName().toString()).toList(),
                summaryFile == null ? null : summaryFile.getFileName().toString(), List.copyOf(notes), headline,
                timeline, busy, throughput, cache, steals);
    }

    static String duration(double micros) {
        if (micros < 1000) {
            return String.format(Locale.ROOT, "%.1f µs", micros);
        }
        if (micros < 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", micros / 1e3);
        }
        return String.format(Locale.ROOT, "%.2f s", micros / 1e6);
    }
}
