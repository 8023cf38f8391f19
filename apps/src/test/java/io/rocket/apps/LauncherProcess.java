package io.rocket.apps;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The launcher as a process of its own, on the tests' class path, its output in a log: how process tests run a command. */
public final class LauncherProcess {
    private LauncherProcess() {
    }

    /**
     * Starts {@code args} in a new JVM.
     *
     * @param log  where its stdout and stderr go
     * @param heap the JVM's heap, e.g. {@code 256m}
     * @param args the command line
     * @return the process
     * @throws IOException when it cannot start
     */
    public static Process start(Path log, String heap, List<String> args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heap, "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
