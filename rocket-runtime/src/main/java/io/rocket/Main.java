package io.rocket;

import io.rocket.cli.ExitCode;
import io.rocket.cli.InputsMixin;
import io.rocket.cli.JobRunner;
import io.rocket.cli.RuntimeOptionsMixin;
import io.rocket.core.Application;
import io.rocket.core.KeyParser;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import io.rocket.inputs.InputLocations;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The generic main class: runs an application of your own from the command line, with every runtime and cluster
 * option of the bundled applications, without writing a command of your own.
 *
 * <pre>
 * java -cp APP_CLASSES:rocket.jar io.rocket.Main APP_CLASS [OPTIONS] KEY...
 * </pre>
 *
 * <p><b>The application.</b> {@code APP_CLASS} is the binary name of a public class that implements
 * {@link Application Application&lt;K, R&gt;} and has a public no-argument constructor; its classes and their
 * dependencies go on the class path beside {@code rocket.jar}. Each result is written as
 * {@code String.valueOf(result)} in the {@code result} column of the {@code --output} TSV ({@code i j left right
 * result}, with {@link Application#label} of each key). A cluster run ({@code --nodes P} with P &gt; 1) needs
 * {@link Application#resultCodec()}.
 *
 * <p><b>Keys.</b> Each {@code KEY} argument gives keys as text:
 * <ul>
 *   <li>{@code @FILE}: every line of FILE (UTF-8) is one key, taken as it is; a trailing {@code \r} is dropped and
 *       blank lines are skipped. Lines are not expanded further. ({@code @@TEXT} is the key {@code @TEXT}.)</li>
 *   <li>a directory: its regular files whose names do not start with a dot, sorted by name, each as the text
 *       {@code DIR/NAME} (not recursive);</li>
 *   <li>anything else: one key.</li>
 * </ul>
 * The texts become keys through {@link KeyParser#parseKey} when the application class implements
 * {@link KeyParser}; otherwise by the class's {@code Application<K, R>} type argument: {@code String},
 * {@code CharSequence} and {@code Object} keys are the text, {@code java.nio.file.Path} keys are
 * {@code Path.of(text)}; any other key type needs {@link KeyParser}. At least two keys are needed (one key has no
 * pair; a single key is refused, as it is most often a key file given without its {@code @}).
 *
 * <p><b>The application's own options.</b> When the application class (or a superclass) declares picocli
 * {@link Option @Option}, {@link Mixin @Mixin} or {@link ArgGroup @ArgGroup} members, the application object is added
 * to the command line as a picocli mixin: {@code --k 5} is parsed into its field before the run, the options appear
 * in {@code --help}, and their values are part of the job's identity, which a journal checks on {@code --resume} and
 * every node of a cluster run checks against rank 0 (options whose parameter label is {@code FILE} are left out, as
 * outputs). The positional parameters are the keys, so an application may not declare {@link Parameters @Parameters}.
 *
 * <p><b>Exit codes.</b> 0 success; 1 error (one line on stderr, e.g. a {@link RocketException}); 2 bad command line
 * (no or unusable application class, no keys, a missing key file, bad options); 3 the run finished but some pairs
 * failed.
 */
public final class Main {
    /** Exit code of a bad command line. */
    static final int EXIT_USAGE = ExitCode.USAGE.code();
    /** Exit code of an error. */
    static final int EXIT_ERROR = ExitCode.ERROR.code();

    private static final String SYNOPSIS = "java -cp APP_CLASSES:rocket.jar io.rocket.Main APP_CLASS [OPTIONS] KEY...";
    private static final String HELP_HINT = "(see: io.rocket.Main --help)";
    private static final String[] KEY_HELP = {
        "KEY: a key given as text; @FILE: one key per line of FILE (blank lines skipped); DIR: the regular, "
                + "non-hidden files of a directory, sorted by name.",
        "Keys are the text itself for Application<String, R> (or CharSequence, Object), Path.of(text) for "
                + "Application<Path, R>, and KeyParser.parseKey(text) when the class implements "
                + "io.rocket.core.KeyParser.",
    };
    private static final String[] EXIT_HELP = {ExitCode.helpLine()};

    private Main() {
    }

    /**
     * The command line's synopsis, as its help shows it.
     *
     * @return the one-line synopsis, e.g. for generated documentation
     */
    public static String synopsis() {
        return SYNOPSIS;
    }

    /**
     * How the command line's key arguments become keys, one paragraph each, as its help shows them.
     *
     * @return an unmodifiable list of paragraphs, each a single line of plain text
     */
    public static List<String> keyHelp() {
        return List.of(KEY_HELP);
    }

    /**
     * Runs a command line (see {@link #execute}) on the process's stdout and stderr and exits the JVM with its exit
     * code ({@link ExitCode}). Prefers IPv4 for cluster sockets.
     *
     * @param args the application class first, then options and keys
     */
    public static void main(String[] args) {
        System.setProperty("java.net.preferIPv4Stack", "true");
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs a command line (the application class first, then options and keys) and returns its exit code; prints
     * to {@code out} and {@code err} only, never exits.
     *
     * @param args the application class first (or {@code --help}, {@code --version}), then its options and keys
     * @param out where help, the summary and other regular output go; not closed
     * @param err where error messages and progress go; not closed
     * @return the process exit code: one of the {@link ExitCode} codes
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        try {
            if (args.length == 0) {
                throw new Failure(EXIT_USAGE, "missing APP_CLASS: " + SYNOPSIS + " " + HELP_HINT);
            }
            String first = args[0];
            if (first.equals("-h") || first.equals("--help") || first.equals("help")) {
                printContract(out);
                return 0;
            }
            if (first.equals("-V") || first.equals("--version")) {
                out.println("Rocket 0.1.0");
                out.flush();
                return 0;
            }
            if (first.startsWith("-")) {
                throw new Failure(EXIT_USAGE, "the application class comes first, before the options, got '" + first
                        + "': " + SYNOPSIS);
            }
            Application<Object, Object> app = instantiate(first);
            CommandLine commandLine = commandLine(app, out, err);
            return commandLine.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
        } catch (Failure f) {
            err.println("rocket: " + f.getMessage());
            err.flush();
            return f.code;
        }
    }

    /** The command line for {@code app}: its own options, the runtime options, the keys. */
    static CommandLine commandLine(Application<Object, Object> app, PrintWriter out, PrintWriter err) {
        String className = app.getClass().getName();
        Job job = new Job(app);
        CommandLine cl = new CommandLine(job);
        CommandSpec spec = cl.getCommandSpec();
        // The command's name is the application class: it heads the job's identity (RuntimeOptionsMixin.jobOptions).
        spec.name(className);
        if (declaresOptions(app.getClass())) {
            CommandSpec own;
            try {
                own = CommandSpec.forAnnotatedObject(app);
            } catch (CommandLine.InitializationException e) {
                throw new Failure(EXIT_USAGE, className + ": its picocli options are not usable: " + e.getMessage());
            }
            if (!own.positionalParameters().isEmpty()) {
                throw new Failure(EXIT_USAGE, className + " declares @Parameters, but the positional arguments of "
                        + "io.rocket.Main are the keys: make its settings @Option fields");
            }
            addMixin(spec, "application", own, app);
        }
        try {
            // After the application's, so that --help lists the application's options first.
            addMixin(spec, "runtime", CommandSpec.forAnnotatedObject(job.runtime), job.runtime);
            addMixin(spec, "inputs", CommandSpec.forAnnotatedObject(job.inputs), job.inputs);
        } catch (CommandLine.InitializationException e) {
            throw new Failure(EXIT_USAGE, className + ": its options clash with Rocket's: " + e.getMessage());
        }
        spec.usageMessage()
                .customSynopsis("java -cp APP_CLASSES:rocket.jar io.rocket.Main \\",
                        "           " + className + " [OPTIONS] KEY...")
                .descriptionHeading("%n")
                .footerHeading("%n")
                .description(concat(new String[] {"Runs " + className + " on every pair of keys."}, KEY_HELP))
                .footer(EXIT_HELP);
        cl.setExpandAtFiles(false); // @FILE is a key file, read by Job
        cl.setOverwrittenOptionsAllowed(true); // a later option wins, as in the launcher (rocket-local --rank-args)
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, a) -> {
            String message = e.getMessage();
            List<String> suggestions = e instanceof CommandLine.UnmatchedArgumentException u
                    ? u.getSuggestions() : List.of();
            err.println("rocket: " + message + (suggestions.isEmpty() ? "" : " (did you mean "
                    + String.join(" or ", suggestions.subList(0, Math.min(3, suggestions.size()))) + "?)")
                    + " (see: io.rocket.Main " + className + " --help)");
            err.flush();
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((e, c, parsed) -> {
            if (e instanceof Failure f) {
                err.println("rocket: " + f.getMessage());
                err.flush();
                return f.code;
            }
            Throwable cause = e;
            while (!(cause instanceof RocketException) && cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            if (cause instanceof RocketException) {
                err.println("rocket: error: " + cause.getMessage());
                err.flush();
                return EXIT_ERROR;
            }
            err.println("rocket: internal error: " + e);
            e.printStackTrace(err);
            err.flush();
            return EXIT_ERROR;
        });
        return cl;
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

    private static void printContract(PrintWriter out) {
        out.println("Usage: " + SYNOPSIS);
        out.println("Runs an all-pairs application of your own: f(load(i), load(j)) for every pair of keys i < j.");
        out.println("APP_CLASS: the binary name of a public class implementing io.rocket.core.Application<K, R> with a "
                + "public no-argument constructor; put its classes on -cp beside rocket.jar.");
        for (String line : KEY_HELP) {
            out.println(line);
        }
        out.println("Options: the runtime and cluster options of every Rocket command (--device, --host-cache-size, "
                + "--output, --errors, --summary-json, --trace, --journal, --resume, --nodes, --rank, --hosts, ...), "
                + "and the application's own picocli @Option fields; 'io.rocket.Main APP_CLASS --help' lists them.");
        out.println("--output writes the TSV i, j, left, right, result: each key's label and String.valueOf(result). "
                + "A run on several nodes (--nodes P > 1) needs the application's resultCodec().");
        for (String line : EXIT_HELP) {
            out.println(line);
        }
        out.flush();
    }

    // ---- the application class ---------------------------------------------------------------------------------

    /** Loads and instantiates the application class; every way this can fail is one line. */
    @SuppressWarnings("unchecked")
    static Application<Object, Object> instantiate(String className) {
        if (className.endsWith(".class") || className.endsWith(".java") || className.indexOf('/') >= 0
                || className.indexOf('\\') >= 0) {
            throw new Failure(EXIT_USAGE, "'" + className + "' looks like a file name: give the application's class "
                    + "name (e.g. com.example.MyApp) and put its classes on -cp");
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Main.class.getClassLoader();
        }
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new Failure(EXIT_USAGE, "class " + className + " not found on the class path: put the directory or "
                    + "jar holding it on -cp beside rocket.jar (" + SYNOPSIS + ")");
        } catch (LinkageError e) {
            throw new Failure(EXIT_USAGE, "cannot load class " + className + ": " + e);
        }
        if (!Application.class.isAssignableFrom(type)) {
            throw new Failure(EXIT_USAGE, className + " is not a Rocket application: it does not implement "
                    + Application.class.getName());
        }
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new Failure(EXIT_USAGE, className + " is abstract: give a concrete application class");
        }
        if (!Modifier.isPublic(type.getModifiers())) {
            throw new Failure(EXIT_USAGE, className + " is not public: io.rocket.Main can only create public classes");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            boolean inner = type.isMemberClass() && !Modifier.isStatic(type.getModifiers());
            throw new Failure(EXIT_USAGE, className + " has no public no-argument constructor"
                    + (inner ? " (an inner class must be static)" : ""));
        }
        try {
            return (Application<Object, Object>) constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new Failure(EXIT_ERROR, "cannot create " + className + ": " + describe(e.getCause()));
        } catch (ExceptionInInitializerError e) {
            throw new Failure(EXIT_ERROR, "cannot initialize " + className + ": " + describe(e.getCause()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new Failure(EXIT_USAGE, "cannot create " + className + ": " + describe(e));
        }
    }

    /** An exception in a few words: the message of a RocketException or IllegalArgumentException, else its class too. */
    private static String describe(Throwable e) {
        if (e == null) {
            return "unknown error";
        }
        if (e.getMessage() == null) {
            return e.toString();
        }
        return e instanceof RocketException || e instanceof IllegalArgumentException ? e.getMessage()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** Whether {@code type} or a superclass has picocli option, mixin or argument-group members. */
    static boolean declaresOptions(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            List<AccessibleObject> members = new ArrayList<>(List.of(c.getDeclaredFields()));
            members.addAll(List.of(c.getDeclaredMethods()));
            for (AccessibleObject member : members) {
                for (Class<? extends Annotation> a : List.of(Option.class, Parameters.class, Mixin.class,
                        ArgGroup.class)) {
                    if (member.isAnnotationPresent(a)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    // ---- keys ---------------------------------------------------------------------------------------------------

    /**
     * How the key texts of {@code app} become keys: its {@link KeyParser}, else by its key type.
     *
     * @throws Failure when the key type is one the main class cannot make from text
     */
    @SuppressWarnings("unchecked")
    static Function<String, Object> keyParser(Application<?, ?> app) {
        if (app instanceof KeyParser<?> parser) {
            return text -> ((KeyParser<Object>) parser).parseKey(text);
        }
        Type keyType = keyType(app.getClass());
        Class<?> raw = erasure(keyType);
        if (raw == String.class || raw == CharSequence.class || raw == Object.class) {
            return text -> text;
        }
        if (raw == Path.class) {
            return InputLocations.defaults()::resolve;
        }
        String name = keyType == null ? "unknown" : keyType.getTypeName();
        throw new Failure(EXIT_USAGE, app.getClass().getName() + " has keys of type " + name + ", which io.rocket.Main "
                + "cannot make from text: implement " + KeyParser.class.getName() + "<" + name + "> in it");
    }

    /** The {@code K} of {@code Application<K, R>} as {@code type} binds it (Object when it leaves it open). */
    static Type keyType(Class<?> type) {
        Type k = find(type, new HashMap<>());
        return k == null ? Object.class : k;
    }

    private static Type find(Type type, Map<TypeVariable<?>, Type> bindings) {
        Class<?> raw;
        if (type instanceof ParameterizedType p) {
            raw = (Class<?>) p.getRawType();
            TypeVariable<?>[] variables = raw.getTypeParameters();
            Type[] arguments = p.getActualTypeArguments();
            for (int i = 0; i < variables.length && i < arguments.length; i++) {
                bindings.put(variables[i], resolve(arguments[i], bindings));
            }
            if (raw == Application.class) {
                return bindings.get(variables[0]);
            }
        } else if (type instanceof Class<?> c) {
            raw = c;
            if (raw == Application.class) {
                return Object.class; // implemented raw
            }
        } else {
            return null;
        }
        List<Type> supertypes = new ArrayList<>();
        if (raw.getGenericSuperclass() != null) {
            supertypes.add(raw.getGenericSuperclass());
        }
        supertypes.addAll(List.of(raw.getGenericInterfaces()));
        for (Type s : supertypes) {
            Type k = find(s, bindings);
            if (k != null) {
                return k;
            }
        }
        return null;
    }

    private static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings) {
        Type t = type;
        while (t instanceof TypeVariable<?> v && bindings.containsKey(v)) {
            t = bindings.get(v);
        }
        return t;
    }

    private static Class<?> erasure(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof TypeVariable<?> v) {
            return v.getBounds().length == 0 ? Object.class : erasure(v.getBounds()[0]);
        }
        if (type instanceof WildcardType w) {
            return w.getUpperBounds().length == 0 ? Object.class : erasure(w.getUpperBounds()[0]);
        }
        if (type instanceof GenericArrayType) {
            return Object[].class;
        }
        return Object.class;
    }

    /**
     * The key texts of the arguments: {@code @FILE} gives FILE's lines, a directory its regular non-hidden files
     * sorted by name, anything else itself.
     */
    static List<String> keyTexts(List<String> arguments) {
        List<String> texts = new ArrayList<>();
        for (String argument : arguments) {
            if (argument.startsWith("@@")) {
                texts.add(argument.substring(1));
            } else if (argument.startsWith("@")) {
                texts.addAll(readKeyFile(argument.substring(1)));
            } else {
                Path dir = directory(argument);
                if (dir != null) {
                    texts.addAll(listDirectory(argument, dir));
                } else {
                    texts.add(argument);
                }
            }
        }
        return texts;
    }

    private static List<String> readKeyFile(String name) {
        if (name.isEmpty()) {
            throw new Failure(EXIT_USAGE, "'@' names no key file: write @FILE");
        }
        Path file;
        try {
            file = Path.of(name);
        } catch (InvalidPathException e) {
            throw new Failure(EXIT_USAGE, "key file " + name + ": not a valid path");
        }
        if (!Files.exists(file)) {
            throw new Failure(EXIT_USAGE, "key file " + name + " not found");
        }
        if (Files.isDirectory(file)) {
            throw new Failure(EXIT_USAGE, "key file " + name + " is a directory (give the directory itself, "
                    + "without @, to use its files as keys)");
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.endsWith("\r")) {
                    line = line.substring(0, line.length() - 1);
                }
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        } catch (NoSuchFileException e) {
            throw new Failure(EXIT_USAGE, "key file " + name + " not found");
        } catch (CharacterCodingException e) {
            throw new Failure(EXIT_ERROR, "cannot read key file " + name + ": it is not UTF-8 text");
        } catch (IOException e) {
            throw new Failure(EXIT_ERROR, "cannot read key file " + name + ": " + e.getMessage());
        }
        return lines;
    }

    private static Path directory(String argument) {
        try {
            Path path = InputLocations.isUri(argument) ? InputLocations.defaults().resolve(argument)
                    : Path.of(argument);
            return Files.isDirectory(path) ? path : null;
        } catch (InvalidPathException | RocketException e) {
            return null; // not a directory we can list: the text is a key, and its parser says what is wrong
        }
    }

    private static List<String> listDirectory(String argument, Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> !p.getFileName().toString().startsWith(".") && Files.isRegularFile(p))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .map(InputLocations::display)
                    .toList();
        } catch (IOException | RuntimeException e) {
            throw new Failure(EXIT_ERROR, "cannot list directory " + argument + ": " + e.getMessage());
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    // ---- the command --------------------------------------------------------------------------------------------

    /** The command: the keys and the run. The application's options and the runtime options are mixed in. */
    @Command(mixinStandardHelpOptions = true, version = "Rocket 0.1.0", sortOptions = false)
    static final class Job implements Callable<Integer> {
        final Application<Object, Object> app;
        final RuntimeOptionsMixin runtime = new RuntimeOptionsMixin();
        final InputsMixin inputs = new InputsMixin();

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "KEY", arity = "0..*",
                description = "Keys: a key, @FILE (one key per line) or a directory (its files).")
        List<String> arguments = new ArrayList<>();

        Job(Application<Object, Object> app) {
            this.app = app;
        }

        /** The keys the arguments give, made by the application's key parser. */
        List<Object> keys() {
            Function<String, Object> parser = keyParser(app);
            List<String> texts = new ArrayList<>(keyTexts(arguments));
            inputs.listed().forEach(p -> texts.add(InputLocations.display(p)));
            if (texts.isEmpty()) {
                throw new Failure(EXIT_USAGE, arguments.isEmpty()
                        ? "no keys: give the keys, @FILE or a directory after the application class " + HELP_HINT
                        : "no keys: " + String.join(" ", arguments) + " gave none");
            }
            if (texts.size() == 1) {
                throw new Failure(EXIT_USAGE, "only one key (" + texts.get(0) + "), so no pair to compute: give two "
                        + "or more keys (to read keys from a file, write @FILE)");
            }
            List<Object> keys = new ArrayList<>(texts.size());
            for (String text : texts) {
                try {
                    keys.add(parser.apply(text));
                } catch (RuntimeException e) {
                    throw new Failure(EXIT_USAGE, "bad key '" + text + "': " + describe(e));
                }
            }
            return keys;
        }

        @Override
        public Integer call() throws Exception {
            List<Object> keys = keys();
            if (runtime.isCluster() && app.resultCodec() == null) {
                throw new RocketException(app.getClass().getName() + " must implement resultCodec() to run on several "
                        + "nodes (its results travel to rank 0)");
            }
            RunSummary summary = JobRunner.run(app, keys, runtime, String::valueOf, "result",
                    spec.commandLine().getOut(), List.of());
            return JobRunner.exitCode(summary);
        }
    }

    /** A command-line problem: one line for the user and an exit code. */
    static final class Failure extends RuntimeException {
        final int code;

        Failure(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
