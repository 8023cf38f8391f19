package io.rocket.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Rocket's version, as every command's {@code --version} prints it: read once from the resource the build writes
 * ({@code io/rocket/cli/version.properties}, the project's version), so no source file repeats it. Also the
 * picocli version provider of every Rocket command.
 */
public final class Version implements CommandLine.IVersionProvider {
    /** Shown when the resource is missing or was not filtered (classes compiled outside the Maven build). */
    private static final String UNKNOWN = "(unknown version)";

    private static final String NUMBER = load();

    /** A version provider for picocli; every instance gives the same version. */
    public Version() {
    }

    /**
     * The version number, e.g. {@code 0.1.0-SNAPSHOT}.
     *
     * @return the project's version, or {@code (unknown version)} when the build did not write it
     */
    public static String number() {
        return NUMBER;
    }

    /**
     * The line {@code --version} prints.
     *
     * @return {@code Rocket VERSION}
     */
    public static String line() {
        return "Rocket " + NUMBER;
    }

    /**
     * The version lines for picocli's {@code --version}.
     *
     * @return one line, {@link #line()}
     */
    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "").strip();
            return version.isEmpty() || version.startsWith("${") ? UNKNOWN : version;
        } catch (IOException e) {
            return UNKNOWN;
        }
    }
}
