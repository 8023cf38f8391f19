package io.rocket.apps;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code rocket demo}: a small real run to see Rocket work on a fresh machine — a synthetic job on the cpu device
 * with caches small enough to evict, every result checked, outputs written to a temporary directory.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Runs a small synthetic all-pairs job on the cpu device, checks every result and writes "
                + "the TSV, JSON summary and trace to a temporary directory.")
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write outputs. Default: a new temporary directory.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path dir = out != null ? Files.createDirectories(out) : Files.createTempDirectory("rocket-demo-");
        var w = spec.commandLine().getOut();
        w.println("demo: 150 synthetic items of 64 KiB, load 2 ms, preprocess 0.5 ms, compare 0.05 ms, cpu device,");
        w.println("      L2 of 60 slots and L1 of 30 slots (so items are evicted and reloaded); outputs in " + dir);
        w.flush();
        String[] args = {"synthetic", "--items", "150", "--item-bytes", "65536", "--load-ms", "2±0.5",
                "--preprocess-ms", "0.5", "--compare-ms", "0.05", "--seed", "7", "--device", "cpu",
                "--host-cache-size", "60slots", "--device-cache-size", "30slots", "--verify",
                "--output", dir.resolve("pairs.tsv").toString(),
                "--summary-json", dir.resolve("summary.json").toString(),
                "--trace", dir.resolve("trace.json.gz").toString()};
        CommandLine parent = spec.commandLine().getParent();
        int code = parent.execute(args);
        if (code == 0) {
            w.println("demo: results " + dir.resolve("pairs.tsv") + ", summary " + dir.resolve("summary.json")
                    + ", trace " + dir.resolve("trace.json.gz") + " (open it in https://ui.perfetto.dev)");
        }
        return code;
    }
}
