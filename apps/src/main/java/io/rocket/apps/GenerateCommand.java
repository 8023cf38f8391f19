package io.rocket.apps;

import io.rocket.apps.forensics.ForensicsGenerateCommand;
import io.rocket.apps.microscopy.MicroscopyGenerateCommand;
import io.rocket.apps.phylogenetics.PhyloGenerateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code rocket generate}: the parent of the data generators, one subcommand per bundled application, each writing
 * a synthetic data set with a known answer (a true tree, true clusters) to check the application against.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Writes synthetic input data with a known answer for a bundled application.",
        subcommands = {ForensicsGenerateCommand.class, PhyloGenerateCommand.class, MicroscopyGenerateCommand.class})
public final class GenerateCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing data set (try: rocket generate phylogenetics --help)");
    }
}
