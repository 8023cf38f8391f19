package io.rocket.apps;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster security options on the command line: bad secrets stop a node before it joins, with one line. */
class ClusterSecurityOptionsTest {

    @TempDir
    Path dir;

    private static String[] err(String... security) {
        List<String> args = new ArrayList<>(List.of("synthetic", "--items", "10", "--nodes", "2", "--rank", "1",
                "--hosts", "127.0.0.1:1,127.0.0.1:2"));
        args.addAll(List.of(security));
        StringWriter err = new StringWriter();
        int code = Launcher.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        return new String[]{"" + code, err.toString()};
    }

    @Test
    void missingEmptyOrAbsentSecrets_failWithOneLine() throws Exception {
        Path empty = dir.resolve("empty");
        Files.writeString(empty, "");
        Path missing = dir.resolve("missing");
        for (String[] r : List.of(err("--cluster-secret-file", missing.toString()),
                err("--cluster-secret-file", empty.toString()),
                err("--cluster-secret-file", missing.toString(), "--cluster-encrypt"))) {
            assertThat(r[0]).isEqualTo("1");
            assertThat(r[1]).startsWith("rocket: error: cluster secret file " + dir).hasLineCount(1);
        }
        String[] r = err("--cluster-encrypt");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).isEqualToIgnoringNewLines(
                "rocket: --cluster-encrypt needs a cluster secret: give --cluster-secret-file FILE "
                        + "(or set ROCKET_CLUSTER_SECRET_FILE) (see: rocket synthetic --help)");
    }
}
