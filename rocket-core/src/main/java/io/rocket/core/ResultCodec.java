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

    /**
     * Writes one result. Called on the node that computed the pair, from the thread that streams results to rank 0.
     *
     * @param value the result {@link Application#postprocess} returned
     * @param out where to write it; the codec writes only {@code value}'s own bytes (no framing is needed)
     * @throws IOException when {@code out} fails
     */
    void write(R value, DataOutput out) throws IOException;

    /**
     * Reads one result, as {@link #write} wrote it. Called on rank 0.
     *
     * @param in where to read it from, positioned at the result's first byte
     * @return the result, equal to the one written
     * @throws IOException when {@code in} fails or ends early
     */
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
