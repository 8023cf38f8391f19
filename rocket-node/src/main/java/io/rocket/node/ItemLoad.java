package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.Grant;
import io.rocket.cache.disk.DiskKey;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.ItemException;
import io.rocket.core.trace.TraceEvent;

import java.util.List;
import java.nio.file.Path;

/**
 * Fills one L1 slot with one item: from the node's L2 cache when it holds the item (a host-to-device copy); else,
 * in a cluster run, from another node's L2 (the L3 level fetches the bytes straight into our L2 slot, then one
 * host-to-device copy); else from the node's disk cache (L4: a parsed item, which is then preprocessed, or a
 * preprocessed one, read straight into the L2 slot); else by the full load — read files (I/O thread, unless read
 * ahead), parse (CPU pool), copy to the device, preprocess into the L1 slot (kernel thread) and copy the result back
 * into the L2 slot (device-to-host thread), so the item is always written to both levels, and by the disk writer
 * to the disk cache. Each step is this object re-queued on the next resource's executor; one object per load.
 *
 * <p>On a device whose memory is the host's ({@link HostItems}) the load fills the L2 slot that the lane's request
 * was granted, in place: what another node or the disk cache has is read straight into it, and a full load
 * preprocesses the parsed item (read where it is staged) straight into it; there is no L1 slot and no copy.
 *
 * <p>Any failure becomes an {@link ItemException} naming the item; it is remembered by the node so the item is not
 * tried again, and both slots turn INVALID so every waiting job fails with it instead of hanging.
 */
final class ItemLoad<K, R> extends CacheRequest implements Runnable, RemoteItems.Callback, ReadAhead.Waiter {
    private enum Step {
        READ, PARSE, STORE_PARSED, COPY_IN, PREPROCESS, COPY_BACK, STORE_ITEM, COPY_FROM_HOST_CACHE, COPY_FETCHED
    }

    private final NodePipeline<K, R> node;
    private final DeviceLane<K, R> lane;
    private final int item;
    /** The L1 slot to fill; or, in place, the L2 slot. */
    private final int target;
    /** The lane's view of L2 when the load fills an L2 slot in place; null when it fills an L1 slot. */
    private final HostItems inPlace;
    private Step step;
    private FileBuffer files;
    private HostBuffer parsed;
    private DeviceBuffer staged;
    private long fetchStart;
    /** The item's disk-cache key, taken before its files were read; null without a disk cache. */
    private DiskKey diskKey;

    private ItemLoad(NodePipeline<K, R> node, DeviceLane<K, R> lane, HostItems inPlace, int item, int slot) {
        super(1);
        this.node = node;
        this.lane = lane;
        this.inPlace = inPlace;
        this.item = item;
        this.target = slot;
        items(item);
    }

    /** A load into the L1 slot {@code target} of {@code lane}, through the node's L2. */
    static <K, R> ItemLoad<K, R> intoDevice(NodePipeline<K, R> node, DeviceLane<?, ?> lane, int item,
                                            int target) {
        return new ItemLoad<>(node, cast(lane), null, item, target);
    }

    /** A load into the L2 slot {@code hostSlot}, granted to a request of {@code lane}, which reads it in place. */
    static <K, R> ItemLoad<K, R> inPlace(NodePipeline<K, R> node, DeviceLane<?, ?> lane, HostItems items, int item,
                                         int hostSlot) {
        return new ItemLoad<>(node, cast(lane), items, item, hostSlot);
    }

    @SuppressWarnings("unchecked")
    private static <K, R> DeviceLane<K, R> cast(DeviceLane<?, ?> lane) {
        return (DeviceLane<K, R>) lane;
    }

    void start() {
        ItemException known = node.errors().failure(item);
        if (known != null) {
            failSlot(known);
            return;
        }
        if (inPlace != null) {
            loadIntoHostSlot(); // the lane's request holds the L2 slot already
        } else {
            node.l2.acquire(this);
        }
    }

    /** The L2 slot this load fills or copies from. */
    private int hostSlot() {
        return inPlace != null ? target : slot(0);
    }

    /** Fails the slot the lane waits on: its L1 slot, or in place its L2 slot. */
    private void failSlot(Throwable error) {
        if (inPlace != null) {
            node.l2.fail(target, error);
        } else {
            lane.items().deviceCache().fail(target, error);
        }
    }

    @Override
    protected void onGranted() {
        if (grant(0) == Grant.LOAD) {
            loadIntoHostSlot();
        }
    }

    /** The L2 slot is ours to fill: from another node if one has the item, else here. */
    private void loadIntoHostSlot() {
        RemoteItems remote = node.remote();
        if (remote != null) {
            fetchStart = System.nanoTime();
            remote.fetch(item, node.l2.buffer(hostSlot()), this);
        } else {
            loadLocally();
        }
    }

