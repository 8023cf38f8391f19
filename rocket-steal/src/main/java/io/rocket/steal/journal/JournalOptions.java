package io.rocket.steal.journal;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a run journals its results ({@code --journal DIR}) and whether it continues the journal found there
 * ({@code --resume}). A job's identity is its application, its keys, their input files and {@code options}: the
 * application's own settings as text, which the caller knows and the runtime does not. Nothing about where the run
 * happens belongs in it (nodes, ports, devices, caches, outputs), so a requeued job resumes on other machines.
 *
 * @param dir     the journal directory (created when missing)
 * @param resume  continue the journal in {@code dir} instead of starting one
 * @param options the application's settings, one per line; may be empty
 */
public record JournalOptions(Path dir, boolean resume, String options) {
    public JournalOptions {
        Objects.requireNonNull(dir, "dir");
        options = options == null ? "" : options;
    }
}
