package io.rocket.apps.synthetic;

import io.rocket.testkit.Cost;
import picocli.CommandLine.ITypeConverter;

/** Converts {@code MEAN}, {@code MEAN±SD} or {@code lognormal:MEAN±SD} option values. */
public final class CostConverter implements ITypeConverter<Cost> {
    @Override
    public Cost convert(String value) {
        return Cost.parse(value);
    }
}
