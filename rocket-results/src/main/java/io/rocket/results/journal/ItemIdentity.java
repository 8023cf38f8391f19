package io.rocket.results.journal;

import io.rocket.core.Application;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What makes an item the same item in another run, for the result store: its label and, for each of its input
 * files, the file's name, size and modification time — and on remote storage the provider's file key (the ETag on
 * S3 and HTTP). Where a file has neither a modification time nor a file key, its content's SHA-256 stands in for
 * them. Where the files are (their directory, the local inode) is left out, so a collection moved or copied
 * elsewhere keeps its results; any change to a file gives another identity, so its pairs are computed again.
 *
 * <p>The identity is the label, a space and a digest of the rest, so that a store's records stay readable.
 */
final class ItemIdentity {
    private static final int DIGEST_BYTES = 16;

    private ItemIdentity() {
    }

    /** The identity of {@code key}; stats each input file once (and reads it only when it has no version). */
    static <K> String of(Application<K, ?> app, K key) {
        String label = app.label(key);
        MessageDigest digest = sha256();
        update(digest, "label " + label);
        for (Path file : app.inputFiles(key)) {
            Path name = file.getFileName();
            update(digest, "file " + (name == null ? file.toString() : name.toString()));
            update(digest, version(file));
        }
        return label + " " + HexFormat.of().formatHex(Arrays.copyOf(digest.digest(), DIGEST_BYTES));
    }

    private static String version(Path file) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            return "unreadable"; // the item fails to load; once it can be read, it has another identity
        }
        StringBuilder v = new StringBuilder("size ").append(a.size());
        long modified = a.lastModifiedTime() == null ? 0 : a.lastModifiedTime().toMillis();
        boolean remote = file.getFileSystem() != FileSystems.getDefault();
        Object fileKey = remote ? a.fileKey() : null; // a local inode says where the file is, not what it holds
        if (modified > 0) {
            v.append(" modified ").append(modified);
        }
        if (fileKey != null) {
            v.append(" key ").append(fileKey);
        }
        if (modified <= 0 && fileKey == null) {
            v.append(" sha256 ").append(contentHash(file));
        }
        return v.toString();
    }

    private static String contentHash(Path file) {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            return "unreadable";
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
