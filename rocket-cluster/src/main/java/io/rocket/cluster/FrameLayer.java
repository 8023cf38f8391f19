package io.rocket.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * How a data-plane connection's frames travel once its handshake is done: as they are ({@link PlainFrames}) or as
 * authenticated encrypted records ({@link SealedRecords}). One instance per connection, used by one thread: the
 * sender's on the connecting side, the reader's on the accepting side.
 */
interface FrameLayer {

    /** Writes one frame: its {@link FrameHeader#BYTES}-byte header, then its body. */
    void write(ByteBuffer header, ByteBuffer body) throws IOException;

    /** Reads the next frame's header into {@code header}; false on a clean end of stream before it. */
    boolean readHeader(ByteBuffer header) throws IOException;

    /** Reads {@code length} body bytes into {@code into} (which has that many remaining), or drops them if null. */
    void readBody(ByteBuffer into, long length) throws IOException;
}
