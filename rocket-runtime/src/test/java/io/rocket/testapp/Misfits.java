package io.rocket.testapp;

import java.util.UUID;

/** Classes the main class must refuse, each with one line. */
public final class Misfits {
    private Misfits() {
    }

    /** Not an application at all. */
    public static final class NotAnApplication {
    }

    /** An application without a no-argument constructor. */
    public static final class NeedsArguments extends WordSimilarity {
        public NeedsArguments(int size) {
        }
    }

    /** An application whose keys cannot be made from text without a KeyParser. */
    public static final class UuidKeys extends TextSimilarity<UUID> {
        @Override
        public java.util.List<java.nio.file.Path> inputFiles(UUID key) {
            return java.util.List.of();
        }

        @Override
        protected byte[] text(UUID key, io.rocket.core.InputFiles files) {
            return key.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** An application whose constructor fails. */
    public static final class BrokenConstructor extends WordSimilarity {
        public BrokenConstructor() {
            throw new IllegalStateException("no licence for the similarity engine");
        }
    }

    /** An application option named like a runtime option. */
    public static final class ClashingOption extends WordSimilarity {
        @picocli.CommandLine.Option(names = "--device", description = "Which device the words come from.")
        public String device;
    }

    /** An application that declares positional parameters, which are the keys'. */
    public static final class PositionalParameters extends WordSimilarity {
        @picocli.CommandLine.Parameters
        public java.util.List<String> words;
    }
}
