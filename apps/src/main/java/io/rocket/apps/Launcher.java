package io.rocket.apps;

import io.rocket.apps.bench.CopyBandwidth;
import io.rocket.apps.forensics.ForensicsCommand;
import io.rocket.apps.microscopy.MicroscopyCommand;
import io.rocket.apps.phylogenetics.PhylogeneticsCommand;
import io.rocket.apps.phylogenetics.TreeCompareCommand;
import io.rocket.apps.synthetic.SyntheticCommand;
import io.rocket.cli.ApplicationCommand;
import io.rocket.cli.CommandLines;
import io.rocket.cli.ExitCode;
import io.rocket.cli.Invocation;
import io.rocket.cli.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code rocket} command line, Rocket's one entry point: one subcommand per bundled application plus helpers,
 * and {@code rocket APP_CLASS [OPTIONS] KEY...} for an application class of the user's on the class path (the
 * command {@code io.rocket.Main} runs; a first argument that is no command and contains a dot, or names a class,
 * is taken for one). User errors (bad options, bad input, unusable devices) print one line and exit non-zero; only
 * internal faults print a stack trace ({@link CommandLines}).
 *
 * <p>Exit codes: {@link ExitCode}.
 */
@Command(name = "rocket", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "All-pairs computations on CPUs, GPUs and clusters.",
        footerHeading = "%n",
        footer = {"rocket APP_CLASS [OPTIONS] KEY... runs an application class of your own, its classes on the class "
                + "path (scripts/rocket --classpath APP_CLASSES APP_CLASS ...); rocket APP_CLASS --help lists its "
                + "options."},
        subcommands = {SyntheticCommand.class, ForensicsCommand.class, PhylogeneticsCommand.class, MicroscopyCommand.class,
                GenerateCommand.class,
                TreeCompareCommand.class, DemoCommand.class, DataPlaneBenchCommand.class, ReportCommand.class,
                StatusCommand.class, CopyBandwidth.class, CommandLine.HelpCommand.class})
public final class Launcher implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command or application class (try: rocket demo)");
    }

    /**
     * The process entry of {@code rocket.jar}: runs {@link #execute} on stdout and stderr and exits with its code.
     *
     * @param args a command and its arguments, or an application class and its options and keys
     */
    public static void main(String[] args) {
        CommandLines.main(args, Launcher::execute);
    }

    /** Runs a command line and returns its exit code (testable: no System.exit). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Launcher());
        if (args.length > 0 && !cl.getSubcommands().containsKey(args[0])
                && ApplicationCommand.looksLikeApplicationClass(args[0])) {
            return ApplicationCommand.execute(Invocation.LAUNCHER, args, out, err);
        }
        return CommandLines.configure(cl, out, err, CommandLines::qualifiedName).execute(args);
    }
}
