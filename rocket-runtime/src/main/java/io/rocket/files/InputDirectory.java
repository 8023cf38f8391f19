package io.rocket.files;

import io.rocket.cli.InputsMixin;
import io.rocket.core.RocketException;
import io.rocket.inputs.InputLocations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * truth table, say) are expected and not listed either. A dangling symbolic link with an item's name is an item
 * that cannot be read: it is listed, and its load fails naming the link's target.
 */
public final class InputDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(InputDirectory.class);

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
     * Lists the items of a command's input source: the matching files of its directory, or every input of its list
     * in list order (listed inputs are items whatever their names; an input whose size cannot be read stays an
     * item, and its load fails with the reason, so one bad line does not stop the run).
     *
     * @param source   the command's input source: a directory or a list of inputs
     * @param what     what an item file holds ("particle"), for messages
     * @param isItem   whether a file name names an item file (directories only)
     * @param expected names of files expected beside the items, not listed as ignored
     * @return the items and the ignored entries
     */
    public static Listing scan(InputsMixin.Source source, String what, Predicate<String> isItem,
                               Set<String> expected) {
        if (source.directory() != null) {
            return scan(source.directory(), what, isItem, expected);
        }
        long largest = 0;
        for (Path item : source.listed()) {
            try {
                largest = Math.max(largest, Files.size(item));
            } catch (IOException e) {
                LOG.warn("{}: cannot read the size of {} ({}); its {} will fail", source.name(), item, e, what);
            }
        }
        return new Listing(source.listed(), List.of(), largest);
    }

    /**
     * Lists {@code dir}.
     *
     * @param dir      the directory
     * @param what     what an item file holds ("particle"), for messages
     * @param isItem   whether a file name names an item file
     * @param expected names of files expected beside the items, not listed as ignored
     * @return the items and the ignored entries
     * @throws RocketException when {@code dir} is not a readable directory
     */
    public static Listing scan(Path dir, String what, Predicate<String> isItem, Set<String> expected) {
        if (!Files.isDirectory(dir)) {
            throw new RocketException(display(dir) + ": not a directory (give the directory holding the " + what + " files)");
        }
        List<Path> items = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        long largest = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = fileName(entry);
                if (name.startsWith(".")) {
                    continue; // hidden: editor and OS droppings such as macOS "._img.jpg" files are not items
                }
                if (isItem.test(name) && Files.isRegularFile(entry)) {
                    items.add(entry);
                    largest = Math.max(largest, Files.size(entry));
                } else if (isItem.test(name) && InputLocations.isDanglingLink(entry)) {
                    // An item that cannot be read: it stays an item, and its load fails naming the link, so that
                    // its pairs fail like those of a corrupt file rather than the item vanishing from the run.
                    items.add(entry);
                } else if (!expected.contains(name)) {
                    ignored.add(name);
                }
            }
        } catch (IOException e) {
            throw new RocketException("cannot list " + display(dir) + ": " + e.getMessage(), e);
        }
        items.sort(Comparator.comparing(InputDirectory::fileName));
        ignored.sort(null);
        return new Listing(List.copyOf(items), List.copyOf(ignored), largest);
    }

    /** An entry's name without a trailing slash (object stores list "directories" as {@code prefix/}). */
    static String fileName(Path entry) {
        Path name = entry.getFileName();
        String text = name == null ? "" : name.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    /**
     * A directory as users wrote it: a local path, or the URI of a remote one.
     *
     * @param dir the directory
     * @return its display form, without a trailing slash
     */
    public static String display(Path dir) {
        return io.rocket.inputs.InputLocations.display(dir);
    }
}
