package io.rocket.apps.microscopy;

import io.rocket.apps.Launcher;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Test helper: runs a command line through the launcher and keeps its exit code and both output streams. */
final class Cli {

    record Result(int code, String out, String err) {
        String both() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private Cli() {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Launcher.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
