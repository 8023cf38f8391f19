package io.rocket.core;

/**
 * What the disk cache ({@code --disk-cache}) keeps of an application's items across runs.
 *
 * <ul>
 *   <li>{@link #PARSED}: the output of {@link Application#parse}; a later run skips reading and parsing, and still
 *       preprocesses. Right for every application whose parse is a function of its files and options.</li>
 *   <li>{@link #PREPROCESSED}: the preprocessed item, as the device wrote it; a later run on the same device kind
 *       skips reading, parsing and preprocessing. For applications whose preprocessed item is a function of the
 *       parsed input, the options and the device kind alone (the same bytes another node would receive through the
 *       distributed cache).</li>
 *   <li>{@link #NONE}: nothing (items without input files, or parse results that depend on something else).</li>
 * </ul>
 */
public enum DiskCaching {
    /** Keep nothing: every run reads, parses and preprocesses every item. */
    NONE,
    /** Keep the output of {@link Application#parse}; a later run still preprocesses. */
    PARSED,
    /** Keep the preprocessed item; a later run on the same device kind skips reading, parsing and preprocessing. */
    PREPROCESSED
}
