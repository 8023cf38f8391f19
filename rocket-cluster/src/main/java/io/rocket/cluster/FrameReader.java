package io.rocket.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The read loop of one accepted data-plane connection, the same for plain and sealed frames (the {@link FrameLayer}
 * is the only difference): read a header, ask the sink for a buffer, read the body into it or drop it, and tell the
 * sink how the frame ended. The header buffer and its decoding are reused for every frame.
 */
final class FrameReader {
    private final FrameLayer in;
    private final DataPlane.Sink sink;
    private final LongAdder received;
    private final ByteBuffer header = FrameHeader.buffer(false);
    private final FrameHeader frame = new FrameHeader();

    FrameReader(FrameLayer in, DataPlane.Sink sink, LongAdder received) {
        this.in = in;
        this.sink = sink;
        this.received = received;
    }

    /** Reads frames until the stream ends cleanly or {@code closed}; throws when the connection breaks. */
    void run(BooleanSupplier closed) throws IOException {
        while (!closed.getAsBoolean()) {
            header.clear();
            if (!in.readHeader(header)) {
                return;
            }
            header.flip();
            FrameHeader f = frame.read(header);
            ByteBuffer target = sink.begin(f.id, f.item, f.length);
            if (target == null) {
                in.readBody(null, f.length);
                continue;
            }
            boolean ok = false;
            try {
                in.readBody(window(target, f.length), f.length);
                ok = true;
                received.add(f.length);
            } finally {
                sink.end(f.id, f.hop, f.length, ok);
            }
        }
    }

    /** The part of the sink's buffer a frame fills; a frame longer than the buffer breaks the connection. */
    private static ByteBuffer window(ByteBuffer target, long length) throws IOException {
        if (length > target.capacity()) {
            throw new IOException("data plane: frame of " + length + " bytes for a buffer of " + target.capacity());
        }
        // A view, so the sink's own buffer keeps its position and limit.
        return target.duplicate().clear().limit((int) length);
    }
}
