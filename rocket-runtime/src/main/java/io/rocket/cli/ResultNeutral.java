package io.rocket.cli;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a picocli option that changes no pair's result: a filter, a clustering or tree option, how many items a
 * generator makes, a modelled cost, or a buffer size — provided that an item that does not fit its buffer fails with
 * an {@link io.rocket.core.ItemTooLargeException}, which a store does not keep, so that a run with larger buffers
 * computes its pairs. A result store ({@code --store}) made with one value of it serves a run with another, so
 * re-clustering at another threshold or rebuilding a tree computes nothing; a store made before the option was
 * marked, whose identity still names it, is served too. Put it on the option's field, beside {@code @Option}; an
 * application class run by the generic command may use it on its own options. Options whose parameter is labelled
 * {@code FILE} (outputs) and Rocket's runtime options are never part of a job's identity and need no mark.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface ResultNeutral {
}
