package io.rocket.inputs;

import io.rocket.core.InputNames;
import io.rocket.core.RocketException;
import io.rocket.core.summary.InputTraffic;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the input locations users type — local paths, {@code file:} URIs, {@code sftp://}, {@code s3://} and
 * {@code http(s)://} URLs — into {@link Path}s on NIO file systems, so that the runtime reads every input the same
 * way ({@code Files.newByteChannel}, {@code Files.newDirectoryStream}, {@code Files.readAttributes}) wherever it
 * lives. Remote sessions (one SSH session per user, host and port; one S3 client per endpoint; one HTTP client) are
 * opened on first use, reused for every later location and closed by {@link #close()}. Every user mistake and
 * every refusal (unknown scheme, unreachable host, refused key, unknown host key, missing bucket, ...) is a
 * one-line {@link RocketException} that names the location and the cause.
 *
 * <p>Thread-safe: resolving and reading may happen on any thread.
 */
public final class InputLocations implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InputLocations.class);

    /** {@code scheme://}: RFC 3986 scheme characters. A drive letter ({@code C:\}) has no {@code //} after it. */
    private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://");
    private static final Set<String> REMOTE = Set.of("sftp", "s3", "http", "https");

    private static InputLocations defaults;

    private final RemoteSettings settings;
    private final SftpAccess sftp;
    private final S3Access s3;
    private HttpClient httpClient;
    private HttpFileSystemProvider http;
    private HttpFileSystemProvider https;
    private volatile boolean closed;

    /** Locations resolved with the given settings (tests pass their own ssh directory, environment and timeouts). */
    public InputLocations(RemoteSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sftp = new SftpAccess(settings);
        this.s3 = new S3Access(settings);
    }

    /**
     * The instance shared by the whole process, configured from its environment
     * ({@link RemoteSettings#fromEnvironment()}). Its sessions close at JVM exit, or on {@link #close()}, after which
     * the next call makes a fresh one.
     */
    static {
        InputNames.use(InputLocations::display); // runtime messages then name remote inputs as users wrote them
    }

    public static synchronized InputLocations defaults() {
        if (defaults == null || defaults.closed) {
            InputLocations created = new InputLocations(RemoteSettings.fromEnvironment());
            Runtime.getRuntime().addShutdownHook(new Thread(created::close, "rocket-inputs-close"));
            defaults = created;
        }
        return defaults;
    }

    /**
     * Replaces the shared instance that {@link #defaults()} returns, for a program that embeds Rocket and sets up
     * remote storage itself (and for tests, which cannot set environment variables); the old one is closed.
     */
    public static synchronized void setDefaults(InputLocations value) {
        if (defaults != null && defaults != value) {
            defaults.close();
        }
        defaults = value;
    }

    public RemoteSettings settings() {
        return settings;
    }

    /**
     * The path for one location as a user typed it:
     * <ul>
     *   <li>a local path, relative or absolute: anything without {@code scheme://} or {@code file:}
     *       ({@code ~/} is the home directory);</li>
     *   <li>{@code file:/abs} or {@code file:///abs} (percent-encoded, as file URIs are);</li>
     *   <li>{@code sftp://[user@]host[:port]/path}: connects and authenticates now (or reuses the session), with the
     *       user's ssh keys, agent, config and known_hosts; {@code /~/x} is relative to the login directory;</li>
     *   <li>{@code s3://bucket/key-or-prefix}: checks the bucket once per run, and asks whether the key is an object
     *       or a prefix — a prefix becomes a directory of the objects under it;</li>
     *   <li>{@code http://} or {@code https://} URL: no request until it is read.</li>
     * </ul>
     * Names in {@code sftp://} and {@code s3://} locations are taken literally (not percent-decoded). Passwords and
     * keys inside URIs are refused.
     *
     * @throws RocketException with a one-line message naming the location and what is wrong
     */
    public Path resolve(String text) {
        return resolve(text, true);
    }

    Path resolve(String text, boolean probe) {
        Objects.requireNonNull(text, "text");
        if (closed) {
            throw new IllegalStateException("InputLocations is closed");
        }
        if (text.isBlank()) {
            throw new RocketException("an input location is empty");
        }
        Matcher m = SCHEME.matcher(text);
        if (m.lookingAt()) {
            String scheme = m.group(1).toLowerCase(Locale.ROOT);
            switch (scheme) {
                case "file":
                    return fileUri(text);
                case "sftp":
                    return sftp.resolve(Location.parse(text, scheme));
                case "s3":
                case "s3x":
                    return s3.resolve(Location.parse(text, scheme), probe);
                case "http":
                case "https":
                    return url(text, scheme);
                default:
                    throw new RocketException(Location.masked(text) + ": unknown scheme '" + m.group(1)
                            + "' (use a local path, file:, sftp://, s3:// or https://)");
            }
        }
        if (text.regionMatches(true, 0, "file:", 0, 5)) {
            return fileUri(text);
        }
        return local(text);
    }

    /**
     * Whether an entry is a symbolic link whose target does not exist: an input that was meant to be there and
     * cannot be read, so it is listed as an item and fails as one, rather than being dropped.
     *
     * @param entry a directory entry
     * @return true for a dangling symbolic link
     */
    public static boolean isDanglingLink(Path entry) {
        return Files.isSymbolicLink(entry) && !Files.exists(entry);
    }

    /**
     * The inputs listed in a file ({@code --input-list FILE}): one location per line, surrounding whitespace trimmed,
     * blank lines and lines starting with {@code #} skipped. A list may name many thousands of inputs, so no request
     * is made per line beyond opening each server's session: an {@code s3://} line is an object unless it ends in
     * {@code /}, and a missing file is reported when it is read. Relative local paths are relative to the working
     * directory, as with {@code tar -T}.
     *
     * @throws RocketException naming {@code FILE:LINE} for a bad line, or the file when it cannot be read or lists
     *                         nothing
     */
    public List<Path> readList(Path listFile) {
        Objects.requireNonNull(listFile, "listFile");
        List<Path> paths = new ArrayList<>();
        String name = ListFile.isStdin(listFile) ? ListFile.display(listFile) : display(listFile);
        try (BufferedReader reader = ListFile.open(listFile)) {
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                String text = line.strip();
                if (lineNumber == 1 && text.startsWith("\uFEFF")) {
                    text = text.substring(1).strip();
                }
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                try {
                    paths.add(resolve(text, false));
                } catch (RocketException e) {
                    throw new RocketException(name + ":" + lineNumber + ": " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new RocketException(name + ": cannot read the input list: " + SftpAccess.oneLine(e), e);
        }
        if (paths.isEmpty()) {
            throw new RocketException(name + ": the input list names no inputs (only blank lines and # comments)");
        }
        return List.copyOf(paths);
    }

    /**
     * The scheme a path is read through, for per-scheme I/O statistics: {@code file}, {@code sftp}, {@code s3},
     * {@code https} or {@code http} (another file system's own scheme otherwise, such as {@code jar}).
     */
    public static String scheme(Path p) {
        return InputTraffic.scheme(p);
    }

    /** Whether {@code text} is written as a URI ({@code scheme://…} or {@code file:…}) rather than a local path. */
    public static boolean isUri(String text) {
        return SCHEME.matcher(text).lookingAt() || text.regionMatches(true, 0, "file:", 0, 5);
    }

    /** Whether reading the path goes over the network ({@code sftp}, {@code s3}, {@code http}, {@code https}). */
    public static boolean isRemote(Path p) {
        return REMOTE.contains(scheme(p));
    }

    /**
     * The path as users recognise it: a local path as is; {@code sftp://user@host:port/path},
     * {@code s3://bucket/key} or the URL for remote ones.
     */
    public static String display(Path p) {
        switch (scheme(p)) {
            case "sftp": {
                String origin = SftpAccess.origin(p.getFileSystem());
                if (origin != null) {
                    return origin + p.toAbsolutePath();
                }
                return "sftp://" + p.toAbsolutePath(); // MINA's toUri() fails (it goes through toFile())
            }
            case "s3": {
                String s = S3Access.display(p);
                return s != null ? s : p.toUri().toString();
            }
            default:
                return p.toString();
        }
    }

    private Path local(String text) {
        String expanded = text;
        if (text.equals("~") || text.startsWith("~/") || text.startsWith("~" + java.io.File.separator)) {
            expanded = System.getProperty("user.home") + text.substring(1);
        }
        try {
            return Path.of(expanded);
        } catch (InvalidPathException e) {
            throw new RocketException(text + ": not a valid path: " + e.getReason());
        }
    }

    private static Path fileUri(String text) {
        try {
            URI uri = new URI(text);
            if (uri.getRawAuthority() != null && !uri.getRawAuthority().isEmpty()
                    && !uri.getRawAuthority().equalsIgnoreCase("localhost")) {
                throw new RocketException(text + ": file: URIs with a host are not local files; use sftp://"
                        + uri.getRawAuthority() + uri.getRawPath());
            }
            if (uri.getRawAuthority() != null) {
                uri = new URI("file", null, uri.getPath(), null);
            }
            return Path.of(uri);
        } catch (java.net.URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new RocketException(text + ": not a valid file: URI (file:/absolute/path or file:///absolute/path;"
                    + " spaces as %20): " + (e instanceof java.net.URISyntaxException u ? u.getReason()
                    : e.getMessage()));
        }
    }

    private Path url(String text, String scheme) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new RocketException(text + ": not a valid URL (" + e.getReason() + "; write spaces as %20)");
        }
        if (uri.getHost() == null) {
            throw new RocketException(Location.masked(text) + ": no host in the URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw new RocketException(Location.masked(text) + ": credentials in URLs are refused (they end up in"
                    + " shell history and logs); use a URL that needs none, such as a pre-signed one");
        }
        return httpProvider(scheme).getPath(uri);
    }

    private synchronized HttpFileSystemProvider httpProvider(String scheme) {
        if (httpClient == null) {
            httpClient = HttpClient.newBuilder()
                    .connectTimeout(settings.connectTimeout())
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build();
            http = new HttpFileSystemProvider("http", httpClient, settings.readTimeout());
            https = new HttpFileSystemProvider("https", httpClient, settings.readTimeout());
        }
        return scheme.equals("http") ? http : https;
    }

    /** Closes every remote session; paths resolved by this instance can no longer be read. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            sftp.close();
        } catch (RuntimeException e) {
            log.debug("closing sftp sessions: {}", e.toString());
        }
        try {
            s3.close();
        } catch (RuntimeException e) {
            log.debug("closing S3 clients: {}", e.toString());
        }
        synchronized (this) {
            if (http != null) {
                http.fileSystem().close();
                https.fileSystem().close();
            }
            httpClient = null;
        }
    }
}
