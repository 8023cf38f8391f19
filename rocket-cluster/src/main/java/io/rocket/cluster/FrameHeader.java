package io.rocket.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The header of a data-plane frame, {@code [long request][int item][int hop][long length]} little-endian, followed
 * by {@code length} item bytes. One instance per connection is decoded into again for every frame, so reading
 * frames allocates nothing per frame.
 */
final class FrameHeader {
    static final int BYTES = 24;
    long id;
    int item;
    int hop;
    long length;

    /** A buffer for one header, in the frame's byte order. */
    static ByteBuffer buffer(boolean direct) {
        return (direct ? ByteBuffer.allocateDirect(BYTES) : ByteBuffer.allocate(BYTES)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Fills {@code header} (from {@link #buffer}) with a frame's header, ready to write. */
    static ByteBuffer write(ByteBuffer header, long id, int item, int hop, long length) {
        header.clear();
        header.putLong(id).putInt(item).putInt(hop).putLong(length).flip();
        return header;
    }

    /** Decodes a header into this; a length no buffer can hold means the stream is not a frame stream. */
    FrameHeader read(ByteBuffer header) throws IOException {
        id = header.getLong();
        item = header.getInt();
        hop = header.getInt();
        length = header.getLong();
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IOException("data plane: bad frame header (length " + length + ")");
        }
        return this;
    }
}
