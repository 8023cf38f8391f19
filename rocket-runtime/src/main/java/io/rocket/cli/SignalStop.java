package io.rocket.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a run does when SIGTERM (how SLURM and most schedulers end a job, at its time limit or on {@code scancel}) or
 * SIGINT (Ctrl-C) stops it: it ends its outputs on a whole line, says on stderr how many pairs they hold and how to
 * continue, and exits with the shell's code for the signal (143 for SIGTERM, 130 for SIGINT). The run's journal or
 * result store writes what it holds as the JVM shuts down. Installed by the node that writes the outputs for the
 * length of the run, then the JVM's own handling is back.
 *
 * <p>Signals are caught with {@code sun.misc.Signal} (module {@code jdk.unsupported}, in every JDK and in the bundled
 * runtime image); it is named in method bodies only, so that the API documentation does not depend on it.
 */
final class SignalStop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SignalStop.class);
    private static final String[] SIGNALS = {"TERM", "INT"};

    /** Puts back the handlers the signals had before. */
    private final List<Runnable> restore = new ArrayList<>();

    /** What the handler runs before exiting: ends the outputs and returns the lines to print. */
    @FunctionalInterface
    interface Stop {
        String stop(String signal);
    }

    private SignalStop() {
    }

    /**
     * Handles SIGTERM and SIGINT until {@link #close}.
     *
     * @param stop ends the outputs and says what they hold and how to continue
     * @param err  where that goes (stderr)
     * @return the installed handlers; where the JVM does not let signals be handled, none (the JVM's own handling
     *         stays: it exits with the same codes, without the message)
     */
    static SignalStop install(Stop stop, Supplier<PrintStream> err) {
        SignalStop installed = new SignalStop();
        for (String name : SIGNALS) {
            try {
                sun.misc.Signal signal = new sun.misc.Signal(name);
                sun.misc.SignalHandler before = sun.misc.Signal.handle(signal,
                        s -> installed.handle("SIG" + s.getName(), s.getNumber(), stop, err));
                installed.restore.add(() -> sun.misc.Signal.handle(signal, before));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                LOG.debug("cannot handle SIG{}: {}", name, e.toString()); // e.g. the JVM was started with -Xrs
            }
        }
        return installed;
    }

    private void handle(String name, int number, Stop stop, Supplier<PrintStream> err) {
        String message;
        try {
            message = stop.stop(name);
        } catch (RuntimeException | Error e) {
            message = "rocket: stopped by " + name + "; the outputs could not be ended: " + e;
        }
        PrintStream out = err.get();
        out.println(message);
        out.flush();
        System.exit(128 + number);
    }

    /** Gives the signals back to the handlers they had before. */
    @Override
    public void close() {
        restore.forEach(Runnable::run);
        restore.clear();
    }
}
