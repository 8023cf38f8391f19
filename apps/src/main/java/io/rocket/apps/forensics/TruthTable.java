package io.rocket.apps.forensics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ground truth of a synthetic photo set: which camera took which file, as written to {@code truth.tsv}, one
 * line {@code file<TAB>camera} per photo in file-name order, no header. File names are relative to the set's
 * directory.
 */
public final class TruthTable {

    /** The file name of the truth table inside a generated set's directory. */
    public static final String FILE_NAME = "truth.tsv";

    private final List<String> files;
    private final List<String> cameras;

    /** A table of the given parallel lists. */
    public TruthTable(List<String> files, List<String> cameras) {
        if (files.size() != cameras.size()) {
            throw new IllegalArgumentException(files.size() + " files but " + cameras.size() + " cameras");
        }
        this.files = Collections.unmodifiableList(new ArrayList<>(files));
        this.cameras = Collections.unmodifiableList(new ArrayList<>(cameras));
    }

    /** File names, in table order. */
    public List<String> files() {
        return files;
    }

    /** Camera names, parallel to {@link #files()}. */
    public List<String> cameras() {
        return cameras;
    }

    /** The camera of a file, or null if the file is not in the table. */
    public String cameraOf(String file) {
        int i = files.indexOf(file);
        return i < 0 ? null : cameras.get(i);
    }

    /** Camera numbers (0, 1, … in order of first appearance) for the given files, for {@link AdjustedRandIndex}. */
    public int[] cameraIds(List<String> fileOrder) {
        Map<String, Integer> ids = new HashMap<>();
        int[] out = new int[fileOrder.size()];
        for (int i = 0; i < out.length; i++) {
            String camera = cameraOf(fileOrder.get(i));
            if (camera == null) {
                throw new IllegalArgumentException(fileOrder.get(i) + ": not in the truth table");
            }
            out[i] = ids.computeIfAbsent(camera, k -> ids.size());
        }
        return out;
    }

    /** Writes {@code dir/truth.tsv}. */
    public void write(Path dir) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(dir.resolve(FILE_NAME), StandardCharsets.UTF_8)) {
            for (int i = 0; i < files.size(); i++) {
                out.write(files.get(i));
                out.write('\t');
                out.write(cameras.get(i));
                out.write('\n');
            }
        }
    }

    /** Reads {@code dir/truth.tsv}. */
    public static TruthTable read(Path dir) throws IOException {
        Path path = dir.resolve(FILE_NAME);
        List<String> files = new ArrayList<>();
        List<String> cameras = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            int tab = line.indexOf('\t');
            if (tab <= 0 || tab == line.length() - 1) {
                throw new IOException(path + ":" + lineNo + ": expected file<TAB>camera but got '" + line + "'");
            }
            files.add(line.substring(0, tab));
            cameras.add(line.substring(tab + 1).strip());
        }
        return new TruthTable(files, cameras);
    }
}
