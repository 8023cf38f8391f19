package io.rocket.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rocket.core.RocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an sftp:// location's target follows from the ssh config, without a server to connect to. */
class SshConfigTest {

    @TempDir
    Path tmp;
    Path sshDir;

    @BeforeEach
    void sshDir() throws Exception {
        sshDir = Files.createDirectories(tmp.resolve("home/.ssh"));
    }

    private SshConfig.Target target(String uri) {
        return new SshConfig(RemoteSettings.isolated(sshDir, "local")).target(Location.parse(uri, "sftp"));
    }

    @Test
    void withoutAConfig_theUriIsTakenAsItIs_withTheLocalUserAndOpenSshsDefaultKeys() {
        SshConfig.Target target = target("sftp://storage.example/data");
        assertThat(target.user()).isEqualTo("local");
        assertThat(target.host()).isEqualTo("storage.example");
        assertThat(target.port()).isEqualTo(22);
        assertThat(target.keyFiles()).containsExactly(sshDir.resolve("id_ed25519"), sshDir.resolve("id_ecdsa"),
                sshDir.resolve("id_rsa"));
        assertThat(target.key()).isEqualTo("local@storage.example:22");
        assertThat(target("sftp://bob@storage.example:2222/").key()).isEqualTo("bob@storage.example:2222");
    }

    @Test
    void theConfigSuppliesHostNamePortUserAndIdentityFiles_beforeTheDefaultKeys() throws Exception {
        Path key = tmp.resolve("keys/bob_key");
        Files.writeString(sshDir.resolve("config"), "Host storage\n"
                + "  HostName 10.0.0.7\n"
                + "  Port 2200\n"
                + "  User bob\n"
                + "  IdentityFile " + key + "\n");
        SshConfig.Target target = target("sftp://storage/data");
        assertThat(target.key()).isEqualTo("bob@10.0.0.7:2200");
        assertThat(target.keyFiles()).containsExactly(key, sshDir.resolve("id_ed25519"), sshDir.resolve("id_ecdsa"),
                sshDir.resolve("id_rsa"));
    }

    @Test
    void theUrisUserAndPort_winOverTheConfigs_asOnTheSshCommandLine() throws Exception {
        Files.writeString(sshDir.resolve("config"), "Host storage\n  HostName 10.0.0.7\n  Port 2200\n  User bob\n");
        assertThat(target("sftp://carol@storage:2222/data").key()).isEqualTo("carol@10.0.0.7:2222");
    }

    @Test
    void identitiesOnly_leavesOutTheDefaultKeys_andTildeIsTheHomeThatHoldsTheSshDirectory() throws Exception {
        Files.writeString(sshDir.resolve("config"), "Host tilde\n"
                + "  IdentitiesOnly yes\n"
                + "  IdentityFile ~/.ssh/carol_key\n"
                + "  IdentityFile ~/.ssh/carol_key\n");
        assertThat(target("sftp://tilde/").keyFiles()).containsExactly(sshDir.resolve("carol_key"));
    }

    @Test
    void aKeyListedTwice_isTriedOnce() throws Exception {
        Files.writeString(sshDir.resolve("config"), "Host storage\n  IdentityFile " + sshDir.resolve("id_rsa") + "\n");
        assertThat(target("sftp://storage/").keyFiles()).containsExactly(sshDir.resolve("id_rsa"),
                sshDir.resolve("id_ed25519"), sshDir.resolve("id_ecdsa"));
    }

    @Test
    void aConfigThatCannotBeRead_isOneLineNamingIt() throws Exception {
        Files.createDirectories(sshDir.resolve("config"));
        // A directory is not a config file: passed over, as a missing one is.
        assertThat(target("sftp://storage/").host()).isEqualTo("storage");
        Files.delete(sshDir.resolve("config"));
        Files.writeString(sshDir.resolve("config"), "Host storage\n  Port not-a-number\n");
        assertThatThrownBy(() -> target("sftp://storage/data"))
                .isInstanceOf(RocketException.class)
                .hasMessageStartingWith("sftp://storage/data: cannot read " + sshDir.resolve("config") + ": ")
                .hasMessageNotContaining("\n");
    }
}
