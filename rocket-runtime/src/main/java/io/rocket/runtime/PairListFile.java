package io.rocket.runtime;

import io.rocket.core.RocketException;
import io.rocket.inputs.ListFile;
import io.rocket.steal.PairSpace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A file of pairs to compute ({@code --pairs FILE}), one pair per line: two 0-based item indices ({@code 3 17}) or
 * two item labels ({@code a.jpg b.jpg}), separated by spaces or a tab. Blank lines and lines starting with {@code #}
 * are skipped; (i, j) and (j, i) are the same pair and a pair listed twice counts once. A line that is not a pair of
 * the run's items is refused with its line number.
 */
public final class PairListFile {

    private PairListFile() {
    }

    /**
     * Reads the pairs of {@code file} as a space of the run's items.
     *
     * @param file   the pair list
     * @param labels the label of every item, in index order: a token that is not a number is looked up here
     * @return the listed pairs
     * @throws RocketException naming the file and line for a malformed line, an index out of range, an unknown or
     *                         ambiguous label, or a pair of an item with itself; or when the file cannot be read
     */
    public static PairSpace read(Path file, List<String> labels) {
        Map<String, Integer> byLabel = new HashMap<>();
        for (int k = 0; k < labels.size(); k++) {
            byLabel.merge(labels.get(k), k, (a, b) -> -1); // -1: two items have this label
        }
        List<int[]> pairs = new ArrayList<>();
        try (BufferedReader in = ListFile.open(file)) {
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                String[] tokens = text.split("[ \t]+");
                String where = "--pairs " + file + " line " + lineNumber + ": ";
                if (tokens.length != 2) {
                    throw new RocketException(where + "expected two items 'i j' (indices or labels), got '" + text
                            + "'");
                }
                int a = item(tokens[0], labels.size(), byLabel, where);
                int b = item(tokens[1], labels.size(), byLabel, where);
                if (a == b) {
                    throw new RocketException(where + "pairs item " + a + " with itself");
                }
                pairs.add(new int[] {a, b});
            }
        } catch (NoSuchFileException e) {
            throw new RocketException("--pairs " + file + ": no such file");
        } catch (CharacterCodingException e) {
            throw new RocketException("--pairs " + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new RocketException("--pairs " + file + ": " + e.getMessage(), e);
        }
        return PairSpace.listed(labels.size(), pairs);
    }

    /** The item a token names: a 0-based index, else a label. */
    private static int item(String token, int items, Map<String, Integer> byLabel, String where) {
        if (isNumber(token)) {
            long index;
            try {
                index = Long.parseLong(token);
            } catch (NumberFormatException e) {
                index = Long.MAX_VALUE;
            }
            Integer labelled = byLabel.get(token);
            if (index >= 0 && index < items) {
                return (int) index;
            }
            if (labelled != null && labelled >= 0) {
                return labelled; // a label that looks like a number, and is no index of this run
            }
            throw new RocketException(where + "item " + token + " is out of range (" + items + " items, 0.."
                    + (items - 1) + ")");
        }
        Integer index = byLabel.get(token);
        if (index == null) {
            throw new RocketException(where + "no item is labelled '" + token + "'");
        }
        if (index < 0) {
            throw new RocketException(where + "several items are labelled '" + token + "': give indices");
        }
        return index;
    }

    private static boolean isNumber(String token) {
        int start = token.startsWith("-") ? 1 : 0;
        for (int k = start; k < token.length(); k++) {
            if (!Character.isDigit(token.charAt(k))) {
                return false;
            }
        }
        return token.length() > start;
    }
}
