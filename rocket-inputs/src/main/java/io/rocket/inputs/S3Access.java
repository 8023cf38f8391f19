package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.nio.spi.s3.S3ClientProvider;
import software.amazon.nio.spi.s3.S3FileSystem;
import software.amazon.nio.spi.s3.S3FileSystemProvider;
import software.amazon.nio.spi.s3.S3XFileSystemProvider;
import software.amazon.nio.spi.s3.config.S3NioSpiConfiguration;

/**
 * {@code s3://bucket/key} (and the SPI's {@code s3x://host:port/bucket/key}) through the AWS NIO SPI for S3. The SPI
 * reads its set-up from system properties and builds a CRT client; Rocket instead gives each bucket's file system a
 * Netty-based client configured from {@link S3Settings} (so that tests and on-premise endpoints need no global
 * state, and the 19 MB of CRT natives stay out of the launcher), with timeouts so that a dead endpoint cannot hang a
 * run.
 *
 * <p>S3 has no directories: {@code s3://bucket/photos} may be an object or a prefix. {@link #resolve} asks (one HEAD,
 * and on a miss a one-key listing) so that a prefix lists as a directory and a typo is reported before the run;
 * an input list, which may name thousands of objects, skips the question and takes each line as an object
 * unless it ends in {@code /}.
 */
