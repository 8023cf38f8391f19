package io.rocket.cli;

import io.rocket.output.NpyDtype;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options of a command's output formats beyond the file's suffix (which chooses the format). */
public final class OutputFormatMixin {

    /** The defaults (float32); picocli sets the options given. */
    public OutputFormatMixin() {
    }

    @Option(names = "--npy-dtype", paramLabel = "TYPE", defaultValue = "float32", converter = DtypeConverter.class,
            description = "Number type of an --output FILE.npy: float32 (half the size, about 7 digits) or float64 "
                    + "(the results as computed). Default: ${DEFAULT-VALUE}.")
    NpyDtype npyDtype = NpyDtype.FLOAT32;

    /**
     * The output settings these options give.
     *
     * @return dense, the triangle of all keys, numbers as they are, in the chosen type
     */
    public OutputSettings settings() {
        return OutputSettings.DEFAULTS.withDtype(npyDtype);
    }

    /** Reads {@code --npy-dtype} values. */
    static final class DtypeConverter implements ITypeConverter<NpyDtype> {
        @Override
        public NpyDtype convert(String value) {
            try {
                return NpyDtype.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
