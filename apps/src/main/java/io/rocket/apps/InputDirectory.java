package io.rocket.apps;

import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The input of a file-based run: the item files of one directory, sorted by file name (which fixes the item indices
 * of the pair TSV), and the names of the other entries, so that a command can say what it left out. Hidden entries
 * (names starting with a dot) are never items and not listed; the files a generator writes beside the items (a
 * truth table, say) are expected and not listed either.
 */
public final class InputDirectory {

    /**
     * What a scan found.
     *
     * @param items        the item files, sorted by file name
     * @param ignored      names of the other entries (neither hidden nor expected), sorted
     * @param largestBytes the size of the largest item file
     */
    public record Listing(List<Path> items, List<String> ignored, long largestBytes) {
    }

    private InputDirectory() {
    }

    /**
     * Lists {@code dir}.
     *
     * @param what     what an item file holds ("particle"), for messages
     * @param isItem   whether a file name names an item file
     * @param expected names of files expected beside the items, not listed as ignored
     * @throws RocketException when {@code dir} is not a readable directory
     */
    public static Listing scan(Path dir, String what, Predicate<String> isItem, Set<String> expected) {
        if (!Files.isDirectory(dir)) {
            throw new RocketException(dir + ": not a directory (give the directory holding the " + what + " files)");
        }
        List<Path> items = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        long largest = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".")) {
                    continue; // hidden: editor and OS droppings such as macOS "._img.jpg" files are not items
                }
                if (isItem.test(name) && Files.isRegularFile(entry)) {
                    items.add(entry);
                    largest = Math.max(largest, Files.size(entry));
                } else if (!expected.contains(name)) {
                    ignored.add(name);
                }
            }
        } catch (IOException e) {
            throw new RocketException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        items.sort(Comparator.comparing(p -> p.getFileName().toString()));
        ignored.sort(null);
        return new Listing(List.copyOf(items), List.copyOf(ignored), largest);
    }
}
