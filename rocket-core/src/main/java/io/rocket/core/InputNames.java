package io.rocket.core;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * How messages and summaries name an input file: a local file by its path, a remote one by the URI a user would
 * type ({@code sftp://user@host:port/path}, {@code s3://bucket/key}). The remote storage support installs its
 * namer when it resolves the first location, since only it knows its file systems; before that (or without it) a
 * remote path is named by its scheme and path.
 */
public final class InputNames {
    private static volatile Function<Path, String> namer = InputNames::plain;

    private InputNames() {
    }

    /**
     * The name of {@code path} for messages.
     *
     * @param path a local or remote path, never null
     * @return the path for local files, the URI a user would type for remote ones; never null, and never throws
     *         (a failing namer falls back to the scheme and path)
     */
    public static String of(Path path) {
        try {
            return namer.apply(path);
        } catch (RuntimeException e) {
            return plain(path); // a name must never be what fails
        }
    }

    /**
     * Installs the namer of the remote storage support. It replaces the previous one for every thread.
     *
     * @param value the namer, never null; it may throw, in which case {@link #of} falls back to the scheme and path
     * @throws NullPointerException when {@code value} is null
     */
    public static void use(Function<Path, String> value) {
        namer = Objects.requireNonNull(value);
    }

    private static String plain(Path path) {
        String scheme = path.getFileSystem().provider().getScheme();
        return "file".equals(scheme) ? path.toString() : scheme + "://" + path.toAbsolutePath();
    }
}
