package io.rocket.core;

/**
 * Makes an application's keys from the text given on the command line, for applications run by the generic main
 * class {@code io.rocket.Main} whose keys are neither strings nor paths.
 *
 * <p>{@code io.rocket.Main} turns every key argument (and every line of an {@code @FILE}, and every file of a
 * directory argument) into a key. When the application class implements this interface, each text goes through
 * {@link #parseKey}. Otherwise the main class looks at the class's {@code Application<K, R>} type argument:
 * {@code String}, {@code CharSequence} and {@code Object} keys take the text as it is, {@code java.nio.file.Path} keys
 * take {@code Path.of(text)}, and any other key type is refused with a message asking for this interface.
 *
 * <pre>{@code
 * public final class Distances implements Application<Integer, Double>, KeyParser<Integer> {
 *     public Integer parseKey(String text) {
 *         return Integer.valueOf(text);
 *     }
 *     ...
 * }
 * }</pre>
 *
 * @param <K> the application's key type
 */
@FunctionalInterface
public interface KeyParser<K> {

    /**
     * The key named by {@code text}, called once per key before the run starts, on one thread, in key order.
     *
     * @param text one key argument, line of an {@code @FILE} or file of a directory argument, never null
     * @return the key, never null
     * @throws IllegalArgumentException (or any other exception) when the text names no valid key; its message is
     *                                  shown to the user with the text
     */
    K parseKey(String text);
}
