package io.rocket.cli;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a picocli option (a {@link java.nio.file.Path} field) that names a file the command writes. Before the
 * command reads its first item, {@link OutputPaths} checks every such file the command line gives: its directory
 * exists and can be written, and it is not itself a directory; so a typo in an output path ends the command at once,
 * never after hours of computing. Like the {@code FILE}-labelled options, an output file is never part of a job's
 * identity. An application class run by the generic command may mark its own output options with it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface OutputFile {
    /**
     * Whether the file's suffix chooses its format among the pair outputs' ({@link OutputFormat}): then a name with
     * another suffix is refused with the rest.
     *
     * @return true for the pair outputs ({@code --output}, {@code --errors})
     */
    boolean pairFormats() default false;
}
