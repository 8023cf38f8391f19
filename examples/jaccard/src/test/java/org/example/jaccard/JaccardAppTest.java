package org.example.jaccard;

import io.rocket.core.ResultSink;
import io.rocket.core.cuda.CudaDeviceProvider;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.summary.RunSummary;
import io.rocket.runtime.Rocket;
import io.rocket.runtime.RocketOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs the application on Rocket and checks every pair against a direct computation on sets of strings. */
class JaccardAppTest {

    @TempDir
    Path dir;

    /** Documents drawn from a small vocabulary; every third one is a light edit of the one before it. */
    private List<Path> documents(int count) throws Exception {
        String[] words = {"cell", "gene", "protein", "camera", "noise", "photo", "tree", "distance", "particle",
                "cluster", "node", "cache", "kernel", "pair", "matrix", "vector"};
        Random random = new Random(7);
        List<Path> files = new ArrayList<>();
        String previous = "";
        for (int d = 0; d < count; d++) {
            StringBuilder text = new StringBuilder();
            if (d % 3 == 2) {
                text.append(previous).append(" and one more ").append(words[d % words.length]);
            } else {
                for (int w = 0; w < 200; w++) {
                    text.append(words[random.nextInt(words.length)]).append(w % 17 == 16 ? ".\n" : " ");
                }
            }
            previous = text.toString();
            Path file = dir.resolve(String.format("doc%02d.txt", d));
            Files.writeString(file, d % 2 == 0 ? previous.toUpperCase() : previous);
            files.add(file);
        }
        return files;
    }

    /** The reference: k-shingles as strings, no hashing, no Rocket. */
    private static double expected(Path a, Path b, int k) throws Exception {
        Set<String> x = shingleStrings(Files.readString(a), k);
        Set<String> y = shingleStrings(Files.readString(b), k);
        Set<String> both = new HashSet<>(x);
        both.retainAll(y);
        return (double) both.size() / (x.size() + y.size() - both.size());
    }

    private static Set<String> shingleStrings(String text, int k) {
        String norm = text.toLowerCase().replaceAll("[^\\p{L}\\p{N}]+", " ").trim();
        Set<String> set = new HashSet<>();
        for (int s = 0; s + k <= norm.length(); s++) {
            set.add(norm.substring(s, s + k));
        }
        return set;
    }

    /** Runs the application on {@code device} and returns every pair's result, checking each arrives once. */
    private static Map<String, Double> run(JaccardApp app, List<Path> keys, String device) throws Exception {
        Map<String, Double> results = new ConcurrentHashMap<>();
        ResultSink<Path, Double> sink = new ResultSink<>() {
            @Override
            public void accept(int i, int j, Path left, Path right, Double result) {
                assertTrue(results.put(i + "," + j, result) == null, "pair " + i + "," + j + " arrived twice");
            }

            @Override
            public void failed(int i, int j, Path left, Path right, Throwable error) {
                throw new AssertionError("pair " + i + "," + j + " failed", error);
            }
        };
        RunSummary summary = Rocket.run(app, keys, RocketOptions.defaults().withDevice(DeviceSpec.parse(device)), sink);
        assertEquals(0, summary.errors);
        assertEquals(keys.size() * (keys.size() - 1) / 2, results.size());
        return results;
    }

    @Test
    void everyPairMatchesTheDirectComputation_onTwoCpuDevices() throws Exception {
        List<Path> keys = documents(12);
        JaccardApp app = new JaccardApp();
        app.k = 4;
        Map<String, Double> results = run(app, keys, "cpu:2");
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                assertEquals(expected(keys.get(i), keys.get(j), 4), results.get(i + "," + j), 1e-12,
                        keys.get(i) + " vs " + keys.get(j));
            }
        }
        // An edited copy is far more like its original than two independent drafts are like each other.
        assertTrue(results.get("1,2") > 0.9, "edited copy: " + results.get("1,2"));
        assertTrue(results.get("0,1") < 0.9, "independent documents: " + results.get("0,1"));
    }

    @Test
    @Tag("gpu")
    void cudaKernelsGiveTheCpuResults() throws Exception {
        Optional<String> unavailable = new CudaDeviceProvider().unavailabilityCause();
        assumeTrue(unavailable.isEmpty(), () -> "no usable GPU: " + unavailable.orElse(""));
        assumeTrue(getClass().getResource("/kernels/jaccard.ptx") != null, "built without -Pcuda");
        List<Path> keys = documents(9);
        assertEquals(run(new JaccardApp(), keys, "cpu"), run(new JaccardApp(), keys, "cuda"));
    }
}
