package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.stack.Protocol;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** A control-plane node for tests: records what it receives ({@code KIND:text}) and its latest view. */
final class RecordingNode implements ClusterChannel.Handler, AutoCloseable {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    final ClusterChannel channel;
    volatile View view;

    RecordingNode(ClusterOptions options) {
        channel = new ClusterChannel(options, this);
    }

    /** {@code count} addresses on 127.0.0.1 whose ports were free a moment ago. */
    static List<InetSocketAddress> freeHosts(int count) throws IOException {
        List<InetSocketAddress> hosts = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int k = 0; k < count; k++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                hosts.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return hosts;
    }

    @Override
    public void onMessage(Address from, Wire.Kind kind, DataInputStream in) throws IOException {
        received.add(kind + ":" + in.readUTF());
    }

    @Override
    public void onView(View v) {
        view = v;
    }

    /** The protocol of this type in the node's JGroups stack. */
    <T extends Protocol> T protocol(Class<T> type) throws ReflectiveOperationException {
        java.lang.reflect.Field f = ClusterChannel.class.getDeclaredField("channel");
        f.setAccessible(true);
        return ((JChannel) f.get(channel)).getProtocolStack().findProtocol(type);
    }

    @Override
    public void close() {
        channel.close();
    }
}
