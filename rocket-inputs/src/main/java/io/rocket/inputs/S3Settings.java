package io.rocket.inputs;

import io.rocket.core.RocketException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;

/**
 * The S3 client set-up derived the way the AWS CLI and SDKs derive it, but from {@link RemoteSettings} instead of
 * the process, so that tests can point at their own server:
 * <ul>
 *   <li>profile: {@code AWS_PROFILE}, else {@code default}; files {@code AWS_CONFIG_FILE} (else
 *       {@code ~/.aws/config}) and {@code AWS_SHARED_CREDENTIALS_FILE} (else {@code ~/.aws/credentials});</li>
 *   <li>region: {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION}, else the profile's {@code region}, else
 *       {@code us-east-1} (with cross-region access, so that buckets elsewhere still work on AWS);</li>
 *   <li>endpoint: {@code AWS_ENDPOINT_URL_S3}, else {@code AWS_ENDPOINT_URL}, else the profile's
 *       {@code endpoint_url}, none of them when {@code AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true}; a custom endpoint
 *       (MinIO, Ceph and other on-premise S3) always gets path-style addressing, since such servers rarely have
 *       a DNS name per bucket;</li>
 *   <li>credentials: {@code AWS_ACCESS_KEY_ID} with {@code AWS_SECRET_ACCESS_KEY} (and {@code AWS_SESSION_TOKEN}),
 *       else the profile, else the SDK's default chain (web identity, container and instance credentials).</li>
 * </ul>
 */
record S3Settings(Optional<URI> endpoint, String region, AwsCredentialsProvider credentials, String credentialsSource,
                  ProfileFile profileFile, String profileName) {

    static S3Settings from(RemoteSettings settings) {
        String profileName = Optional.ofNullable(settings.env("AWS_PROFILE")).orElse("default");
        Path configFile = Optional.ofNullable(settings.env("AWS_CONFIG_FILE")).map(Path::of)
                .orElse(settings.awsDir().resolve("config"));
        Path credentialsFile = Optional.ofNullable(settings.env("AWS_SHARED_CREDENTIALS_FILE")).map(Path::of)
                .orElse(settings.awsDir().resolve("credentials"));
        ProfileFile.Aggregator aggregator = ProfileFile.aggregator();
        List<Path> files = new ArrayList<>();
        // Credentials first: the SDK gives the credentials file precedence over the config file.
        if (Files.isRegularFile(credentialsFile)) {
            aggregator.addFile(load(credentialsFile, ProfileFile.Type.CREDENTIALS));
            files.add(credentialsFile);
        }
        if (Files.isRegularFile(configFile)) {
            aggregator.addFile(load(configFile, ProfileFile.Type.CONFIGURATION));
            files.add(configFile);
        }
        ProfileFile profiles = aggregator.build();
        Optional<Profile> profile = profiles.profile(profileName);
        if (profile.isEmpty() && settings.env("AWS_PROFILE") != null) {
            throw new RocketException("AWS_PROFILE=" + profileName + ": no such profile in "
                    + (files.isEmpty() ? configFile + " or " + credentialsFile : files));
        }

        String region = firstOf(settings.env("AWS_REGION"), settings.env("AWS_DEFAULT_REGION"),
                profile.flatMap(p -> p.property("region")).orElse(null), "us-east-1");

        Optional<URI> endpoint = Optional.empty();
        if (!"true".equalsIgnoreCase(settings.env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))) {
            String url = firstOf(settings.env("AWS_ENDPOINT_URL_S3"), settings.env("AWS_ENDPOINT_URL"),
                    profile.flatMap(p -> p.property("endpoint_url")).orElse(null));
            if (url != null) {
                endpoint = Optional.of(endpointUri(url));
            }
        }

        String keyId = settings.env("AWS_ACCESS_KEY_ID");
        String secret = settings.env("AWS_SECRET_ACCESS_KEY");
        AwsCredentialsProvider credentials;
        String source;
        if (keyId != null && secret != null) {
            String token = settings.env("AWS_SESSION_TOKEN");
            credentials = StaticCredentialsProvider.create(token == null ? AwsBasicCredentials.create(keyId, secret)
                    : AwsSessionCredentials.create(keyId, secret, token));
            source = "AWS_ACCESS_KEY_ID " + keyId;
        } else if (profile.isPresent()) {
            credentials = ProfileCredentialsProvider.builder().profileFile(profiles).profileName(profileName).build();
            source = "profile '" + profileName + "' in " + files;
        } else {
            credentials = DefaultCredentialsProvider.builder().build();
            source = "the AWS default chain (no AWS_ACCESS_KEY_ID, no profile '" + profileName + "' in "
                    + (files.isEmpty() ? configFile + " or " + credentialsFile : files) + ")";
        }
        return new S3Settings(endpoint, region, credentials, source, profiles, profileName);
    }

    /** Where requests go, for messages. */
    String describeEndpoint() {
        return endpoint.map(URI::toString).orElse("AWS S3 (" + region + ")");
    }

    static URI endpointUri(String url) {
        String text = url.contains("://") ? url : "https://" + url;
        try {
            URI uri = URI.create(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((!scheme.equals("http") && !scheme.equals("https")) || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL with a host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new RocketException("S3 endpoint '" + url + "': " + e.getMessage());
        }
    }

    private static ProfileFile load(Path file, ProfileFile.Type type) {
        try {
            return ProfileFile.builder().content(file).type(type).build();
        } catch (RuntimeException e) {
            throw new RocketException(file + ": not a valid AWS " + type.name().toLowerCase(Locale.ROOT)
                    + " file: " + SftpAccess.oneLine(e));
        }
    }

    private static String firstOf(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }
}
