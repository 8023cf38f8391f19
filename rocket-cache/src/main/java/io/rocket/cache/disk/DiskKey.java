package io.rocket.cache.disk;

import io.rocket.core.InputNames;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The identity of one entry of the {@link DiskCache}: which job produced it (app name and options, as the caller
 * spells them), in which form ("parsed", "preprocessed/cuda", ...), for which item (its key label), from which
 * versions of which input files. The canonical key text lists all of these; its SHA-256 digest names the entry
 * file, and the text itself is stored in the entry so a reader can tell a different entry under the same name
 * from its own.
 *
 * <p>An input's version is its size, last-modified time and, where the file system provider has one, its
 * {@code fileKey()} (inode on local disks, ETag on S3 and HTTP). Any change to an input therefore gives another key,
 * and the stale entry is never read again; it ages out by LRU. Attributes are read with
 * {@link Files#readAttributes(Path, Class, java.nio.file.LinkOption...)} only, so every NIO provider works.
 * The input's absolute URI is part of the key too: a file of the same size and time elsewhere is another input.
 *
 * <p>Instances are immutable; two keys are equal when their key texts are.
 */
public final class DiskKey {
    /**
     * First line of every key text. It carries the entry format version, so entries of another format get other
     * names and two Rocket versions sharing a directory never overwrite each other's entries.
     */
    static final String HEADER_LINE = "rocket-disk-cache " + DiskCache.FORMAT_VERSION;

    private final String label;
    private final String text;
    private final byte[] textBytes;
    private final String digest;

    private DiskKey(String label, String text) {
        this.label = label;
        this.text = text;
        this.textBytes = text.getBytes(StandardCharsets.UTF_8);
        this.digest = sha256Hex(textBytes);
    }

    /**
     * Reads each input's attributes and builds the key.
     *
     * @param job    the job identity: app name and every option that changes what the app produces
     * @param form   the form of the cached bytes, e.g. "parsed" or "preprocessed/cuda"
     * @param label  the item's key label, for the key and for log messages
     * @param inputs the item's input files, in the app's order
     * @throws IOException naming the input whose attributes could not be read
     */
    public static DiskKey of(String job, String form, String label, List<Path> inputs) throws IOException {
        List<BasicFileAttributes> attributes = new ArrayList<>(inputs.size());
        for (Path input : inputs) {
            try {
                attributes.add(Files.readAttributes(input, BasicFileAttributes.class));
            } catch (IOException e) {
                throw new IOException("disk cache: cannot read the attributes of input " + input + " of item "
                        + label + ": " + e, e);
            }
        }
        return of(job, form, label, inputs, attributes);
    }

    /**
     * Builds the key from attributes the caller has already read (one per input, same order), so a caller that
     * needs them anyway pays for one stat per input, and tests can state any version they like.
     */
    public static DiskKey of(String job, String form, String label, List<Path> inputs,
                             List<? extends BasicFileAttributes> attributes) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(form, "form");
        Objects.requireNonNull(label, "label");
        if (inputs.size() != attributes.size()) {
            throw new IllegalArgumentException("disk cache: " + inputs.size() + " inputs but " + attributes.size()
                    + " attribute sets for item " + label);
        }
        // Free-text fields are length-prefixed, so no job string or label can forge the fields that follow it.
        StringBuilder text = new StringBuilder(256).append(HEADER_LINE).append('\n');
        field(text, "job", job);
        field(text, "form", form);
        field(text, "label", label);
        for (int i = 0; i < inputs.size(); i++) {
            BasicFileAttributes a = attributes.get(i);
            field(text, "input", InputNames.of(inputs.get(i).toAbsolutePath()));
            text.append("size ").append(a.size()).append('\n');
            text.append("modified ").append(a.lastModifiedTime()).append('\n');
            Object fileKey = a.fileKey();
            if (fileKey == null) {
                text.append("filekey -\n");
            } else {
                field(text, "filekey", fileKey.toString());
            }
        }
        return new DiskKey(label, text.toString());
    }

    private static void field(StringBuilder text, String name, String value) {
        text.append(name).append(' ').append(value.length()).append(':').append(value).append('\n');
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** The item's key label, for log messages. */
    public String label() {
        return label;
    }

    /** The canonical key text, one field a line. */
    public String text() {
        return text;
    }

    /** The SHA-256 of the key text in lower-case hex (64 characters); the entry's file name. */
    public String digest() {
        return digest;
    }

    /** The key text in UTF-8, as stored in the entry header; callers must not modify it. */
    byte[] textBytes() {
        return textBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DiskKey other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return label + " [" + digest.substring(0, 12) + "]";
    }
}
