package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.core.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * What every Rocket command line shares, defined once: the process entry ({@link #main}), the error handling (user
 * errors are one line on stderr starting with {@code rocket: } and an {@link ExitCode}; only internal faults print a
 * stack trace), the version and the parser settings. The launcher ({@code rocket}, with its bundled commands) and
 * the generic main class ({@code io.rocket.Main}, {@code rocket APP_CLASS}) both set their command lines up here.
 */
public final class CommandLines {
    /** How every message on stderr starts. */
    public static final String PREFIX = "rocket: ";

    private static final int SUGGESTIONS = 3;

    private CommandLines() {
    }

    /** A command line that prints to the given writers and returns its exit code, never exiting. */
    @FunctionalInterface
    public interface Entry {
        /**
         * Runs a command line.
         *
         * @param args the arguments
         * @param out where help, summaries and other regular output go
         * @param err where errors and progress go
         * @return the exit code, one of {@link ExitCode}'s
         */
        int execute(String[] args, PrintWriter out, PrintWriter err);
    }

    /**
     * Runs {@code entry} on the process's stdout and stderr and exits the JVM with its exit code; prefers IPv4 for
     * cluster sockets. For {@code main} methods only.
     *
     * @param args the process's arguments
     * @param entry the command line to run
     */
    public static void main(String[] args, Entry entry) {
        System.setProperty("java.net.preferIPv4Stack", "true");
        System.exit(entry.execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Sets a command line (and its subcommands, which must be added already) up as every Rocket command: a later
     * option overrides an earlier one (so one node of a cluster can be given other settings by appending them,
     * {@code rocket-local --rank-args}), output to {@code out} and {@code err}, {@link Version} as the version, and
     * the one error handling: a bad command line is one line naming the command's help, {@link CommandFailure} and
     * {@link RocketException} one line each.
     *
     * @param commandLine the command line to set up
     * @param out where help and regular output go; not closed
     * @param err where error messages go; not closed
     * @param helpCommand the command whose {@code --help} a bad command line points to, for the (sub)command where
     *        the error was found, e.g. {@link #qualifiedName}
     * @return {@code commandLine}
     */
    public static CommandLine configure(CommandLine commandLine, PrintWriter out, PrintWriter err,
                                        Function<CommandLine, String> helpCommand) {
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setOut(out);
        commandLine.setErr(err);
        Deque<CommandLine> todo = new ArrayDeque<>(List.of(commandLine));
        while (!todo.isEmpty()) {
            CommandLine c = todo.pop();
            c.getCommandSpec().versionProvider(new Version());
            todo.addAll(c.getSubcommands().values());
        }
        commandLine.setParameterExceptionHandler((e, args) -> usageError(e, err, helpCommand.apply(
                e.getCommandLine() == null ? commandLine : e.getCommandLine())));
        commandLine.setExecutionExceptionHandler((e, c, parsed) -> report(e, err, helpCommand.apply(c)));
        commandLine.setExecutionStrategy(parsed -> CommandStart.execute(parsed, err, helpCommand));
        return commandLine;
    }

    /**
     * The command's name as typed, with its parents: {@code rocket generate forensics}.
     *
     * @param commandLine a command line, or a subcommand's
     * @return the names from the top command down, separated by spaces
     */
    public static String qualifiedName(CommandLine commandLine) {
        Deque<String> names = new ArrayDeque<>();
        for (CommandSpec s = commandLine.getCommandSpec(); s != null; s = s.parent()) {
            names.push(s.name());
        }
        return String.join(" ", names);
    }

    /**
     * Prints a bad command line as one line: picocli's message, up to three suggestions, and the help to see.
     *
     * @param e what picocli found wrong
     * @param err where the line goes; flushed
     * @param helpCommand the command whose {@code --help} to point to, e.g. {@code rocket synthetic}
     * @return {@link ExitCode#USAGE}'s code
     */
    public static int usageError(CommandLine.ParameterException e, PrintWriter err, String helpCommand) {
        List<String> suggestions = e instanceof CommandLine.UnmatchedArgumentException u ? u.getSuggestions()
                : List.of();
        err.println(PREFIX + userMessage(e) + (suggestions.isEmpty() ? "" : " (did you mean "
                + String.join(" or ", suggestions.subList(0, Math.min(SUGGESTIONS, suggestions.size()))) + "?)")
                + " (see: " + helpCommand + " --help)");
        err.flush();
        return ExitCode.USAGE.code();
    }

    /**
     * picocli's message, except for an option value a converter refused with an exception of its own: picocli then
     * names the Java type and exception ({@code cannot convert 'gpu' to DeviceSpec (io.rocket...: ...)}), where the
     * user needs the option and the converter's message.
     */
    private static String userMessage(CommandLine.ParameterException e) {
        Throwable cause = e.getCause();
        if (cause == null || cause instanceof CommandLine.TypeConversionException || cause.getMessage() == null
                || !(e.getArgSpec() instanceof CommandLine.Model.OptionSpec option)) {
            return e.getMessage();
        }
        return "Invalid value for option '" + option.longestName() + "': " + cause.getMessage();
    }

    /**
     * Prints what stopped a command and gives its exit code, as {@link #report(Throwable, PrintWriter, String)}
     * does without a command to point to.
     *
     * @param e what the command threw
     * @param err where the message goes; flushed
     * @return the exit code
     */
    public static int report(Throwable e, PrintWriter err) {
        return report(e, err, null);
    }

    /**
     * Prints what stopped a command and gives its exit code: a {@link CommandFailure} as {@code rocket: MESSAGE}
     * with its code; a {@link UsageException} (itself or as a cause) as {@code rocket: MESSAGE (see: COMMAND
     * --help)}, {@link ExitCode#USAGE}; any other {@link RocketException} as {@code rocket: error: MESSAGE},
     * {@link ExitCode#ERROR}; anything else is an internal error, printed with its stack trace.
     *
     * @param e what the command threw
     * @param err where the message goes; flushed
     * @param helpCommand the command whose {@code --help} a usage error points to, or null for none
     * @return the exit code
     */
    public static int report(Throwable e, PrintWriter err, String helpCommand) {
        if (e instanceof CommandFailure f) {
            err.println(PREFIX + f.getMessage());
            err.flush();
            return f.exitCode().code();
        }
        Throwable cause = e;
        while (!(cause instanceof RocketException) && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        if (cause instanceof UsageException) {
            err.println(PREFIX + cause.getMessage() + (helpCommand == null ? "" : " (see: " + helpCommand
                    + " --help)"));
            err.flush();
            return ExitCode.USAGE.code();
        }
        if (cause instanceof RocketException) {
            err.println(PREFIX + "error: " + cause.getMessage());
            err.flush();
            return ExitCode.ERROR.code();
        }
        err.println(PREFIX + "internal error: " + e);
        e.printStackTrace(err);
        err.flush();
        return ExitCode.ERROR.code();
    }
}
