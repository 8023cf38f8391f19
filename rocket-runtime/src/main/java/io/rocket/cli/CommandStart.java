package io.rocket.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Function;

/**
 * What happens between reading a command line and running its command, the same for every Rocket command: the
 * files it will write are checked ({@link OutputPaths}), so a bad output path is refused before the first item is
 * read; and the console is set up as its options ask ({@link ConsoleRouting}: {@code --quiet}, {@code --verbose}, results
 * on standard output with {@code --output -}). Help and version requests run as they are.
 */
final class CommandStart {

    private CommandStart() {
    }

    /**
     * The execution strategy of every Rocket command line.
     *
     * @param parsed the parsed command line
     * @param err where a refusal is printed
     * @param helpCommand the command whose {@code --help} a refusal points to
     * @return the exit code
     */
    static int execute(ParseResult parsed, PrintWriter err, Function<CommandLine, String> helpCommand) {
        List<CommandLine> chain = parsed.asCommandLineList();
        CommandLine command = chain.get(chain.size() - 1);
        if (!helpRequested(parsed)) {
            CommandSpec spec = command.getCommandSpec();
            try {
                OutputPaths.check(spec);
            } catch (RuntimeException e) {
                return CommandLines.report(e, err, helpCommand.apply(command));
            }
            ConsoleRouting.configure(spec);
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static boolean helpRequested(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
                return true;
            }
        }
        return false;
    }
}
