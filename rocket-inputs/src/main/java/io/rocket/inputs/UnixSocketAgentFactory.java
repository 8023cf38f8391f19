package io.rocket.inputs;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * Talks to the user's ssh-agent ({@code SSH_AUTH_SOCK}) over a Unix-domain socket with Java 16+'s own
 * {@link UnixDomainSocketAddress}. MINA SSHD's agent client needs the Tomcat APR native library; the agent protocol
 * is simple request/response framing, so the plain-Java socket is all that is needed. Client side only: Rocket never
 * forwards the agent to the servers it reads from.
 */
final class UnixSocketAgentFactory implements SshAgentFactory {

    private final Path socket;

    UnixSocketAgentFactory(Path socket) {
        this.socket = socket;
    }

    @Override
    public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
        return List.of();
    }

    @Override
    public SshAgent createClient(Session session, FactoryManager manager) throws IOException {
        return new Proxy(socket);
    }

    @Override
    public SshAgentServer createServer(ConnectionService service) {
        throw new UnsupportedOperationException("agent forwarding is not offered");
    }

    /** One connection to the agent; requests are serialised, as the protocol has no request ids. */
    static final class Proxy extends AbstractAgentProxy {
        /** Agent replies are small (a key list or a signature); refuse absurd lengths from a confused peer. */
        private static final int MAX_REPLY = 256 * 1024;
        private final SocketChannel channel;

        Proxy(Path socket) throws IOException {
            super(null);
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                channel.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                channel.close();
                throw new IOException("cannot reach ssh-agent at " + socket + ": " + e.getMessage(), e);
            }
        }

        @Override
        protected synchronized Buffer request(Buffer buffer) throws IOException {
            ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
            while (out.hasRemaining()) {
                channel.write(out);
            }
            ByteBuffer length = ByteBuffer.allocate(4);
            readFully(length);
            int n = length.flip().getInt();
            if (n < 0 || n > MAX_REPLY) {
                throw new IOException("ssh-agent sent a reply of " + n + " bytes");
            }
            ByteBuffer reply = ByteBuffer.allocate(n);
            readFully(reply);
            return new ByteArrayBuffer(reply.array());
        }

        private void readFully(ByteBuffer dst) throws IOException {
            while (dst.hasRemaining()) {
                if (channel.read(dst) < 0) {
                    throw new EOFException("ssh-agent closed the connection");
                }
            }
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                channel.close();
            }
        }
    }
}