    /** Another node had the item: its bytes are in our L2 slot; copy them to the device (or read them there). */
    @Override
    public void fetched() {
        node.telemetry.record(TraceEvent.REMOTE_FETCH, fetchStart, System.nanoTime(), item, -1);
        if (inPlace != null) {
            node.l2.publish(target);
            return;
        }
        step = Step.COPY_FETCHED;
        lane.copyIn.executeUrgent(this);
    }

    /** No node had it (or it took too long): the full load, here. */
    @Override
    public void missed() {
        loadLocally();
    }

    private void loadLocally() {
        node.loads.increment();
        List<Path> paths = node.app.inputFiles(node.keys.get(item));
        if (paths.isEmpty()) {
            step = Step.PARSE;
            node.cpu.execute(this);
        } else {
            step = Step.READ;
            if (node.readAhead.claim(item, this) == ReadAhead.Claim.NOT_AHEAD) {
                // Ahead of read-ahead on the I/O queue: a device is waiting for this item.
                node.io.executeUrgent(this);
            }
        }
    }

    /** The files were read ahead (or that read failed): parse them, or fail with the read's error. */
    @Override
    public void readAhead(FileBuffer prefetched, Throwable error) {
        if (error != null) {
            fail(error);
        } else if (prefetched == null) {
            node.io.executeUrgent(this); // found on disk meanwhile: the read step takes it from there
        } else {
            files = prefetched;
            diskKey = (DiskKey) prefetched.diskKey();
            step = Step.PARSE;
            node.cpu.execute(this);
        }
    }

    @Override
    protected void onSettled() {
        Throwable error = error(0);
        if (error != null) {
            node.l2.release(this);
            lane.items().deviceCache().fail(target, error);
        } else if (grant(0) == Grant.LOAD) {
            // Our own load: the L1 slot already holds the preprocessed item.
            node.l2.release(this);
            lane.items().deviceCache().publish(target);
        } else {
            step = Step.COPY_FROM_HOST_CACHE;
            lane.copyIn.executeUrgent(this);
        }
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        try {
            switch (step) {
                case READ -> read(start);
                case PARSE -> parse(start);
                case STORE_PARSED -> storeParsed(start);
                case COPY_IN -> copyIn(start);
                case PREPROCESS -> preprocess(start);
                case COPY_BACK -> copyBack(start);
                case STORE_ITEM -> storeItem(start);
                case COPY_FROM_HOST_CACHE -> copyFromHostCache(start);
                case COPY_FETCHED -> copyFetched(start);
            }
        } catch (Throwable t) {
            fail(t);
        }
    }

    private void read(long start) throws Exception {
        List<Path> paths = node.inputFiles(item);
        DiskItems disk = node.disk();
        if (disk != null) {
            diskKey = disk.key(node.app.label(node.keys.get(item)), paths);
            if (readFromDisk(disk, start)) {
                return;
            }
            start = System.nanoTime();
        }
        files = node.files.take();
        files.read(paths, node.traffic);
        node.telemetry.record(TraceEvent.READ, start, System.nanoTime(), item, -1);
        step = Step.PARSE;
        node.cpu.execute(this);
    }

    /** The item from the disk cache: parsed (to be preprocessed) or preprocessed (into the L2 slot); or false. */
    private boolean readFromDisk(DiskItems disk, long start) {
        if (disk.preprocessed()) {
            HostBuffer slot = node.l2.buffer(hostSlot());
            long length = disk.read(diskKey, slot.byteBuffer().duplicate().clear());
            if (length < 0) {
                return false;
            }
            slot.length(length);
            node.telemetry.record(TraceEvent.DISK_READ, start, System.nanoTime(), item, -1);
            if (inPlace != null) {
                node.l2.publish(target);
                return true;
            }
            step = Step.COPY_FETCHED;
            lane.copyIn.executeUrgent(this);
            return true;
        }
        parsed = node.hostStaging.take();
        long length = disk.read(diskKey, parsed.byteBuffer().duplicate().clear());
        if (length < 0) {
            node.hostStaging.give(parsed);
            parsed = null;
            return false;
        }
        parsed.length(length);
        node.telemetry.record(TraceEvent.DISK_READ, start, System.nanoTime(), item, -1);
        afterParse();
        return true;
    }

    /** The parsed item is staged: to the device (a copy), or read where it is staged on a device that can. */
    private void afterParse() {
        if (inPlace != null) {
            step = Step.PREPROCESS;
            lane.kernel.executeUrgent(this);
        } else {
            step = Step.COPY_IN;
            lane.copyIn.executeUrgent(this);
        }
    }

    /** Keeps the parsed item in the disk cache, then goes on to the device. */
    private void storeParsed(long start) {
        node.disk().write(diskKey, parsed.byteBuffer().duplicate().clear().limit((int) parsed.length()));
        node.telemetry.record(TraceEvent.DISK_WRITE, start, System.nanoTime(), item, -1);
        afterParse();
    }

