package io.rocket.inputs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayDeque;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads one URL as a {@link SeekableByteChannel}: one streaming GET from the current position (a Range request after
 * a seek; a server that ignores ranges is read from the start and skipped forward). The JDK client bounds the wait for
 * the response headers but not for the body, so the body is pulled through a queue with a timeout: a server that
 * stops sending fails the read after the read timeout instead of blocking it forever.
 */
final class HttpChannel implements SeekableByteChannel {

    /** A seek forward by less than this reads and drops the bytes rather than opening a new request. */
    private static final long SKIP_LIMIT = 1 << 20;

    private final HttpFileSystemProvider provider;
    private final URI uri;
    private long position;
    private long size = -1;
    private Body body;
    /** Where the open body's next byte sits in the file. */
    private long bodyPosition;
    private boolean open = true;

    HttpChannel(HttpFileSystemProvider provider, URI uri) {
        this.provider = provider;
        this.uri = uri;
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (size >= 0 && position >= size) {
            return -1;
        }
        if (body == null || bodyPosition != position) {
            if (!reposition()) {
                return -1;
            }
        }
        int n = body.read(dst);
        if (n < 0) {
            closeBody();
            if (size >= 0 && position < size) {
                throw new IOException(uri + ": the server closed the connection after " + position + " of " + size
                        + " bytes");
            }
            size = position;
            return -1;
        }
        position += n;
        bodyPosition += n;
        return n;
    }

    /** Gets a body whose next byte is at {@link #position}; false at the end of the file. */
    private boolean reposition() throws IOException {
        if (body != null && position > bodyPosition && position - bodyPosition <= SKIP_LIMIT) {
            skip(position - bodyPosition);
            return true;
        }
        closeBody();
        HttpRequest.Builder request = provider.request(uri).GET();
        if (position > 0) {
            request.header("Range", "bytes=" + position + "-");
        }
        HttpResponse<Flow.Publisher<List<ByteBuffer>>> response =
                provider.send(request.build(), HttpResponse.BodyHandlers.ofPublisher(), uri);
        int status = response.statusCode();
        if (status == 416) {
            HttpFileSystemProvider.discard(response.body());
            return false;
        }
        if (status < 200 || status >= 300) {
            HttpFileSystemProvider.discard(response.body());
            HttpFileSystemProvider.checkStatus(status, uri);
        }
        OptionalLong total = HttpFileSystemProvider.totalSize(status, response.headers());
        if (total.isPresent() && (position == 0 || status == 206)) {
            size = total.getAsLong();
        }
        body = new Body(uri, provider.readTimeout().toMillis());
        response.body().subscribe(body);
        bodyPosition = status == 206 ? position : 0;
        if (bodyPosition < position) {
            skip(position - bodyPosition);
        }
        return true;
    }

    private void skip(long n) throws IOException {
        ByteBuffer scratch = ByteBuffer.allocate((int) Math.min(n, 64 * 1024));
        long left = n;
        while (left > 0) {
            scratch.clear().limit((int) Math.min(left, scratch.capacity()));
            int r = body.read(scratch);
            if (r < 0) {
                throw new IOException(uri + ": the body ended at byte " + bodyPosition + " before the seek target "
                        + position);
            }
            left -= r;
            bodyPosition += r;
        }
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /**
     * The length from the GET if one is open, else from a HEAD. A server that never says (a generated, streamed
     * response) fails here rather than returning a size that callers would allocate by.
     */
    @Override
    public synchronized long size() throws IOException {
        ensureOpen();
        if (size < 0) {
            size = provider.attributes(uri).size();
            if (size < 0) {
                throw new IOException(uri + ": the server does not tell the size (no Content-Length)");
            }
        }
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        open = false;
        closeBody();
    }

    private void closeBody() {
        if (body != null) {
            body.cancel();
            body = null;
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    /** The response body as a pull stream: one list of buffers requested at a time, each wait bounded. */
    private static final class Body implements Flow.Subscriber<List<ByteBuffer>> {
        private static final Object END = new Object();
        private final URI uri;
        private final long timeoutMillis;
        private final BlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();
        private final ArrayDeque<ByteBuffer> ready = new ArrayDeque<>();
        private volatile Flow.Subscription subscription;
        private boolean ended;

        Body(URI uri, long timeoutMillis) {
            this.uri = uri;
            this.timeoutMillis = timeoutMillis;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
            arrivals.add(item);
        }

        @Override
        public void onError(Throwable t) {
            arrivals.add(t);
        }

        @Override
        public void onComplete() {
            arrivals.add(END);
        }

        int read(ByteBuffer dst) throws IOException {
            while (ready.isEmpty()) {
                if (ended) {
                    return -1;
                }
                Object next;
                try {
                    next = arrivals.poll(timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    cancel();
                    throw new java.io.InterruptedIOException(uri + ": interrupted");
                }
                if (next == null) {
                    cancel();
                    throw new IOException(uri + ": no data for " + timeoutMillis / 1000 + " s");
                }
                if (next == END) {
                    ended = true;
                } else if (next instanceof Throwable t) {
                    ended = true;
                    throw new IOException(uri + ": " + SftpAccess.oneLine(t), t);
                } else {
                    @SuppressWarnings("unchecked")
                    List<ByteBuffer> buffers = (List<ByteBuffer>) next;
                    for (ByteBuffer b : buffers) {
                        if (b.hasRemaining()) {
                            ready.add(b);
                        }
                    }
                    subscription.request(1);
                }
            }
            ByteBuffer head = ready.peek();
            int n = Math.min(head.remaining(), dst.remaining());
            ByteBuffer slice = head.slice();
            slice.limit(n);
            dst.put(slice);
            head.position(head.position() + n);
            if (!head.hasRemaining()) {
                ready.poll();
            }
            return n;
        }

        void cancel() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            ended = true;
        }
    }
}
