package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.core.summary.RunSummary;
import io.rocket.inputs.InputLocations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The generic application command: {@code APP_CLASS [OPTIONS] KEY...} runs an application class of the user's
 * with every runtime and cluster option, its own picocli options mixed in. It assembles the picocli command from its
 * parts ({@link ApplicationClass} loads the class, {@link KeyArguments} reads the key arguments, {@link KeyTypes}
 * makes keys of them) and runs it with {@link JobRunner}. Reached as {@code io.rocket.Main APP_CLASS} and as
 * {@code rocket APP_CLASS}; {@link io.rocket.Main} documents the contract.
 */
public final class ApplicationCommand {
    private static final List<String> KEY_HELP = List.of(
            "KEY: a key given as text; @FILE: one key per line of FILE (blank lines skipped); DIR: the regular, "
                    + "non-hidden files of a directory, sorted by name.",
            "Keys are the text itself for Application<String, R> (or CharSequence, Object), Path.of(text) for "
                    + "Application<Path, R>, and KeyParser.parseKey(text) when the class implements "
                    + "io.rocket.core.KeyParser.");
    private static final String EXIT_HELP = ExitCode.helpLine();

    private ApplicationCommand() {
    }

    /**
     * How the command line's key arguments become keys, one paragraph each, as its help shows them.
     *
     * @return an unmodifiable list of paragraphs, each a single line of plain text
     */
    public static List<String> keyHelp() {
        return KEY_HELP;
    }

    /**
     * Whether the launcher should take {@code argument}, its first, as an application class rather than a command:
     * it contains a dot (commands never do) or names a class on the class path; an option or {@code @FILE} never is.
     *
     * @param argument the launcher's first argument, not one of its command names
     * @return whether to run {@link #execute} with it
     */
    public static boolean looksLikeApplicationClass(String argument) {
        return ApplicationClass.looksLikeClassName(argument);
    }

    /**
     * Runs a command line (the application class first, then options and keys) and returns its exit code; prints
     * to {@code out} and {@code err} only, never exits.
     *
     * @param invocation how the command was started, which its messages name
     * @param args the application class first (or {@code --help}, {@code --version}), then its options and keys
     * @param out where help, the summary and other regular output go; not closed
     * @param err where error messages and progress go; not closed
     * @return the process exit code: one of the {@link ExitCode} codes
     */
    public static int execute(Invocation invocation, String[] args, PrintWriter out, PrintWriter err) {
        try {
            if (args.length == 0) {
                throw new CommandFailure(ExitCode.USAGE, "missing APP_CLASS: " + invocation.synopsis() + " "
                        + helpHint(invocation));
            }
            String first = args[0];
            if (first.equals("-h") || first.equals("--help") || first.equals("help")) {
                printContract(invocation, out);
                return ExitCode.OK.code();
            }
            if (first.equals("-V") || first.equals("--version")) {
                out.println(Version.line());
                out.flush();
                return ExitCode.OK.code();
            }
            if (first.startsWith("-")) {
                throw new CommandFailure(ExitCode.USAGE, "the application class comes first, before the options, "
                        + "got '" + first + "': " + invocation.synopsis());
            }
            Application<Object, Object> app = ApplicationClass.instantiate(first, invocation);
            CommandLine commandLine = commandLine(app, invocation, out, err);
            return commandLine.execute(Arrays.copyOfRange(args, 1, args.length));
        } catch (CommandFailure f) {
            return CommandLines.report(f, err);
        }
    }

    private static String helpHint(Invocation invocation) {
        return "(see: " + invocation.command() + " --help)";
    }

    /** The command line for {@code app}: its own options, the runtime options, the keys. */
    static CommandLine commandLine(Application<Object, Object> app, Invocation invocation, PrintWriter out,
                                   PrintWriter err) {
        String className = app.getClass().getName();
        Job job = new Job(app, invocation);
        CommandLine cl = new CommandLine(job);
        CommandSpec spec = cl.getCommandSpec();
        // The command's name is the application class: it heads the job's identity (RuntimeOptionsMixin.jobOptions).
        spec.name(className);
        if (ApplicationClass.declaresOptions(app.getClass())) {
            CommandSpec own;
            try {
                own = CommandSpec.forAnnotatedObject(app);
            } catch (CommandLine.InitializationException e) {
                throw new CommandFailure(ExitCode.USAGE, className + ": its picocli options are not usable: "
                        + e.getMessage());
            }
            if (!own.positionalParameters().isEmpty()) {
                throw new CommandFailure(ExitCode.USAGE, className + " declares @Parameters, but the positional "
                        + "arguments of " + invocation.command() + " are the keys: make its settings @Option fields");
            }
            addMixin(spec, "application", own, app);
        }
        try {
            // After the application's, so that --help lists the application's options first.
            addMixin(spec, "runtime", CommandSpec.forAnnotatedObject(job.runtime), job.runtime);
            addMixin(spec, "inputs", CommandSpec.forAnnotatedObject(job.inputs), job.inputs);
            addMixin(spec, "spaces", CommandSpec.forAnnotatedObject(job.spaces), job.spaces);
            addMixin(spec, "outputFormat", CommandSpec.forAnnotatedObject(job.outputFormat), job.outputFormat);
            addMixin(spec, "reduction", CommandSpec.forAnnotatedObject(job.reduction), job.reduction);
        } catch (CommandLine.InitializationException e) {
            throw new CommandFailure(ExitCode.USAGE, className + ": its options clash with Rocket's: "
                    + e.getMessage());
        }
        List<String> description = new ArrayList<>();
        description.add("Runs " + className + " on every pair of keys (or the pairs --against and --pairs choose).");
        description.addAll(KEY_HELP);
        spec.usageMessage()
                .customSynopsis(invocation.launch() + " \\", "           " + className + " [OPTIONS] KEY...")
                .descriptionHeading("%n")
                .footerHeading("%n")
                .description(description.toArray(String[]::new))
                .footer(EXIT_HELP);
        cl.setExpandAtFiles(false); // @FILE is a key file, read by Job
        return CommandLines.configure(cl, out, err, c -> invocation.command() + " " + className);
    }

