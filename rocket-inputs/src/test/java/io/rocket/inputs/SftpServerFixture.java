package io.rocket.inputs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An SFTP server on 127.0.0.1 (Apache MINA SSHD) serving one directory, accepting only public keys that a test
 * has authorised for a user, and a client ssh directory for it: keys, known_hosts, config.
 */
public final class SftpServerFixture implements AutoCloseable {

    public final Path root;
    public final Path sshDir;
    public final KeyPair hostKey;
    public final SshServer server;
    /** user -> the public key allowed to log in as that user. */
    public final Map<String, PublicKey> authorized = new ConcurrentHashMap<>();

    public SftpServerFixture(Path base) throws IOException, GeneralSecurityException {
        root = Files.createDirectories(base.resolve("served"));
        sshDir = Files.createDirectories(base.resolve("home/.ssh"));
        hostKey = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(authorized.get(user), key));
        server.setPasswordAuthenticator(null);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(new VirtualFileSystemFactory(root));
        server.start();
    }

    public int port() {
        return server.getPort();
    }

    public String knownHostsLine(PublicKey key) {
        return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(key) + "\n";
    }

    public void trustServer() throws IOException {
        Files.writeString(sshDir.resolve("known_hosts"), knownHostsLine(hostKey.getPublic()));
    }

    /** A new key written as {@code name} in the ssh directory (encrypted when a passphrase is given). */
    public KeyPair writeKey(String name, String passphrase) throws IOException, GeneralSecurityException {
        KeyPair kp = KeyUtils.generateKeyPair("ssh-ed25519", 256);
        writeKey(sshDir.resolve(name), kp, passphrase);
        return kp;
    }

    public static void writeKey(Path file, KeyPair kp, String passphrase) throws IOException, GeneralSecurityException {
        OpenSSHKeyEncryptionContext encryption = null;
        if (passphrase != null) {
            encryption = new OpenSSHKeyEncryptionContext();
            encryption.setCipherName("AES");
            encryption.setCipherType("256");
            encryption.setPassword(passphrase);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(kp, "test", encryption, out);
        }
    }

    public RemoteSettings settings(String localUser) {
        return RemoteSettings.isolated(sshDir, localUser);
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }
}
