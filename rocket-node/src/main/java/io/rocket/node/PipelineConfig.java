package io.rocket.node;

/**
 * The sizes of a node's pipeline, already resolved to counts.
 *
 * @param hostThreads     CPU pool threads (parse, postprocess)
 * @param ioThreads       I/O threads (file reads)
 * @param concurrentJobs  pair jobs in flight per device (back-pressure)
 * @param hostSlots       L2 slots per node
 * @param deviceSlots     L1 slots per device
 * @param stagingBuffers  parsed-item staging buffers per node (host) and per device
 * @param readAheadBytes  budget for files read ahead of the schedule; 0 turns read-ahead off
 * @param tilePairs       most pairs per compare call ({@link PairTile}); 0 for the runtime's choice, 1 for one pair
 *                        job per pair
 */
public record PipelineConfig(int hostThreads, int ioThreads, int concurrentJobs, int hostSlots, int deviceSlots,
                             int stagingBuffers, long readAheadBytes, int tilePairs) {

    /** A configuration whose tiles the runtime sizes. */
    public PipelineConfig(int hostThreads, int ioThreads, int concurrentJobs, int hostSlots, int deviceSlots,
                          int stagingBuffers, long readAheadBytes) {
        this(hostThreads, ioThreads, concurrentJobs, hostSlots, deviceSlots, stagingBuffers, readAheadBytes, 0);
    }

    /** A configuration without read-ahead. */
    public PipelineConfig(int hostThreads, int ioThreads, int concurrentJobs, int hostSlots, int deviceSlots,
                          int stagingBuffers) {
        this(hostThreads, ioThreads, concurrentJobs, hostSlots, deviceSlots, stagingBuffers, 0);
    }

    public PipelineConfig {
        positive("host threads", hostThreads, 1);
        positive("I/O threads", ioThreads, 1);
        positive("concurrent jobs", concurrentJobs, 1);
        positive("host cache slots", hostSlots, 2);
        positive("device cache slots", deviceSlots, 2);
        positive("staging buffers", stagingBuffers, 1);
        positive("tile pairs", tilePairs, 0);
    }

    private static void positive(String what, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be at least " + min + ", got " + value);
        }
    }
}
