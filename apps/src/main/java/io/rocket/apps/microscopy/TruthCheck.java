package io.rocket.apps.microscopy;

import io.rocket.core.RocketException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a run on generated data against the generator's {@code truth.tsv} (file, θ in degrees, tx, ty in nm: the
 * pose G_k that maps the template onto particle k) and {@code template.tsv} (the sites). Particle i = G_i(template),
 * so the true registration of pair (i, j) is G_j ∘ G_i⁻¹, and its rotation θ_j − θ_i.
 *
 * <ul>
 *   <li>Pairs: the fraction whose recovered rotation is within {@value #TOLERANCE_DEGREES}° of the truth.</li>
 *   <li>Resolution: the fused frame is the reference particle's, so G_ref⁻¹ takes the fused cloud onto the
 *       template; the figure is the RMS distance of the localizations to their nearest template site. The same
 *       figure with every particle placed by its true pose is the floor the localization precision allows.</li>
 * </ul>
 */
public final class TruthCheck {
    static final double TOLERANCE_DEGREES = 3.0;

    private final Map<String, Pose> truth;
    private final Template template;

    private TruthCheck(Map<String, Pose> truth, Template template) {
        this.truth = truth;
        this.template = template;
    }

    /** The check for {@code dir}, or null when it has no {@code truth.tsv}. */
    public static TruthCheck load(Path dir) {
        Path file = dir.resolve("truth.tsv");
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            Map<String, Pose> truth = new HashMap<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                truth.put(f[0], new Pose(Math.toRadians(Double.parseDouble(f[1])), Double.parseDouble(f[2]),
                        Double.parseDouble(f[3])));
            }
            Template template = null;
            Path sites = dir.resolve("template.tsv");
            if (Files.isRegularFile(sites)) {
                List<double[]> rows = new ArrayList<>();
                for (String line : Files.readAllLines(sites, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        String[] f = line.split("\t");
                        rows.add(new double[]{Double.parseDouble(f[0]), Double.parseDouble(f[1])});
                    }
                }
                template = Template.exact(rows.toArray(new double[0][]));
            }
            return new TruthCheck(truth, template);
        } catch (IOException | RuntimeException e) {
            throw new RocketException("cannot read " + file + " or template.tsv: " + e.getMessage(), e);
        }
    }

    /** The true pose of a file, or null. */
    public Pose pose(String fileName) {
        return truth.get(fileName);
    }

    /** Whether the sites are known (for the resolution figure). */
    public boolean hasTemplate() {
        return template != null;
    }

    /** The rotation error (degrees, absolute) of a registration of file a onto file b, or NaN without truth. */
    public double rotationError(String a, String b, Registration r) {
        Pose ga = truth.get(a);
        Pose gb = truth.get(b);
        if (ga == null || gb == null) {
            return Double.NaN;
        }
        return Math.abs(Math.toDegrees(Registrar.wrap(r.theta() - (gb.theta() - ga.theta()))));
    }

    /** RMS distance (nm) of the cloud's points, moved by {@code toTemplate}, to their nearest site. */
    public double rmsToSites(FusedOutputs.Cloud cloud, Pose toTemplate) {
        double sum = 0;
        for (int k = 0; k < cloud.size(); k++) {
            double x = toTemplate.applyX(cloud.x()[k], cloud.y()[k]);
            double y = toTemplate.applyY(cloud.x()[k], cloud.y()[k]);
            double d = template.nearestDistance(x, y);
            sum += d * d;
        }
        return Math.sqrt(sum / Math.max(1, cloud.size()));
    }
}