final class S3Access implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(S3Access.class);

    /** Read-ahead per open object: 8 fragments of 5 MB (the SPI's default of 50 holds 250 MB per channel). */
    private static final int READ_AHEAD_FRAGMENTS = 8;

    private final RemoteSettings settings;
    private S3Settings s3;
    private final Map<URI, S3AsyncClient> clients = new HashMap<>();
    private final List<S3FileSystem> owned = new ArrayList<>();
    private final Set<String> checkedBuckets = new HashSet<>();
    /**
     * Owned here, not by the clients: a Netty client closing its own event loops waits out a 2 s quiet period,
     * which every run (and every test) would pay at exit.
     */
    private SdkEventLoopGroup eventLoops;

    S3Access(RemoteSettings settings) {
        this.settings = settings;
    }

    synchronized Path resolve(Location loc, boolean probe) {
        if (loc.user() != null) {
            throw new RocketException(loc.display() + ": credentials in " + loc.scheme() + ":// URIs are refused; use"
                    + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a profile in ~/.aws/credentials (AWS_PROFILE)");
        }
        if (s3 == null) {
            try {
                s3 = S3Settings.from(settings);
            } catch (RocketException e) {
                throw new RocketException(loc.display() + ": " + e.getMessage(), e);
            }
        }
        String bucket;
        String key;
        URI endpoint;
        URI fsUri;
        boolean x = loc.scheme().equals("s3x");
        if (x) {
            // s3x://host[:port]/bucket/key names its endpoint; http or https as the SPI's S3_SPI_ENDPOINT_PROTOCOL says.
            String rest = loc.path().startsWith("/") ? loc.path().substring(1) : loc.path();
            int slash = rest.indexOf('/');
            bucket = slash < 0 ? rest : rest.substring(0, slash);
            key = slash < 0 ? "" : rest.substring(slash + 1);
            if (bucket.isEmpty()) {
                throw new RocketException(loc.display() + ": no bucket (use s3x://host:port/bucket/key)");
            }
            String protocol = settings.env("S3_SPI_ENDPOINT_PROTOCOL");
            String hostPort = loc.port() > 0 ? loc.host() + ":" + loc.port() : loc.host();
            endpoint = URI.create((protocol == null ? "https" : protocol) + "://" + hostPort);
            fsUri = URI.create("s3x://" + hostPort + "/" + bucket);
        } else {
            bucket = loc.host();
            key = loc.path().startsWith("/") ? loc.path().substring(1) : loc.path();
            endpoint = s3.endpoint().orElse(null);
            fsUri = URI.create("s3://" + bucket);
        }
        S3AsyncClient client = client(endpoint);
        S3FileSystem fs = fileSystem(loc, fsUri, x, client);
        String where = endpoint == null ? s3.describeEndpoint() : endpoint.toString();
        if (checkedBuckets.add(where + " " + bucket)) {
            try {
                call(loc, where, bucket, client.headBucket(b -> b.bucket(bucket)));
            } catch (RocketException e) {
                checkedBuckets.remove(where + " " + bucket);
                throw e;
            }
        }
        if (key.isEmpty() || key.endsWith("/")) {
            if (!hasObjectsUnder(loc, where, client, bucket, key)) {
                throw new RocketException(loc.display() + ": no objects under " + (key.isEmpty() ? "bucket '"
                        + bucket + "'" : "prefix '" + key + "' in bucket '" + bucket + "'") + " at " + where);
            }
            return fs.getPath("/" + key);
        }
        if (!probe || exists(loc, where, client, bucket, key)) {
            return fs.getPath("/" + key);
        }
        if (hasObjectsUnder(loc, where, client, bucket, key + "/")) {
            return fs.getPath("/" + key + "/");
        }
        throw new RocketException(loc.display() + ": no object '" + key + "' and no objects under '" + key
                + "/' in bucket '" + bucket + "' at " + where);
    }

    private S3FileSystem fileSystem(Location loc, URI fsUri, boolean x, S3AsyncClient client) {
        FileSystemProvider spi = provider(x ? "s3x" : "s3");
        S3FileSystem fs;
        try {
            fs = (S3FileSystem) spi.getFileSystem(fsUri);
        } catch (IllegalArgumentException e) {
            throw new RocketException(loc.display() + ": not a valid bucket name: " + SftpAccess.oneLine(e));
        }
        // The SPI keeps one file system per bucket for the whole JVM; give it this instance's client unless another
        // InputLocations in this process already did (same process, same environment).
        if (!(fs.clientProvider() instanceof FixedClient)) {
            fs.getConfiguration().withMaxFragmentNumber(READ_AHEAD_FRAGMENTS);
            fs.clientProvider(new FixedClient(fs.getConfiguration(), client));
            owned.add(fs);
        }
        return fs;
    }

    /** The SPI's provider as installed (META-INF/services), or a private one when a repackaging lost the entry. */
    private static FileSystemProvider provider(String scheme) {
        for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
            if (p.getScheme().equals(scheme) && p instanceof S3FileSystemProvider) {
                return p;
            }
        }
        return scheme.equals("s3x") ? new S3XFileSystemProvider() : new S3FileSystemProvider();
    }

    private S3AsyncClient client(URI endpoint) {
        URI key = endpoint == null ? URI.create("aws:default") : endpoint;
        return clients.computeIfAbsent(key, k -> build(endpoint));
    }

    private S3AsyncClient build(URI endpoint) {
        Duration read = settings.readTimeout();
        if (eventLoops == null) {
            eventLoops = SdkEventLoopGroup.builder().build();
        }
        S3AsyncClientBuilder b = S3AsyncClient.builder()
                .region(Region.of(s3.region()))
                .credentialsProvider(s3.credentials())
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .eventLoopGroup(eventLoops)
                        .connectionTimeout(settings.connectTimeout())
                        .connectionAcquisitionTimeout(read)
                        .readTimeout(read)
                        .writeTimeout(read))
                // Rocket only reads; new-style default checksums are refused by several on-premise S3 servers.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o
                        .defaultProfileFile(s3.profileFile())
                        .defaultProfileName(s3.profileName())
                        .apiCallAttemptTimeout(settings.connectTimeout().plus(read).plus(read)));
        if (endpoint != null) {
            b.endpointOverride(endpoint).forcePathStyle(true);
        } else {
            b.crossRegionAccessEnabled(true);
        }
        return b.build();
    }

    private boolean exists(Location loc, String where, S3AsyncClient client, String bucket, String key) {
        try {
            get(client.headObject(h -> h.bucket(bucket).key(key)));
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof S3Exception s && s.statusCode() == 404) {
                return false;
            }
            throw failure(loc, where, bucket, e.getCause());
        } catch (TimeoutException e) {
            throw failure(loc, where, bucket, e);
        }
    }

    private boolean hasObjectsUnder(Location loc, String where, S3AsyncClient client, String bucket, String prefix) {
        return !call(loc, where, bucket, client.listObjectsV2(l -> l.bucket(bucket).prefix(prefix).maxKeys(1)))
                .contents().isEmpty();
    }

    private <T> T call(Location loc, String where, String bucket, CompletableFuture<T> future) {
        try {
            return get(future);
        } catch (ExecutionException e) {
            throw failure(loc, where, bucket, e.getCause());
        } catch (TimeoutException e) {
            throw failure(loc, where, bucket, e);
        }
    }

    private <T> T get(CompletableFuture<T> future) throws ExecutionException, TimeoutException {
        // The client's own timeouts end every call; this bound is a backstop against a client that never answers.
        long limit = settings.connectTimeout().plus(settings.readTimeout()).multipliedBy(3).toMillis();
        try {
            return future.get(limit, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new RocketException("interrupted while asking S3");
        } catch (TimeoutException e) {
            future.cancel(true);
            throw e;
        }
    }

    private RocketException failure(Location loc, String where, String bucket, Throwable cause) {
        String why;
        if (cause instanceof NoSuchBucketException
                || cause instanceof S3Exception s && s.statusCode() == 404 && isBucketError(s)) {
            why = "no such bucket '" + bucket + "' at " + where;
        } else if (cause instanceof S3Exception s && s.statusCode() == 403) {
            why = "access to bucket '" + bucket + "' denied at " + where + " (credentials: " + s3.credentialsSource()
                    + ")";
        } else if (cause instanceof S3Exception s && s.statusCode() == 301) {
            why = "bucket '" + bucket + "' is in another region; set AWS_REGION";
        } else if (cause instanceof S3Exception s) {
            String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
            why = "S3 answered " + s.statusCode() + (code == null ? "" : " " + code) + " at " + where;
        } else if (cause instanceof SdkClientException && String.valueOf(cause.getMessage())
                .contains("Unable to load credentials")) {
            why = "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a"
                    + " profile in ~/.aws/credentials";
        } else if (cause instanceof TimeoutException) {
            why = "no answer from " + where;
        } else {
            why = "cannot reach " + where + ": " + rootMessage(cause);
        }
        return new RocketException(loc.display() + ": " + why, cause);
    }

    private static boolean isBucketError(S3Exception s) {
        // HEAD requests carry no error body, so a 404 from HeadBucket has no code: it is the bucket.
        String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
        return code == null || code.isEmpty() || code.equals("NoSuchBucket") || code.equals("NotFound");
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null || m.isBlank() ? root.getClass().getSimpleName() : SftpAccess.oneLine(root);
    }

    @Override
    public synchronized void close() {
        for (S3FileSystem fs : owned) {
            try {
                if (fs.isOpen()) {
                    fs.close();
                }
            } catch (IOException | RuntimeException e) {
                log.debug("closing {}: {}", fs, e.toString());
            }
        }
        owned.clear();
        clients.values().forEach(S3AsyncClient::close);
        clients.clear();
        checkedBuckets.clear();
        if (eventLoops != null) {
            // Not awaited: the daemon threads finish the closed clients' last tasks in the background.
            eventLoops.eventLoopGroup().shutdownGracefully(200, 2000, TimeUnit.MILLISECONDS);
            eventLoops = null;
        }
    }

    /** Hands the SPI one client built here, for every bucket of a file system. */
    static final class FixedClient extends S3ClientProvider {
        private final S3AsyncClient client;

        FixedClient(S3NioSpiConfiguration configuration, S3AsyncClient client) {
            super(configuration);
            this.client = client;
        }

        @Override
        protected S3AsyncClient generateClient(String bucket) {
            return client;
        }
    }

    /** The bucket of an S3 path and its display prefix; null for other file systems. */
    static String display(Path p) {
        FileSystem fs = p.getFileSystem();
        if (!(fs instanceof S3FileSystem s3fs)) {
            return null;
        }
        S3NioSpiConfiguration c = s3fs.getConfiguration();
        String key = p.toAbsolutePath().toString();
        String prefix = fs.provider().getScheme().equals("s3x") ? "s3x://" + c.getEndpoint() + "/" : "s3://";
        return prefix + c.getBucketName() + (key.startsWith("/") ? key : "/" + key);
    }
}
