package io.rocket.apps.phylogenetics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Parses one Newick tree: nested parentheses, bare or single-quoted labels (doubled quotes inside), optional
 * internal-node labels, optional {@code :length} on any node, {@code [comments]} and whitespace between tokens. The
 * final ';' may be missing at the end of the text. Underscores in bare labels are kept as underscores (the strict
 * standard reads them as blanks; file-name labels are better served this way). Leaves must be labelled.
 * Iterative, so deep trees are fine.
 */
public final class NewickParser {

    private final String text;
    private int pos;

    private NewickParser(String text) {
        this.text = text;
    }

    /** The tree in {@code text}. */
    public static TreeNode parse(String text) {
        return new NewickParser(text).tree();
    }

    private TreeNode tree() {
        Deque<List<TreeNode>> open = new ArrayDeque<>();
        while (true) {
            skipBlanks();
            if (peek() == '(') {
                pos++;
                open.push(new ArrayList<>());
                continue;
            }
            int at = pos;
            String label = label();
            if (label == null) {
                throw new NewickFormatException(at, "expected a leaf label or '('" + found());
            }
            TreeNode node = TreeNode.leaf(label, length());
            // Close as many parentheses as follow; a ',' starts the next sibling.
            while (true) {
                skipBlanks();
                if (open.isEmpty()) {
                    finish();
                    return node;
                }
                char c = peek();
                if (c == ',') {
                    pos++;
                    open.peek().add(node);
                    break;
                }
                if (c == ')') {
                    pos++;
                    List<TreeNode> children = open.pop();
                    children.add(node);
                    String internalLabel = label();
                    node = TreeNode.internal(children, internalLabel, length());
                    continue;
                }
                throw new NewickFormatException(pos, "expected ',' or ')'" + found());
            }
        }
    }

    private void finish() {
        if (peek() == ';') {
            pos++;
            skipBlanks();
        }
        if (pos < text.length()) {
            throw new NewickFormatException(pos, "unexpected text after the tree" + found());
        }
    }

    /** A bare or quoted label, or null if none starts here. */
    private String label() {
        skipBlanks();
        if (peek() == '\'') {
            int start = pos;
            StringBuilder out = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= text.length()) {
                    throw new NewickFormatException(start, "unterminated quoted label");
                }
                char c = text.charAt(pos++);
                if (c == '\'') {
                    if (peek() != '\'') {
                        return out.toString();
                    }
                    pos++;
                }
                out.append(c);
            }
        }
        int start = pos;
        while (pos < text.length() && !NewickWriter.needsQuotes(text.charAt(pos))) {
            pos++;
        }
        return pos > start ? text.substring(start, pos) : null;
    }

    /** The branch length after ':', or NaN if there is none. */
    private double length() {
        skipBlanks();
        if (peek() != ':') {
            return Double.NaN;
        }
        pos++;
        skipBlanks();
        int start = pos;
        while (pos < text.length() && "0123456789+-.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        try {
            return Double.parseDouble(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw new NewickFormatException(start, "expected a branch length after ':'" + found());
        }
    }

    private void skipBlanks() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '[') {
                int close = text.indexOf(']', pos);
                if (close < 0) {
                    throw new NewickFormatException(pos, "unterminated [comment]");
                }
                pos = close + 1;
            } else {
                return;
            }
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private String found() {
        return pos < text.length() ? ", found '" + text.charAt(pos) + "'" : ", found the end of the text";
    }
}
