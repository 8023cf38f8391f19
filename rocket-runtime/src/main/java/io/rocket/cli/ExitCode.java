package io.rocket.cli;

/**
 * The exit codes of every Rocket command line ({@code rocket}, {@code io.rocket.Main}), defined once so the
 * launchers, their help texts and the generated reference agree. A cluster job's status is rank 0's.
 */
public enum ExitCode {
    /** The run finished and every pair was computed. */
    OK(0, "success: every pair was computed (in a cluster, also after lost nodes were recovered from)"),
    /** An error stopped the command. */
    ERROR(1, "error: the command stopped; one line on stderr starting with `rocket: error:` says why (bad input "
            + "that stops the whole run, unusable device, a cluster that cannot form, rank 0 lost)"),
    /** The command line could not be used. */
    USAGE(2, "bad command line: unknown or malformed option, missing argument, an option out of range or in "
            + "conflict with another, an output path that cannot be written, unusable application class"),
    /** The run finished, but some pairs failed because items could not be loaded. */
    PAIRS_FAILED(3, "the run finished but some pairs failed: each bad item is named on stderr and in the summary"),
    /** A check the command was asked to make failed. */
    CHECK_FAILED(4, "a check asked for failed (`--verify`: a pair missing, duplicated or wrong)"),
    /** Ctrl-C stopped the run. */
    INTERRUPTED(130, "stopped by SIGINT (Ctrl-C): the outputs hold every pair done, and one line on stderr says how "
            + "many and how to continue"),
    /** SIGTERM stopped the run. */
    TERMINATED(143, "stopped by SIGTERM (`scancel`, a SLURM time limit, `kill`): as for 130");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /**
     * The process exit status.
     *
     * @return the status: 0 to 4, or 128 plus the number of the signal that stopped the run
     */
    public int code() {
        return code;
    }

    /**
     * What the status means, one sentence (Markdown).
     *
     * @return the meaning; the part before the first colon is its short form in {@link #helpLine()}
     */
    public String meaning() {
        return meaning;
    }

    /**
     * One line for a command's help footer: {@code Exit codes: 0 success; 1 error; ...}.
     *
     * @return the line, ending with a full stop and no line separator
     */
    public static String helpLine() {
        StringBuilder line = new StringBuilder("Exit codes:");
        for (ExitCode c : values()) {
            String m = c.meaning;
            int cut = m.indexOf(':');
            line.append(c == OK ? " " : "; ").append(c.code).append(' ').append(cut > 0 ? m.substring(0, cut) : m);
        }
        return line.append('.').toString();
    }
}
