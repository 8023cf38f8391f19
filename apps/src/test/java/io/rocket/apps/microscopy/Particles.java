package io.rocket.apps.microscopy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/** Test helper: generated particles, transformed copies and point sets loaded through the slot layout. */
final class Particles {
    private Particles() {
    }

    /** A particle of the default template at {@code pose}. */
    static Particle draw(Pose pose, double dol, double localizations, long seed) {
        Particle p = new Particle();
        MicroscopyGenerator.Options options = new MicroscopyGenerator.Options(1, dol, localizations, seed,
                MicroscopyGenerator.Format.JSON);
        SplittableRandom random = new SplittableRandom(seed);
        do {
            MicroscopyGenerator.draw(Template.standard(), pose, options, random, p);
        } while (p.size() == 0);
        return p;
    }

    /** {@code p} moved by {@code pose}, σ kept. */
    static Particle transformed(Particle p, Pose pose) {
        Particle out = new Particle(p.size());
        for (int k = 0; k < p.size(); k++) {
            out.add(pose.applyX(p.x(k), p.y(k)), pose.applyY(p.x(k), p.y(k)), p.sigma(k));
        }
        return out;
    }

    /** The slot of {@code p}, as parse writes it. */
    static ByteBuffer slot(Particle p) {
        ByteBuffer b = ByteBuffer.allocate((int) ParticleSlot.bytes(p.size())).order(ByteOrder.LITTLE_ENDIAN);
        ParticleSlot.write(p, b, RegistrationSettings.DEFAULT_SCALE);
        return b;
    }

    /** The point set the cpu kernels see for {@code p}. */
    static PointSet points(Particle p) {
        PointSet s = new PointSet(p.size());
        s.load(slot(p));
        return s;
    }

    /** A particle from explicit rows {x, y, sigma}. */
    static Particle of(double[]... rows) {
        Particle p = new Particle();
        for (double[] r : rows) {
            p.add(r[0], r[1], r[2]);
        }
        return p;
    }

    /** The signed difference of two angles (radians), in (−π, π]. */
    static double angleError(double a, double b) {
        return Registrar.wrap(a - b);
    }
}
