package io.rocket.apps;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code rocket demo}: a small real run to see Rocket work on a fresh machine. By default the forensics app: a
 * generated set of photos from four simulated cameras, clustered on the cpu and checked against the truth. With
 * {@code --app synthetic}, the runtime-test job with caches small enough to evict and every result verified.
 * Outputs go to a temporary directory.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs a small real job on generated data and checks its answer: by default camera "
                + "identification (forensics) on 20 photos from 4 simulated cameras; --app synthetic runs the "
                + "runtime-test job instead. Writes the photos, pair TSV, clusters, JSON summary and trace to a "
                + "temporary directory."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write outputs. Default: a new temporary directory.")
    Path out;

    @Option(names = "--app", paramLabel = "APP", defaultValue = "forensics",
            description = "forensics or synthetic. Default: ${DEFAULT-VALUE}.")
    String app;

    @Override
    public Integer call() throws Exception {
        Path dir = out != null ? Files.createDirectories(out) : Files.createTempDirectory("rocket-demo-");
        PrintWriter w = spec.commandLine().getOut();
        CommandLine launcher = spec.commandLine().getParent();
        int code = switch (app) {
            case "forensics" -> forensics(dir, launcher, w);
            case "synthetic" -> synthetic(dir, launcher, w);
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--app must be forensics or synthetic, got '" + app + "'");
        };
        if (code == 0) {
            w.println("demo: outputs in " + dir + " (open trace.json.gz in https://ui.perfetto.dev)");
        }
        return code;
    }

    private static int forensics(Path dir, CommandLine launcher, PrintWriter w) {
        Path photos = dir.resolve("photos");
        w.println("demo: 4 simulated cameras x 5 photos of 512x512 (sigma_K 0.02, JPEG quality 85) in " + photos);
        w.println("      clustered by PCE on two cpu devices; the clusters are checked against truth.tsv");
        w.flush();
        // --force: a demo run again with the same --out writes its photos over its own earlier ones.
        int code = launcher.execute("generate", "forensics", "--out", photos.toString(), "--force", "--cameras", "4",
                "--images-per-camera", "5", "--width", "512", "--height", "512", "--sigma-k", "0.02",
                "--quality", "85", "--seed", "7");
        if (code != 0) {
            return code;
        }
        return launcher.execute("forensics", photos.toString(), "--device", "cpu:2",
                "--output", dir.resolve("pairs.tsv").toString(), "--matrix", dir.resolve("matrix.tsv").toString(),
                "--clusters", dir.resolve("clusters.tsv").toString(),
                "--summary-json", dir.resolve("summary.json").toString(),
                "--trace", dir.resolve("trace.json.gz").toString());
    }

    private static int synthetic(Path dir, CommandLine launcher, PrintWriter w) {
        w.println("demo: 150 synthetic items of 64 KiB, load 2 ms, preprocess 0.5 ms, compare 0.05 ms, cpu device,");
        w.println("      L2 of 60 slots and L1 of 30 slots (so items are evicted and reloaded), every result checked");
        w.flush();
        return launcher.execute("synthetic", "--items", "150", "--item-bytes", "65536", "--load-ms", "2±0.5",
                "--preprocess-ms", "0.5", "--compare-ms", "0.05", "--seed", "7", "--device", "cpu",
                "--host-cache-size", "60slots", "--device-cache-size", "30slots", "--verify",
                "--output", dir.resolve("pairs.tsv").toString(),
                "--summary-json", dir.resolve("summary.json").toString(),
                "--trace", dir.resolve("trace.json.gz").toString());
    }
}
