package io.rocket.inputs;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/** An S3 server on 127.0.0.1 (s3proxy over a jclouds filesystem store) with one access key. */
public final class S3ServerFixture implements AutoCloseable {

    public static final String KEY_ID = "rocket-test";
    public static final String SECRET = "rocket-test-secret";

    public final BlobStoreContext context;
    public final BlobStore store;
    public final S3Proxy proxy;

    public S3ServerFixture(Path base) throws Exception {
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", Files.createDirectories(base.resolve("s3")).toString());
        context = ContextBuilder.newBuilder("filesystem").credentials(KEY_ID, SECRET).overrides(props)
                .build(BlobStoreContext.class);
        store = context.getBlobStore();
        proxy = S3Proxy.builder().blobStore(store).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, KEY_ID, SECRET).build();
        proxy.start();
        for (int i = 0; i < 500 && !proxy.getState().equals("STARTED"); i++) {
            Thread.sleep(10);
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    public void put(String bucket, String key, byte[] bytes) {
        store.createContainerInLocation(null, bucket);
        store.putBlob(bucket, store.blobBuilder(key).payload(bytes).build());
    }

    /** The environment a user of this server would set. */
    public Map<String, String> environment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint(), "AWS_ACCESS_KEY_ID", KEY_ID,
                "AWS_SECRET_ACCESS_KEY", SECRET, "AWS_REGION", "us-east-1");
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
    }
}
