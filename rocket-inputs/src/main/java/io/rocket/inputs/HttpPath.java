package io.rocket.inputs;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A URL as a {@link Path}: an absolute path is a whole URL ({@code https://host/dir/file?query}), a relative one is a
 * few slash-separated names, as produced by {@link #getFileName()} or {@link #relativize}. Names are kept exactly as
 * they appear in the URL (still percent-encoded), so that a path always turns back into the URL it came from.
 */
final class HttpPath implements Path {

    private final HttpFileSystem fs;
    /** {@code scheme://authority} for an absolute path, null for a relative one. */
    private final String origin;
    /** The raw path: starts with '/' when absolute. */
    private final String path;
    /** The raw query (without '?'), or null; only on absolute paths. */
    private final String query;

    HttpPath(HttpFileSystem fs, String origin, String path, String query) {
        this.fs = fs;
        this.origin = origin;
        this.path = origin != null && !path.startsWith("/") ? "/" + path : path;
        this.query = origin == null ? null : query;
    }

    static HttpPath of(HttpFileSystem fs, URI uri) {
        String rawPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return new HttpPath(fs, uri.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + uri.getRawAuthority(),
                rawPath, uri.getRawQuery());
    }

    URI uri() {
        if (origin == null) {
            throw new IllegalStateException("relative path " + path + " has no URL");
        }
        return URI.create(toString());
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                names.add(s);
            }
        }
        return names;
    }

    @Override
    public FileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return origin != null;
    }

    @Override
    public Path getRoot() {
        return origin == null ? null : new HttpPath(fs, origin, "/", null);
    }

    @Override
    public Path getFileName() {
        List<String> names = names();
        return names.isEmpty() ? null : new HttpPath(fs, null, names.get(names.size() - 1), null);
    }

    @Override
    public Path getParent() {
        List<String> names = names();
        String parent = String.join("/", names.subList(0, Math.max(0, names.size() - 1)));
        if (origin != null) {
            return names.isEmpty() ? null : new HttpPath(fs, origin, "/" + parent, null);
        }
        return names.size() <= 1 ? null : new HttpPath(fs, null, parent, null);
    }

    @Override
    public int getNameCount() {
        return names().size();
    }

    @Override
    public Path getName(int index) {
        return new HttpPath(fs, null, names().get(index), null);
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return new HttpPath(fs, null, String.join("/", names().subList(beginIndex, endIndex)), null);
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(other instanceof HttpPath o) || !Objects.equals(origin, o.origin)) {
            return false;
        }
        List<String> mine = names();
        List<String> theirs = o.names();
        return theirs.size() <= mine.size() && mine.subList(0, theirs.size()).equals(theirs);
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(other instanceof HttpPath o)) {
            return false;
        }
        if (o.isAbsolute()) {
            return equals(o);
        }
        List<String> mine = names();
        List<String> theirs = o.names();
        return theirs.size() <= mine.size() && mine.subList(mine.size() - theirs.size(), mine.size()).equals(theirs);
    }

    @Override
    public Path normalize() {
        List<String> out = new ArrayList<>();
        for (String n : names()) {
            if (n.equals(".")) {
                continue;
            }
            if (n.equals("..") && !out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                out.remove(out.size() - 1);
            } else if (!(n.equals("..") && origin != null)) {
                out.add(n);
            }
        }
        String joined = String.join("/", out);
        return new HttpPath(fs, origin, origin == null ? joined : "/" + joined + (path.endsWith("/") && !out.isEmpty()
                ? "/" : ""), query);
    }

    @Override
    public Path resolve(Path other) {
        HttpPath o = check(other);
        if (o.isAbsolute()) {
            return o;
        }
        if (o.path.isEmpty()) {
            return this;
        }
        String base = path.endsWith("/") || path.isEmpty() ? path : path + "/";
        return new HttpPath(fs, origin, base + o.path, null);
    }

    @Override
    public Path relativize(Path other) {
        HttpPath o = check(other);
        if (!Objects.equals(origin, o.origin)) {
            throw new IllegalArgumentException(other + " is not on " + (origin == null ? "a relative path" : origin));
        }
        List<String> mine = names();
        List<String> theirs = o.names();
        int common = 0;
        while (common < mine.size() && common < theirs.size() && mine.get(common).equals(theirs.get(common))) {
            common++;
        }
        List<String> out = new ArrayList<>();
        for (int i = common; i < mine.size(); i++) {
            out.add("..");
        }
        out.addAll(theirs.subList(common, theirs.size()));
        return new HttpPath(fs, null, String.join("/", out), null);
    }

    @Override
    public URI toUri() {
        return uri();
    }

    /** A relative HTTP path has no base to resolve against; it is returned unchanged. */
    @Override
    public Path toAbsolutePath() {
        return this;
    }

    @Override
    public Path toRealPath(LinkOption... options) {
        return normalize();
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("HTTP paths cannot be watched");
    }

    @Override
    public int compareTo(Path other) {
        return toString().compareTo(check(other).toString());
    }

    private HttpPath check(Path other) {
        if (other instanceof HttpPath o) {
            return o;
        }
        throw new ProviderMismatchException(other.getClass().getName() + " is not an HTTP path");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpPath p && p.fs == fs && toString().equals(p.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        if (origin == null) {
            return path;
        }
        return origin + path + (query == null ? "" : "?" + query);
    }
}
