package io.rocket.runtime;

import io.rocket.core.Application;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;
import io.rocket.testkit.SyntheticApp;

import java.nio.file.Path;
import java.util.List;

/**
 * The synthetic workload as an asymmetric application: {@link #ordered()} is true and its result depends on which
 * item comes first ({@link #expected}), so a check sees whether (j, i) really was computed as f(item j, item i).
 */
final class OrderedSynthetic implements Application<Integer, Long> {
    private final SyntheticApp base;

    OrderedSynthetic(SyntheticApp base) {
        this.base = base;
    }

    /** The result of f(item i, item j): the synthetic value, marked with the first item. */
    static long expected(long seed, int i, int j) {
        return SyntheticApp.expected(seed, i, j) ^ ((long) i << 40);
    }

    @Override
    public boolean ordered() {
        return true;
    }

    @Override
    public String name() {
        return "ordered-synthetic";
    }

    @Override
    public List<Path> inputFiles(Integer key) {
        return base.inputFiles(key);
    }

    @Override
    public long maxFileBytes() {
        return base.maxFileBytes();
    }

    @Override
    public long maxInputBytes() {
        return base.maxInputBytes();
    }

    @Override
    public long maxItemBytes() {
        return base.maxItemBytes();
    }

    @Override
    public long maxResultBytes() {
        return base.maxResultBytes();
    }

    @Override
    public long parse(Integer key, InputFiles files, HostBuffer output) {
        return base.parse(key, files, output);
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        return base.kernels(kind);
    }

    @Override
    public ResultCodec<Long> resultCodec() {
        return base.resultCodec();
    }

    @Override
    public Long postprocess(Integer left, Integer right, HostBuffer result) {
        return base.postprocess(left, right, result) ^ ((long) left << 40);
    }
}
