package io.rocket.apps.microscopy;

import io.rocket.core.ResultCodec;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Carries a {@link Registration} between cluster nodes as four doubles (score, tx, ty, θ), full precision. */
public final class RegistrationCodec implements ResultCodec<Registration> {
    /** The one instance; the codec holds no state. */
    public static final RegistrationCodec INSTANCE = new RegistrationCodec();

    private RegistrationCodec() {
    }

    @Override
    public void write(Registration value, DataOutput out) throws IOException {
        out.writeDouble(value.score());
        out.writeDouble(value.tx());
        out.writeDouble(value.ty());
        out.writeDouble(value.theta());
    }

    @Override
    public Registration read(DataInput in) throws IOException {
        return new Registration(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
    }
}
