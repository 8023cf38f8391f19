package io.rocket.core;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads an application's results in binary, so cluster nodes can stream them to rank 0. Applications
 * whose result is a {@code Long}, {@code Double} or {@code String} can use the constants here.
 *
 * @param <R> result type
 */
public interface ResultCodec<R> {

    void write(R value, DataOutput out) throws IOException;

    R read(DataInput in) throws IOException;

    /** 64-bit integers. */
    ResultCodec<Long> LONG = new ResultCodec<>() {
        @Override
        public void write(Long value, DataOutput out) throws IOException {
            out.writeLong(value);
        }

        @Override
        public Long read(DataInput in) throws IOException {
            return in.readLong();
        }
    };

    /** Doubles. */
    ResultCodec<Double> DOUBLE = new ResultCodec<>() {
        @Override
        public void write(Double value, DataOutput out) throws IOException {
            out.writeDouble(value);
        }

        @Override
        public Double read(DataInput in) throws IOException {
            return in.readDouble();
        }
    };

    /** Strings (modified UTF-8, up to 64 KiB). */
    ResultCodec<String> STRING = new ResultCodec<>() {
        @Override
        public void write(String value, DataOutput out) throws IOException {
            out.writeUTF(value);
        }

        @Override
        public String read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };
}
