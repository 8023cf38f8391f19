package io.rocket.cluster;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Frames as they are (an open cluster, or one that authenticates without encrypting): the sender writes header and
 * body in one gathering write from its own buffer, and the receiver reads the body straight into the sink's buffer,
 * with no copy in between.
 */
final class PlainFrames implements FrameLayer {
    private static final int DISCARD = 1 << 16;
    private final SocketChannel channel;
    private final ByteBuffer[] frame = new ByteBuffer[2];
    /** For bytes nobody wants (a fetch that timed out); made on first use. */
    private ByteBuffer discard;

    PlainFrames(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public void write(ByteBuffer header, ByteBuffer body) throws IOException {
        frame[0] = header;
        frame[1] = body;
        try {
            while (header.hasRemaining() || body.hasRemaining()) {
                channel.write(frame);
            }
        } finally {
            frame[1] = null; // do not hold on to the caller's buffer
        }
    }

    @Override
    public boolean readHeader(ByteBuffer header) throws IOException {
        return ChannelIo.readFully(channel, header, true);
    }

    @Override
    public void readBody(ByteBuffer into, long length) throws IOException {
        if (into != null) {
            ChannelIo.readFully(channel, into, false);
            return;
        }
        if (discard == null) {
            discard = ByteBuffer.allocateDirect(DISCARD);
        }
        long left = length;
        while (left > 0) {
            discard.clear().limit((int) Math.min(discard.capacity(), left));
            int n = channel.read(discard);
            if (n < 0) {
                throw new EOFException("data plane: stream ended inside a frame");
            }
            left -= n;
        }
    }
}
