package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which key files an sftp:// login offers, and what it says about those it cannot use, without a server. */
class SshIdentitiesTest {

    @TempDir
    Path tmp;

    @Test
    void usableKeysAreLoaded_missingFilesPassedOver_andTheRestSkippedWithAReason() throws Exception {
        KeyPair plain = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        Path plainFile = tmp.resolve("id_ed25519");
        SftpServerFixture.writeKey(plainFile, plain, null);
        Path encrypted = tmp.resolve("id_ecdsa");
        SftpServerFixture.writeKey(encrypted, KeyUtils.generateKeyPair("ssh-ed25519", 256), "secret");
        Path empty = Files.writeString(tmp.resolve("empty_key"), "");

        SshIdentities identities = SshIdentities.load(List.of(tmp.resolve("id_rsa"), plainFile, encrypted, empty));

        assertThat(identities.keys()).hasSize(1);
        assertThat(KeyUtils.compareKeys(identities.keys().get(0).getPublic(), plain.getPublic())).isTrue();
        assertThat(identities.tried()).containsExactly(plainFile.toString());
        assertThat(identities.skipped()).hasSize(2);
        assertThat(identities.skipped().get(0)).isEqualTo(encrypted + " (encrypted; add it to ssh-agent with ssh-add)");
        assertThat(identities.skipped().get(1)).startsWith(empty + " (");
    }

    @Test
    void theDescription_namesTheKeysTriedAndSkipped_andWhetherTheAgentWasAsked() {
        SshIdentities none = new SshIdentities(List.of(), List.of(), List.of());
        assertThat(none.describe(false)).isEqualTo("no usable key files; no ssh-agent (SSH_AUTH_SOCK unset)");
        SshIdentities some = new SshIdentities(List.of(), List.of("/h/.ssh/id_ed25519", "/h/.ssh/id_rsa"),
                List.of("/h/.ssh/id_ecdsa (encrypted; add it to ssh-agent with ssh-add)"));
        assertThat(some.describe(true)).isEqualTo("keys tried: /h/.ssh/id_ed25519, /h/.ssh/id_rsa; skipped: "
                + "/h/.ssh/id_ecdsa (encrypted; add it to ssh-agent with ssh-add); ssh-agent keys tried too");
    }
}
