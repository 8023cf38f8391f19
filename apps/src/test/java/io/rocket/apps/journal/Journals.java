package io.rocket.apps.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helpers for journal tests: records in a journal, cutting one after its first record, sorted outputs. */
final class Journals {
    static final String RECORDS = "records.bin";

    private Journals() {
    }

    /** The byte offsets at which the journal's records end. */
    static List<Long> recordEnds(Path journal) throws IOException {
        List<Long> ends = new ArrayList<>();
        Path records = journal.resolve(RECORDS);
        long size = Files.size(records);
        try (InputStream raw = Files.newInputStream(records); DataInputStream in = new DataInputStream(raw)) {
            long at = 0;
            while (size - at >= 8) {
                int length = in.readInt();
                in.readInt();
                if (length < 0 || at + 8 + length > size) {
                    break;
                }
                in.skipNBytes(length);
                at += 8 + length;
                ends.add(at);
            }
        }
        return ends;
    }

    /** Cuts the journal after its first record, as if the run had stopped there. */
    static void keepFirstRecord(Path journal) throws IOException {
        List<Long> ends = recordEnds(journal);
        if (ends.size() < 2) {
            throw new AssertionError("the journal has " + ends.size() + " records; the test needs at least 2");
        }
        try (RandomAccessFile f = new RandomAccessFile(journal.resolve(RECORDS).toFile(), "rw")) {
            f.setLength(ends.get(0));
        }
    }

    /** The lines of a file, sorted. */
    static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }

    static JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }
}
