package io.rocket.apps.query;

import io.rocket.apps.Cli;
import io.rocket.apps.forensics.ForensicsGenerator;
import io.rocket.apps.forensics.GeneratorOptions;
import io.rocket.apps.forensics.TruthTable;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import io.rocket.cli.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One query against references: the bundled commands take a single query with {@code --against} (from a directory
 * or an input list) and need two items without it; their first line counts the queries and the references apart;
 * an {@code --against} or input directory that does not exist is a command-line mistake naming what to give.
 */
class SingleQueryTest {

    @TempDir
    Path dir;

    private static Cli.Result ok(String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).as(r.both()).isZero();
        return r;
    }

    private static List<Path> files(Path d, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** Moves {@code files} into a new directory {@code name}. */
    private Path move(String name, List<Path> files) throws IOException {
        Path to = Files.createDirectories(dir.resolve(name));
        for (Path f : files) {
            Files.move(f, to.resolve(f.getFileName()));
        }
        return to;
    }

    @Test
    void forensics_onePhotoAgainstElevenReferences_isIdentified_fromADirectoryOrAList() throws IOException {
        Path refs = dir.resolve("refs");
        ForensicsGenerator.generate(refs, new GeneratorOptions(3, 4, 256, 256, 0.03, 90, 7));
        TruthTable truth = TruthTable.read(refs);
        Path query = files(refs, ".jpg").get(5);
        String camera = truth.cameraOf(query.getFileName().toString());
        Path one = move("one", List.of(query));

        Path identify = dir.resolve("identify.tsv");
        Cli.Result r = ok("forensics", one.toString(), "--against", refs.toString(), "--identify",
                identify.toString());
        assertThat(r.out()).contains("forensics: 1 query photo in " + one + " against 11 references in " + refs
                + ", 256x256, PCE").contains("11 pairs (0 errors)")
                .contains("identify: against truth.tsv, 1 of 1 queries name a photo of their own camera");
        List<String[]> rows = Files.readAllLines(identify).stream().skip(1).map(l -> l.split("\t")).toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)[0]).isEqualTo(query.getFileName().toString());
        assertThat(truth.cameraOf(rows.get(0)[2])).as(String.join(" ", rows.get(0))).isEqualTo(camera);
        assertThat(rows.get(0)[4]).isEqualTo("yes");

        Path list = Files.write(dir.resolve("one.txt"), List.of(one.resolve(query.getFileName()).toString()));
        Path listed = dir.resolve("listed.tsv");
        Cli.Result fromList = ok("forensics", "--input-list", list.toString(), "--against", refs.toString(),
                "--identify", listed.toString());
        assertThat(fromList.out()).contains("1 query photo in " + list + " against 11 references");
        assertThat(Files.readAllLines(listed)).isEqualTo(Files.readAllLines(identify));

        // Without references one photo has nothing to be compared with.
        Cli.Result alone = Cli.run("forensics", one.toString());
        assertThat(alone.code()).isEqualTo(1);
        assertThat(alone.err()).contains("found 1 JPEG photo(s)").contains("need at least 2");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Cli.Result noReferences = Cli.run("forensics", one.toString(), "--against", empty.toString());
        assertThat(noReferences.code()).isEqualTo(1);
        assertThat(noReferences.err()).contains(empty + ": found 0 JPEG photo(s)").contains("need at least 1");
    }

    @Test
    void microscopy_oneParticleAgainstReferences_isRegistered_andAloneIsRefused() throws IOException {
        Path refs = dir.resolve("refs");
        ok("generate", "microscopy", "--out", refs.toString(), "--particles", "4", "--dol", "0.7", "--localizations",
                "6", "--seed", "8");
        Path one = move("one", List.of(refs.resolve("particle_000.json")));
        Path pairs = dir.resolve("pairs.tsv");

        Cli.Result r = ok("microscopy", one.toString(), "--against", refs.toString(), "--device", "cpu", "--output",
                pairs.toString());
        assertThat(r.out()).contains("microscopy: 1 query particle in " + one + " against 3 references in " + refs
                + "; scale");
        assertThat(Files.readAllLines(pairs)).hasSize(1 + 3);

        Cli.Result alone = Cli.run("microscopy", one.toString(), "--device", "cpu");
        assertThat(alone.code()).isEqualTo(1);
        assertThat(alone.err()).contains("1 particle files").contains("need at least 2");
    }

    @Test
    void theFirstLine_countsTheQueriesAndTheReferencesApart() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(3, 4, 64, 64, 0.03, 90, 3));
        List<Path> all = files(photos, ".jpg");
        Path queries = move("queries", all.subList(0, 2));
        Cli.Result forensics = ok("forensics", queries.toString(), "--against", photos.toString());
        assertThat(forensics.out()).contains("forensics: 2 query photos in " + queries + " against 10 references in "
                + photos + ", 64x64, PCE (same camera at >= 60.0)");
        assertThat(ok("forensics", photos.toString()).out()).contains("forensics: 10 photos of 64x64 in " + photos
                + ", PCE");

        Path prot = dir.resolve("prot");
        PhyloGenerator.generate(prot, 10, 0.5, 30, 3);
        Path fresh = move("new", files(prot, ".faa.gz").subList(0, 2));
        Cli.Result phylo = ok("phylogenetics", fresh.toString(), "--against", prot.toString(), "--k", "4");
        assertThat(phylo.out()).contains("phylogenetics: 2 query proteomes in " + fresh + " against 8 references in "
                + prot + ", K = 4;");
        assertThat(ok("phylogenetics", prot.toString(), "--k", "4").out())
                .contains("phylogenetics: 8 proteomes in " + prot + ", K = 4;");
    }

    @Test
    void aMissingAgainstOrInputDirectory_isAUsageErrorNamingWhatToGive() throws IOException {
        Path photos = dir.resolve("photos");
        ForensicsGenerator.generate(photos, new GeneratorOptions(1, 2, 32, 32, 0.02, 90, 1));
        Path prot = dir.resolve("prot");
        PhyloGenerator.generate(prot, 3, 0.5, 20, 3);
        Path particles = dir.resolve("particles");
        ok("generate", "microscopy", "--out", particles.toString(), "--particles", "2", "--seed", "2");
        Path missing = dir.resolve("refs-missing.txt");

        for (String[] args : List.of(new String[] {"forensics", photos.toString()},
                new String[] {"phylogenetics", prot.toString()}, new String[] {"microscopy", particles.toString()})) {
            Cli.Result r = Cli.run(args[0], args[1], "--against", missing.toString());
            assertThat(r.code()).as(r.both()).isEqualTo(ExitCode.USAGE.code());
            assertThat(r.err().strip().lines().toList()).last().isEqualTo("rocket: --against " + missing + ": no such directory or list file");
        }

        Path nowhere = dir.resolve("nowhere");
        Cli.Result r = Cli.run("forensics", nowhere.toString());
        assertThat(r.code()).as(r.both()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err().strip()).isEqualTo("rocket: " + nowhere + ": no such input directory (give the directory "
                + "of photos, or a list of them with --input-list LIST)");
        Path list = Files.write(dir.resolve("photos.txt"), List.of(photos.resolve("img_0000.jpg").toString()));
        Cli.Result file = Cli.run("phylogenetics", list.toString());
        assertThat(file.code()).as(file.both()).isEqualTo(ExitCode.USAGE.code());
        assertThat(file.err().strip().lines().toList()).last().isEqualTo("rocket: " + list + ": not a directory: give the input directory "
                + "of proteomes, or a list file as --input-list " + list);
    }
}
