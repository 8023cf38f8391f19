package io.rocket.cluster;

import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataInputStream;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * The control port's server socket. JGroups accepts connections on one thread and reads each one's opening (a
 * cookie, a version and the peer's address) on that thread before accepting the next, so a few connections that
 * send nothing stall every other connection for JGroups' read timeout each, one after another, and a cluster cannot
 * form. This socket accepts on a thread of its own and reads each opening on a thread per connection, under a
 * deadline ({@value #OPENING_DEADLINE_MILLIS} ms); it hands JGroups only connections whose opening has arrived in full,
 * replaying those bytes. At most {@value #MAX_WAITING_PER_SOURCE} connections per source address (and
 * {@value #MAX_WAITING} in all) wait for their opening at once; more are closed at once.
 */
final class ControlServerSocket extends ServerSocket {
    static final int OPENING_DEADLINE_MILLIS = 5000;
    static final int MAX_WAITING_PER_SOURCE = 64;
    static final int MAX_WAITING = 256;
    /** The opening's fixed part: JGroups' cookie (4 bytes), version (2) and the address's length (2). */
    private static final int FIXED = 8;
    /** An IP address and port take at most 19 bytes; anything much longer is not JGroups'. */
    private static final int MAX_ADDRESS = 64;
    private static final Socket CLOSED = new Socket();

    private final Consumer<String> refusals;
    private final BlockingQueue<Socket> ready = new LinkedBlockingQueue<>();
    private final Map<InetAddress, Integer> waiting = new HashMap<>(); // guarded by itself
    private int waitingTotal; // guarded by waiting

    ControlServerSocket(Consumer<String> refusals) throws IOException {
        this.refusals = refusals;
    }

    @Override
    public void bind(SocketAddress endpoint, int backlog) throws IOException {
        super.bind(endpoint, backlog);
        Thread acceptor = new Thread(this::acceptLoop, "rocket-control-accept " + getLocalSocketAddress());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A connection whose opening has arrived; JGroups reads it again from the start. */
    @Override
    public Socket accept() throws IOException {
        Socket s;
        try {
            s = ready.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SocketException("interrupted");
        }
        if (s == CLOSED) {
            ready.offer(CLOSED); // for any other caller
            throw new SocketException("Socket is closed");
        }
        return s;
    }

    @Override
    public void close() throws IOException {
        super.close();
        ready.offer(CLOSED);
        Socket s;
        while ((s = ready.poll()) != null && s != CLOSED) {
            closeQuietly(s);
        }
        ready.offer(CLOSED);
    }

    private void acceptLoop() {
        while (!isClosed()) {
            Opening s = new Opening();
            try {
                implAccept(s);
            } catch (IOException e) {
                closeQuietly(s);
                if (isClosed()) {
                    return;
                }
                continue;
            }
            InetAddress source = s.getInetAddress();
            if (!reserve(source)) {
                refusals.accept("cluster: control port: refused a connection from " + source.getHostAddress()
                        + ": too many connections waiting to open (" + MAX_WAITING_PER_SOURCE + " per address, "
                        + MAX_WAITING + " in all)");
                closeQuietly(s);
                continue;
            }
            Thread reader = new Thread(() -> readOpening(s, source), "rocket-control-opening");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private boolean reserve(InetAddress source) {
        synchronized (waiting) {
            int n = waiting.getOrDefault(source, 0);
            if (n >= MAX_WAITING_PER_SOURCE || waitingTotal >= MAX_WAITING) {
                return false;
            }
            waiting.put(source, n + 1);
            waitingTotal++;
            return true;
        }
    }

    private void release(InetAddress source) {
        synchronized (waiting) {
            int n = waiting.getOrDefault(source, 1) - 1;
            if (n <= 0) {
                waiting.remove(source);
            } else {
                waiting.put(source, n);
            }
            waitingTotal--;
        }
    }

    private void readOpening(Opening s, InetAddress source) {
        try {
            s.setSoTimeout(OPENING_DEADLINE_MILLIS);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] fixed = new byte[FIXED];
            in.readFully(fixed);
            int length = ((fixed[6] & 0xff) << 8) | (fixed[7] & 0xff);
            if (length > MAX_ADDRESS) {
                throw new IOException("an address of " + length + " bytes");
            }
            byte[] opening = new byte[FIXED + length];
            System.arraycopy(fixed, 0, opening, 0, FIXED);
            in.readFully(opening, FIXED, length);
            ByteArrayDataInputStream address = new ByteArrayDataInputStream(opening, FIXED, length);
            new IpAddress().readFrom(address); // JGroups reads exactly this; a shorter one would block it
            if (address.position() != FIXED + length) {
                throw new IOException("an address that is not " + length + " bytes long");
            }
            s.setSoTimeout(0);
            s.opening = opening;
            if (isClosed()) {
                closeQuietly(s);
            } else {
                ready.add(s);
            }
        } catch (SocketTimeoutException e) {
            refusals.accept("cluster: control port: closed a connection from " + source.getHostAddress() + ":"
                    + s.getPort() + ": it sent no opening within " + OPENING_DEADLINE_MILLIS + " ms");
            closeQuietly(s);
        } catch (EOFException e) {
            closeQuietly(s); // closed before its opening: nothing held, nothing to say
        } catch (IOException | RuntimeException e) {
            if (!isClosed()) {
                refusals.accept("cluster: control port: refused a connection from " + source.getHostAddress() + ":"
                        + s.getPort() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            }
            closeQuietly(s);
        } finally {
            release(source);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** An accepted connection whose opening, once read, is read again from the start by JGroups. */
    private static final class Opening extends Socket {
        volatile byte[] opening;

        @Override
        public InputStream getInputStream() throws IOException {
            InputStream in = super.getInputStream();
            byte[] read = opening;
            return read == null ? in : new SequenceInputStream(new ByteArrayInputStream(read), in);
        }
    }
}
