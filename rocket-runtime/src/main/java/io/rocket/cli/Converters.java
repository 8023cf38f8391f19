package io.rocket.cli;

import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import io.rocket.steal.ScheduleOrder;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/** picocli converters for Rocket's option value types; their errors become one-line messages. */
final class Converters {
    private Converters() {
    }

    static final class Size implements ITypeConverter<CacheSize> {
        @Override
        public CacheSize convert(String value) {
            return CacheSize.parse(value);
        }
    }

    /** A count, or {@code auto} (0): the runtime chooses. */
    static final class Auto implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            if (value.trim().equalsIgnoreCase("auto")) {
                return 0;
            }
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("expected a count of at least 1 or 'auto', got '" + value + "'");
        }
    }

    static final class Order implements ITypeConverter<ScheduleOrder> {
        @Override
        public ScheduleOrder convert(String value) {
            try {
                return ScheduleOrder.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class Device implements ITypeConverter<DeviceSpec> {
        @Override
        public DeviceSpec convert(String value) {
            return DeviceSpec.parse(value);
        }
    }

    /** Seconds, fractions allowed ("0.5"), at least 0.1 s. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            double seconds;
            try {
                seconds = Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is not a number of seconds");
            }
            if (!(seconds >= 0.1) || seconds > 86_400) {
                throw new IllegalArgumentException("'" + value + "' seconds is out of range (0.1 to 86400)");
            }
            return Duration.ofMillis(Math.round(seconds * 1000));
        }
    }
}
