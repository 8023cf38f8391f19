package io.rocket.inputs;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opens a list a command reads line by line (an input list, a key file, a pair list), as UTF-8: a file, or standard
 * input when the name is {@code -}, so that lists can be piped ({@code find ... | rocket forensics --input-list -}).
 * Standard input can be read once per process: a second list named {@code -} is refused.
 */
public final class ListFile {
    /** The name that means standard input. */
    public static final String STDIN = "-";

    private static final AtomicBoolean STDIN_TAKEN = new AtomicBoolean();

    private ListFile() {
    }

    /**
     * Whether a list is standard input.
     *
     * @param file the list as given, or null
     * @return true for {@code -}
     */
    public static boolean isStdin(Path file) {
        return file != null && file.toString().equals(STDIN);
    }

    /**
     * How messages name a list.
     *
     * @param file the list as given
     * @return {@code standard input} for {@code -}, else the path
     */
    public static String display(Path file) {
        return isStdin(file) ? "standard input" : file.toString();
    }

    /**
     * Opens a list for reading, malformed UTF-8 reported as an error rather than replaced.
     *
     * @param file the list, or {@code -} for standard input
     * @return a reader; closing it leaves standard input open
     * @throws IOException when the file cannot be opened, or standard input was read by another list already
     */
    public static BufferedReader open(Path file) throws IOException {
        if (!isStdin(file)) {
            return Files.newBufferedReader(file, StandardCharsets.UTF_8);
        }
        if (!STDIN_TAKEN.compareAndSet(false, true)) {
            throw new IOException("standard input was read by another list already: give only one list as -");
        }
        InputStream stdin = new FilterInputStream(System.in) {
            @Override
            public void close() {
                // standard input belongs to the process
            }
        };
        return new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
    }
}
