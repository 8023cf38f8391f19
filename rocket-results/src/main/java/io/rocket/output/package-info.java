/**
 * The files results are written to, below the command line: files appended in step with a run journal
 * ({@link io.rocket.output.AppendFile}), gzip in members a journal can cut between ({@link io.rocket.output.GzipMembers}),
 * and NumPy {@code .npy} files: dense matrices written by positioned writes in the order results arrive
 * ({@link io.rocket.output.DenseNpySink}, placed by a {@link io.rocket.output.MatrixLayout}) and sparse
 * {@code (i, j, score)} records appended as kept pairs arrive ({@link io.rocket.output.SparseNpySink}). Nothing here
 * knows about options or commands; {@code io.rocket.cli} chooses among them by the output file's suffix.
 */
package io.rocket.output;
