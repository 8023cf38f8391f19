package io.rocket.cli;

import io.rocket.core.Application;
import io.rocket.core.RocketException;
import io.rocket.core.UsageException;

import java.lang.reflect.Type;
import java.util.function.ToDoubleFunction;

/**
 * How an application's results become numbers for a numeric output ({@code .npy}): the function the caller gives;
 * else the application's own {@link Application#score} when it overrides it; else, when the application's class binds
 * its result type {@code R} to a {@link Number} (Double, Float, Long, Integer, ...), the number's
 * {@code doubleValue}. Other results cannot be written as numbers, and the output is refused before the run starts,
 * in one line naming the application.
 */
final class ResultScores {

    private ResultScores() {
    }

    /**
     * The score function for {@code app}'s results.
     *
     * @param app    the application
     * @param given  the caller's function, or null
     * @param output the file that needs numbers, for the message
     * @return {@code given} when not null, else the application's own score, else {@code doubleValue} of numeric
     *         results
     * @throws RocketException when {@code given} is null and the results are not numbers
     */
    @SuppressWarnings("unchecked")
    static <R> ToDoubleFunction<R> of(Application<?, R> app, ToDoubleFunction<?> given, String output) {
        if (given != null) {
            return (ToDoubleFunction<R>) given;
        }
        if (overridesScore(app)) {
            return app::score;
        }
        Type type = KeyTypes.resultType(app.getClass());
        Class<?> raw = KeyTypes.erasure(type);
        if (Number.class.isAssignableFrom(raw)) {
            return result -> ((Number) result).doubleValue();
        }
        // A bundled application's user cannot change it: only the author of an application of their own is told how.
        boolean bundled = app.getClass().getName().startsWith("io.rocket.apps.");
        throw new UsageException(output + ": " + app.name() + " results are not numbers (" + raw.getSimpleName()
                + "), so they cannot be written as .npy; write .tsv or .tsv.gz" + (bundled ? ""
                : ", or override Application.score in " + app.getClass().getName()));
    }

    private static boolean overridesScore(Application<?, ?> app) {
        try {
            return app.getClass().getMethod("score", Object.class).getDeclaringClass() != Application.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
