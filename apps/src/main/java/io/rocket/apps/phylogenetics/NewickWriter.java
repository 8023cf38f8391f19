package io.rocket.apps.phylogenetics;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes trees in Newick format, e.g. {@code (A:0.1,B:0.2,(C:0.3,D:0.4):0.5);}.
 *
 * <p>Labels are written bare when they can be, otherwise in single quotes with inner quotes doubled: a label needs
 * quotes when it is empty or holds whitespace or one of {@code ( ) [ ] ' : ; ,}. Underscores are written as they
 * are (file names such as {@code E_coli} stay readable; {@link NewickParser} keeps them too). Branch lengths get
 * ten significant digits, never an exponent; unknown (NaN) lengths are left out. Iterative, so deep trees are fine.
 */
public final class NewickWriter {

    private static final MathContext DIGITS = new MathContext(10);

    private NewickWriter() {
    }

    /** The Newick text of the tree rooted at {@code root}, ending with ';'. */
    public static String toNewick(TreeNode root) {
        StringBuilder out = new StringBuilder();
        write(root, out);
        return out.toString();
    }

    /** Appends the Newick text of the tree rooted at {@code root}, ending with ';'. */
    public static void write(TreeNode root, StringBuilder out) {
        // Frames are (node, index of the next child to write); a node is finished after its last child.
        Deque<TreeNode> nodes = new ArrayDeque<>();
        Deque<int[]> next = new ArrayDeque<>();
        nodes.push(root);
        next.push(new int[] {0});
        while (!nodes.isEmpty()) {
            TreeNode node = nodes.peek();
            int[] childIndex = next.peek();
            if (node.isLeaf() || childIndex[0] == node.children().size()) {
                if (!node.isLeaf()) {
                    out.append(')');
                }
                if (node.label() != null) {
                    out.append(quoteIfNeeded(node.label()));
                }
                if (!Double.isNaN(node.branchLength())) {
                    out.append(':').append(formatLength(node.branchLength()));
                }
                nodes.pop();
                next.pop();
                continue;
            }
            out.append(childIndex[0] == 0 ? '(' : ',');
            nodes.push(node.children().get(childIndex[0]++));
            next.push(new int[] {0});
        }
        out.append(';');
    }

    /** A label as Newick text: bare if possible, else single-quoted with inner quotes doubled. */
    public static String quoteIfNeeded(String label) {
        boolean bare = !label.isEmpty();
        for (int i = 0; i < label.length() && bare; i++) {
            bare = !needsQuotes(label.charAt(i));
        }
        return bare ? label : "'" + label.replace("'", "''") + "'";
    }

    /** Characters that end a bare Newick label. */
    static boolean needsQuotes(char c) {
        return Character.isWhitespace(c) || "()[]':;,".indexOf(c) >= 0;
    }

    /** A branch length with ten significant digits in plain notation. */
    static String formatLength(double length) {
        if (length == 0 || Double.isInfinite(length)) {
            return length == 0 ? "0" : Double.toString(length);
        }
        return new BigDecimal(length).round(DIGITS).stripTrailingZeros().toPlainString();
    }
}
