package io.rocket.apps.docs;

import java.util.Locale;

/** The few Markdown rules the generated reference and the docs' link check share (GitHub's flavour). */
public final class Markdown {
    private Markdown() {
    }

    /**
     * GitHub's anchor for a heading's text: lower case, formatting marks and punctuation other than '-' and '_'
     * dropped, each space a '-'. (A repeated heading gets "-1", "-2", ... appended; callers handle that.)
     */
    public static String anchor(String heading) {
        StringBuilder a = new StringBuilder();
        for (char ch : heading.strip().toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(ch) || ch == '-' || ch == '_') {
                a.append(ch);
            } else if (ch == ' ') {
                a.append('-');
            }
        }
        return a.toString();
    }

    /** Text made safe for a table cell: no HTML, no emphasis from '*', no cell break from '|', one line. */
    public static String cell(String text) {
        return text(text).replace("|", "\\|").replace("\n", " ");
    }

    /** Text made safe for a paragraph: no HTML tags, no emphasis from '*'. */
    public static String text(String text) {
        return text.replace("<", "&lt;").replace(">", "&gt;").replace("*", "\\*");
    }
}
