package io.rocket.results.reduce;

import io.rocket.core.Application;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.Kernels;

import java.nio.file.Path;
import java.util.List;

/**
 * An application as far as a reduction sees one: results are doubles (their own score), smaller or larger better.
 * It is never run through a pipeline here, so its load and compare steps are not needed.
 */
final class ScoredApp implements Application<Integer, Double> {
    private final boolean smallerIsBetter;

    ScoredApp(boolean smallerIsBetter) {
        this.smallerIsBetter = smallerIsBetter;
    }

    @Override
    public boolean smallerIsBetter() {
        return smallerIsBetter;
    }

    @Override
    public List<Path> inputFiles(Integer key) {
        return List.of();
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
    public long parse(Integer key, InputFiles files, HostBuffer output) {
        throw new UnsupportedOperationException("a reduction test never loads items");
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        throw new UnsupportedOperationException("a reduction test never runs kernels");
    }

    @Override
    public Double postprocess(Integer left, Integer right, HostBuffer result) {
        throw new UnsupportedOperationException("a reduction test never compares items");
    }
}
