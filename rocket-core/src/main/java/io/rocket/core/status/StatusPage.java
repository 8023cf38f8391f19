package io.rocket.core.status;

/**
 * The live page a run's status endpoint serves at {@code /}: found with {@link java.util.ServiceLoader}, so the
 * runtime serves it where a module providing it (the run report's) is on the class path, and serves only
 * {@code /status} and {@code /metrics} where none is. The page reads {@code status} (relative to itself) every few
 * seconds.
 */
public interface StatusPage {

    /**
     * The page.
     *
     * @return a complete, self-contained HTML document
     */
    String html();
}
