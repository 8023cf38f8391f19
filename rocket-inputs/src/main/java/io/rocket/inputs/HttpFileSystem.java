package io.rocket.inputs;

import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Set;

/**
 * The read-only file system of every URL of one scheme ({@code http} or {@code https}): it has no roots to list,
 * because an HTTP server offers no directory listing; its paths are whole URLs.
 */
final class HttpFileSystem extends FileSystem {

    private final HttpFileSystemProvider provider;
    private volatile boolean open = true;

    HttpFileSystem(HttpFileSystemProvider provider) {
        this.provider = provider;
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    /** Closing marks it closed; the shared HTTP client belongs to {@link InputLocations}. */
    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of();
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return List.of();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic");
    }

    /** A whole URL, or names that make a relative path. */
    @Override
    public Path getPath(String first, String... more) {
        String joined = more.length == 0 ? first : first + "/" + String.join("/", more);
        if (joined.contains("://")) {
            try {
                URI uri = URI.create(joined);
                if (!provider.getScheme().equalsIgnoreCase(uri.getScheme()) || uri.getRawAuthority() == null) {
                    throw new InvalidPathException(joined, "not a " + provider.getScheme() + ":// URL");
                }
                return HttpPath.of(this, uri);
            } catch (IllegalArgumentException e) {
                throw new InvalidPathException(joined, "not a valid URL: " + e.getMessage());
            }
        }
        return new HttpPath(this, null, joined, null);
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return p -> m.matches(Path.of(p.toString()));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("HTTP has no users");
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("HTTP paths cannot be watched");
    }
}
