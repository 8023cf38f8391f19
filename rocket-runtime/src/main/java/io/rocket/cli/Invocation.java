package io.rocket.cli;

/**
 * How the generic application command was started, which its synopsis, help and one-line errors name: through the
 * compatible main class {@code io.rocket.Main} or through the launcher as {@code rocket APP_CLASS}. The command is
 * the same either way.
 */
public enum Invocation {
    /** {@code java -cp APP_CLASSES:rocket.jar io.rocket.Main APP_CLASS ...}. */
    MAIN("io.rocket.Main", "java -cp APP_CLASSES:rocket.jar io.rocket.Main"),
    /** {@code rocket APP_CLASS ...}: the launcher, with the classes on its class path ({@code --classpath}). */
    LAUNCHER("rocket", "scripts/rocket --classpath APP_CLASSES");

    private final String command;
    private final String launch;

    Invocation(String command, String launch) {
        this.command = command;
        this.launch = launch;
    }

    /**
     * The command as messages name it.
     *
     * @return {@code io.rocket.Main} or {@code rocket}
     */
    public String command() {
        return command;
    }

    /**
     * How to start it with the application's classes on the class path, up to the application class.
     *
     * @return e.g. {@code java -cp APP_CLASSES:rocket.jar io.rocket.Main}
     */
    public String launch() {
        return launch;
    }

    /**
     * The one-line synopsis.
     *
     * @return {@link #launch()} followed by {@code APP_CLASS [OPTIONS] KEY...}
     */
    public String synopsis() {
        return launch + " APP_CLASS [OPTIONS] KEY...";
    }
}
