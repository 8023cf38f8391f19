package io.rocket.apps.cli;

import io.rocket.core.CacheSize;
import io.rocket.core.device.DeviceSpec;
import picocli.CommandLine.ITypeConverter;

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

    static final class Device implements ITypeConverter<DeviceSpec> {
        @Override
        public DeviceSpec convert(String value) {
            return DeviceSpec.parse(value);
        }
    }
}
