package io.rocket.output;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The label files beside an {@code .npy} output, one per labelled axis: {@code NAME.labels.txt} for a triangle or a
 * sparse array (every item, by index), {@code NAME.rows.txt} and {@code NAME.cols.txt} for a rectangle; one label
 * per line in index order, so {@code open(f).read().splitlines()} gives the names of the array's indices.
 */
public final class NpyLabels {

    private NpyLabels() {
    }

    /**
     * The label file of one axis.
     *
     * @param npy  the {@code .npy} file
     * @param axis the axis' name
     * @return {@code NAME.AXIS.txt} beside it, NAME the file's name without {@code .npy}
     */
    public static Path path(Path npy, String axis) {
        String name = npy.getFileName().toString();
        if (name.toLowerCase(java.util.Locale.ROOT).endsWith(".npy")) {
            name = name.substring(0, name.length() - 4);
        }
        return npy.resolveSibling(name + "." + axis + ".txt");
    }

    /**
     * Writes the label file of every axis.
     *
     * @param npy   the {@code .npy} file
     * @param axes  the axes, e.g. {@link MatrixLayout#axes()}
     * @param label an item's label by its index; line breaks in it become blanks
     * @return the files written
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(Path npy, List<MatrixLayout.Axis> axes, IntFunction<String> label)
            throws IOException {
        List<Path> written = new ArrayList<>(axes.size());
        for (MatrixLayout.Axis axis : axes) {
            Path file = path(npy, axis.name());
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (int item : axis.items()) {
                    out.write(label.apply(item).replace('\n', ' ').replace('\r', ' '));
                    out.write('\n');
                }
            }
            written.add(file);
        }
        return written;
    }
}
