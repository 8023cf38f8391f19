package io.rocket.apps.docs;

import io.rocket.Main;
import io.rocket.apps.Launcher;
import io.rocket.cli.ExitCode;
import io.rocket.cli.InputsMixin;
import io.rocket.cli.Invocation;
import io.rocket.cli.RuntimeOptionsMixin;
import io.rocket.core.exec.ThreadKind;
import io.rocket.core.trace.TraceCounter;
import io.rocket.core.trace.TraceEvent;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the reference part of the documentation ({@code docs/reference/}) from the code that defines it: every
 * command's options from their picocli annotations, the exit codes from {@link ExitCode}, the trace's tracks from
 * {@link TraceEvent}, {@link ThreadKind} and {@link TraceCounter}, the summary's fields from
 * {@link io.rocket.core.summary.SummaryFields}. The pages are never edited by hand:
 * {@code scripts/docs-reference} regenerates them, and a test fails when the committed pages differ from what this
 * class writes.
 */
public final class ReferenceDocs {
    static final String HEADER = "<!-- Generated from the code by scripts/docs-reference; do not edit. -->\n\n";

    private ReferenceDocs() {
    }

    /** Writes every page into the directory given (default {@code docs/reference}). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "docs/reference");
        Files.createDirectories(dir);
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
    }

    /** Every page of the reference by file name, in the order of the reference's index. */
    public static Map<String, String> pages() {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("commands.md", commands());
        pages.put("summary.md", SummaryReference.page());
        pages.put("trace.md", trace());
        pages.put("status.md", StatusReference.page());
        pages.put("exit-codes.md", exitCodes());
        return pages;
    }

    // ---- commands ----------------------------------------------------------------------------------------------

