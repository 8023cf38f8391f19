package io.rocket.apps.cluster;

import io.rocket.apps.LauncherProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The ranks of a cluster run as JVMs on this host, each with its log in a directory: what the process tests of
 * cluster runs start and read.
 */
final class LocalRanks {
    private final int nodes;
    private final Path logs;
    private final String heap;

    /**
     * @param nodes how many ranks
     * @param logs  where each rank's output goes, as {@code RUN-rank-R.log}
     * @param heap  each JVM's heap, e.g. {@code 384m}
     */
    LocalRanks(int nodes, Path logs, String heap) {
        this.nodes = nodes;
        this.logs = logs;
        this.heap = heap;
    }

    /** Starts every rank of one run of the command {@code args}. */
    List<Process> start(String run, List<String> args) throws IOException {
        String hosts = ProcessClusterTest.hosts(nodes);
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < nodes; r++) {
            ranks.add(start(r, hosts, run, args));
        }
        return ranks;
    }

    /** Starts one rank of a run. */
    Process start(int rank, String hosts, String run, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(args);
        cmd.addAll(List.of("--nodes", "" + nodes, "--rank", "" + rank, "--hosts", hosts));
        return LauncherProcess.start(logs.resolve(run + "-rank-" + rank + ".log"), heap, cmd);
    }

    /** A rank's output so far. */
    String log(String run, int rank) throws IOException {
        return Files.readString(logs.resolve(run + "-rank-" + rank + ".log"));
    }

    /** Waits for every rank to end, killing those still running after {@code seconds}; true when all ended. */
    static boolean awaitAll(List<Process> ranks, long seconds) throws InterruptedException {
        boolean all = true;
        for (Process p : ranks) {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                all = false;
            }
        }
        return all;
    }
}