    /** Keeps the preprocessed item (now in the L2 slot) in the disk cache, then publishes the slot. */
    private void storeItem(long start) {
        HostBuffer slot = node.l2.buffer(hostSlot());
        node.disk().write(diskKey, slot.byteBuffer().duplicate().clear().limit((int) slot.length()));
        node.telemetry.record(TraceEvent.DISK_WRITE, start, System.nanoTime(), item, -1);
        node.l2.publish(hostSlot());
    }

    private void parse(long start) throws Exception {
        start = System.nanoTime();
        parsed = node.hostStaging.take();
        parsed.handOverForWriting();
        long length = node.app.parse(node.keys.get(item), files == null ? NodePipeline.NO_FILES : files, parsed);
        parsed.length(length);
        if (files != null) {
            node.giveFiles(files);
            files = null;
        }
        node.telemetry.record(TraceEvent.PARSE, start, System.nanoTime(), item, -1);
        DiskItems disk = node.disk();
        if (disk != null && !disk.preprocessed() && diskKey != null) {
            step = Step.STORE_PARSED;
            node.diskWriter.execute(this);
            return;
        }
        afterParse();
    }

    private void copyIn(long start) {
        lane.items().buffer(target); // a slot allocated on first use is allocated here, not on the kernel thread
        staged = lane.staging.take();
        start = System.nanoTime();
        lane.device.copyToDevice(parsed, staged, parsed.length());
        node.hostStaging.give(parsed);
        parsed = null;
        node.telemetry.record(TraceEvent.COPY_IN, start, System.nanoTime(), item, -1);
        step = Step.PREPROCESS;
        lane.kernel.executeUrgent(this);
    }

    private void preprocess(long start) throws Exception {
        DeviceBuffer in = inPlace != null ? inPlace.staged(parsed) : staged;
        DeviceBuffer out = lane.items().buffer(target);
        in.handOverForReading();
        out.handOverForWriting();
        lane.context.begin();
        long length = lane.kernels.preprocess(node.keys.get(item), in, out, lane.context);
        long cost = lane.context.end();
        out.length(length);
        if (inPlace != null) {
            node.hostStaging.give(parsed);
            parsed = null;
            node.l2.buffer(target).length(length); // the view's memory is the L2 slot's
        } else {
            lane.staging.give(staged);
            staged = null;
        }
        node.telemetry.record(TraceEvent.PREPROCESS, start, System.nanoTime(), cost, item, -1);
        if (inPlace != null) {
            storeOrPublish();
            return;
        }
        step = Step.COPY_BACK;
        lane.copyOut.executeUrgent(this);
    }

    private void copyBack(long start) {
        DeviceBuffer out = lane.items().buffer(target);
        HostBuffer slot = node.l2.buffer(slot(0));
        lane.device.copyToHost(out, slot, out.length());
        node.telemetry.record(TraceEvent.COPY_BACK_ITEM, start, System.nanoTime(), item, -1);
        storeOrPublish();
    }

    /** The preprocessed item is in its L2 slot: to the disk cache first if it keeps preprocessed items. */
    private void storeOrPublish() {
        DiskItems disk = node.disk();
        if (disk != null && disk.preprocessed() && diskKey != null) {
            step = Step.STORE_ITEM;
            node.diskWriter.execute(this);
            return;
        }
        node.l2.publish(hostSlot());
    }

    private void copyFromHostCache(long start) {
        HostBuffer cached = node.l2.buffer(slot(0));
        lane.device.copyToDevice(cached, lane.items().buffer(target), cached.length());
        node.telemetry.record(TraceEvent.COPY_IN, start, System.nanoTime(), item, -1);
        node.l2.release(this);
        lane.items().deviceCache().publish(target);
    }

    private void copyFetched(long start) {
        HostBuffer fetched = node.l2.buffer(slot(0));
        DeviceBuffer out = lane.items().buffer(target);
        if (fetched.length() > out.capacity()) {
            throw new IllegalStateException("fetched " + fetched.length() + " bytes, more than a slot");
        }
        lane.device.copyToDevice(fetched, out, fetched.length());
        node.telemetry.record(TraceEvent.COPY_IN, start, System.nanoTime(), item, -1);
        node.l2.publish(slot(0));
    }

    private void fail(Throwable cause) {
        if (files != null) {
            node.giveFiles(files);
            files = null;
        }
        if (parsed != null) {
            node.hostStaging.give(parsed);
            parsed = null;
        }
        if (staged != null) {
            lane.staging.give(staged);
            staged = null;
        }
        ItemException error = node.errors().recordFailure(item, cause);
        if (inPlace != null) {
            node.l2.fail(target, error);
        } else if (step == Step.COPY_FROM_HOST_CACHE) {
            node.l2.release(this);
            lane.items().deviceCache().fail(target, error);
        } else {
            node.l2.fail(slot(0), error);
        }
    }
}
