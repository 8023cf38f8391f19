/**
 * {@code rocket report}: turns the Chrome traces of a run (one per node) and, optionally, its JSON summary into one
 * self-contained HTML page with a zoomable timeline and the figures of the paper's evaluation (busy time per
 * resource against wall time and T_min, throughput per device over time, cache hits per level, L3 hits per hop,
 * steals and helps).
 *
 * <p>Reading: {@link io.rocket.report.TraceReader} streams each trace into {@link io.rocket.report.NodeTrace}s;
 * aggregation: {@link io.rocket.report.Headline}, {@link io.rocket.report.BusyTimes},
 * {@link io.rocket.report.Throughput}, {@link io.rocket.report.CacheFigures},
 * {@link io.rocket.report.StealFigures}; the timeline is thinned by {@link io.rocket.report.Timeline};
 * {@link io.rocket.report.HtmlReport} writes the page.
 */
package io.rocket.report;
