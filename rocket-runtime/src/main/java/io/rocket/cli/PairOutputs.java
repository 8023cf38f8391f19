package io.rocket.cli;

import io.rocket.output.TsvResultSink;
import io.rocket.output.NumericPairOutput;
import io.rocket.output.PairOutput;
import io.rocket.core.UsageException;
import io.rocket.core.Application;
import io.rocket.core.ResultSink;
import io.rocket.core.RocketException;
import io.rocket.output.DenseNpySink;
import io.rocket.output.MatrixLayout;
import io.rocket.output.NpyLabels;
import io.rocket.output.SparseNpySink;
import io.rocket.output.TriangleLayout;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;

/**
 * The one place a command's pair output is opened: the {@code --output} file's suffix chooses the format
 * ({@link OutputFormat}), {@link OutputSettings} the rest. TSV and TSV.gz go to {@link TsvResultSink}; {@code .npy}
 * to a dense matrix ({@link DenseNpySink}, the condensed triangle of all keys unless the settings give another
 * layout) or, for sparse settings, to {@code (i, j, score)} records ({@link SparseNpySink}), with the label files
 * beside it ({@link NpyLabels}) and the failed pairs in the {@code --errors} TSV.
 */
public final class PairOutputs {

    private PairOutputs() {
    }

    /**
     * Checks the outputs' names and, for {@code .npy}, that the results are numbers, without opening anything: every
     * node of a cluster calls it, so a refused output stops every node at once, before any joins.
     *
     * @param app      the application
     * @param output   the pair output, or null
     * @param errors   the failed-pairs output, or null
     * @param settings the output settings
     * @throws RocketException with one line naming the file, for an unknown suffix, an {@code .npy} errors file or
     *         an {@code .npy} output of results that are not numbers
     */
    public static void check(Application<?, ?> app, Path output, Path errors, OutputSettings settings) {
        if (errors != null && OutputFormat.of("--errors", errors) == OutputFormat.NPY) {
            throw new UsageException("--errors " + errors + ": failed pairs are written as .tsv or .tsv.gz");
        }
        if (output != null && OutputFormat.of("--output", output) == OutputFormat.NPY) {
            ResultScores.of(app, settings.score(), "--output " + output);
        }
    }

    /**
     * Opens the outputs.
     *
     * @param <K>        key type
     * @param <R>        result type
     * @param app        the application (labels, result type)
     * @param keys       the keys, in index order
     * @param output     the pair output, {@code -} for {@code stdout}, or null to write none
     * @param stdout     where a TSV output of {@code -} goes
     * @param errors     the failed-pairs output (TSV or TSV.gz), or null
     * @param format     a result's text in a TSV output
     * @param resultName the TSV header of the result column
     * @param resume     leave appended files as they are until a run journal cuts them back
     * @param settings   number type, sparse or dense, layout, score
     * @return the sink; its {@code files()} are what a run journal keeps in step
     * @throws RocketException when {@link #check} refuses the outputs
     * @throws IOException     when a file cannot be created or written
     */
    public static <K, R> PairOutput<K, R> open(Application<K, R> app, List<K> keys, Path output, Writer stdout,
                                               Path errors, Function<R, String> format, String resultName,
                                               boolean resume, OutputSettings settings) throws IOException {
        check(app, output, errors, settings);
        if (output == null || OutputFormat.of("--output", output) != OutputFormat.NPY) {
            return new TsvResultSink<>(output, stdout, errors, app::label, format, resultName, resume);
        }
        ToDoubleFunction<R> score = ResultScores.of(app, settings.score(), "--output " + output);
        IntFunction<String> label = i -> app.label(keys.get(i));
        TsvResultSink<K, R> failures = new TsvResultSink<>(null, errors, app::label, format, resultName, resume);
        try {
            ResultSink<K, R> numbers;
            if (settings.sparse()) {
                numbers = new SparseNpySink<>(output, settings.dtype(), score, resume);
                NpyLabels.write(output, new TriangleLayout(keys.size()).axes(), label);
            } else {
                MatrixLayout layout = settings.layout() != null ? settings.layout() : new TriangleLayout(keys.size());
                numbers = new DenseNpySink<>(output, layout, settings.dtype(), score);
                NpyLabels.write(output, layout.axes(), label);
            }
            return new NumericPairOutput<>(numbers, failures);
        } catch (IOException | RuntimeException e) {
            failures.close();
            throw e;
        }
    }
}
