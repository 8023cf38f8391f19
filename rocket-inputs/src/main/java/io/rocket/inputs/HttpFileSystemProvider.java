package io.rocket.inputs;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small read-only {@link FileSystemProvider} for {@code http} and {@code https} URLs on the JDK's
 * {@link HttpClient}: a file's size, time and ETag come from a HEAD request (Content-Length, Last-Modified, ETag),
 * its bytes from a GET, resumed with a Range request after a seek. There is no directory listing (HTTP has none).
 * A 404 or 410 is a {@link NoSuchFileException} naming the URL; other failures are {@link IOException}s naming the
 * URL and the status, and every wait is bounded so that a stalled server fails the read instead of hanging it.
 */
final class HttpFileSystemProvider extends FileSystemProvider {

    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)");

    private final String scheme;
    private final HttpClient client;
    private final Duration readTimeout;
    private final HttpFileSystem fs;

    HttpFileSystemProvider(String scheme, HttpClient client, Duration readTimeout) {
        this.scheme = scheme;
        this.client = client;
        this.readTimeout = readTimeout;
        this.fs = new HttpFileSystem(this);
    }

    @Override
    public String getScheme() {
        return scheme;
    }

    HttpFileSystem fileSystem() {
        return fs;
    }

    Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw new FileSystemAlreadyExistsException(scheme + ":// has one file system");
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        return fs;
    }

    @Override
    public Path getPath(URI uri) {
        if (!scheme.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException(uri + " is not a " + scheme + ":// URL");
        }
        return HttpPath.of(fs, uri);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                              FileAttribute<?>... attrs) throws IOException {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND || o == StandardOpenOption.CREATE
                    || o == StandardOpenOption.CREATE_NEW || o == StandardOpenOption.DELETE_ON_CLOSE
                    || o == StandardOpenOption.TRUNCATE_EXISTING) {
                throw new ReadOnlyFileSystemException();
            }
        }
        return new HttpChannel(this, check(path).uri());
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        throw new FileSystemException(dir.toString(), null, "HTTP servers offer no directory listing; name each file"
                + " (for instance one URL per line in an input list)");
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (!type.isAssignableFrom(Attributes.class)) {
            throw new UnsupportedOperationException(type.getName() + " is not available on HTTP");
        }
        return (A) attributes(check(path).uri());
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
            throws IOException {
        String names = attributes.startsWith("basic:") ? attributes.substring(6) : attributes;
        if (names.contains(":")) {
            throw new UnsupportedOperationException("only basic attributes on HTTP: " + attributes);
        }
        Attributes a = attributes(check(path).uri());
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("size", a.size());
        all.put("lastModifiedTime", a.lastModifiedTime());
        all.put("lastAccessTime", a.lastAccessTime());
        all.put("creationTime", a.creationTime());
        all.put("isRegularFile", true);
        all.put("isDirectory", false);
        all.put("isSymbolicLink", false);
        all.put("isOther", false);
        all.put("fileKey", a.fileKey());
        if (names.equals("*")) {
            return all;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String n : names.split(",")) {
            if (!all.containsKey(n.trim())) {
                throw new IllegalArgumentException("no attribute '" + n + "' on HTTP");
            }
            out.put(n.trim(), all.get(n.trim()));
        }
        return out;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        if (type != BasicFileAttributeView.class) {
            return null;
        }
        URI uri = check(path).uri();
        return (V) new BasicFileAttributeView() {
            @Override
            public String name() {
                return "basic";
            }

            @Override
            public BasicFileAttributes readAttributes() throws IOException {
                return attributes(uri);
            }

            @Override
            public void setTimes(FileTime lastModified, FileTime lastAccess, FileTime create) {
                throw new ReadOnlyFileSystemException();
            }
        };
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        for (AccessMode m : modes) {
            if (m != AccessMode.READ) {
                throw new AccessDeniedException(path.toString(), null, "HTTP is read-only");
            }
        }
        attributes(check(path).uri());
    }

    @Override
    public boolean isSameFile(Path a, Path b) {
        return a.equals(b);
    }

    @Override
    public boolean isHidden(Path path) {
        return false;
    }

    @Override
    public FileStore getFileStore(Path path) {
        throw new UnsupportedOperationException("HTTP has no file stores");
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void delete(Path path) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    private static HttpPath check(Path path) {
        if (path instanceof HttpPath p && p.isAbsolute()) {
            return p;
        }
        throw new ProviderMismatchException(path + " is not an http(s) URL");
    }

    /**
     * HEAD; servers that refuse HEAD (405, 501) or leave out its Content-Length are asked for the first byte
     * instead, whose Content-Range tells the size.
     */
    Attributes attributes(URI uri) throws IOException {
        HttpResponse<Void> head = send(request(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding(), uri);
        boolean sized = head.headers().firstValue("Content-Length").isPresent();
        if (head.statusCode() == 405 || head.statusCode() == 501 || head.statusCode() / 100 == 2 && !sized) {
            HttpResponse<Void> first = send(request(uri).header("Range", "bytes=0-0").GET().build(),
                    HttpResponse.BodyHandlers.discarding(), uri);
            checkStatus(first.statusCode(), uri);
            return Attributes.of(first.headers(), totalSize(first.statusCode(), first.headers()));
        }
        checkStatus(head.statusCode(), uri);
        return Attributes.of(head.headers(), head.headers().firstValueAsLong("Content-Length"));
    }

    HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(readTimeout).header("User-Agent", "rocket-inputs");
    }

    <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, URI uri) throws IOException {
        try {
            return client.send(request, handler);
        } catch (HttpTimeoutException e) {
            throw new IOException(uri + ": no answer within " + readTimeout.toSeconds() + " s", e);
        } catch (ConnectException e) {
            throw new IOException(uri + ": cannot connect: " + (e.getMessage() == null ? "connection refused"
                    : e.getMessage()), e);
        } catch (IOException e) {
            throw new IOException(uri + ": " + SftpAccess.oneLine(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException(uri + ": interrupted");
        }
    }

    /** 2xx passes; 404 and 410 mean no such file; 401 and 403 mean access denied; anything else fails the read. */
    static void checkStatus(int status, URI uri) throws IOException {
        if (status >= 200 && status < 300) {
            return;
        }
        if (status == 404 || status == 410) {
            throw new NoSuchFileException(uri.toString(), null, "HTTP " + status);
        }
        if (status == 401 || status == 403) {
            throw new AccessDeniedException(uri.toString(), null, "HTTP " + status);
        }
        throw new IOException(uri + ": HTTP " + status);
    }

    /** The whole size from a full (200) or partial (206) response, when the server says. */
    static OptionalLong totalSize(int status, HttpHeaders headers) {
        if (status == 206) {
            Optional<String> range = headers.firstValue("Content-Range");
            if (range.isPresent()) {
                Matcher m = CONTENT_RANGE.matcher(range.get().trim());
                if (m.matches() && !m.group(3).equals("*")) {
                    return OptionalLong.of(Long.parseLong(m.group(3)));
                }
            }
            return OptionalLong.empty();
        }
        return headers.firstValueAsLong("Content-Length");
    }

    /** Cancels a response body nobody will read, so that the connection is released at once. */
    static void discard(Flow.Publisher<?> body) {
        body.subscribe(new Flow.Subscriber<Object>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.cancel();
            }

            @Override
            public void onNext(Object item) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onComplete() {
            }
        });
    }

    /**
     * What a HEAD says about a URL. The size is -1 when the server sends no length (a streamed response);
     * the file key is the ETag, so a changed file has a different key.
     */
    record Attributes(long size, FileTime lastModifiedTime, Object fileKey) implements BasicFileAttributes {
        static Attributes of(HttpHeaders headers, OptionalLong size) {
            FileTime modified = FileTime.fromMillis(0);
            Optional<String> lm = headers.firstValue("Last-Modified");
            if (lm.isPresent()) {
                try {
                    modified = FileTime.from(ZonedDateTime.parse(lm.get().trim(),
                            DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                } catch (DateTimeParseException e) {
                    // a malformed date is no reason to refuse the file
                }
            }
            return new Attributes(size.orElse(-1), modified, headers.firstValue("ETag").orElse(null));
        }

        @Override
        public FileTime lastAccessTime() {
            return lastModifiedTime;
        }

        @Override
        public FileTime creationTime() {
            return lastModifiedTime;
        }

        @Override
        public boolean isRegularFile() {
            return true;
        }

        @Override
        public boolean isDirectory() {
            return false;
        }

        @Override
        public boolean isSymbolicLink() {
            return false;
        }

        @Override
        public boolean isOther() {
            return false;
        }
    }
}