    static String commands() {
        StringBuilder md = new StringBuilder(HEADER);
        md.append("# Command reference\n\n");
        md.append("Every command of the `rocket` launcher (`scripts/rocket`, or `java -jar apps/target/rocket.jar`), "
                + "including `rocket APP_CLASS` for an application of your own (also `io.rocket.Main APP_CLASS`), "
                + "with every option. Every command also takes "
                + "`-h, --help` and `-V, --version`. A later option overrides an earlier one. Exit codes: "
                + "[exit-codes.md](exit-codes.md).\n\n");
        CommandLine launcher = new CommandLine(new Launcher());
        Set<String> runtime = optionNames(CommandSpec.forAnnotatedObject(new RuntimeOptionsMixin()));
        Set<String> inputs = optionNames(CommandSpec.forAnnotatedObject(new InputsMixin()));
        List<CommandLine> commands = new ArrayList<>();
        collect(launcher, commands);
        md.append("| command | what it does |\n|---|---|\n");
        for (CommandLine c : commands) {
            String description = String.join(" ", c.getCommandSpec().usageMessage().description());
            md.append("| [`").append(qualifiedName(c)).append("`](#").append(Markdown.anchor(qualifiedName(c)))
                    .append(") | ").append(Markdown.cell(description)).append(" |\n");
        }
        md.append("| [`rocket APP_CLASS`, `io.rocket.Main`](#iorocketmain) | runs an application of your own with "
                + "every runtime option |\n");
        md.append("\nThe application commands also take the [runtime options](#runtime-options); those that read "
                + "input files take the [input options](#input-options).\n");
        for (CommandLine c : commands) {
            command(md, c, runtime, inputs);
        }
        md.append("\n## io.rocket.Main\n\n");
        md.append("```\n").append(Invocation.LAUNCHER.synopsis()).append('\n').append(Main.synopsis())
                .append("\n```\n\n");
        md.append("Runs the application class `APP_CLASS` (a public class implementing `io.rocket.core.Application` "
                + "with a public no-argument constructor, on the class path beside `rocket.jar`) on every pair of the "
                + "keys. `rocket APP_CLASS` (the launcher, given the class path by `scripts/rocket --classpath`, "
                + "`rocket-local` and `rocket.sbatch`) and `io.rocket.Main APP_CLASS` (kept for job scripts that name "
                + "it) are the same command. Takes the [runtime options](#runtime-options), the "
                + "[input options](#input-options) and the application's own picocli options "
                + "(`rocket APP_CLASS --help` lists them).\n\n");
        for (String line : Main.keyHelp()) {
            md.append("- ").append(Markdown.text(line)).append('\n');
        }
        md.append("\n## Runtime options\n\nEvery application command and `rocket APP_CLASS` (`io.rocket.Main`) take these.\n\n");
        optionTable(md, CommandSpec.forAnnotatedObject(new RuntimeOptionsMixin()).options(), Set.of());
        md.append("\n## Input options\n\nThe commands that read input files, and `rocket APP_CLASS` (`io.rocket.Main`), take these.\n\n");
        optionTable(md, CommandSpec.forAnnotatedObject(new InputsMixin()).options(), Set.of());
        return md.toString();
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        for (CommandLine sub : command.getSubcommands().values()) {
            if (into.contains(sub) || sub.getCommandSpec().usageMessage().hidden()
                    || sub.getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            into.add(sub);
            collect(sub, into);   // a command with subcommands (generate) is listed before them
        }
    }

    private static void command(StringBuilder md, CommandLine c, Set<String> runtime, Set<String> inputs) {
        CommandSpec spec = c.getCommandSpec();
        String name = qualifiedName(c);
        md.append("\n## ").append(name).append("\n\n");
        md.append(Markdown.text(String.join(" ", spec.usageMessage().description()))).append("\n\n");
        md.append("```\n").append(synopsis(c)).append("\n```\n\n");
        List<PositionalParamSpec> positional = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!positional.isEmpty()) {
            md.append("| argument | meaning |\n|---|---|\n");
            for (PositionalParamSpec p : positional) {
                md.append("| `").append(p.paramLabel()).append("` | ")
                        .append(Markdown.cell(String.join(" ", p.description()))).append(" |\n");
            }
            md.append('\n');
        }
        Set<String> shared = new HashSet<>();
        boolean takesRuntime = false;
        boolean takesInputs = false;
        for (OptionSpec o : spec.options()) {
            if (runtime.contains(o.longestName())) {
                takesRuntime = true;
                shared.add(o.longestName());
            } else if (inputs.contains(o.longestName())) {
                takesInputs = true;
                shared.add(o.longestName());
            }
        }
        boolean own = spec.options().stream().anyMatch(o -> listed(o) && !shared.contains(o.longestName()));
        if (own) {
            optionTable(md, spec.options(), shared);
        }
        if (!spec.subcommands().isEmpty()) {
            md.append("Subcommands: ");
            List<String> subs = new ArrayList<>();
            for (CommandLine sub : c.getSubcommands().values()) {
                if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                    subs.add("[`" + qualifiedName(sub) + "`](#" + Markdown.anchor(qualifiedName(sub)) + ")");
                }
            }
            md.append(String.join(", ", subs)).append(".\n\n");
        }
        if (takesRuntime || takesInputs) {
            md.append("Also takes the ").append(takesRuntime ? "[runtime options](#runtime-options)" : "")
                    .append(takesRuntime && takesInputs ? " and the " : "")
                    .append(takesInputs ? "[input options](#input-options)" : "").append(".\n");
        }
    }

    private static void optionTable(StringBuilder md, List<OptionSpec> options, Set<String> skip) {
        md.append("| option | meaning |\n|---|---|\n");
        for (OptionSpec o : options) {
            if (!listed(o) || skip.contains(o.longestName())) {
                continue;
            }
            String names = String.join(", ", o.names());
            String label = o.typeInfo().isBoolean() ? "" : " " + o.paramLabel();
            md.append("| `").append(names).append(label).append("` | ")
                    .append(Markdown.cell(String.join(" ", o.description()))).append(" |\n");
        }
        md.append('\n');
    }

    private static boolean listed(OptionSpec o) {
        return !o.hidden() && !o.usageHelp() && !o.versionHelp();
    }

    private static Set<String> optionNames(CommandSpec spec) {
        Set<String> names = new HashSet<>();
        spec.options().forEach(o -> names.add(o.longestName()));
        return names;
    }

    private static String synopsis(CommandLine c) {
        CommandSpec spec = c.getCommandSpec();
        if (spec.usageMessage().customSynopsis().length > 0) {
            return String.join("\n", spec.usageMessage().customSynopsis()).strip();
        }
        StringBuilder s = new StringBuilder(qualifiedName(c));
        if (!spec.subcommands().isEmpty()) {
            return s.append(" COMMAND [OPTIONS]").toString();
        }
        if (spec.options().stream().anyMatch(ReferenceDocs::listed)) {
            s.append(" [OPTIONS]");
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.hidden()) {
                continue;
            }
            boolean optional = p.arity().min() == 0;
            boolean repeated = p.arity().max() > 1;
            s.append(' ').append(optional ? "[" : "").append(p.paramLabel()).append(repeated ? "..." : "")
                    .append(optional ? "]" : "");
        }
        return s.toString();
    }

    private static String qualifiedName(CommandLine c) {
        return c.getCommandSpec().qualifiedName(" ");
    }

    // ---- trace -------------------------------------------------------------------------------------------------

    static String trace() {
        StringBuilder md = new StringBuilder(HEADER);
        md.append("# Trace reference\n\n");
        md.append("`--trace FILE` writes the Chrome Trace Event Format (gzip-compressed when FILE ends in `.gz`); "
                + "open it in <https://ui.perfetto.dev> or `chrome://tracing`, or turn it into a page with "
                + "`rocket report`. One process per node (its name gives the rank); in a cluster run rank r > 0 "
                + "writes `NAME.rankR.json[.gz]` beside rank 0's file, with timestamps on rank 0's clock.\n\n");
        md.append("## Thread rows\n\nOne row per resource thread; each kind of thread does one kind of work.\n\n");
        md.append("| kind | rows | what its threads do |\n|---|---|---|\n");
        for (ThreadKind k : ThreadKind.values()) {
            md.append("| `").append(k.id()).append("` | ").append(k.threadNames()).append(" | ")
                    .append(k.description()).append(" |\n");
        }
        md.append("\n## Slices\n\nA slice (`\"ph\":\"X\"`) per task, with the item (`item`) or the pair (`i`, `j`) "
                + "in its arguments.\n\n");
        md.append("| name | category | arguments | what it covers |\n|---|---|---|---|\n");
        for (TraceEvent e : TraceEvent.values()) {
            md.append("| `").append(e.displayName()).append("` | `").append(e.category()).append("` | ")
                    .append(e.args() == TraceEvent.Args.ITEM ? "`item`" : "`i`, `j`").append(" | ")
                    .append(e.description()).append(" |\n");
        }
        md.append("\n## Counter tracks\n\nSampled about ten times a second; every value counts from the start of the "
                + "run.\n\n");
        md.append("| track | series | what it counts |\n|---|---|---|\n");
        for (TraceCounter c : TraceCounter.values()) {
            md.append("| `").append(c.trackName()).append("` | ")
                    .append(String.join(", ", c.series().stream().map(s -> "`" + s + "`").toList())).append(" | ")
                    .append(c.description()).append(" |\n");
        }
        return md.toString();
    }

    // ---- exit codes --------------------------------------------------------------------------------------------

    static String exitCodes() {
        StringBuilder md = new StringBuilder(HEADER);
        md.append("# Exit codes\n\n");
        md.append("Every command (`rocket …`, `rocket APP_CLASS`, `io.rocket.Main`) exits with one of these. A cluster "
                + "job's status is rank 0's: `scripts/rocket-local` and `scripts/slurm/rocket.sbatch` exit with it.\n\n");
        md.append("| code | meaning |\n|---|---|\n");
        for (ExitCode c : ExitCode.values()) {
            md.append("| ").append(c.code()).append(" | ").append(c.meaning()).append(" |\n");
        }
        return md.toString();
    }
}
