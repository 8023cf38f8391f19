package io.rocket.cluster;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/** Blocking reads and writes of whole buffers on the data plane's channels, and closing them quietly. */
final class ChannelIo {
    private ChannelIo() {
    }

    /** Reads until {@code buffer} is full; false on a clean end of stream before the first byte. */
    static boolean readFully(ReadableByteChannel channel, ByteBuffer buffer, boolean eofAllowed) throws IOException {
        boolean first = true;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer);
            if (n < 0) {
                if (first && eofAllowed) {
                    return false;
                }
                throw new EOFException("data plane: stream ended inside a frame");
            }
            first = false;
        }
        return true;
    }

    static void writeFully(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** The peer's address for a log line, or null once the channel is broken. */
    static SocketAddress remote(SocketChannel channel) {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    static void quietlyClose(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
