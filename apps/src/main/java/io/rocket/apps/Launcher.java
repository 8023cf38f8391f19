package io.rocket.apps;

import io.rocket.apps.forensics.ForensicsCommand;
import io.rocket.apps.microscopy.MicroscopyCommand;
import io.rocket.apps.phylogenetics.PhylogeneticsCommand;
import io.rocket.apps.phylogenetics.TreeCompareCommand;
import io.rocket.apps.report.ReportCommand;
import io.rocket.apps.synthetic.SyntheticCommand;
import io.rocket.cli.ExitCode;
import io.rocket.core.RocketException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code rocket} command line: one subcommand per bundled application plus helpers. User errors (bad options,
 * bad input, unusable devices) print one line and exit non-zero; only internal faults print a stack trace.
 *
 * <p>Exit codes: {@link ExitCode}.
 */
@Command(name = "rocket", mixinStandardHelpOptions = true, version = "Rocket 0.1.0",
        description = "All-pairs computations on CPUs, GPUs and clusters.",
        subcommands = {SyntheticCommand.class, ForensicsCommand.class, PhylogeneticsCommand.class, MicroscopyCommand.class,
                GenerateCommand.class,
                TreeCompareCommand.class, DemoCommand.class, DataPlaneBenchCommand.class, ReportCommand.class,
                CommandLine.HelpCommand.class})
public final class Launcher implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (try: rocket demo, rocket --help)");
    }

    public static void main(String[] args) {
        System.setProperty("java.net.preferIPv4Stack", "true");
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line and returns its exit code (testable: no System.exit). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Launcher());
        // A later option overrides an earlier one, so one node of a cluster can be given different settings by
        // appending them to the shared command line (scripts/rocket-local --rank-args).
        cl.setOverwrittenOptionsAllowed(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("rocket: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("(see: rocket " + (e.getCommandLine().getCommandName().equals("rocket") ? ""
                    : e.getCommandLine().getCommandName() + " ") + "--help)");
            return ExitCode.USAGE.code();
        });
        cl.setExecutionExceptionHandler((e, c, parsed) -> {
            Throwable cause = e;
            while (!(cause instanceof RocketException) && cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            if (cause instanceof RocketException) {
                err.println("rocket: error: " + cause.getMessage());
                return ExitCode.ERROR.code();
            }
            err.println("rocket: internal error: " + e);
            e.printStackTrace(err);
            return ExitCode.ERROR.code();
        });
        return cl.execute(args);
    }
}
