package io.rocket.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * Where a command's text goes, as its options ask. By default what the command says (what it found, its summary)
 * goes to standard output and progress and notes to standard error. With {@code --output -} the results take
 * standard output, so everything else moves to standard error and a pipe receives the TSV alone. With
 * {@code --quiet} the command says nothing: only results (to their files, or standard output) and errors (the one
 * line of a command that stops, and each bad item) are printed.
 */
final class ConsoleRouting {
    private static final PrintWriter DISCARD = new PrintWriter(Writer.nullWriter());

    private ConsoleRouting() {
    }

    /**
     * Sets the command's writers up for its {@link RuntimeOptionsMixin}; a command without one is left as it is.
     *
     * @param command the command about to run, its options parsed
     */
    static void configure(CommandSpec command) {
        RuntimeOptionsMixin runtime = runtimeOptions(command);
        if (runtime == null) {
            return;
        }
        CommandLine line = command.commandLine();
        runtime.results = line.getOut();
        if (runtime.quiet) {
            line.setOut(DISCARD);
            line.setErr(DISCARD);
        } else if (OutputPaths.isStdout(runtime.output)) {
            line.setOut(line.getErr());
        }
    }

    private static RuntimeOptionsMixin runtimeOptions(CommandSpec command) {
        for (CommandSpec mixin : command.mixins().values()) {
            if (mixin.userObject() instanceof RuntimeOptionsMixin runtime) {
                return runtime;
            }
        }
        return null;
    }
}
