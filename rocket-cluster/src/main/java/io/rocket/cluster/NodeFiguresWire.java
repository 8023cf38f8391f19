package io.rocket.cluster;

import io.rocket.core.summary.CacheStats;
import io.rocket.core.summary.InputTraffic;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of {@link NodeFigures} in a STATS message (once per node per run). Like every decoder of network
 * bytes, it never sizes an allocation beyond what the message holds ({@link Wire#count}, {@link Wire#readBytes}).
 */
final class NodeFiguresWire {
    private NodeFiguresWire() {
    }

    static void write(DataOutputStream out, NodeFigures f) throws IOException {
        out.writeInt(f.rank());
        out.writeLong(f.devices());
        out.writeLong(f.pairs());
        out.writeLong(f.errors());
        out.writeLong(f.itemsNeeded());
        Wire.writeBytes(out, f.itemsNeededSet().toByteArray());
        out.writeLong(f.loads());
        writeOptional(out, f.reuse());
        writeOptional(out, f.reuseLowerBound());
        writeOptional(out, f.tMinSeconds());
        out.writeDouble(f.deviceSeconds());
        writeOptional(out, f.systemEfficiency());
        writeCache(out, f.deviceCache());
        writeCache(out, f.hostCache());
        out.writeBoolean(f.l3() != null);
        if (f.l3() != null) {
            NodeFigures.L3 l3 = f.l3();
            out.writeLong(l3.requests());
            out.writeLong(l3.hits());
            out.writeInt(l3.hitsByHop().length);
            for (long hits : l3.hitsByHop()) {
                out.writeLong(hits);
            }
            out.writeLong(l3.misses());
            out.writeLong(l3.timeouts());
            out.writeLong(l3.served());
            out.writeLong(l3.homeLoads());
        }
        out.writeLong(f.bytesSent());
        out.writeLong(f.bytesReceived());
        NodeFigures.Steals s = f.steals();
        for (long v : new long[] {s.localAttempts(), s.localSuccesses(), s.remoteAttempts(), s.remoteSuccesses(),
                s.regionsLent(), s.helpAttempts(), s.helps(), s.duplicateAttempts(), s.duplicatedPairs()}) {
            out.writeLong(v);
        }
        out.writeLong(f.preprocessCount());
        out.writeDouble(f.preprocessSeconds());
        out.writeLong(f.compareCount());
        out.writeDouble(f.compareSeconds());
        out.writeDouble(f.wallSeconds());
        out.writeInt(f.inputs().size());
        for (Map.Entry<String, InputTraffic.Figures> e : f.inputs().entrySet()) {
            writeString(out, e.getKey());
            out.writeLong(e.getValue().files());
            out.writeLong(e.getValue().bytes());
            out.writeDouble(e.getValue().readSeconds());
        }
        writeCounts(out, f.readAhead());
        writeCounts(out, f.diskCache());
        out.writeInt(f.failures().size());
        for (String failure : f.failures()) {
            writeString(out, failure);
        }
    }

    static NodeFigures read(DataInputStream in) throws IOException {
        int rank = in.readInt();
        long devices = in.readLong();
        long pairs = in.readLong();
        long errors = in.readLong();
        long itemsNeeded = in.readLong();
        BitSet needed = BitSet.valueOf(Wire.readBytes(in));
        long loads = in.readLong();
        Double reuse = readOptional(in);
        Double reuseLowerBound = readOptional(in);
        Double tMin = readOptional(in);
        double deviceSeconds = in.readDouble();
        Double efficiency = readOptional(in);
        CacheStats device = readCache(in);
        CacheStats host = readCache(in);
        NodeFigures.L3 l3 = null;
        if (in.readBoolean()) {
            long requests = in.readLong();
            long hits = in.readLong();
            long[] byHop = new long[Wire.count(in, Long.BYTES)];
            for (int h = 0; h < byHop.length; h++) {
                byHop[h] = in.readLong();
            }
            l3 = new NodeFigures.L3(requests, hits, byHop, in.readLong(), in.readLong(), in.readLong(), in.readLong());
        }
        long sent = in.readLong();
        long received = in.readLong();
        NodeFigures.Steals steals = new NodeFigures.Steals(in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
        long preCount = in.readLong();
        double preSeconds = in.readDouble();
        long cmpCount = in.readLong();
        double cmpSeconds = in.readDouble();
        double wall = in.readDouble();
        int schemes = Wire.count(in, 4 + 3 * Long.BYTES);
        Map<String, InputTraffic.Figures> inputs = new LinkedHashMap<>();
        for (int k = 0; k < schemes; k++) {
            inputs.put(readString(in), new InputTraffic.Figures(in.readLong(), in.readLong(), in.readDouble(), 0, 0));
        }
        Map<String, Long> readAhead = readCounts(in);
        Map<String, Long> diskCache = readCounts(in);
        int count = Wire.count(in, 4);
        List<String> failures = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            failures.add(readString(in));
        }
        return new NodeFigures(rank, devices, pairs, errors, itemsNeeded, needed, loads, reuse, reuseLowerBound, tMin,
                deviceSeconds, efficiency, device, host, l3, sent, received, steals, preCount, preSeconds, cmpCount,
                cmpSeconds, wall, inputs, readAhead, diskCache, failures);
    }

    private static void writeOptional(DataOutputStream out, Double value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeDouble(value);
        }
    }

    private static Double readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readDouble() : null;
    }

    private static void writeCache(DataOutputStream out, CacheStats s) throws IOException {
        for (long v : new long[] {s.slots(), s.slotBytes(), s.hits(), s.misses(), s.evictions(), s.waits()}) {
            out.writeLong(v);
        }
    }

    private static CacheStats readCache(DataInputStream in) throws IOException {
        return new CacheStats(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
    }

    private static void writeCounts(DataOutputStream out, Map<String, Long> counts) throws IOException {
        out.writeInt(counts.size());
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            writeString(out, e.getKey());
            out.writeLong(e.getValue());
        }
    }

    private static Map<String, Long> readCounts(DataInputStream in) throws IOException {
        int count = Wire.count(in, 4 + Long.BYTES);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int k = 0; k < count; k++) {
            counts.put(readString(in), in.readLong());
        }
        return counts;
    }

    /** UTF-8 with an int length: an item's error message may be longer than writeUTF allows. */
    private static void writeString(DataOutputStream out, String s) throws IOException {
        Wire.writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(Wire.readBytes(in), StandardCharsets.UTF_8);
    }
}
