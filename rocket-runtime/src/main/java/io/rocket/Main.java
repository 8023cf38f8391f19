package io.rocket;

import io.rocket.cli.ApplicationCommand;
import io.rocket.cli.CommandLines;
import io.rocket.cli.ExitCode;
import io.rocket.cli.Invocation;
import io.rocket.core.Application;
import io.rocket.core.KeyParser;
import io.rocket.core.RocketException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

/**
 * The generic main class: runs an application of your own from the command line, with every runtime and cluster
 * option of the bundled applications, without writing a command of your own.
 *
 * <pre>
 * java -cp APP_CLASSES:rocket.jar io.rocket.Main APP_CLASS [OPTIONS] KEY...
 * </pre>
 *
 * <p>The launcher runs the same command as {@code rocket APP_CLASS [OPTIONS] KEY...} (for example
 * {@code scripts/rocket --classpath APP_CLASSES APP_CLASS ...}); this class stays as its documented alias, for job
 * scripts that name it. Both go through {@link ApplicationCommand} and the one error handling of
 * {@link CommandLines}; only the command their messages name differs.
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

    private Main() {
    }

    /**
     * The command line's synopsis, as its help shows it.
     *
     * @return the one-line synopsis, e.g. for generated documentation
     */
    public static String synopsis() {
        return Invocation.MAIN.synopsis();
    }

    /**
     * How the command line's key arguments become keys, one paragraph each, as its help shows them.
     *
     * @return an unmodifiable list of paragraphs, each a single line of plain text
     */
    public static List<String> keyHelp() {
        return ApplicationCommand.keyHelp();
    }

    /**
     * Runs a command line (see {@link #execute}) on the process's stdout and stderr and exits the JVM with its exit
     * code ({@link ExitCode}). Prefers IPv4 for cluster sockets.
     *
     * @param args the application class first, then options and keys
     */
    public static void main(String[] args) {
        CommandLines.main(args, Main::execute);
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
        return ApplicationCommand.execute(Invocation.MAIN, args, out, err);
    }
}
