package io.rocket.apps.journal;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocket.apps.Cli;
import io.rocket.results.journal.RunJournal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The science commands resumed from a journal cut after its first record: the end outputs they build from all
 * pairs (clusters and matrix, tree and distance matrix, fused particle) equal those of the run that was not cut.
 */
class ResumeLauncherTest {
    private static final int RECORD_PAIRS = 4;

    @TempDir
    Path tmp;

    @BeforeEach
    void smallRecords() {
        System.setProperty(RunJournal.RECORD_PAIRS_PROPERTY, "" + RECORD_PAIRS);
    }

    @AfterEach
    void clearHook() {
        System.clearProperty(RunJournal.RECORD_PAIRS_PROPERTY);
    }

    /**
     * Runs {@code command} with a journal to the end, keeps its outputs, cuts the journal after its first record,
     * resumes, and checks that the pair TSV (sorted) and the {@code ends} equal the first run's.
     *
     * @param pairs    all pairs of the run
     * @param okPairs  the pairs that do not fail
     * @param command  the command line, without the outputs and journal options
     * @param ends     the command's end-output options (each followed by a file name here)
     * @return the resumed run's summary
     */
    private JsonNode runCutAndResume(int pairs, int okPairs, List<String> command, String... ends)
            throws IOException {
        Path journal = tmp.resolve("journal");
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--output", tmp.resolve("pairs.tsv").toString(), "--journal", journal.toString(),
                "--summary-json", tmp.resolve("summary.json").toString()));
        for (String end : ends) {
            args.addAll(List.of(end, tmp.resolve(end.substring(2)).toString()));
        }
        Cli.Result whole = Cli.run(args.toArray(String[]::new));
        int exitCode = okPairs == pairs ? 0 : 3;
        assertThat(whole.code()).as(whole.both()).isEqualTo(exitCode);
        List<String> pairsTsv = Journals.sorted(tmp.resolve("pairs.tsv"));
        assertThat(pairsTsv).hasSize(okPairs + 1);
        List<List<String>> endOutputs = new ArrayList<>();
        for (String end : ends) {
            endOutputs.add(Files.readAllLines(tmp.resolve(end.substring(2))));
            Files.delete(tmp.resolve(end.substring(2)));
        }

        Journals.keepFirstRecord(journal);
        args.add("--resume");
        Cli.Result resumed = Cli.run(args.toArray(String[]::new));
        assertThat(resumed.code()).as(resumed.both()).isEqualTo(exitCode);
        assertThat(Journals.sorted(tmp.resolve("pairs.tsv"))).isEqualTo(pairsTsv);
        for (int k = 0; k < ends.length; k++) {
            assertThat(Files.readAllLines(tmp.resolve(ends[k].substring(2)))).as(ends[k]).isEqualTo(endOutputs.get(k));
        }
        JsonNode summary = Journals.json(tmp.resolve("summary.json"));
        assertThat(summary.get("pairs_resumed").asLong()).as(resumed.both()).isBetween((long) RECORD_PAIRS,
                pairs - 1L);
        assertThat(summary.get("pairs_resumed").asLong() + summary.get("pairs_computed").asLong()).isEqualTo(pairs);
        assertThat(resumed.out()).contains("resumed " + summary.get("pairs_resumed").asLong() + " pairs");
        return summary;
    }

    @Test
    void forensics_resumed_givesTheSameMatrixAndClusters() throws IOException {
        Path photos = tmp.resolve("photos");
        Cli.Result g = Cli.run("generate", "forensics", "--out", photos.toString(), "--cameras", "2",
                "--images-per-camera", "3", "--width", "128", "--height", "128", "--sigma-k", "0.03", "--seed", "3");
        assertThat(g.code()).as(g.both()).isZero();
        JsonNode summary = runCutAndResume(15, 15, List.of("forensics", photos.toString(), "--metric", "ncc"),
                "--clusters", "--matrix");
        assertThat(summary.get("pairs").asLong()).isEqualTo(15);
    }

    @Test
    void phylogenetics_resumed_givesTheSameDistancesAndTree() throws IOException {
        Path data = tmp.resolve("data");
        Cli.Result g = Cli.run("generate", "phylogenetics", "--out", data.toString(), "--taxa", "6", "--depth", "0.5",
                "--proteins", "40", "--seed", "2");
        assertThat(g.code()).as(g.both()).isZero();
        runCutAndResume(15, 15, List.of("phylogenetics", data.toString(), "--k", "4"), "--tree", "--matrix");
    }

    @Test
    void microscopy_withABadParticle_resumed_givesTheSameFusedParticle() throws IOException {
        Path dir = tmp.resolve("particles");
        Cli.Result g = Cli.run("generate", "microscopy", "--out", dir.toString(), "--particles", "5", "--dol", "0.7",
                "--localizations", "6", "--seed", "7");
        assertThat(g.code()).as(g.both()).isZero();
        Files.writeString(dir.resolve("broken.csv"), "1,2,3\nNaN,1,1\n");
        JsonNode summary = runCutAndResume(15, 10, List.of("microscopy", dir.toString(), "--starts", "4",
                "--host-threads", "1"), "--fused");
        assertThat(summary.get("errors").asLong()).isEqualTo(5);
        assertThat(summary.get("failures").get(0).get("key").asText()).isEqualTo("broken.csv");
    }

    @Test
    void resume_ofAnotherJob_orWithoutAJournal_isRefusedInOneLine_andLeavesTheOutputAlone() throws IOException {
        Path journal = tmp.resolve("journal");
        Path out = tmp.resolve("pairs.tsv");
        String[] job = {"synthetic", "--items", "30", "--seed", "4", "--output", out.toString(), "--journal",
                journal.toString()};
        assertThat(Cli.run(job).code()).isZero();
        String written = Files.readString(out);

        Cli.Result other = Cli.run(with(job, "--seed", "5", "--resume"));
        assertThat(other.code()).isEqualTo(1);
        assertThat(other.err()).isEqualTo("rocket: error: --resume: " + journal + " holds the journal of another job "
                + "(its options differ: --seed=4 in the journal, --seed=5 now)\n");
        Cli.Result again = Cli.run(job);
        assertThat(again.err()).isEqualTo("rocket: error: " + journal + " already holds a journal; add --resume to "
                + "continue it or remove it\n");
        assertThat(Files.readString(out)).isEqualTo(written);
        Cli.Result none = Cli.run(with(job, "--journal", tmp.resolve("empty").toString(), "--resume"));
        assertThat(none.err()).isEqualTo("rocket: error: --resume: no journal in " + tmp.resolve("empty") + "\n");
        assertThat(Cli.run("synthetic", "--items", "3", "--resume").err())
                .isEqualTo("rocket: --resume needs --journal DIR, the directory of the journal to continue (see: "
                        + "rocket synthetic --help)\n");

        // A finished job resumes at once: nothing to compute, the same outputs.
        Cli.Result finished = Cli.run(with(job, "--resume"));
        assertThat(finished.code()).as(finished.both()).isZero();
        assertThat(finished.out()).contains("resumed 435 pairs from the journal, computed 0");
        assertThat(Files.readString(out)).isEqualTo(written);
    }

    /** {@code args} followed by {@code more}; a later option replaces an earlier one of the same name. */
    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        for (int k = 0; k < more.length; k++) {
            int at = all.indexOf(more[k]);
            boolean valued = k + 1 < more.length && !more[k + 1].startsWith("--");
            if (at >= 0 && valued) {
                all.set(at + 1, more[++k]);
            } else {
                all.add(more[k]);
                if (valued) {
                    all.add(more[++k]);
                }
            }
        }
        return all.toArray(String[]::new);
    }
}