    /**
     * Adds a mixin as a {@code @Mixin} field would, injecting the command's spec into the mixin's
     * {@code @Spec(Spec.Target.MIXEE)} fields.
     */
    private static void addMixin(CommandSpec command, String name, CommandSpec mixin, Object object) {
        command.addMixin(name, mixin);
        for (Class<?> c = object.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                Spec annotation = field.getAnnotation(Spec.class);
                if (annotation != null && annotation.value() == Spec.Target.MIXEE
                        && field.getType().isAssignableFrom(CommandSpec.class)) {
                    try {
                        field.setAccessible(true);
                        field.set(object, command);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        throw new IllegalStateException("cannot set " + field + ": " + e, e);
                    }
                }
            }
        }
    }

    private static void printContract(Invocation invocation, PrintWriter out) {
        out.println("Usage: " + invocation.synopsis());
        out.println("Runs an all-pairs application of your own: f(load(i), load(j)) for every pair of keys i < j.");
        out.println("APP_CLASS: the binary name of a public class implementing io.rocket.core.Application<K, R> with a "
                + "public no-argument constructor; put its classes on -cp beside rocket.jar.");
        for (String line : KEY_HELP) {
            out.println(line);
        }
        out.println("Options: the runtime and cluster options of every Rocket command (--device, --host-cache-size, "
                + "--output, --errors, --summary-json, --trace, --journal, --resume, --nodes, --rank, --hosts, ...), "
                + "and the application's own picocli @Option fields; '" + invocation.command()
                + " APP_CLASS --help' lists them.");
        out.println("--output writes the TSV i, j, left, right, result: each key's label and String.valueOf(result) "
                + "(FILE.tsv.gz: gzip; FILE.npy: a NumPy matrix of numeric results, --npy-dtype). A run on several nodes (--nodes P > 1) needs the application's resultCodec().");
        out.println(EXIT_HELP);
        out.flush();
    }

    /** The command: the keys and the run. The application's options and the runtime options are mixed in. */
    @Command(mixinStandardHelpOptions = true, versionProvider = Version.class, sortOptions = false)
    static final class Job implements Callable<Integer> {
        final Application<Object, Object> app;
        final Invocation invocation;
        final RuntimeOptionsMixin runtime = new RuntimeOptionsMixin();
        final InputsMixin inputs = new InputsMixin();
        final PairSpaceMixin spaces = new PairSpaceMixin();
        final OutputFormatMixin outputFormat = new OutputFormatMixin();
        final ReductionOptions reduction = new ReductionOptions();

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "KEY", arity = "0..*",
                description = "Keys: a key, @FILE (one key per line) or a directory (its files).")
        List<String> arguments = new ArrayList<>();

        Job(Application<Object, Object> app, Invocation invocation) {
            this.app = app;
            this.invocation = invocation;
        }

        /** The keys the arguments give, made by the application's key parser. */
        List<Object> keys() {
            Function<String, Object> parser = KeyTypes.parser(app, invocation.command());
            List<String> texts = new ArrayList<>(KeyArguments.texts(arguments));
            inputs.listed().forEach(p -> texts.add(InputLocations.display(p)));
            if (texts.isEmpty()) {
                throw new CommandFailure(ExitCode.USAGE, arguments.isEmpty()
                        ? "no keys: give the keys, @FILE or a directory after the application class "
                                + helpHint(invocation)
                        : "no keys: " + String.join(" ", arguments) + " gave none");
            }
            if (texts.size() == 1 && !spaces.hasReferences()) {
                throw new CommandFailure(ExitCode.USAGE, "only one key (" + texts.get(0) + "), so no pair to "
                        + "compute: give two or more keys (to read keys from a file, write @FILE)");
            }
            List<Object> keys = new ArrayList<>(texts.size());
            for (String text : texts) {
                keys.add(key(parser, text));
            }
            return keys;
        }

        private static Object key(Function<String, Object> parser, String text) {
            try {
                return parser.apply(text);
            } catch (RuntimeException e) {
                throw new CommandFailure(ExitCode.USAGE, "bad key '" + text + "': " + ApplicationClass.describe(e));
            }
        }

        @Override
        public Integer call() throws Exception {
            Function<String, Object> parser = KeyTypes.parser(app, invocation.command());
            PairSpaceMixin.Items<Object> run = spaces.resolve(keys(), text -> key(parser, text), app::label);
            RunSummary summary = JobRunner.run(app, run.items(), run.space(), runtime,
                    run.outputs(outputFormat.settings(), !app.ordered()),
                    reduction, String::valueOf, "result", spec.commandLine().getOut(), List.of());
            return JobRunner.exitCode(summary);
        }
    }
}
