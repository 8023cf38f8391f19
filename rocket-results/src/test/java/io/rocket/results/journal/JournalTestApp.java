package io.rocket.results.journal;

import io.rocket.core.Application;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/** Test helper: an application whose keys are item indices, each with its own input file when given any. */
final class JournalTestApp implements Application<Integer, Long> {
    private final int items;
    private final List<Path> files;
    private final boolean codec;

    JournalTestApp(int items, List<Path> files, boolean codec) {
        this.items = items;
        this.files = files;
        this.codec = codec;
    }

    JournalTestApp(int items) {
        this(items, List.of(), true);
    }

    List<Integer> keys() {
        return IntStream.range(0, items).boxed().toList();
    }

    @Override
    public String name() {
        return "journal-test";
    }

    @Override
    public List<Path> inputFiles(Integer key) {
        return files.isEmpty() ? List.of() : List.of(files.get(key));
    }

    @Override
    public long maxInputBytes() {
        return 8;
    }

    @Override
    public long maxItemBytes() {
        return 8;
    }

    @Override
    public long maxResultBytes() {
        return 8;
    }

    @Override
    public long parse(Integer key, InputFiles in, HostBuffer output) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ResultCodec<Long> resultCodec() {
        return codec ? ResultCodec.LONG : null;
    }

    @Override
    public Long postprocess(Integer left, Integer right, HostBuffer result) {
        throw new UnsupportedOperationException();
    }
}
