package io.rocket.cluster;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * Encrypted frames: AES-256-GCM records under a key derived from the cluster secret and both handshake nonces (so
 * every connection has its own key), with the record counter as the nonce (so records cannot be replayed, reordered
 * or dropped without the next one failing). A frame is a {@link FrameHeader#BYTES}-byte header record, then its bytes
 * in records of at most {@link #CHUNK} bytes; each record is its ciphertext and {@link #TAG}-byte tag, and record
 * lengths follow from the header, so nothing travels unauthenticated. Records keep every cipher call to a bounded
 * size, and the receiver decrypts each record straight into the sink's buffer.
 */
final class SealedRecords implements FrameLayer {
    static final int CHUNK = 1 << 20;
    static final int TAG = 16;
    private final ByteChannel channel;
    private final Cipher cipher;
    private final SecretKeySpec key;
    private final byte[] iv = new byte[12];
    private final ByteBuffer staging = ByteBuffer.allocateDirect(CHUNK + TAG);
    private ByteBuffer discard;
    private long counter;

    SealedRecords(ByteChannel channel, byte[] key) {
        this.channel = channel;
        try {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available", e);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The record layer of the connection whose handshake exchanged these nonces (the same on both sides). */
    static SealedRecords forConnection(ByteChannel channel, ClusterSecurity security, byte[] clientNonce,
                                       byte[] serverNonce) {
        return new SealedRecords(channel, ClusterSecurity.hmac(security.key("data encrypt"),
                "client to server".getBytes(StandardCharsets.US_ASCII), clientNonce, serverNonce));
    }

    private void init(int mode) throws GeneralSecurityException {
        ByteBuffer.wrap(iv).putInt(0).putLong(counter++);
        cipher.init(mode, key, new GCMParameterSpec(TAG * 8, iv));
    }

    /** Encrypts and writes one frame: its header, then its body in records of at most {@link #CHUNK} bytes. */
    @Override
    public void write(ByteBuffer header, ByteBuffer body) throws IOException {
        seal(header);
        int end = body.limit();
        while (body.hasRemaining()) {
            // The limit bounds one record; sealing consumes it, and the full limit comes back for the next.
            body.limit(body.position() + Math.min(CHUNK, body.remaining()));
            seal(body);
            body.limit(end);
        }
    }

    private void seal(ByteBuffer plain) throws IOException {
        staging.clear();
        try {
            init(Cipher.ENCRYPT_MODE);
            cipher.doFinal(plain, staging);
        } catch (GeneralSecurityException e) {
            throw new IOException("data plane: encryption failed: " + e, e);
        }
        staging.flip();
        ChannelIo.writeFully(channel, staging);
    }

    @Override
    public boolean readHeader(ByteBuffer header) throws IOException {
        staging.clear().limit(FrameHeader.BYTES + TAG);
        if (!ChannelIo.readFully(channel, staging, true)) {
            return false;
        }
        open(header);
        return true;
    }

    @Override
    public void readBody(ByteBuffer into, long length) throws IOException {
        long left = length;
        while (left > 0) {
            int n = (int) Math.min(CHUNK, left);
            staging.clear().limit(n + TAG);
            ChannelIo.readFully(channel, staging, false);
            if (into == null) {
                if (discard == null) {
                    discard = ByteBuffer.allocateDirect(CHUNK);
                }
                open(discard.clear());
            } else {
                into.limit(into.position() + n);
                open(into);
            }
            left -= n;
        }
    }

    /** Decrypts the record read into {@code staging} into {@code out}. */
    private void open(ByteBuffer out) throws IOException {
        staging.flip();
        try {
            init(Cipher.DECRYPT_MODE);
            cipher.doFinal(staging, out);
        } catch (AEADBadTagException e) {
            throw new IOException("data plane: a record failed authentication (tampered, or not from a member)");
        } catch (GeneralSecurityException e) {
            throw new IOException("data plane: decryption failed: " + e, e);
        }
    }
}
