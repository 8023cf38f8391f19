package io.rocket.apps.microscopy;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

class RegistrationCodecTest {

    @Test
    void writeThenRead_givesTheSameRegistration() throws Exception {
        Registration r = new Registration(12345.678901234, -3.25e-3, 41.5, -2.9);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RegistrationCodec.INSTANCE.write(r, new DataOutputStream(bytes));
        Registration back = RegistrationCodec.INSTANCE.read(new DataInputStream(
                new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back).isEqualTo(r);
        assertThat(bytes.size()).isEqualTo(Registration.BYTES);
    }

    @Test
    void toTsv_writesScoreTranslationAndDegrees() {
        assertThat(new Registration(2.5, 1, -2, Math.PI / 2).toTsv()).isEqualTo("2.5\t1.000000\t-2.000000\t90.000000");
    }
}
