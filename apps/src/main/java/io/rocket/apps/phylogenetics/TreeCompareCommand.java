package io.rocket.apps.phylogenetics;

import io.rocket.core.RocketException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rocket tree-compare A.nwk B.nwk}: the Robinson–Foulds distance between two Newick trees on the same taxa
 * (splits found in one tree but not the other, trees read as unrooted), and the same normalised by its maximum
 * 2(n − 3). Exits 0 whatever the distance: it is a measurement, not a check.
 */
@Command(name = "tree-compare", mixinStandardHelpOptions = true,
        description = "Prints the Robinson-Foulds distance between two Newick trees with the same leaf labels, and "
                + "the distance divided by its maximum 2(n - 3) for n leaves.")
public final class TreeCompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A.nwk", description = "First tree.")
    Path first;

    @Parameters(index = "1", paramLabel = "B.nwk", description = "Second tree.")
    Path second;

    @Override
    public Integer call() {
        TreeNode a = read(first);
        TreeNode b = read(second);
        int rf;
        try {
            rf = RobinsonFoulds.distance(a, b);
        } catch (IllegalArgumentException e) {
            throw new RocketException(first + " vs " + second + ": " + e.getMessage(), e);
        }
        int leaves = a.leaves().size();
        int max = RobinsonFoulds.maxDistance(leaves);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "Robinson-Foulds distance: %d (normalised %.4f; maximum %d for %d leaves)%n", rf,
                max == 0 ? 0.0 : (double) rf / max, max, leaves);
        out.flush();
        return 0;
    }

    private static TreeNode read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RocketException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            return NewickParser.parse(text.strip());
        } catch (NewickFormatException e) {
            throw new RocketException(file + ": not a Newick tree: " + e.getMessage(), e);
        }
    }
}
