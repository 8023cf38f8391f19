package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

class ParticleSlotTest {

    @Test
    void write_storesTheBinsOfBothStages_asBinningTheCentredPointsGivesThem() {
        Particle p = Particles.draw(new Pose(0.4, 3, -2), 0.7, 30, 17);
        ByteBuffer slot = ByteBuffer.allocate((int) ParticleSlot.bytes(p.size())).order(ByteOrder.LITTLE_ENDIAN);
        long written = ParticleSlot.write(p, slot, 10.0);
        PointSet points = new PointSet(p.size());
        points.load(slot);
        BinnedPoints coarse = new BinnedPoints(p.size());
        coarse.bin(points.x, points.y, points.n, 10.0 * Registrar.CELL_FACTOR);
        BinnedPoints fine = new BinnedPoints(p.size());
        fine.bin(points.x, points.y, points.n, 10.0 * Registrar.FINE_CELL_FACTOR);
        for (BinnedPoints[] pair : new BinnedPoints[][]{{points.coarse, coarse}, {points.fine, fine}}) {
            assertThat(pair[0].n).isEqualTo(pair[1].n).isGreaterThan(1).isLessThan(p.size());
            assertThat(pair[0].total).isEqualTo(p.size());
            for (int k = 0; k < pair[1].n; k++) {
                assertThat(pair[0].x[k]).isEqualTo(pair[1].x[k]);
                assertThat(pair[0].y[k]).isEqualTo(pair[1].y[k]);
                assertThat(pair[0].w[k]).isEqualTo(pair[1].w[k]);
            }
        }
        assertThat(fine.n).isGreaterThan(coarse.n);
        assertThat(written).isEqualTo(ParticleSlot.HEADER_BYTES + 8L * (3 * p.size() + 3 * coarse.n + 3 * fine.n))
                .isLessThanOrEqualTo(ParticleSlot.bytes(p.size()));
    }
}
