package io.rocket.apps.cluster;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parser of Prometheus' text exposition format (version 0.0.4) by its grammar: HELP and TYPE lines, one TYPE per
 * family before its samples, samples {@code name{label="value",...} value}, names and label names of the allowed
 * characters, label values with only the three escapes, values as Go's ParseFloat reads them. It throws on the
 * first line that breaks the format and returns the samples by their full text (name and labels).
 */
final class PrometheusGrammar {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

    private PrometheusGrammar() {
    }

    static Map<String, Double> parse(String text) {
        Map<String, String> types = new HashMap<>();
        Set<String> seenSamples = new HashSet<>();
        Map<String, Double> samples = new LinkedHashMap<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher m;
            if ((m = TYPE.matcher(line)).matches()) {
                if (types.put(m.group(1), m.group(2)) != null || seenSamples.contains(m.group(1))) {
                    throw new IllegalArgumentException("line " + n + ": a second TYPE, or a TYPE after samples: " + line);
                }
                if (m.group(2).equals("counter") && !m.group(1).endsWith("_total")) {
                    throw new IllegalArgumentException("line " + n + ": a counter not named *_total: " + line);
                }
            } else if (HELP.matcher(line).matches() || line.startsWith("#")) {
                continue; // other comments are allowed
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                if (m.group(3) != null && !m.group(3).isEmpty()) {
                    labels(m.group(3), n);
                }
                double value = value(m.group(4), n);
                seenSamples.add(m.group(1));
                String key = m.group(1) + (m.group(2) == null ? "" : m.group(2));
                if (samples.put(key, value) != null) {
                    throw new IllegalArgumentException("line " + n + ": a sample given twice: " + line);
                }
            } else {
                throw new IllegalArgumentException("line " + n + ": not a comment or a sample: " + line);
            }
        }
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("the text must end with a line feed");
        }
        return samples;
    }

    private static void labels(String labels, int n) {
        Matcher m = LABEL.matcher(labels);
        int at = 0;
        while (at < labels.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("line " + n + ": bad labels at " + at + ": " + labels);
            }
            at = m.end();
        }
    }

    private static double value(String s, int n) {
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + n + ": bad value " + s);
                }
        }
    }
}
