package io.rocket.cluster;

import io.rocket.core.RocketException;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.protocols.AUTH;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The secret file, the keys derived from it, and the join token's refusals of wrong, stale and replayed proofs. */
class ClusterSecretTest {

    @TempDir
    Path dir;

    private static final ClusterSecurity SECURITY =
            new ClusterSecurity("a secret of thirty-two bytes....".getBytes(StandardCharsets.UTF_8), false);

    @Test
    void secretFile_isReadLessTrailingLineEnds_andBadFilesFailWithOneLineNamingThem() throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "s3cret-s3cret-s3cret\r\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        ClusterSecurity s = ClusterSecurity.fromFile(file, true);
        assertThat(s.secret()).isEqualTo("s3cret-s3cret-s3cret".getBytes(StandardCharsets.UTF_8));
        assertThat(s.encrypt()).isTrue();
        assertThat(s.toString()).doesNotContain("s3cret");
        assertThat(ClusterSecurity.othersCanRead(file)).isFalse();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(ClusterSecurity.othersCanRead(file)).isTrue(); // fromFile warns then

        Path empty = dir.resolve("empty");
        Files.writeString(empty, "\n");
        for (Path bad : new Path[]{empty, dir.resolve("missing"), dir}) {
            assertThatThrownBy(() -> ClusterSecurity.fromFile(bad, false)).isInstanceOf(RocketException.class)
                    .hasMessageContaining(bad.toString()).hasMessageNotContaining("\n");
        }
        assertThatThrownBy(() -> new ClusterSecurity(null, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keys_areFixedPerSecretAndPurpose_andIndependentOfEachOther() {
        byte[] a = SECURITY.key("data auth");
        assertThat(a).hasSize(32).isEqualTo(SECURITY.key("data auth")).isNotEqualTo(SECURITY.key("data encrypt"));
        ClusterSecurity other = new ClusterSecurity("a secret of thirty-two bytes...!".getBytes(StandardCharsets.UTF_8),
                false);
        assertThat(other.key("data auth")).isNotEqualTo(a);
        assertThat(new String(a, StandardCharsets.ISO_8859_1)).doesNotContain("secret");
    }

    /** A token as it arrives: written by {@code sender}'s token, read back by AUTH's reflection path. */
    private static ClusterAuthToken sent(ClusterSecurity security, UUID sender) throws Exception {
        AUTH auth = new AUTH();
        auth.setAddress(sender);
        ClusterAuthToken token = new ClusterAuthToken(security);
        token.setAuth(auth);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream();
        token.writeTo(out);
        assertThat(out.position()).isEqualTo(token.size());
        ClusterAuthToken received = new ClusterAuthToken();
        received.readFrom(new ByteArrayDataInputStream(out.buffer(), 0, out.position()));
        return received;
    }

    private static Message from(UUID sender) {
        return new BytesMessage().setSrc(sender);
    }

    @Test
    void joinToken_provesTheSecret_once_andOnlyForItsSender() throws Exception {
        UUID joiner = UUID.randomUUID();
        ClusterAuthToken verifier = new ClusterAuthToken(SECURITY);
        ClusterAuthToken good = sent(SECURITY, joiner);
        assertThat(verifier.authenticate(good, from(UUID.randomUUID()))).as("another sender").isFalse();
        assertThat(verifier.authenticate(good, from(joiner))).isTrue();
        assertThat(verifier.authenticate(good, from(joiner))).as("replayed").isFalse();
        assertThat(verifier.lastFailure()).contains("replay");
        assertThat(verifier.authenticate(sent(SECURITY, joiner), from(joiner))).as("a fresh proof").isTrue();

        ClusterSecurity wrong = new ClusterSecurity("another secret of 32 bytes......".getBytes(StandardCharsets.UTF_8),
                false);
        assertThat(verifier.authenticate(sent(wrong, joiner), from(joiner))).isFalse();
        assertThat(verifier.authenticate(sent(new ClusterSecurity(SECURITY.secret(), true), joiner), from(joiner)))
                .as("same secret, encryption on").isFalse();
        assertThat(verifier.authenticate(null, from(joiner))).isFalse();
        // A received token verifies nothing itself.
        assertThat(new ClusterAuthToken().authenticate(sent(SECURITY, joiner), from(joiner))).isFalse();
    }
}
